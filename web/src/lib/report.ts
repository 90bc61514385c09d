// The engine's RunReport (the CLI's `run --json` document) and the seed-style
// before/after table built from several of them.
import { formatChange } from '../format';
import type { Assessment, MemcgReport, OomKill, Percentiles, RunReport, TaskReport } from '../engine/generated/views';

// The report's types are generated from wasm-core/src/report.rs (engine/generated/views.ts).
export type { Assessment, MemcgReport, OomKill, Percentiles, RunReport, TaskReport };

export function parseReport(json: string): RunReport {
  const r = JSON.parse(json) as RunReport;
  if (typeof r !== 'object' || r === null || typeof r.variant !== 'string' || typeof r.measured !== 'object' || !Array.isArray(r.tasks)) {
    throw new Error('the engine report is not a RunReport');
  }
  return r;
}

/** The engine's assessment (headline rows and expectation verdicts; type generated from Rust). */
export function parseAssessment(json: string): Assessment {
  const a = JSON.parse(json) as Assessment;
  if (typeof a !== 'object' || a === null || !Array.isArray(a.headline) || !Array.isArray(a.verdicts)) {
    throw new Error('the engine assessment is not an Assessment');
  }
  return a;
}

/** Counters of the measured window shown in the results table, in this order. */
export const HEADLINE_COUNTERS = [
  'pgscan_anon',
  'pgscan_file',
  'pgsteal_anon',
  'pgsteal_file',
  'workingset_refault_anon',
  'workingset_refault_file',
  'pswpin',
  'pswpout',
  'pgmajfault',
  'allocstall',
  'oom_kill',
];

export interface TableRow {
  label: string;
  /** One value per report (NaN when missing). */
  values: number[];
  /** Change of each value against the first report's, as text. */
  changes: string[];
  /** Digits to show. */
  digits: number;
  /** The task a per-task row belongs to (absent for run-wide rows). */
  task?: string;
}

function row(label: string, values: number[], digits: number, task?: string): TableRow {
  const base = values[0] ?? NaN;
  return { label, values, digits, changes: values.map((v) => formatChange(v, base)), ...(task !== undefined ? { task } : {}) };
}

/** The engine's headline rows (run-wide figures computed once in the core), as table rows. */
export function headlineRows(a: Assessment | undefined): TableRow[] {
  return (a?.headline ?? []).map((h) => row(h.label, h.values.map((v) => v ?? NaN), 2));
}

/** The seed-style table: headline measured counters, then per-task metrics. A null report is a
 *  column not in yet (its values NaN; the tasks are the first report's that is in). */
export function resultsTable(reports: (RunReport | null)[]): TableRow[] {
  const firstIn = reports.find((r) => r !== null);
  if (!firstIn) return [];
  const rows = HEADLINE_COUNTERS.map((k) => row(k, reports.map((r) => r?.measured[k] ?? NaN), 0));
  const tasks = firstIn.tasks.map((t) => t.name);
  const task = (r: RunReport | null, name: string) => r?.tasks.find((t) => t.name === name);
  for (const name of tasks) {
    const first = task(firstIn, name)!;
    if (first.rounds_s && first.rounds_s.length > 0) {
      const med = (r: RunReport | null) => median(task(r, name)?.rounds_s ?? []);
      rows.push(row(`${name} round 0 (s)`, reports.map((r) => task(r, name)?.rounds_s?.[0] ?? NaN), 4, name));
      rows.push(row(`${name} median round (s)`, reports.map(med), 4, name));
    }
    if (first.ops_per_s !== undefined) rows.push(row(`${name} ops/s`, reports.map((r) => task(r, name)?.ops_per_s ?? NaN), 2, name));
    if (first.latency_ms) {
      rows.push(row(`${name} latency p50 (ms)`, reports.map((r) => task(r, name)?.latency_ms?.p50 ?? NaN), 3, name));
      rows.push(row(`${name} latency p99 (ms)`, reports.map((r) => task(r, name)?.latency_ms?.p99 ?? NaN), 3, name));
    }
    if (first.alloc_stall_ms) rows.push(row(`${name} alloc stall p99 (ms)`, reports.map((r) => task(r, name)?.alloc_stall_ms?.p99 ?? NaN), 2, name));
    rows.push(row(`${name} major faults`, reports.map((r) => task(r, name)?.major_faults ?? NaN), 0, name));
  }
  return rows;
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
