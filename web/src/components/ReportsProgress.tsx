// How far the results workers are: each variant's virtual time reached (a long scenario such as
// S003 takes a while to run every variant to the end); the columns show as they complete.
import type { ReportColumn, ReportsState } from '../engine/useReports';
import { formatNs } from '../format';

/** A column's share done: 1 once its report is in (or it failed), else virtual time over its cap. */
export function columnDone(c: ReportColumn): number {
  if (c.status === 'done' || c.status === 'error') return 1;
  return c.endNs > 0 ? Math.min(1, c.nowNs / c.endNs) : 0;
}

function columnText(c: ReportColumn, i: number, count: number): string {
  const name = `variant ${i + 1} of ${count}${c.variant ? ` (${c.variant})` : ''}`;
  if (c.status === 'done') return `${name} done`;
  if (c.status === 'error') return `${name} failed`;
  if (c.status === 'waiting') return `${name} waiting for a worker`;
  return `${name} at ${formatNs(c.nowNs)} (ends by ${formatNs(c.endNs)} at the latest)`;
}

export function ReportsProgress({ reports }: { reports: ReportsState }) {
  const { columns, workers } = reports;
  const where = `in ${workers} worker${workers === 1 ? '' : 's'} beside the live view`;
  if (columns.length === 0) return <p className="muted">Running every variant to the end {where}…</p>;
  // Each variant counts for an equal share.
  const done = columns.reduce((s, c) => s + columnDone(c), 0) / columns.length;
  const assessing = columns.every((c) => c.status === 'done');
  const settled = columns.filter((c) => c.status === 'done' || c.status === 'error').length;
  // The live region says only what changes seldom (a variant done); the per-variant times change
  // several times a second: there to read, not announced.
  return (
    <p className="muted reports-progress" data-testid="results-progress" data-done={done.toFixed(3)} data-running={columns.filter((c) => c.status === 'running').length}>
      <span className="sr-only" role="status">
        {assessing ? 'Every variant is done; the engine computes the figures over them.' : `Results: ${settled} of ${columns.length} variants done.`}
      </span>
      <span>
        {assessing ? 'Every variant is done; the engine computes the figures over them' : `Running every variant to the end ${where}: ${columns.map((c, i) => columnText(c, i, columns.length)).join('; ')}`}
      </span>{' '}
      <progress max={1} value={done} aria-label="Results progress" /> {Math.round(done * 100)}%
    </p>
  );
}
