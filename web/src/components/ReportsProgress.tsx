// How far the results worker is: which variant it runs and how far in virtual time (a long
// scenario such as S003 takes minutes to run every variant to the end).
import type { ReportsState } from '../engine/useReports';
import { formatNs } from '../format';

export function ReportsProgress({ progress }: { progress: ReportsState['progress'] }) {
  if (!progress) return <p className="muted">Running every variant to the end in a second worker…</p>;
  const { index, count, nowNs, endNs } = progress;
  // Each variant counts for an equal share: its own share is the virtual time reached over its cap.
  const done = (index + Math.min(1, endNs > 0 ? nowNs / endNs : 0)) / count;
  return (
    <p className="muted reports-progress" role="status" data-testid="results-progress" data-done={done.toFixed(3)}>
      Running every variant to the end in a second worker: variant {index + 1} of {count}, at {formatNs(nowNs)} (ends by {formatNs(endNs)} at the latest){' '}
      <progress max={1} value={done} aria-label="Results progress" /> {Math.round(done * 100)}%
    </p>
  );
}
