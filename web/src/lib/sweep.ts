// A sweep table (`reclaim sweep`'s CSV, or reclaimlab's DataFrame saved with to_csv(index=False)):
// parse it, pick the cells of a heatmap over two axes with the other axes fixed, and turn a
// row into the page state that opens that run. Pure functions; the page shows what the
// table holds and never recomputes a metric.
import type { FlagOverrides, LinkState } from './link';
import type { Overrides } from './knobs';

export interface SweepTable {
  columns: string[];
  rows: string[][];
  /** Columns that identify a run: variant, seed and the swept knobs (before `preset`). */
  axes: string[];
  /** Numeric columns after `error`: headline metrics and /proc/vmstat counters. */
  metrics: string[];
}

/** RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

const REQUIRED = ['variant', 'seed', 'preset', 'error'];

/** Read a sweep table; an Error says what is missing or malformed. */
export function readSweep(text: string): SweepTable {
  const records = parseCsv(text).filter((r) => !(r.length === 1 && r[0] === ''));
  if (records.length === 0) throw new Error('the file is empty');
  const columns = records[0]!;
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new Error(`not a sweep table: no column ${missing.map((m) => JSON.stringify(m)).join(', ')} (a table from \`reclaim sweep\` starts with variant,seed,…,preset,error)`);
  const rows = records.slice(1);
  const bad = rows.findIndex((r) => r.length !== columns.length);
  if (bad >= 0) throw new Error(`row ${bad + 2} has ${rows[bad]!.length} cells, the header ${columns.length}`);
  if (rows.length === 0) throw new Error('the table has no rows');
  const axes = columns.slice(0, columns.indexOf('preset'));
  const after = columns.slice(columns.indexOf('error') + 1);
  const metrics = after.filter((c) => {
    const i = columns.indexOf(c);
    return rows.some((r) => r[i] !== '') && rows.every((r) => r[i] === '' || Number.isFinite(Number(r[i])));
  });
  return { columns, rows, axes, metrics };
}

/** The distinct values of a column, numerically sorted when they are all numbers. */
export function values(t: SweepTable, column: string): string[] {
  const i = t.columns.indexOf(column);
  const vs = [...new Set(t.rows.map((r) => r[i]!))];
  const numeric = vs.every((v) => v !== '' && Number.isFinite(Number(v)));
  return numeric ? vs.sort((a, b) => Number(a) - Number(b)) : vs;
}

export interface Cell {
  x: string;
  y: string;
  /** The metric, null when the run failed or does not report it. */
  value: number | null;
  /** Index of the row in the table; null when no run has these values. */
  row: number | null;
  error: string;
}

export interface Heatmap {
  xs: string[];
  ys: string[];
  cells: Cell[];
  /** Smallest and largest value shown (null when no cell has one). */
  domain: [number, number] | null;
}

/** The cells of `metric` over axes `x` and `y`, the other axes at the values in `fixed`. */
export function heatmap(t: SweepTable, metric: string, x: string, y: string, fixed: Record<string, string>): Heatmap {
  const col = (c: string) => t.columns.indexOf(c);
  const [xi, yi, mi, ei] = [col(x), col(y), col(metric), col('error')];
  const others = t.axes.filter((a) => a !== x && a !== y).map((a) => [col(a), fixed[a]] as const);
  const xs = values(t, x);
  const ys = values(t, y);
  const cells: Cell[] = [];
  for (const yv of ys) {
    for (const xv of xs) {
      const row = t.rows.findIndex((r) => r[xi] === xv && r[yi] === yv && others.every(([i, v]) => v === undefined || r[i] === v));
      const r = row >= 0 ? t.rows[row]! : null;
      const cell = r?.[mi] ?? '';
      cells.push({ x: xv, y: yv, value: cell === '' ? null : Number(cell), row: row >= 0 ? row : null, error: r?.[ei] ?? '' });
    }
  }
  const vals = cells.map((c) => c.value).filter((v): v is number => v !== null);
  const domain: [number, number] | null = vals.length ? [Math.min(...vals), Math.max(...vals)] : null;
  return { xs, ys, cells, domain };
}

/** Sweep axes that are page knobs, and where each goes in the link's knobs. */
const KNOB_OF: Record<string, (o: Overrides, v: string) => void> = {
  swappiness: (o, v) => (o.swappiness = Number(v)),
  ram: (o, v) => (o.ram = v),
  frame_scale: (o, v) => (o.frameScale = Number(v)),
  seed: (o, v) => (o.seed = Number(v)),
  swap_device: (o, v) => (o.swapDevice = v),
  file_device: (o, v) => (o.fileDevice = v),
};

/**
 * The page state that opens row `row`: its variant, its knobs (a swept sysctl is one of the
 * knobs' sysctls; the engine writes it in), a swept flag becomes a flag override.
 */
export function rowLink(t: SweepTable, row: number, scenario: string, speedStep: number): LinkState {
  const r = t.rows[row]!;
  const get = (c: string) => r[t.columns.indexOf(c)]!;
  const knobs: Overrides = {};
  const flags: FlagOverrides = {};
  for (const a of t.axes) {
    if (a === 'variant') continue;
    const v = get(a);
    if (KNOB_OF[a]) KNOB_OF[a](knobs, v);
    else if (a.startsWith('flag.')) flags[a.slice(5)] = v === 'true';
    else knobs.sysctls = { ...knobs.sysctls, [a.replace(/^sysctl\./, '')]: v };
  }
  return {
    scenario,
    knobs,
    edited: null,
    variants: [get('variant')],
    compare: false,
    speedStep,
    view: null,
    timeNs: 0,
    ...(Object.keys(flags).length ? { flags: [flags] } : {}),
  };
}

/** The scenario file a table's file name points at (`sweeps/s000-thrash.csv` -> s000-thrash.toml). */
export function guessScenario(fileName: string, scenarios: readonly string[]): string | null {
  const stem = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  return scenarios.find((s) => s.replace(/\.toml$/, '') === stem) ?? scenarios.find((s) => stem.startsWith(s.replace(/\.toml$/, ''))) ?? null;
}
