// The seed-style before/after table: every variant run to the end in the report worker. First
// the scenario's expectations with the verdict and figure the engine computed for each
// (report::assess), then the core's results table (report::results_table, the CLI's compare
// rows): the run-wide rows (figures, measured counters), then per-task rows, grouped by task
// and collapsed when there are many.
import './results.css';
import { memo, useMemo } from 'react';
import type { ReportColumn, ReportsState } from '../engine/useReports';
import type { CheckVerdict, Verdict } from '../engine/generated/views';
import { tableRows, type RunReport, type TableRow } from '../lib/report';
import { useCore } from '../engine/core';
import { kernelCells, type KernelRun } from '../lib/kernelRun';
import { columnDone, ReportsProgress } from './ReportsProgress';
import { WATCHDOG_MS } from '../engine/useEngine';

const fmt = (v: number, digits: number) =>
  Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }) : '—';
const fig = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : fmt(v, Math.abs(v) >= 100 ? 0 : 3));

/** Per-task rows stay open up to this many tasks; more are collapsed. */
const OPEN_TASKS = 3;

function figureText(c: CheckVerdict): string {
  return c.over ? `${c.variant} / ${c.over} = ${fig(c.value)} / ${fig(c.base)} = ${fig(c.figure)}` : `${c.variant} = ${fig(c.value)}`;
}

function Verdicts({ verdicts, knobsChanged }: { verdicts: Verdict[]; knobsChanged: boolean }) {
  return (
    <ul className="expect verdicts" data-testid="expect">
      {verdicts.map((v, i) => {
        const state = v.met === null ? 'none' : v.met ? 'met' : 'not-met';
        return (
          <li key={i} data-testid={`expect-${i}`} data-met={state}>
            <span className={`verdict ${state}`} data-testid={`expect-${i}-verdict`}>
              {v.met === null ? 'no check' : v.met ? '✓ met' : '✗ not met'}
            </span>{' '}
            {v.text}
            {knobsChanged && <span className="muted"> (written for the scenario&apos;s defaults)</span>}
            {v.checks.length > 0 && (
              <ul className="checks">
                {v.checks.map((c, j) => (
                  <li key={j} data-testid={`expect-${i}-check-${j}`} data-met={c.met ? 'met' : 'not-met'}>
                    <code>{c.condition}</code>: <span data-testid={`expect-${i}-figure-${j}`}>{figureText(c)}</span> — {c.met ? 'met' : 'not met'}
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A kernel cell's ratio to the model's run of its variant, as text ("×1.29 of the model"). */
const ratioText = (r: number) => (Number.isFinite(r) ? `×${fmt(r, r >= 10 ? 1 : 2)} of the model` : 'no model ratio');

/** A model column: its report, or (null) one still running or failed. */
type Model = RunReport | null;

function Rows({ rows, models, kernels }: { rows: TableRow[]; models: Model[]; kernels: KernelRun[] }) {
  return (
    <>
      {rows.map((row) => (
        <tr key={row.label}>
          <th scope="row">{row.label}</th>
          {row.values.slice(0, models.length).map((v, i) => (
            <td key={i} data-testid={`result-${row.label}-${i}`} data-pending={models[i] ? undefined : ''}>
              {models[i] ? fmt(v, row.digits) : <span className="muted">…</span>}
              {/* No change beside a value the run has none of ("—", not "— (—)"). */}
              {i > 0 && Number.isFinite(v) && row.changes[i] !== '—' && (
                <span className={`change ${row.changes[i]!.startsWith('+') ? 'up' : row.changes[i]!.startsWith('-') ? 'down' : ''}`}>
                  {' '}
                  ({row.changes[i]})
                </span>
              )}
            </td>
          ))}
          {kernelCells(row, models as RunReport[], kernels).map((c, k) => (
            <td key={`k${k}`} className="kernel-col" data-testid={`result-${row.label}-kernel-${k}`} data-value={Number.isFinite(c.value) ? c.value : ''}>
              {Number.isFinite(c.value) ? (
                <>
                  {fmt(c.value, row.digits)}
                  <span className="ratio small"> ({ratioText(c.ratio)})</span>
                </>
              ) : (
                <span className="muted" title="Not in the kernel run's file (figures the engine computes are for model runs)">
                  —
                </span>
              )}
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/** The head of a column whose report is not in: how far its run is, or why it failed. */
function PendingHead({ col, index, count, ids }: { col: ReportColumn | undefined; index: number; count: number; ids: boolean }) {
  const name = col?.variant ?? `variant ${index + 1} of ${count}`;
  if (col?.status === 'error') {
    return (
      <>
        {name}
        <br />
        {/* Not an alert: the panel's results-error announces the failure once. */}
        <span className="error" data-testid={ids ? `results-column-error-${index}` : undefined}>
          {col.error}
        </span>
      </>
    );
  }
  const done = col ? columnDone(col) : 0;
  return (
    <>
      {name}
      <br />
      <span className="muted" data-testid={ids ? `results-column-progress-${index}` : undefined}>
        {col?.status === 'running' ? `running, ${Math.round(done * 100)}%` : 'waiting for a worker'}{' '}
        <progress max={1} value={done} aria-label={`${name}: progress`} />
      </span>
    </>
  );
}

/** `ids`: the test ids (and the error's alert) go on one table's head only. */
function Head({ reports, columns, kernels, first, ids = false }: { reports: Model[]; columns: ReportColumn[]; kernels: KernelRun[]; first: string; ids?: boolean }) {
  return (
    <thead>
      <tr>
        <th scope="col">{first}</th>
        {reports.map((r, i) => (
          <th scope="col" key={i} data-testid={ids ? `results-head-${i}` : undefined} data-status={columns[i]?.status ?? 'done'}>
            {r ? (
              <>
                {r.variant}
                <br />
                <span className="muted">
                  {r.preset}, swappiness {r.swappiness}
                </span>
              </>
            ) : (
              <PendingHead col={columns[i]} index={i} count={reports.length} ids={ids} />
            )}
          </th>
        ))}
        {kernels.map((k, i) => (
          <th scope="col" key={`k${i}`} className="kernel-col" data-testid={`results-kernel-head-${i}`}>
            <span className="kernel-tag">real kernel</span> {k.report.variant}
            <br />
            <span className="muted">
              {k.kernel.name} ({k.kernel.release}), {k.accelerator}, swappiness {k.report.swappiness}
            </span>
          </th>
        ))}
      </tr>
    </thead>
  );
}

const NO_KERNELS: KernelRun[] = [];

export const ResultsPanel = memo(function ResultsPanel({
  reports,
  expect,
  knobsChanged = false,
  kernels: kernelRuns = NO_KERNELS,
  tasksClosed = false,
}: {
  reports: ReportsState;
  expect: string[];
  knobsChanged?: boolean;
  kernels?: KernelRun[];
  /** The per-task rows start closed (an embed shows less rather than shrinking its text). */
  tasksClosed?: boolean;
}) {
  // Each variant's column as soon as it is done (the others show how far they are).
  const models: Model[] = useMemo(() => (reports.columns.length > 0 ? reports.columns.map((c) => c.report ?? null) : reports.reports), [reports.columns, reports.reports]);
  // Real kernel runs (issue #27 §2) go through the same table builder, as columns after the
  // model's. Their ratios are to their variant's model: they show once every model column is in.
  const kernels = models.every((r) => r !== null) ? kernelRuns : NO_KERNELS;
  const { core, error: coreError } = useCore();
  // The core's table; a report it cannot read (a kernel run's file) is an error, not a crash.
  const { rows: all, error: tableError } = useMemo(() => {
    if (!core || !models.some((r) => r)) return { rows: [] as TableRow[], error: null };
    try {
      return { rows: tableRows(core.resultsTable([...models, ...kernels.map((k) => k.report)])), error: null };
    } catch (e) {
      return { rows: [] as TableRow[], error: `The engine could not build the results table: ${e instanceof Error ? e.message : String(e)}` };
    }
  }, [core, models, kernels]);
  const headline = all.filter((r) => r.task === undefined);
  const perTask = all.filter((r) => r.task !== undefined);
  const tasks = [...new Set(perTask.map((r) => r.task!))];
  const verdicts = reports.assessment?.verdicts;
  return (
    <section className="results" aria-label="Results" data-testid="results" data-status={reports.status}>
      <h2>Results: every variant run to the end</h2>
      {reports.status === 'running' && <ReportsProgress reports={reports} />}
      {reports.status === 'running' && reports.slow && reports.stop && (
        <p className="muted" role="status" data-testid="results-slow">
          The results {reports.workers === 1 ? 'worker has' : 'workers have'} not reported for {WATCHDOG_MS / 1000} s.{' '}
          <button type="button" data-testid="results-stop" onClick={reports.stop}>
            Stop
          </button>
        </p>
      )}
      {coreError && (
        <p className="error" role="alert" data-testid="results-core-error">
          {coreError}
        </p>
      )}
      {reports.error && (
        <p className="error" role="alert" data-testid="results-error">
          {reports.error}
          {reports.retry && (
            <>
              {' '}
              <button type="button" data-testid="results-retry" onClick={reports.retry}>
                Run again
              </button>
            </>
          )}
        </p>
      )}
      {verdicts && verdicts.length > 0 ? (
        <div className="results-expect">
          <h3>Expected (from the scenario), checked by the engine</h3>
          <Verdicts verdicts={verdicts} knobsChanged={knobsChanged} />
        </div>
      ) : (
        expect.length > 0 && (
          <div className="results-expect">
            <h3>Expected (from the scenario)</h3>
            <ul className="expect" data-testid="expect">
              {expect.map((t) => (
                <li key={t}>
                  {t}
                  {knobsChanged && <span className="muted"> (written for the scenario&apos;s defaults)</span>}
                </li>
              ))}
            </ul>
          </div>
        )
      )}
      {tableError && (
        <p className="error" role="alert" data-testid="results-table-error">
          {tableError}
        </p>
      )}
      {headline.length > 0 && (
        <table className="results-table" data-testid="results-headline">
          <Head reports={models} columns={reports.columns} kernels={kernels} first="metric (measured window)" ids />
          <tbody>
            <Rows rows={headline} models={models} kernels={kernels} />
          </tbody>
        </table>
      )}
      {tasks.length > 0 && (
        <details className="results-tasks" data-testid="results-tasks" open={!tasksClosed && tasks.length <= OPEN_TASKS}>
          <summary>
            Per-task rows ({tasks.length} task{tasks.length === 1 ? '' : 's'})
          </summary>
          <table className="results-table">
            <Head reports={models} columns={reports.columns} kernels={kernels} first="task metric" />
            {tasks.map((t) => (
              <tbody key={t} data-task={t}>
                <Rows rows={perTask.filter((r) => r.task === t)} models={models} kernels={kernels} />
              </tbody>
            ))}
          </table>
        </details>
      )}
    </section>
  );
});
