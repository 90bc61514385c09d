// What a user waits for in the browser (issue #48): the time to full results (every variant's
// column and the engine's figures) for S000, S002 and S003 (the small copy and the original
// size) opened from a link, the JS an embed loads before its first paint, and how its wasm is
// served and cached. Writes the section "## Browser results and page weight" of BENCHMARKS.md and
// bench-results/web-results.json.
//
// Each run is a fresh browser context (nothing compiled or cached), timed in the page from its
// navigation to the moment the results panel says done. The page's pool of results workers is
// navigator.hardwareConcurrency - 1 (at least 1); a second row per scenario forces a pool of 2
// (hardwareConcurrency reads 3) to show what a machine with a spare core gets.
//
// Before and after in one run: with RECLAIM_BENCH_BEFORE=<url> (a server of another build, e.g.
// main's dist under `vite preview --outDir`), every round measures that build too, in turn;
// RECLAIM_BENCH_BEFORE_NAME says what it is. A whole older commit, page and engine: extract it
// (`git archive <commit> | tar -x -C <dir>`), link node_modules, `npm run build` and
// `npx vite preview --port <port> --strictPort` there.
import { gzipSync } from 'node:zlib';
import { cpus, loadavg } from 'node:os';
import { expect, test, type Browser } from '@playwright/test';
import { baseURL } from './support/base';
import { runInfo, writeResults, writeSection } from './support/benchDoc';
import { scenarioFile } from './support/editor';
import { encodeLink, type LinkState } from '../web/src/lib/link';
import { smallS003 } from '../web/src/lib/s003Small';

const ROUNDS = Number(process.env.RECLAIM_BENCH_ROUNDS ?? 3);
const BEFORE = process.env.RECLAIM_BENCH_BEFORE?.replace(/\/$/, '') ?? null;
// What the before build is, for the text (e.g. "915bbc2, the commit before the results pool").
const BEFORE_NAME = process.env.RECLAIM_BENCH_BEFORE_NAME ?? null;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

const link = (scenario: string, edited: string | null = null) =>
  encodeLink({ scenario, knobs: {}, edited, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0 } satisfies LinkState);

// `id`: the case's name in bench-results/web-results.json (scripts/bench-goals.mjs reads it).
const CASES = [
  { id: 's000', label: 'S000, full scale (2 variants)', scenario: 's000-thrash.toml', edited: null },
  { id: 's002', label: 'S002, dirty-heavy (2 variants)', scenario: 's002-kswapd-writeback.toml', edited: null },
  { id: 's003_small', label: 'S003, small copy (2 variants)', scenario: 's003-memcg-lru.toml', edited: smallS003(scenarioFile('s003-memcg-lru.toml')) },
  { id: 's003_original', label: 'S003, original size: 128 memcgs on 512 GiB (2 variants)', scenario: 's003-memcg-lru.toml', edited: null },
] as const;

// Records (performance.now, from navigation) when the results panel first says done, and when
// the embed's bar first shows (its first paint with content: the next animation frame).
const WATCH = () => {
  const w = window as unknown as { __resultsDone?: number; __embedPaint?: number };
  new MutationObserver(() => {
    if (w.__resultsDone === undefined && document.querySelector('[data-testid="results"][data-status="done"]')) w.__resultsDone = performance.now();
    if (w.__embedPaint === undefined && document.querySelector('[data-testid="embed"] [data-testid="play-toggle"]')) {
      w.__embedPaint = -1;
      requestAnimationFrame(() => (w.__embedPaint = performance.now()));
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
};

/** One fresh context on `origin`: the ms from navigation to full results, and the column values. */
async function timeToResults(browser: Browser, origin: string, hash: string, pool2: boolean): Promise<{ ms: number; values: string[] }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (pool2) await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 3 }));
    await page.addInitScript(WATCH);
    await page.goto(`${origin}/#${hash}`);
    await page.waitForFunction(() => (window as unknown as { __resultsDone?: number }).__resultsDone !== undefined, null, { timeout: 600_000, polling: 200 });
    const ms = await page.evaluate(() => (window as unknown as { __resultsDone: number }).__resultsDone);
    // The figures shown, to check that every build and pool shows the same.
    const values = await page.locator('[data-testid="results-headline"] td').allTextContents();
    return { ms, values };
  } finally {
    await context.close();
  }
}

/** The embed's JS: bytes (gzip level 9, as Vite reports) of the scripts whose responses ended
 *  before its first paint with content, and of all it loads once idle. */
async function embedWeight(browser: Browser, origin: string): Promise<{ firstPaintGz: number; files: number; allGz: number; wasmGz: number; paintMs: number }> {
  const context = await browser.newContext({ viewport: { width: 960, height: 540 } });
  try {
    const page = await context.newPage();
    // Every response, the workers' (their scripts, the wasm) included.
    const loaded: string[] = [];
    context.on('response', (r) => void loaded.push(r.url()));
    await page.addInitScript(WATCH);
    await page.goto(`${origin}/?embed&view=lru`);
    await page.waitForFunction(() => ((window as unknown as { __embedPaint?: number }).__embedPaint ?? -1) > 0);
    await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 60_000 });
    // When each of the page's own responses ended (the workers' are not in its resource timing).
    const [paintMs, entries] = await page.evaluate(() => [
      (window as unknown as { __embedPaint: number }).__embedPaint,
      performance.getEntriesByType('resource').map((e) => ({ url: e.name, end: (e as PerformanceResourceTiming).responseEnd })),
    ] as const);
    const gz = async (url: string) => gzipSync(await (await context.request.get(url)).body(), { level: 9 }).length;
    // (A module may show twice: its modulepreload and its import.)
    const early = new Set(entries.filter((e) => e.url.endsWith('.js') && e.end <= paintMs).map((e) => e.url));
    let firstPaintGz = 0;
    for (const url of early) firstPaintGz += await gz(url);
    const files = early.size;
    let allGz = 0;
    let wasmGz = 0;
    for (const url of new Set(loaded)) {
      if (url.endsWith('.js')) allGz += await gz(url);
      if (url.endsWith('.wasm')) wasmGz += await gz(url);
    }
    return { firstPaintGz, files, allGz, wasmGz, paintMs };
  } finally {
    await context.close();
  }
}

/** How the embed's wasm is served (its first response's headers and gzip size) and whether a
 *  second visit in the same context takes it from the browser's cache (the engine worker's
 *  resource timing: 0 bytes transferred). */
async function wasmCaching(browser: Browser, origin: string) {
  const context = await browser.newContext({ viewport: { width: 960, height: 540 } });
  try {
    const first = new Promise<{ url: string; type: string; cache: string }>((resolve) =>
      context.on('response', (r) => {
        if (r.url().endsWith('.wasm')) resolve({ url: r.url(), type: r.headers()['content-type'] ?? '', cache: r.headers()['cache-control'] ?? '' });
      }),
    );
    const page = await context.newPage();
    await page.goto(`${origin}/?embed&view=lru`);
    await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 60_000 });
    const served = await first;
    const gzipBytes = gzipSync(await (await context.request.get(served.url)).body(), { level: 9 }).length;
    await page.close();
    const again = await context.newPage();
    await again.goto(`${origin}/?embed&view=lru`);
    await expect(again.getByTestId('play-toggle')).toBeEnabled({ timeout: 60_000 });
    // The wasm is fetched in the engine workers: read their resource timing.
    const sizes: number[] = [];
    for (const w of again.workers()) {
      sizes.push(...(await w.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => (e as PerformanceResourceTiming).transferSize))));
    }
    expect(sizes.length, 'an engine worker fetched the wasm on the second visit').toBeGreaterThan(0);
    return { content_type: served.type, cache_control: served.cache, gzip_bytes: gzipBytes, second_visit_transfer_bytes: Math.max(...sizes) };
  } finally {
    await context.close();
  }
}

test('time to full results and the embed’s first-paint JS, before and after', async ({ browser }) => {
  test.setTimeout(3_600_000);
  const loadBefore = loadavg()[0]!;
  const builds = BEFORE ? [['before', BEFORE] as const, ['after', baseURL] as const] : [['after', baseURL] as const];
  // build -> case -> pool -> ms of each round
  const times = new Map<string, number[]>();
  const seen = new Map<string, string[]>();
  const key = (build: string, c: number, pool2: boolean) => `${build}|${c}|${pool2}`;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, cs] of CASES.entries()) {
      const hash = await link(cs.scenario, cs.edited);
      // The order of builds and pools alternates by round, so that load falls on each alike.
      const runs = builds.flatMap(([b, origin]) => (b === 'after' ? [false, true] : [false]).map((pool2) => ({ b, origin, pool2 })));
      for (const r of round % 2 ? runs.reverse() : runs) {
        const { ms, values } = await timeToResults(browser, r.origin, hash, r.pool2);
        const k = key(r.b, c, r.pool2);
        times.set(k, [...(times.get(k) ?? []), ms]);
        // Every round and pool of a build shows the same figures for a scenario (determinism);
        // another build's engine may differ (its figures are compared below, not required equal).
        const first = seen.get(`${r.b}|${c}`);
        if (first) expect(values, `${cs.label}: ${r.b}${r.pool2 ? ', pool of 2' : ''}`).toEqual(first);
        else seen.set(`${r.b}|${c}`, values);
        expect(values.length).toBeGreaterThan(0);
      }
    }
  }
  // Whether the before build showed the same figures as this one, per scenario.
  const sameFigures = CASES.map((_, c) => (BEFORE ? JSON.stringify(seen.get(`before|${c}`)) === JSON.stringify(seen.get(`after|${c}`)) : null));
  const weights = new Map<string, Awaited<ReturnType<typeof embedWeight>>[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [b, origin] of builds) weights.set(b, [...(weights.get(b) ?? []), await embedWeight(browser, origin)]);
  }

  const wasm = await wasmCaching(browser, baseURL);

  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const list = (v: number[]) => v.map((x) => (x / 1000).toFixed(2)).join(', ');
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const rows = CASES.map((cs, c) => {
    const after = times.get(key('after', c, false))!;
    const after2 = times.get(key('after', c, true))!;
    const before = times.get(key('before', c, false));
    const cells = [
      before ? `${s(median(before))} (${list(before)})` : 'not run',
      `${s(median(after))} (${list(after)})`,
      `${s(median(after2))} (${list(after2)})`,
      before ? (median(after) / median(before)).toFixed(2) : '',
      before ? (median(after2) / median(before)).toFixed(2) : '',
    ];
    return `| ${cs.label} | ${cells.join(' | ')} |`;
  });
  type Weight = Awaited<ReturnType<typeof embedWeight>>;
  const wRow = (b: string) => {
    const w = weights.get(b);
    if (!w) return `| ${b} | not run | | | |`;
    const m = (f: (x: Weight) => number) => median(w.map(f));
    return `| ${b} | ${kb(m((x) => x.firstPaintGz))} in ${m((x) => x.files)} file${m((x) => x.files) === 1 ? '' : 's'} | ${kb(m((x) => x.allGz))} | ${kb(m((x) => x.wasmGz))} | ${m((x) => x.paintMs).toFixed(0)} ms |`;
  };
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const body = `
Measured by \`npm run bench:web\` (e2e/results.bench.ts), ${when}, in Debian Chromium ${browser.version()}
(headless) on ${cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start and
${loadavg()[0]!.toFixed(1)} at the end: the machine is shared (other work ran beside it), so
absolute times are noisy; the ratios of medians taken in alternating rounds hold better.
${BEFORE ? `"before" is ${BEFORE_NAME ? `${BEFORE_NAME} (served at ${BEFORE})` : `the build served at ${BEFORE}`}, measured in turn with this one; its results showed ${sameFigures.every(Boolean) ? 'the same figures as this build for every scenario' : `other figures than this build for ${CASES.filter((_, c) => !sameFigures[c]).map((cs) => cs.id).join(', ')} (another engine)`}.` : 'No "before" build was given (RECLAIM_BENCH_BEFORE): this build only.'}

Time to full results: a fresh browser context opens the scenario's link; from its navigation to
the results panel saying done (every variant's column and the engine's figures). Medians of
${ROUNDS} rounds (each round's value in brackets). "page's pool": navigator.hardwareConcurrency -
1 workers, at least 1 (${Math.max(1, cpus().length - 1)} here); "pool of 2": hardwareConcurrency
made to read 3. Every round and pool of a build showed the same figures for a scenario.

| scenario | before (one worker, in turn) | after, page's pool | after, pool of 2 | after / before | pool of 2 / before |
|---|---|---|---|---:|---:|
${rows.join('\n')}

The embed's JS (\`/?embed&view=lru\` at 960x540, fresh context): the scripts whose responses
ended before its first paint with content (its bar drawn; the engine workers' script, started
by then, included), gzip level 9 of each file as served; all the JS it has loaded once its
engine is ready (its view's code included); the wasm module. Medians of ${ROUNDS}.

| build | JS before first paint (gzip) | all JS of the page (gzip) | wasm (gzip) | first paint |
|---|---|---|---|---:|
${builds.map(([b]) => wRow(b)).join('\n')}

The wasm (this build): served as \`${wasm.content_type}\` (what instantiateStreaming needs) with
\`Cache-Control: ${wasm.cache_control}\`; a second visit in the same context transferred
${wasm.second_visit_transfer_bytes} bytes of it (the engine workers' resource timing; 0: from the cache).
`;
  writeSection('## Browser results and page weight', body);
  const perField = (b: string) => {
    const w = weights.get(b);
    if (!w) return null;
    const keys = ['firstPaintGz', 'files', 'allGz', 'wasmGz', 'paintMs'] as const;
    return Object.fromEntries(keys.map((k) => [k, w.map((x) => x[k])]));
  };
  writeResults('web-results', runInfo('npm run bench:web (e2e/results.bench.ts)', { load_avg_start: loadBefore, browser: `Chromium ${browser.version()}` }), {
    rounds: ROUNDS,
    pool: Math.max(1, cpus().length - 1),
    before: BEFORE,
    before_name: BEFORE_NAME,
    cases: CASES.map((cs, c) => ({
      id: cs.id,
      label: cs.label,
      before_ms: times.get(key('before', c, false)) ?? null,
      after_ms: times.get(key('after', c, false)),
      after_pool2_ms: times.get(key('after', c, true)),
      same_figures_as_before: sameFigures[c],
    })),
    embed: { before: perField('before'), after: perField('after') },
    wasm,
  });
  console.log(body);
});
