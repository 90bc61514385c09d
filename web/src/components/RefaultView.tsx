// The refault-distance drawing: the last refault the engine reported (workingset_refault) on the
// nonresident clock — when its page was evicted (the shadow entry's timestamp), when it came
// back, the distance between them, and the workingset size it was compared with.
import type { RunInfo } from '../engine/protocol';
import type { RefaultView as Refault } from '../engine/generated/views';
import { formatCount, formatNs } from '../format';
import { SERIES_COLORS } from '../lib/palette';

export function RefaultView({ info, view, testPrefix }: { info: RunInfo; view: Refault; testPrefix: string }) {
  const r = view.last;
  if (!r) return null;
  const W = 520;
  const pad = 12;
  // The clock from the eviction to now; the workingset size drawn from the same start, so the
  // distance and the size it must not exceed are compared side by side.
  const span = Math.max(r.distance, r.workingsetSize, 1);
  const x = (pages: number) => pad + ((W - 2 * pad) * pages) / span;
  const verdict = r.activated ? 'activated: the distance fits in the workingset' : 'not activated: the distance is larger than the workingset';
  return (
    <section className="refault" aria-label={`Last refault of ${info.variant}`} data-testid={`${testPrefix}refault`} data-activated={r.activated}>
      <h3>
        Refault distance <span className="muted">— {info.variant}</span>
      </h3>
      <p className="small" data-testid={`${testPrefix}refault-page`}>
        Page {formatCount(r.page)} of {view.spaceName} refaulted at {formatNs(r.atNs)}. Its shadow entry (one of{' '}
        <strong data-testid={`${testPrefix}refault-shadows`}>{formatCount(view.shadowEntries)}</strong> in {view.spaceName} now) recorded the
        nonresident clock at eviction: {formatCount(r.evictionAge)}; now it reads {formatCount(r.nowAge)}.
      </p>
      <svg viewBox={`0 0 ${W} 64`} width={W} height={64} style={{ maxWidth: '100%', height: 'auto' }} role="img" aria-label={`distance ${r.distance} pages, workingset ${r.workingsetSize} pages, ${verdict}`}>
        <line x1={x(0)} x2={x(0)} y1={4} y2={60} stroke="currentColor" />
        <text x={x(0) + 3} y={12} fontSize={10} fill="currentColor">evicted (shadow entry)</text>
        <rect x={x(0)} y={18} width={Math.max(1, x(r.distance) - x(0))} height={14} fill={SERIES_COLORS[2]} />
        <text x={x(0) + 3} y={29} fontSize={10} fill="#fff">distance {formatCount(r.distance)}</text>
        <rect x={x(0)} y={38} width={Math.max(1, x(r.workingsetSize) - x(0))} height={14} fill={SERIES_COLORS[0]} />
        <text x={x(0) + 3} y={49} fontSize={10} fill="#000">workingset {formatCount(r.workingsetSize)}</text>
        <line x1={x(r.distance)} x2={x(r.distance)} y1={14} y2={60} stroke="currentColor" strokeDasharray="3 2" />
      </svg>
      <p className="small" data-testid={`${testPrefix}refault-verdict`}>
        Distance {formatCount(r.distance)} pages vs workingset {formatCount(r.workingsetSize)} pages: {verdict}.
      </p>
    </section>
  );
}
