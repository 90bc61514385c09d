// BENCHMARKS.md's goals table, built from the bench scripts' results (bench-results/*.json, each
// the latest run of its script) and a short hand-written column per goal
// (bench-results/goals-notes.json: where the goal stands, what is in the way). Run by every
// bench script after it writes its results; `node scripts/bench-goals.mjs` rebuilds it alone.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
const RESULTS = new URL('bench-results/', ROOT);
const DOC = new URL('BENCHMARKS.md', ROOT);
export const HEADING = '## Goals';

// A measurement is a list of values, or (runs transcribed from a table) { median, min, max, n }.
const median = (v) => (Array.isArray(v) ? [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] : v.median);
const count = (v) => (Array.isArray(v) ? v.length : v?.n ?? 0);
const maxOf = (v) => (Array.isArray(v) ? Math.max(...v) : v.max);
const f2 = (x) => x.toFixed(2);
const ms = (x) => `${Math.round(x)} ms`;
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const NOT = { value: 'not in this run', met: 'not measured' };

// Each goal: the result files it reads and how it is judged. `judge` gets the parsed files (only
// called when all of `needs` exist) and returns { value, met, from } (from: the files used, if not
// all of `needs`). met: 'yes', 'no', or a short phrase when the run does not decide it.
export const GOALS = [
  {
    id: 'anchor_reclaim_loop',
    goal: '#48 reclaim-heavy: engine / plain Rust LRU loop ≥ 0.25',
    needs: ['engine'],
    judge: ({ engine }) => anchors(engine, 'reclaim', 'lru_loop', 0.25),
  },
  {
    id: 'anchor_hit_loop',
    goal: '#48 hit-heavy: engine / plain Rust LRU loop ≥ 0.75',
    needs: ['engine'],
    judge: ({ engine }) => anchors(engine, 'hit', 'lru_loop', 0.75),
  },
  {
    id: 'anchor_reclaim_libcachesim',
    goal: '#48 reclaim-heavy: engine / libCacheSim LRU ≥ 2.0',
    needs: ['engine'],
    judge: ({ engine }) => anchors(engine, 'reclaim', 'libcachesim', 2.0),
  },
  {
    id: 'wasm_warm_chromium',
    goal: '#48 wasm/native, warm in Chromium, S000 and S002 ≥ 0.70',
    needs: ['web-run-to-end'],
    judge: ({ 'web-run-to-end': r }) => {
      const parts = ['s000', 's002'].map((k) => (count(r[k]?.warm_ms) ? [k, median(r[k].native_ms) / median(r[k].warm_ms)] : [k, null]));
      const value = parts.map(([k, x]) => `${k.toUpperCase()} ${x === null ? 'not run' : f2(x)}`).join(', ');
      const met = parts.some(([, x]) => x === null) ? (parts.some(([, x]) => x !== null && x < 0.7) ? 'no' : 'not measured') : parts.every(([, x]) => x >= 0.7) ? 'yes' : 'no';
      return { value, met };
    },
  },
  {
    id: 'wasm_no_row_below',
    goal: '#48 no wasm/native row below 0.6 (warm rows: Node, Chromium)',
    needs: ['engine'],
    judge: (r) => {
      const rows = (r.engine.wasm_native ?? []).filter((x) => !x.cold).map((x) => [`${x.row} (Node)`, x.ratio]);
      const c = r['web-run-to-end'];
      for (const k of ['s000', 's002']) if (count(c?.[k]?.warm_ms)) rows.push([`${k.toUpperCase()} warm (Chromium)`, median(c[k].native_ms) / median(c[k].warm_ms)]);
      if (!rows.length) return NOT;
      const sorted = rows.sort((a, b) => a[1] - b[1]);
      const below = sorted.filter(([, x]) => x < 0.6);
      const value = `${rows.length} rows, ${f2(sorted[0][1])}–${f2(sorted.at(-1)[1])}; lowest: ${sorted[0][0]}${below.length ? `; below 0.6: ${below.length}` : ''}`;
      return { value, met: below.length ? 'no' : 'yes', from: ['engine', ...(c ? ['web-run-to-end'] : [])] };
    },
  },
  {
    id: 'cold_s000',
    goal: '#48 cold S000 in Chromium, the page loaded and idle, then Run: median of 5 < 300 ms',
    // The app's run (web-cold-run: the page idle, then S000 chosen) when there is one; else the
    // bench page's (web-run-to-end: idle, then the module instantiated and S000 run).
    needs: [],
    judge: ({ 'web-cold-run': app, 'web-run-to-end': page }) => {
      if (count(app?.s000?.after_ms)) {
        const v = app.s000.after_ms;
        const b = count(app.s000.before_ms) ? median(app.s000.before_ms) : null;
        const m = median(v);
        return {
          value: `${ms(m)}, median of ${count(v)} (${v.map(Math.round).join(', ')}); the app: page idle, then S000 chosen, to its full results${b === null ? '' : `; before ${ms(b)} (after/before ${f2(m / b)})`}`,
          met: m >= 300 ? 'no' : count(v) >= 5 ? 'yes' : 'not as defined',
          from: ['web-cold-run'],
        };
      }
      const v = page?.s000?.settled_ms ?? [];
      if (!count(v)) return NOT;
      const m = median(v);
      const asDefined = page.s000.cold_method === 'app' && count(v) >= 5;
      return {
        value: `${ms(m)}, median of ${count(v)}${Array.isArray(v) ? ` (${v.map(Math.round).join(', ')})` : ''}; ${page.s000.cold_method === 'app' ? "the app's Run" : 'a bench page idle, then the module instantiated and S000 run'}`,
        met: m >= 300 ? 'no' : asDefined ? 'yes' : 'not as defined',
        from: ['web-run-to-end'],
      };
    },
  },
  ...[
    ['s000', 'S000'],
    ['s002', 'S002'],
    ['s003_small', 'S003 small copy'],
    ['s003_original', 'S003 original size'],
  ].map(([id, name]) => ({
    id: `ttfr_${id}`,
    goal: `#48 time to full results in Chromium, ${name}, before and after`,
    needs: ['web-results'],
    judge: ({ 'web-results': r }) => {
      const c = r.cases.find((x) => x.id === id);
      if (!c) return NOT;
      const a = median(c.after_ms);
      const b = count(c.before_ms) ? median(c.before_ms) : null;
      const p2 = count(c.after_pool2_ms) ? median(c.after_pool2_ms) : null;
      const value = `${b === null ? 'before not run' : `before ${s(b)}`}, after ${s(a)} (pool of ${r.pool})${p2 === null ? '' : `, ${s(p2)} (pool of 2)`}${b === null ? '' : `; after/before ${f2(a / b)}${p2 === null ? '' : `, ${f2(p2 / b)}`}`}; medians of ${count(c.after_ms)}`;
      return { value, met: b === null ? 'after only' : 'measured' };
    },
  })),
  {
    id: 's003_original_8s',
    goal: '#48 S003 original size (128 memcgs, both variants): results in Chromium < 8 s',
    needs: ['web-results'],
    judge: (results) => {
      const r = results['web-results'];
      const c = r.cases.find((x) => x.id === 's003_original');
      if (!c) return NOT;
      const a = median(c.after_ms);
      const p2 = count(c.after_pool2_ms) ? median(c.after_pool2_ms) : null;
      // The engine's share, in wasm under Node (both variants one after the other), beside it.
      const w = results.engine?.wasm_node?.s003_original?.wall_s;
      const engine = w === undefined ? '' : `; engine work alone, wasm under Node, both variants: ${w.toFixed(2)} s`;
      return { value: `${s(a)} (page's pool of ${r.pool})${p2 === null ? '' : `, ${s(p2)} (pool of 2)`}${engine}`, met: a < 8000 ? 'yes' : 'no', from: ['web-results', ...(w === undefined ? [] : ['engine'])] };
    },
  },
  {
    id: 'memcg_view_fps',
    goal: '#48 live memcg view at S003 original size ≥ 30 fps',
    needs: ['web-memcg-frames'],
    judge: ({ 'web-memcg-frames': r }) => {
      const m = r.s003_memcg;
      if (!m) return NOT;
      // The fps a viewer sees: the view's updates, at most one an animation frame.
      return { value: `${m.view_fps.toFixed(1)} view updates/s at ${m.speed} (animation frames: median ${m.median_ms.toFixed(1)} ms, p95 ${m.p95_ms.toFixed(1)} ms)`, met: m.view_fps >= 30 ? 'yes' : 'no' };
    },
  },
  {
    id: 'embed_first_paint',
    goal: "#48 an embed's first paint < 150 KB gzip of JS",
    needs: ['web-results'],
    judge: ({ 'web-results': r }) => {
      // Each field a measurement over the rounds.
      const w = r.embed?.after;
      if (!w || !count(w.firstPaintGz)) return NOT;
      const gz = median(w.firstPaintGz);
      const b = count(r.embed.before?.firstPaintGz) ? median(r.embed.before.firstPaintGz) : null;
      return { value: `${kb(gz)} in ${median(w.files)} files${b === null ? '' : ` (before ${kb(b)})`}, median of ${count(w.firstPaintGz)}`, met: gz < 150 * 1024 ? 'yes' : 'no' };
    },
  },
  {
    id: 'wasm_streamed_cached',
    goal: '#48 the wasm module streamed (instantiateStreaming) and cached',
    needs: ['web-results'],
    judge: ({ 'web-results': r }) => {
      const w = r.wasm;
      if (!w) return NOT;
      const streamed = w.content_type === 'application/wasm';
      const cached = w.second_visit_transfer_bytes === 0;
      return {
        value: `served as ${w.content_type}, Cache-Control "${w.cache_control}"; second visit: ${w.second_visit_transfer_bytes} bytes transferred (${kb(w.gzip_bytes)} gzip)`,
        met: streamed && cached ? 'yes' : 'no',
      };
    },
  },
  {
    id: 'seek_s000',
    goal: '#44 any seek or clicker step in the S000 embed < 300 ms',
    needs: ['web-seek'],
    judge: ({ 'web-seek': r }) => {
      const rows = Object.entries(r.s000).filter(([, v]) => count(v));
      if (!rows.length) return NOT;
      const meds = rows.map(([, v]) => median(v));
      const max = Math.max(...rows.map(([, v]) => maxOf(v)));
      return { value: `medians ${Math.round(Math.min(...meds))}–${ms(Math.max(...meds))} over ${rows.length} kinds of seek; slowest single seek ${ms(max)}`, met: max < 300 ? 'yes' : Math.max(...meds) < 300 ? 'medians only' : 'no' };
    },
  },
  {
    id: 'seek_s003',
    goal: '#44 a PageDown in the S003 memcg embed < 2 s, progress shown',
    needs: ['web-seek'],
    judge: ({ 'web-seek': r }) => {
      const { nextAhead = [], nextCold = [] } = r.s003;
      if (!count(nextAhead) && !count(nextCold)) return NOT;
      const a = count(nextAhead) ? median(nextAhead) : null;
      const c = count(nextCold) ? median(nextCold) : null;
      const value = `computed ahead: ${a === null ? 'not run' : ms(a)}; pressed at once on landing: ${c === null ? 'not run' : ms(c)}${r.progress_shown === false ? '; progress not always shown' : ''}`;
      const ok = (x) => x !== null && x < 2000;
      return { value, met: r.progress_shown !== false && ok(a) && ok(c) ? 'yes' : ok(a) ? 'computed ahead only' : 'no' };
    },
  },
];

/** The reclaim-heavy or hit-heavy anchor rows (classic and MGLRU) against one anchor. */
function anchors(engine, kind, anchor, goal) {
  const rows = ['classic', 'mglru'].map((lru) => [lru, engine.anchors?.[`anchor_${kind}_${lru}`]]);
  if (rows.some(([, a]) => !a || !a[anchor] || a[anchor].error)) return { value: `not run${rows.map(([, a]) => a?.[anchor]?.error).find(Boolean) ? `: ${rows.map(([, a]) => a?.[anchor]?.error).find(Boolean).split('\n').pop()}` : ''}`, met: 'not measured' };
  const ratios = rows.map(([lru, a]) => [lru, a.engine.per_s / a[anchor].per_s]);
  return {
    value: ratios.map(([lru, x]) => `${f2(x)} ${lru === 'classic' ? 'classic' : 'MGLRU'}`).join(', '),
    met: ratios.every(([, x]) => x >= goal) ? 'yes' : 'no',
  };
}

/** "date, commit, load average" of a result file's run. */
export function runCell(name, run) {
  const load = run.load_avg_start !== undefined ? `load ${f2(run.load_avg_start)} → ${f2(run.load_avg[0])}` : `load ${f2(run.load_avg[0])}`;
  return `${name}: ${run.date.slice(0, 16).replace('T', ' ')} UTC, ${run.commit}, ${load}${run.transcribed ? ' (transcribed)' : ''}`;
}

/** The goals table (markdown) from the parsed result files ({ name: { run, ... } }) and notes. */
export function goalsTable(results, notes) {
  const rows = GOALS.map((g) => {
    const missing = g.needs.filter((n) => !results[n]);
    const j = missing.length ? { value: `no ${missing.map((n) => `bench-results/${n}.json`).join(', ')}`, met: 'not measured' } : g.judge(results);
    const from = missing.length ? [] : j.from ?? g.needs;
    const run = from.filter((n) => results[n]).map((n) => runCell(n, results[n].run)).join('; ');
    const note = (notes[g.id] ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
    return `| ${g.goal} | ${j.value ?? ''} | ${j.met} | ${run} | ${note} |`;
  });
  return ['| goal | measured | met? | run (date, commit, load average) | where it stands / what is in the way |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** Read every bench-results/*.json (name without .json -> parsed) and the notes. */
export function readResults(dir = RESULTS) {
  const results = {};
  if (existsSync(dir)) {
    for (const f of readdirSync(dir)) {
      if (f.endsWith('.json') && f !== 'goals-notes.json') results[f.slice(0, -5)] = JSON.parse(readFileSync(new URL(f, dir), 'utf8'));
    }
  }
  const notesFile = new URL('goals-notes.json', dir);
  const notes = existsSync(notesFile) ? JSON.parse(readFileSync(notesFile, 'utf8')) : {};
  return { results, notes };
}

/** Replace (or insert before the first "## " section) the goals section of `doc`. */
export function replaceGoals(doc, table) {
  const body = `${HEADING}\n\nGenerated by scripts/bench-goals.mjs from bench-results/*.json (each the latest run of its script) and, in the last column only, bench-results/goals-notes.json (written by hand). Dated accounts: [docs/perf-notes.md](docs/perf-notes.md).\n\n${table}\n`;
  const start = doc.indexOf(`${HEADING}\n`);
  if (start >= 0) {
    const next = doc.indexOf('\n## ', start + HEADING.length);
    return doc.slice(0, start) + body + (next < 0 ? '' : `\n${doc.slice(next + 1)}`);
  }
  const first = doc.indexOf('\n## ');
  return first < 0 ? `${doc.trimEnd()}\n\n${body}` : `${doc.slice(0, first + 1)}${body}\n${doc.slice(first + 1)}`;
}

/** Rebuild BENCHMARKS.md's goals table from bench-results/. */
export function writeGoals() {
  const { results, notes } = readResults();
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  writeFileSync(DOC, replaceGoals(doc, goalsTable(results, notes)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeGoals();
