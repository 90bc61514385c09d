// A replayed trace's miss-ratio curve: plain LRU and Belady's OPT (the engine's reference
// columns) and each kernel variant, one line each, over cache sizes on a log axis. The kernel
// points fill in as their runs finish; clicking one opens that run in the live view. React
// renders the lines and points; D3 gives the scales, the axes and the line paths.
import './mrc.css';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, line, scaleLinear, scaleLog, select } from 'd3';
import type { MrcPoint, MrcState } from '../engine/mrcPool';
import { SERIES_COLORS, NEUTRAL } from '../lib/palette';
import { useSize } from '../lib/useWidth';

/** Each curve's look: none is the anon orange or the file blue (palette.ts); the reference
 *  lines are neutral and dashed, the kernels solid with their own marker. */
export const CURVES = {
  lru: { label: 'plain LRU', color: NEUTRAL, dash: '7 4' },
  opt: { label: "OPT (Belady's MIN)", color: 'var(--fg)', dash: '2 4' },
} as const;
const KERNEL_COLORS = [SERIES_COLORS[0]!, SERIES_COLORS[2]!, SERIES_COLORS[1]!, SERIES_COLORS[3]!];
/** A variant's name on the chart (the engine's scenario calls them classic and mglru). */
const kernelLabel = (v: string) => (v === 'classic' ? 'Linux classic LRU' : v === 'mglru' ? 'Linux MGLRU' : v);

interface Props {
  mrc: MrcState;
  /** The point shown in the live view (variant, pages), if one is. */
  opened: { variant: string; pages: number } | null;
  onOpen(variant: string, pages: number): void;
}

const INITIAL = { width: 640, height: 320 };

export function MrcChart({ mrc, opened, onOpen }: Props) {
  const [box, { width: W, height: H }] = useSize(INITIAL);
  const xAxis = useRef<SVGGElement | null>(null);
  const yAxis = useRef<SVGGElement | null>(null);
  const ref = mrc.reference;
  const requests = ref?.plan.requests ?? 1;
  const sizes = ref?.plan.sizes ?? [];
  const font = 14;
  const M = { top: Math.round(font * 2.4), right: 16, bottom: font * 3 + 8, left: font * 3.6 };
  const x = useMemo(
    () => scaleLog().domain([Math.max(1, sizes[0] ?? 1), Math.max(2, sizes[sizes.length - 1] ?? 10)]).range([M.left, W - M.right]),
    [sizes, W, M.left, M.right],
  );
  const y = useMemo(() => scaleLinear().domain([0, 1]).range([H - M.bottom, M.top]), [H, M.bottom, M.top]);
  useLayoutEffect(() => {
    if (xAxis.current) select(xAxis.current).call(axisBottom(x).ticks(Math.max(2, Math.floor((W - M.left) / 90)), '~s'));
    if (yAxis.current) select(yAxis.current).call(axisLeft(y).ticks(5, '.0%'));
  }, [x, y, W, M.left]);

  const path = line<[number, number]>()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]));
  const variants = [...new Set(mrc.points.map((p) => p.variant))];
  const refCurve = (misses: number[]) => path(sizes.map((s, i) => [s, misses[i]! / requests]));
  const kernel = (v: string) => mrc.points.filter((p) => p.variant === v);
  const ratio = (p: MrcPoint) => (p.misses ?? 0) / requests;
  const legend = [
    { key: 'lru', ...CURVES.lru },
    { key: 'opt', ...CURVES.opt },
    ...variants.map((v, i) => ({ key: v, label: kernelLabel(v), color: KERNEL_COLORS[i % KERNEL_COLORS.length]!, dash: undefined, mark: i % 2 === 0 ? 'dot' : 'square' })),
  ];
  return (
    <figure className="mrc-chart" data-testid="mrc-chart" data-phase={mrc.phase}>
      <figcaption>
        <strong>Miss ratio by cache size</strong>
        <span className="mrc-legend">
          {legend.map((l) => (
            <span key={l.key} className="legend-item" data-testid={`mrc-legend-${l.key}`}>
              <svg width="30" height="18" aria-hidden="true">
                <line x1="0" x2="30" y1="9" y2="9" stroke={l.color} strokeWidth="2.5" strokeDasharray={l.dash} />
                {l.key === 'lru' && <circle cx="15" cy="9" r="6.5" fill="none" stroke={l.color} strokeWidth="2" />}
                {l.key === 'opt' && <path d="M11,5L19,13M11,13L19,5" stroke={l.color} strokeWidth="2" />}
                {'mark' in l && l.mark === 'dot' && <circle cx="15" cy="9" r="4.5" fill={l.color} />}
                {'mark' in l && l.mark === 'square' && <rect x="10" y="4" width="10" height="10" fill="var(--panel)" stroke={l.color} strokeWidth="2.5" />}
              </svg>
              {l.label}
            </span>
          ))}
        </span>
      </figcaption>
      <div ref={box} className="mrc-box">
        <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="group" aria-label={`Miss ratio of ${legend.map((l) => l.label).join(', ')} by cache size; each kernel point opens its run`}>
          <g ref={xAxis} className="x-axis" transform={`translate(0,${H - M.bottom})`} />
          <g ref={yAxis} className="y-axis" transform={`translate(${M.left},0)`} />
          <text className="axis-title" x={W - M.right} y={H - 6} textAnchor="end">
            cache size, pages (log; the trace touches {ref?.plan.footprint.toLocaleString('en') ?? '…'})
          </text>
          <text className="axis-title" x={4} y={font} textAnchor="start">
            miss ratio
          </text>
          {/* Draw order, so that every line stays visible where lines meet (at the largest sizes
              every policy misses only first requests): the kernel lines, then OPT and plain LRU
              over them, dashed, with marks of their own at each size (OPT a cross, LRU a ring
              wider than a kernel's mark), then the kernel points on top, where they can be clicked. */}
          {variants.map((v, vi) => {
            const done = kernel(v).filter((p) => p.status === 'done');
            return <path key={v} className="mrc-line" data-testid={`mrc-line-${v}`} data-points={done.length} d={path(done.map((p) => [p.pages, ratio(p)])) ?? ''} stroke={KERNEL_COLORS[vi % KERNEL_COLORS.length]!} />;
          })}
          {ref && (
            <g className="mrc-refs" pointerEvents="none">
              <path className="mrc-line" data-testid="mrc-line-opt" data-points={sizes.length} d={refCurve(ref.opt) ?? ''} stroke={CURVES.opt.color} strokeDasharray={CURVES.opt.dash} />
              <path className="mrc-line" data-testid="mrc-line-lru" data-points={sizes.length} d={refCurve(ref.lru) ?? ''} stroke={CURVES.lru.color} strokeDasharray={CURVES.lru.dash} />
              {sizes.map((s, i) => {
                const [cx, co, cl] = [x(s), y(ref.opt[i]! / requests), y(ref.lru[i]! / requests)];
                return (
                  <g key={s}>
                    <path d={`M${cx - 5},${co - 5}L${cx + 5},${co + 5}M${cx - 5},${co + 5}L${cx + 5},${co - 5}`} stroke={CURVES.opt.color} strokeWidth={2} data-testid={`mrc-mark-opt-${s}`} />
                    <circle cx={cx} cy={cl} r={7.5} fill="none" stroke={CURVES.lru.color} strokeWidth={2} data-testid={`mrc-mark-lru-${s}`} />
                  </g>
                );
              })}
            </g>
          )}
          {variants.map((v, vi) => {
            const color = KERNEL_COLORS[vi % KERNEL_COLORS.length]!;
            const done = kernel(v).filter((p) => p.status === 'done');
            return (
              <g key={v} data-testid={`mrc-kernel-${v}`}>
                {done.map((p) => {
                  const isOpen = opened?.variant === v && opened.pages === p.pages;
                  const label = `${kernelLabel(v)} at ${p.pages.toLocaleString('en')} pages: miss ratio ${(ratio(p) * 100).toFixed(1)}%. Open this run`;
                  return (
                    <g
                      key={p.pages}
                      className={isOpen ? 'mrc-point open' : 'mrc-point'}
                      role="button"
                      tabIndex={0}
                      aria-label={label}
                      aria-pressed={isOpen}
                      data-testid={`mrc-point-${v}-${p.pages}`}
                      onClick={() => onOpen(v, p.pages)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || e.key === ' ') {
                          e.preventDefault();
                          onOpen(v, p.pages);
                        }
                      }}
                    >
                      <title>{label}</title>
                      {/* A larger transparent target than the mark, for a finger. */}
                      <circle cx={x(p.pages)} cy={y(ratio(p))} r={12} fill="transparent" />
                      {vi % 2 === 0 ? (
                        <circle cx={x(p.pages)} cy={y(ratio(p))} r={isOpen ? 7 : 4.5} fill={color} stroke="var(--panel)" strokeWidth={1.5} />
                      ) : (
                        // Hollow, so that a filled circle under it (another kernel at the same miss ratio) shows through.
                        <rect x={x(p.pages) - (isOpen ? 7 : 5)} y={y(ratio(p)) - (isOpen ? 7 : 5)} width={isOpen ? 14 : 10} height={isOpen ? 14 : 10} fill="none" stroke={color} strokeWidth={2.5} />
                      )}
                    </g>
                  );
                })}
              </g>
            );
          })}
        </svg>
      </div>
      <p className="muted mrc-note" data-testid="mrc-gap-note">
        At each cache size, the height from OPT&apos;s line up to a kernel&apos;s is the share of the trace&apos;s requests that kernel missed beyond the fewest any policy can miss there (OPT evicts the page needed furthest in the future, which a kernel cannot know).
      </p>
    </figure>
  );
}

/** How far the curve is: the reference columns, then the kernel points done of all. */
export function MrcProgress({ mrc }: { mrc: MrcState }) {
  if (mrc.phase === 'error') {
    return (
      <p className="error" role="alert" data-testid="mrc-error">
        No miss-ratio curve: {mrc.error}
      </p>
    );
  }
  if (mrc.phase === 'reference') return <p className="muted mrc-progress" data-testid="mrc-progress">Computing plain LRU and OPT at every cache size…</p>;
  const total = mrc.points.length;
  const settled = mrc.points.filter((p) => p.status === 'done' || p.status === 'error').length;
  const failed = mrc.points.filter((p) => p.status === 'error');
  const share = total > 0 ? mrc.points.reduce((s, p) => s + (p.status === 'done' || p.status === 'error' ? 1 : p.endNs > 0 ? Math.min(1, p.nowNs / p.endNs) * 0.99 : 0), 0) / total : 1;
  return (
    <div className="mrc-progress" data-testid="mrc-progress" data-settled={settled} data-total={total}>
      <p className="muted">
        <span role="status">
          {settled === total ? `All ${total} kernel runs done.` : `Kernel runs: ${settled} of ${total} done, ${mrc.workers} worker${mrc.workers === 1 ? '' : 's'} running them.`}
        </span>{' '}
        {settled < total && <progress max={1} value={share} aria-label="Kernel points progress" />}
      </p>
      {failed.length > 0 && (
        <p className="error" data-testid="mrc-point-errors">
          {failed.length} point{failed.length === 1 ? '' : 's'} failed: {failed[0]!.variant} at {failed[0]!.pages} pages: {failed[0]!.error}
        </p>
      )}
    </div>
  );
}
