// Compare mode: the runs' list sizes and key counters side by side at the same
// virtual time, with large differences highlighted.
import type { RunFrame, RunInfo } from '../engine/protocol';
import type { ListSizes } from '../engine/generated/views';
import { formatChange, formatCount } from '../format';

const COUNTERS = ['pgscan_anon', 'pgscan_file', 'workingset_refault_file', 'pswpout', 'pgmajfault'];
const LIST_ROWS: [keyof ListSizes, string][] = [
  ['inactive_anon', 'inactive anon'],
  ['active_anon', 'active anon'],
  ['inactive_file', 'inactive file'],
  ['active_file', 'active file'],
  ['unevictable', 'unevictable'],
  ['free', 'free'],
];

/** A difference is highlighted when the values differ by more than this fraction. */
export const HIGHLIGHT = 0.1;

export function DiffTable({ runs, frames, counterNames }: { runs: RunInfo[]; frames: RunFrame[]; counterNames: string[] }) {
  const rows: { label: string; values: number[] }[] = [
    ...LIST_ROWS.map(([key, label]) => ({ label: `${label} (pages)`, values: frames.map((f) => f.lists[key]) })),
    ...COUNTERS.filter((c) => counterNames.includes(c)).map((c) => ({
      label: c,
      values: frames.map((f) => f.counters[counterNames.indexOf(c)]!),
    })),
  ];
  return (
    <section className="diff" aria-label="Differences between the runs" data-testid="diff-table">
      <h2>Side by side at the same virtual time <span className="muted small">(highlighted: differ by more than 10%)</span></h2>
      <table>
        <thead>
          <tr>
            <th scope="col">now</th>
            {runs.map((r) => (
              <th scope="col" key={r.variant}>
                {r.variant}
              </th>
            ))}
            <th scope="col">change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const [x, y] = [row.values[0]!, row.values[1]!];
            const big = Math.abs(x - y) > HIGHLIGHT * Math.max(Math.abs(x), Math.abs(y), 1);
            return (
              <tr key={row.label} className={big ? 'differs' : undefined} data-differs={big}>
                <th scope="row">{row.label}</th>
                {row.values.map((v, i) => (
                  <td key={i}>{formatCount(v)}</td>
                ))}
                <td>{formatChange(y, x)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
