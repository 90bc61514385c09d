// A real kernel's run, loaded into the page to overlay the model (issue #27 §2): the JSON that
// `reclaim kernel FILE --kernel K --json` prints (the RunReport contract plus `source: "kernel"`,
// the kernel build, the accelerator and the guest; KernelReport in wasm-core/cli/src/kernel_run/
// host.rs), or `reclaim validate --json` (its `runs[].kernels[0]`, the first boot; `runs[].kernel` before). Checked field by field so a bad
// file gets a message naming the field; the page shows only what the file reports.
import type { MemcgReport, RunReport, TableRow } from './report';

/** Larger files are refused before they are read: a real run's JSON is tens of kB (64 memcgs:
 *  a few hundred). */
export const MAX_KERNEL_JSON_BYTES = 4 * 1024 * 1024;
/** Bounds on the parts of a run, so a hostile file cannot make the page draw forever. */
const MAX_KEYS = 2000;
const MAX_TASKS = 1000;
const MAX_ROUNDS = 100_000;
const MAX_MEMCGS = 4096;
const MAX_NOTES = 100;
const MAX_TEXT = 2000;
/** At most this many kernel runs overlay the page at once (a validate file has one per variant). */
export const MAX_KERNEL_RUNS = 8;

export interface KernelBuild {
  /** The `--kernel` name, e.g. "debian-6.1". */
  name: string;
  /** uname -r */
  release: string;
  package_version: string;
}

export interface GuestInfo {
  ram_mib: number;
  cpus: number;
  kernel_reserved_kb: number;
  boot_s: number;
  lru_gen_enabled: string;
}

/** The report of a kernel run: the RunReport contract (generated from wasm-core/src/report.rs,
 *  with each memcg's memory.stat flattened beside its fields). */
export type KernelRunReport = RunReport;

export interface KernelRun {
  /** The file it came from. */
  file: string;
  /** Only the checked fields: its JSON is a RunReport the engine reads (`assess`). */
  report: KernelRunReport;
  kernel: KernelBuild;
  /** "tcg" or "kvm". */
  accelerator: string;
  guest: GuestInfo | null;
  wall_s: number | null;
  run_s: number | null;
  notes: string[];
}

/** A file that is not a kernel run: `message` names the file and what is wrong where. */
export class KernelRunError extends Error {}

type Json = unknown;
const isObj = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: Json): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
};

/** Field checks that throw with the path of the field (e.g. `tasks[0].rounds_s[3]`). */
class Fields {
  constructor(private readonly where: string) {}
  fail(path: string, what: string): never {
    throw new KernelRunError(`${this.where}: ${path} ${what}`);
  }
  obj(v: Json, path: string): Record<string, Json> {
    if (!isObj(v)) this.fail(path, `must be an object, found ${show(v)}`);
    return v;
  }
  str(o: Record<string, Json>, k: string, path: string): string {
    const v = o[k];
    if (typeof v !== 'string') this.fail(`${path}${k}`, v === undefined ? 'is missing' : `must be text, found ${show(v)}`);
    if (v.length > MAX_TEXT) this.fail(`${path}${k}`, `is ${v.length} characters long (at most ${MAX_TEXT})`);
    return v;
  }
  num(v: Json, path: string): number {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) this.fail(path, v === undefined ? 'is missing' : `must be a number >= 0, found ${show(v)}`);
    return v;
  }
  /** A count (pages, events, faults): a whole number, as the contract's u64. */
  int(v: Json, path: string): number {
    const n = this.num(v, path);
    if (!Number.isSafeInteger(n)) this.fail(path, `must be a whole number, found ${show(v)}`);
    return n;
  }
  optNum(o: Record<string, Json>, k: string, path: string): number | null {
    return o[k] === undefined || o[k] === null ? null : this.num(o[k], `${path}${k}`);
  }
  list(v: Json, path: string, max: number): Json[] {
    if (!Array.isArray(v)) this.fail(path, v === undefined ? 'is missing' : `must be a list, found ${show(v)}`);
    if (v.length > max) this.fail(path, `has ${v.length} entries (at most ${max})`);
    return v;
  }
  counters(v: Json, path: string): Record<string, number> {
    const o = this.obj(v, path);
    const keys = Object.keys(o);
    if (keys.length > MAX_KEYS) this.fail(path, `has ${keys.length} counters (at most ${MAX_KEYS})`);
    const out: Record<string, number> = {};
    for (const k of keys) out[k] = this.int(o[k], `${path}.${k}`);
    return out;
  }
}

/**
 * Where JSON text stops being JSON (offset; -1 if it is JSON). V8's JSON.parse message names the
 * token but not where it is, so the text is walked once (no recursion: nesting is a stack).
 */
export function jsonErrorOffset(t: string): number {
  const stack: string[] = [];
  const str = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
  const num = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const lit = /true|false|null/y;
  let i = 0;
  let mode: 'value' | 'key' | 'after' = 'value';
  const ws = () => {
    while (i < t.length && (t[i] === ' ' || t[i] === '\n' || t[i] === '\r' || t[i] === '\t')) i++;
  };
  const eat = (re: RegExp) => {
    re.lastIndex = i;
    if (!re.test(t)) return false;
    i = re.lastIndex;
    return true;
  };
  for (;;) {
    ws();
    const c = t[i];
    if (mode === 'value') {
      if (c === '{' || c === '[') {
        stack.push(c);
        i++;
        ws();
        if (t[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          mode = 'after';
        } else mode = c === '{' ? 'key' : 'value';
      } else if (eat(str) || eat(num) || eat(lit)) mode = 'after';
      else return i;
    } else if (mode === 'key') {
      if (!eat(str)) return i;
      ws();
      if (t[i] !== ':') return i;
      i++;
      mode = 'value';
    } else {
      const top = stack.at(-1);
      if (top === undefined) return i === t.length ? -1 : i;
      if (c === ',') {
        i++;
        mode = top === '{' ? 'key' : 'value';
      } else if (c === (top === '{' ? '}' : ']')) {
        stack.pop();
        i++;
      } else return i;
    }
  }
}

/** " at line L, column C" of where the text stops being JSON (1-based). */
function jsonErrorAt(text: string): string {
  const pos = jsonErrorOffset(text);
  if (pos < 0) return '';
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return ` at line ${line}, column ${pos - before.lastIndexOf('\n')}${pos >= text.length ? ' (the text ends too soon)' : ''}`;
}

/** One KernelReport object (`at` is its path in the file, '' at the top). */
function kernelReport(v: Json, f: Fields, at: string, file: string): KernelRun {
  const p = at ? `${at}.` : '';
  const o = f.obj(v, at || 'the file');
  if (o.source !== 'kernel') {
    if (o.source === undefined && 'variant' in o && 'counters' in o)
      f.fail(at || 'the file', `is a model run (reclaim run --json): it has no "source": "kernel". Load the JSON that \`reclaim kernel FILE --kernel K --json\` prints`);
    f.fail(`${p}source`, o.source === undefined ? 'is missing (a real kernel run says "source": "kernel")' : `must be "kernel", found ${show(o.source)}`);
  }
  const tasks = f.list(o.tasks, `${p}tasks`, MAX_TASKS).map((t, i) => {
    const tp = `${p}tasks[${i}].`;
    const to = f.obj(t, `${p}tasks[${i}]`);
    const pct = (k: string) => {
      if (to[k] === undefined || to[k] === null) return {};
      const l = f.obj(to[k], `${tp}${k}`);
      return { [k]: { p50: f.num(l.p50, `${tp}${k}.p50`), p95: f.num(l.p95, `${tp}${k}.p95`), p99: f.num(l.p99, `${tp}${k}.p99`), mean: f.num(l.mean, `${tp}${k}.mean`), count: f.int(l.count, `${tp}${k}.count`) } };
    };
    const rounds = to.rounds_s === undefined || to.rounds_s === null ? undefined : f.list(to.rounds_s, `${tp}rounds_s`, MAX_ROUNDS).map((r, j) => f.num(r, `${tp}rounds_s[${j}]`));
    const ops = f.optNum(to, 'ops_per_s', tp);
    if (to.killed !== undefined && typeof to.killed !== 'boolean') f.fail(`${tp}killed`, `must be true or false, found ${show(to.killed)}`);
    return {
      name: f.str(to, 'name', tp),
      ...(rounds ? { rounds_s: rounds } : {}),
      ...(ops !== null ? { ops_per_s: ops } : {}),
      ...pct('latency_ms'),
      ...pct('alloc_stall_ms'),
      major_faults: f.int(to.major_faults, `${tp}major_faults`),
      killed: to.killed === true,
    };
  });
  const oom = f.list(o.oom_kills ?? [], `${p}oom_kills`, MAX_TASKS).map((k, i) => {
    const ko = f.obj(k, `${p}oom_kills[${i}]`);
    return { task: f.str(ko, 'task', `${p}oom_kills[${i}].`), time_s: f.num(ko.time_s, `${p}oom_kills[${i}].time_s`), freed_pages: f.int(ko.freed_pages, `${p}oom_kills[${i}].freed_pages`) };
  });
  const memcgs =
    o.memcgs === undefined || o.memcgs === null
      ? undefined
      : f.list(o.memcgs, `${p}memcgs`, MAX_MEMCGS).map((m, i): MemcgReport => {
          const mp = `${p}memcgs[${i}]`;
          const mo = f.obj(m, mp);
          const { name: _n, parent, current_pages, events, ...stat } = mo;
          if (parent !== null && typeof parent !== 'string') f.fail(`${mp}.parent`, `must be text or null, found ${show(parent)}`);
          return {
            name: f.str(mo, 'name', `${mp}.`),
            parent: (parent ?? null) as string | null,
            current_pages: f.int(current_pages, `${mp}.current_pages`),
            events: f.counters(events, `${mp}.events`),
            ...f.counters(stat, mp),
          };
        });
  const optInt = (k: string) => (o[k] === undefined || o[k] === null ? {} : { [k]: f.int(o[k], `${p}${k}`) });
  const report: KernelRunReport = {
    scenario: f.str(o, 'scenario', p),
    variant: f.str(o, 'variant', p),
    preset: f.str(o, 'preset', p),
    swappiness: f.int(o.swappiness, `${p}swappiness`),
    virtual_s: f.num(o.virtual_s, `${p}virtual_s`),
    counters: f.counters(o.counters, `${p}counters`),
    measured: f.counters(o.measured, `${p}measured`),
    tasks,
    oom_kills: oom,
    ...(memcgs ? { memcgs } : {}),
    ...optInt('reclaim_requested_pages'),
    ...optInt('reclaim_reclaimed_pages'),
  };
  const k = f.obj(o.kernel, `${p}kernel`);
  const kernel = { name: f.str(k, 'name', `${p}kernel.`), release: f.str(k, 'release', `${p}kernel.`), package_version: typeof k.package_version === 'string' ? f.str(k, 'package_version', `${p}kernel.`) : '' };
  let guest: GuestInfo | null = null;
  if (o.guest !== undefined && o.guest !== null) {
    const g = f.obj(o.guest, `${p}guest`);
    const gp = `${p}guest.`;
    guest = {
      ram_mib: f.num(g.ram_mib, `${gp}ram_mib`),
      cpus: f.num(g.cpus, `${gp}cpus`),
      kernel_reserved_kb: f.num(g.kernel_reserved_kb, `${gp}kernel_reserved_kb`),
      boot_s: f.num(g.boot_s, `${gp}boot_s`),
      lru_gen_enabled: typeof g.lru_gen_enabled === 'string' ? f.str(g, 'lru_gen_enabled', gp) : '',
    };
  }
  const notes = f.list(o.notes ?? [], `${p}notes`, MAX_NOTES).map((n, i) => {
    if (typeof n !== 'string') f.fail(`${p}notes[${i}]`, `must be text, found ${show(n)}`);
    return n.slice(0, MAX_TEXT);
  });
  return { file, report, kernel, accelerator: f.str(o, 'accelerator', p), guest, wall_s: f.optNum(o, 'wall_s', p), run_s: f.optNum(o, 'run_s', p), notes };
}

/**
 * The kernel runs in a file's text: one (`reclaim kernel --json`) or one per variant
 * (`reclaim validate --json`). Throws KernelRunError naming the file, the field and the fault.
 */
export function parseKernelRuns(text: string, file: string): KernelRun[] {
  if (text.length > MAX_KERNEL_JSON_BYTES) throw new KernelRunError(`${file} is ${mb(text.length)}; a kernel run's JSON is at most ${mb(MAX_KERNEL_JSON_BYTES)}`);
  if (text.trim() === '') throw new KernelRunError(`${file} is empty`);
  let v: Json;
  try {
    v = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new KernelRunError(`${file} is not JSON${jsonErrorAt(text)}: ${msg.split('\n')[0]!.slice(0, 200)}`);
  }
  const f: Fields = new Fields(file);
  if (!isObj(v)) f.fail('the file', `holds ${show(v)}, not a kernel run (an object with "source": "kernel")`);
  if (Array.isArray(v.runs) && !('source' in v)) {
    // `reclaim validate --json`: the kernel half of each model/kernel pair.
    const runs = f.list(v.runs, 'runs', MAX_KERNEL_RUNS);
    if (runs.length === 0) f.fail('runs', 'is empty: the validation holds no kernel run');
    return runs.map((r, i) => {
      const pair = f.obj(r, `runs[${i}]`);
      if (!('kernels' in pair)) return kernelReport(pair.kernel, f, `runs[${i}].kernel`, file);
      // Since validate boots a variant several times (`runs[].kernels`), the first boot stands for it.
      const boots = f.list(pair.kernels, `runs[${i}].kernels`, MAX_KERNEL_RUNS);
      if (boots.length === 0) f.fail(`runs[${i}].kernels`, 'is empty: this variant has no kernel run yet');
      return kernelReport(boots[0], f, `runs[${i}].kernels[0]`, file);
    });
  }
  return [kernelReport(v, f, '', file)];
}

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 1024 * 1024 ? 2 : 1)} MB`;

/** A dropped or picked file's runs; the size is checked before a byte is read. */
export async function readKernelFile(file: File): Promise<KernelRun[]> {
  if (file.size > MAX_KERNEL_JSON_BYTES) throw new KernelRunError(`${file.name} is ${mb(file.size)}; a kernel run's JSON is at most ${mb(MAX_KERNEL_JSON_BYTES)} (is it the right file?)`);
  let text: string;
  try {
    text = await file.text();
  } catch {
    throw new KernelRunError(`${file.name} could not be read`);
  }
  return parseKernelRuns(text, file.name);
}

export { isJsonFile } from './dropped';

/** What the page shows of a scenario, to check a run belongs to it. */
export interface ScenarioShown {
  title: string;
  variants: string[];
}

/**
 * Why these runs cannot overlay the scenario shown (null: they can): another scenario (by its
 * title), or a variant the scenario does not have.
 */
export function mismatch(runs: KernelRun[], shown: ScenarioShown): string | null {
  for (const r of runs) {
    if (r.report.scenario !== shown.title)
      return `${r.file} is a run of the scenario ${JSON.stringify(r.report.scenario)}, but the page shows ${JSON.stringify(shown.title)}`;
    if (!shown.variants.includes(r.report.variant))
      return `${r.file} ran variant ${JSON.stringify(r.report.variant)}, which ${JSON.stringify(shown.title)} does not have (its variants: ${shown.variants.join(', ')})`;
  }
  return null;
}

/** Add runs to those shown: a run of the same kernel and variant replaces the older one. */
export function mergeRuns(shown: KernelRun[], added: KernelRun[]): KernelRun[] {
  const key = (r: KernelRun) => `${r.kernel.name}\u0000${r.report.variant}`;
  const keys = new Set(added.map(key));
  return [...shown.filter((r) => !keys.has(key(r))), ...added].slice(-MAX_KERNEL_RUNS);
}

/** The run's label: "real kernel debian-6.1 (6.1.0-56-amd64, Debian 6.1.192-2), tcg". */
export function kernelRunLabel(r: KernelRun): string {
  const pkg = r.kernel.package_version ? `, Debian ${r.kernel.package_version}` : '';
  return `real kernel ${r.kernel.name} (${r.kernel.release}${pkg}), ${r.accelerator}`;
}

/** A kernel cell of the results table: the kernel's value and its ratio to the model's run of
 *  the same variant (NaN where the model has none or 0). */
export interface KernelCell {
  value: number;
  ratio: number;
}

/**
 * The kernel cells of results-table rows built over `[...models, ...kernels]` (resultsTable):
 * the values past the models', each with its ratio to the model column of its variant.
 */
export function kernelCells(row: TableRow, models: RunReport[], kernels: KernelRun[]): KernelCell[] {
  return kernels.map((k, i) => {
    const value = row.values[models.length + i] ?? NaN;
    const m = models.findIndex((r) => r.variant === k.report.variant);
    const model = m >= 0 ? (row.values[m] ?? NaN) : NaN;
    return { value, ratio: Number.isFinite(model) && model !== 0 && Number.isFinite(value) ? value / model : NaN };
  });
}

/** A kernel run's whole-run total of each counter group (the sum of the group's counters; null
 *  when the file has none of them). */
export function groupTotals(r: KernelRun, groups: { label: string; counters: string[] }[]): { label: string; total: number | null }[] {
  return groups.map((g) => {
    const present = g.counters.filter((c) => c in r.report.counters);
    return { label: g.label, total: present.length ? present.reduce((s, c) => s + r.report.counters[c]!, 0) : null };
  });
}
