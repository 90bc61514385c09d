// Compare mode: the runs' list sizes and key counters side by side, each side's virtual time
// on top, with large differences highlighted. The runs step in lockstep, so the sides are at
// one time until a run ends: from then on its column holds its end values, labelled so, and
// nothing is compared (a change between two times is not a difference between kernels).
import { commonNowNs, type RunFrame, type RunInfo } from '../engine/protocol';
import { LIST_ROWS } from '../lib/palette';
import { formatChange, formatCount, formatNs } from '../format';

const COUNTERS = ['pgscan_anon', 'pgscan_file', 'workingset_refault_file', 'pswpout', 'pgmajfault'];

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
  const times = frames.map((f) => f.nowNs);
  const same = times.every((t) => t === times[0]);
  const latest = commonNowNs(frames);
  const ended = runs.map((r, i) => ({ variant: r.variant, ns: times[i]! })).filter((_, i) => !same && frames[i]!.finished && times[i]! < latest);
  return (
    <section className="diff" aria-label="Differences between the runs" data-testid="diff-table" data-same-time={same}>
      <h2>
        {same ? 'Side by side at the same virtual time' : 'Side by side: a run has ended'}{' '}
        <span className="muted small">{same ? '(highlighted: differ by more than 10%)' : '(not compared: the sides are at different times)'}</span>
      </h2>
      {ended.map((e) => (
        <p key={e.variant} className="muted" data-testid="diff-ended">
          {e.variant} ended at {formatNs(e.ns)}: its column holds its end values.
        </p>
      ))}
      <table>
        <thead>
          <tr>
            <th scope="col">now</th>
            {runs.map((r) => (
              <th scope="col" key={r.variant}>
                {r.variant}
                {ended.some((e) => e.variant === r.variant) && ' (end values)'}
              </th>
            ))}
            <th scope="col">change</th>
          </tr>
        </thead>
        <tbody>
          <tr data-testid="diff-time">
            <th scope="row">virtual time</th>
            {times.map((t, i) => (
              <td key={i}>{formatNs(t)}</td>
            ))}
            <td />
          </tr>
          {rows.map((row) => {
            const [x, y] = [row.values[0]!, row.values[1]!];
            const big = same && Math.abs(x - y) > HIGHLIGHT * Math.max(Math.abs(x), Math.abs(y), 1);
            return (
              <tr key={row.label} className={big ? 'differs' : undefined} data-differs={big}>
                <th scope="row">{row.label}</th>
                {row.values.map((v, i) => (
                  <td key={i}>{formatCount(v)}</td>
                ))}
                <td>{same ? formatChange(y, x) : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
