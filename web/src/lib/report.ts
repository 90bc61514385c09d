// The engine's RunReport (the CLI's `run --json` document) and the seed-style
// before/after table: the core builds its rows (engine/core.ts), the page formats them.
import { formatChange } from '../format';
import type { Assessment, MemcgReport, OomKill, Percentiles, ResultRow, RunReport, TaskReport } from '../engine/generated/views';

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

/** The core's rows (report::results_table) as the page shows them: NaN for a missing value,
 *  each value's change against the first column's. */
export function tableRows(rows: ResultRow[]): TableRow[] {
  return rows.map((r) => {
    const values = r.values.map((v) => v ?? NaN);
    const base = values[0] ?? NaN;
    return { label: r.label, values, digits: r.digits, changes: values.map((v) => formatChange(v, base)), ...(r.task !== null ? { task: r.task } : {}) };
  });
}
