// The seed-style before/after table: every variant run to the end in the
// report worker, headline metrics with the change against the first variant,
// and the scenario's expected bands as text.
import { memo } from 'react';
import type { ReportsState } from '../engine/useReports';
import { WATCHDOG_MS } from '../engine/useEngine';
import { resultsTable } from '../lib/report';

const fmt = (v: number, digits: number) =>
  Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }) : '—';

export const ResultsPanel = memo(function ResultsPanel({ reports, expect }: { reports: ReportsState; expect: string[] }) {
  const rows = resultsTable(reports.reports);
  return (
    <section className="results" aria-label="Results" data-testid="results" data-status={reports.status}>
      <h2>Results: every variant run to the end</h2>
      {reports.status === 'running' && <p className="muted">Running every variant to the end in a second worker…</p>}
      {reports.status === 'running' && reports.slow && reports.stop && (
        <p className="muted" data-testid="results-slow">
          Still running after {WATCHDOG_MS / 1000} s.{' '}
          <button type="button" data-testid="results-stop" onClick={reports.stop}>
            Stop
          </button>
        </p>
      )}
      {reports.status === 'error' && (
        <p className="error" role="alert">
          {reports.error}
        </p>
      )}
      {rows.length > 0 && (
        <table className="results-table">
          <thead>
            <tr>
              <th scope="col">metric (measured window)</th>
              {reports.reports.map((r) => (
                <th scope="col" key={r.variant}>
                  {r.variant}
                  <br />
                  <span className="muted">
                    {r.preset}, swappiness {r.swappiness}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {row.values.map((v, i) => (
                  <td key={i} data-testid={`result-${row.label}-${i}`}>
                    {fmt(v, row.digits)}
                    {i > 0 && (
                      <span className={`change ${row.changes[i]!.startsWith('+') ? 'up' : row.changes[i]!.startsWith('-') ? 'down' : ''}`}>
                        {' '}
                        ({row.changes[i]})
                      </span>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {expect.length > 0 && (
        <>
          <h3>Expected (from the scenario)</h3>
          <ul className="expect" data-testid="expect">
            {expect.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
});
