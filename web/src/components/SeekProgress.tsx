// A seek's progress, as the worker reports it: where the runs replay from (a checkpoint's time,
// the start, or where they were), where they go, and how far they are.
import { formatNs } from '../format';

/** From and now are null until the worker's first progress (where it replays from). */
export interface SeekState {
  fromNs: number | null;
  toNs: number;
  nowNs: number | null;
}

/** The share of a seek done, 0..1 (1 when there is nothing to replay), or null before the
 *  worker said where it replays from. */
export function seekDone(seek: SeekState): number | null {
  if (seek.fromNs === null || seek.nowNs === null) return null;
  const span = seek.toNs - seek.fromNs;
  return span <= 0 ? 1 : Math.min(1, Math.max(0, (seek.nowNs - seek.fromNs) / span));
}

export function SeekProgress({ seek, className, testId }: { seek: SeekState; className: string; testId: string }) {
  const done = seekDone(seek);
  const from = seek.fromNs === null ? null : seek.fromNs === 0 ? 'the start' : formatNs(seek.fromNs);
  return (
    <span className={className} role="status" data-testid={testId} data-done={done?.toFixed(3)} data-from-ns={seek.fromNs ?? undefined} data-to-ns={seek.toNs}>
      to {formatNs(seek.toNs)}
      {from !== null && `, replaying from ${from}`}{' '}
      {/* Without a value the bar is indeterminate: the worker has not said where it starts. */}
      <progress max={1} value={done ?? undefined} aria-label={`Going to ${formatNs(seek.toNs)}`} /> {done !== null && `${Math.round(done * 100)}%`}
    </span>
  );
}
