// The memcg LRU view (Linux 6.3, mm/vmscan.c): the per-node generations of memcgs (old, young,
// and the spare third slot when there are three) x 8 random bins, each memcg a mark in its
// bin from head (left) to tail, its segment told by shape (default ●, head ◀, tail □); a
// memcg that an operation (MEMCG_LRU_HEAD/TAIL/OLD/YOUNG, seq++) moves glides to its new place.
// Beside it, per-memcg pgsteal and usage bars by id, with S003's fairness and accuracy as the
// engine reports them live (stddev/mean of the leaves' pgsteal; their pgsteal over the pages asked). Classic kernels (and MGLRU before 6.3) do not
// walk this structure: they get the bars only.
import * as d3 from 'd3';
// d3's package says it has no side effects, so the bundler drops the one that adds
// selection.transition(): import it where it is used.
import 'd3-transition';
import { useEffect, useRef } from 'react';
import type { RunFrame, RunInfo } from '../engine/protocol';
import { formatCount } from '../format';
import { genOrder, genRole, MEMCG_NR_BINS, segIndex, type MemcgLruView as MemcgLru, type MemcgPlace } from '../lib/memcgLru';
import { ownerColor } from '../lib/palette';
import { useWidth } from '../lib/useWidth';
import './memcg.css';

const STEP = 15; // px between marks in a bin
const COMPACT_STEP = 11;
const COMPACT_BARS_H = 96;
/** The SVGs' label font on the page (px); a slide embed asks for 14 (it is projected), and the
 *  label column, the heads and the gaps grow with it. */
const LABEL_PX = 10;
const MOVE_MS = 650;
const BARS_H = 170;

const SYMBOLS = [d3.symbolCircle, d3.symbolTriangle, d3.symbolSquare];
/** Head marks point left, to the head of the bin. */
const ROTATE = [0, -90, 0];
/** A memcg's colour: memcg k >= 1 takes owner colour k - 1 (in S003 memcg k holds task k - 1's
 *  memory, so it matches the LRU view); the root is neutral. */
export const memcgColor = (id: number) => (id === 0 ? 'var(--muted)' : ownerColor(id - 1));
/** A mark's shape; `step` scales it with the spacing of the marks. */
const markPath = (seg: number, step = STEP) => d3.symbol(SYMBOLS[seg] ?? d3.symbolCircle, ((seg === 1 ? 80 : 64) * step * step) / (STEP * STEP))() ?? '';

interface Props {
  info: RunInfo;
  frame: RunFrame;
  /** Distinguishes the views in compare mode ("run-0-", "run-1-"). */
  testPrefix: string;
  /** The labels' font size in the SVGs, px (default LABEL_PX). */
  labelPx?: number;
  /** Denser marks and lower bars: a slide embed with two runs asks for it, so that both runs'
   *  grids and bars fit the slide without shrinking the text. */
  compact?: boolean;
}

export function MemcgLruView({ info, frame, testPrefix, labelPx = LABEL_PX, compact = false }: Props) {
  const names = info.memcgNames ?? [];
  const lru = frame.memcg;
  if (!lru) {
    return (
      <section className="memcg-view" data-testid={`${testPrefix}memcg-view`}>
        <p className="error">no memcg LRU data in this frame</p>
      </section>
    );
  }
  const stealSum = lru.pgsteal.reduce((a, b) => a + b, 0);
  const spread = lru.pgstealSpreadPct;
  const accuracy = lru.reclaimAccuracyPct;
  const requested = lru.reclaimRequestedPages;
  const nameOf = (id: number) => names[id] ?? `#${id}`;

  return (
    <section
      className="memcg-view"
      aria-label={`Memcg LRU of ${info.variant}`}
      data-testid={`${testPrefix}memcg-view`}
      data-active={lru.active ? 1 : 0}
      data-now-ns={frame.nowNs}
      data-seq={lru.seq}
      data-nr-memcgs={lru.pgsteal.length}
      data-pgsteal-sum={stealSum}
    >
      <h3>
        Memcg LRU <span className="muted">— {info.variant}</span>
      </h3>
      {lru.active ? (
        <p className="memcg-note muted small" data-testid={`${testPrefix}memcg-note`}>
          Root reclaim (<code>shrink_many</code>) starts in a random bin of the <strong>old</strong> generation (seq {lru.seq}) and walks each
          bin head first; a memcg it aged goes to the young generation, one too small or protected to the tail; when the old generation
          empties, seq advances and young becomes old.
        </p>
      ) : (
        <p className="memcg-note muted small" data-testid={`${testPrefix}memcg-note`}>
          The memcg LRU is used by MGLRU root reclaim only (Linux 6.3+); this kernel walks every memcg in full (<code>shrink_node_memcgs</code>), so
          only the per-memcg bars are shown.
        </p>
      )}
      <div className="memcg-body">
        {lru.active && <MemcgGrid lru={lru} nameOf={nameOf} testPrefix={testPrefix} labelPx={labelPx} step={compact ? COMPACT_STEP : STEP} compact={compact} />}
        <div className="memcg-side">
          <p className="memcg-numbers">
            <span>
              Σ pgsteal{' '}
              <strong data-testid={`${testPrefix}memcg-pgsteal-sum`} data-pages={stealSum}>
                {formatCount(stealSum)}
              </strong>{' '}
              pages
            </span>
            <span title="S003's fairness metric: population standard deviation of pgsteal over the leaf memcgs, divided by their mean">
              stddev/mean (pgsteal, {lru.leaves.length} leaf memcgs){' '}
              <strong data-testid={`${testPrefix}memcg-fairness`} data-value={spread ?? ''}>
                {spread === null ? '—' : `${spread.toFixed(1)}%`}
              </strong>
            </span>
            {accuracy !== null && (
              <span title="S003's accuracy: pgsteal of the leaf memcgs over the pages asked of memory.reclaim (writes that are over)">
                leaf pgsteal / requested{' '}
                <strong data-testid={`${testPrefix}memcg-accuracy`} data-requested={requested}>
                  {accuracy.toFixed(1)}%
                </strong>{' '}
                <span className="muted">of {formatCount(requested)} pages asked</span>
              </span>
            )}
          </p>
          <MemcgBars lru={lru} nameOf={nameOf} testPrefix={testPrefix} labelPx={labelPx} height={compact ? COMPACT_BARS_H : BARS_H} />
        </div>
      </div>
    </section>
  );
}

/** Generations x bins with the memcgs as marks; d3 moves a mark whose place changed. */
function MemcgGrid({ lru, nameOf, testPrefix, labelPx, step: STEP, compact }: { lru: MemcgLru; nameOf: (id: number) => string; testPrefix: string; labelPx: number; step: number; compact: boolean }) {
  const LABEL_W = Math.round(labelPx * 9.2); // "seq 12 · slot 1"
  const BIN_HEAD = labelPx + 8;
  const [box, width] = useWidth(360, 600);
  const marksRef = useRef<SVGGElement | null>(null);
  const svgRef = useRef<SVGSVGElement | null>(null);
  const moves = useRef(0);
  const order = genOrder(lru);
  const colW = (width - LABEL_W) / MEMCG_NR_BINS;
  const perRow = Math.max(1, Math.floor((colW - 6) / STEP));
  const fullest = Math.max(1, ...lru.counts.flat());
  const rowsPerCell = Math.max(2, Math.ceil(fullest / perRow));
  const rowH = Math.max(rowsPerCell * STEP + 10, Math.round(labelPx * 3.4) + 6);
  const height = BIN_HEAD + order.length * rowH + 4;

  const placeXY = (p: MemcgPlace): [number, number] => {
    const row = order.indexOf(p.gen);
    return [LABEL_W + p.bin * colW + 5 + (p.pos % perRow) * STEP + STEP / 2, BIN_HEAD + row * rowH + 5 + Math.floor(p.pos / perRow) * STEP + STEP / 2];
  };

  // Frames come at the display's rate; the memcg LRU changes only when reclaim runs, so the
  // marks are touched only when a place, a segment or seq changed.
  const placesKey = `${lru.seq}|${lru.places.map((p) => `${p.id}:${p.gen}:${p.bin}:${p.pos}:${p.seg}`).join(',')}`;
  useEffect(() => {
    const g = marksRef.current;
    if (!g) return;
    const at = (p: MemcgPlace) => {
      const [x, y] = placeXY(p);
      return `translate(${x.toFixed(1)},${y.toFixed(1)})`;
    };
    d3.select(g)
      .selectAll<SVGGElement, MemcgPlace>('g.memcg-mark')
      .data(lru.places, (d) => d.id)
      .join(
        (enter) => {
          const m = enter.append('g').attr('class', 'memcg-mark').attr('transform', at);
          m.append('circle').attr('class', 'memcg-ring').attr('r', STEP * 0.6).style('opacity', 0);
          m.append('path').attr('class', 'memcg-shape');
          m.append('title');
          return m;
        },
        (update) => update,
        (exit) => exit.remove(),
      )
      .each(function (d) {
        const el = d3.select(this);
        const target = at(d);
        const moved = this.dataset.gen !== undefined && (this.dataset.gen !== String(d.gen) || this.dataset.bin !== String(d.bin));
        if (moved) {
          moves.current++;
          // A ring marks the memcgs the last operations moved, fading as they settle.
          el.select('circle.memcg-ring').interrupt().style('opacity', 1).transition().delay(MOVE_MS).duration(1500).style('opacity', 0);
        }
        if (el.attr('data-target') !== target) {
          // Interrupts a move still under way and goes on from where the mark is.
          el.attr('data-target', target).transition().duration(moved ? MOVE_MS : 250).ease(d3.easeCubicInOut).attr('transform', target);
        }
        const seg = segIndex(d.seg);
        el.attr('data-memcg', d.id).attr('data-gen', d.gen).attr('data-bin', d.bin).attr('data-pos', d.pos).attr('data-seg', d.seg);
        el.select('path')
          .attr('d', markPath(seg, STEP))
          .attr('transform', `rotate(${ROTATE[seg]})`)
          .attr('class', `memcg-shape seg-${d.seg}`)
          .style(d.seg === 'tail' ? 'stroke' : 'fill', memcgColor(d.id));
        el.select('path').style(d.seg === 'tail' ? 'fill' : 'stroke', null);
        el.select('title').text(`${nameOf(d.id)} (id ${d.id}): ${genRole(lru, d.gen)} generation, bin ${d.bin}, #${d.pos} from head, ${d.seg} segment`);
      });
    svgRef.current?.setAttribute('data-moves', String(moves.current));
    // placesKey stands for lru (placeXY for the layout numbers): same key, same marks.
  }, [placesKey, colW, perRow, rowH, LABEL_W, BIN_HEAD, STEP]);

  return (
    <div className="memcg-grid" ref={box}>
      <svg
        ref={svgRef}
        width={width}
        height={height}
        role="img"
        aria-label={`Memcg LRU: ${lru.places.length} memcgs in ${lru.nrGens} generations of ${MEMCG_NR_BINS} bins; old generation seq ${lru.seq}`}
        data-testid={`${testPrefix}memcg-grid`}
        data-marks={lru.places.length}
      >
        {[...Array(MEMCG_NR_BINS).keys()].map((b) => (
          <text key={b} className="memcg-bin-label" x={LABEL_W + b * colW + colW / 2} y={labelPx + 2} textAnchor="middle" style={{ fontSize: labelPx }}>
            bin {b}
          </text>
        ))}
        {order.map((gen, row) => {
          const role = genRole(lru, gen);
          const y = BIN_HEAD + row * rowH;
          const genSeq = role === 'old' ? lru.seq : role === 'young' ? lru.seq + 1 : null;
          return (
            <g key={gen} data-testid={`${testPrefix}memcg-gen-${role}`} data-slot={gen} data-gen-seq={genSeq ?? ''}>
              <text className={`memcg-gen-label ${role}`} x={4} y={y + Math.round(labelPx * 1.6)} style={{ fontSize: labelPx + 2 }}>
                {role}
              </text>
              <text className="memcg-gen-sub" x={4} y={y + labelPx * 3} style={{ fontSize: labelPx }}>
                {genSeq !== null ? `seq ${genSeq} · slot ${gen}` : `slot ${gen}`}
              </text>
              {[...Array(MEMCG_NR_BINS).keys()].map((b) => (
                <rect key={b} className={`memcg-cell ${role}`} x={LABEL_W + b * colW + 1} y={y + 1} width={colW - 2} height={rowH - 2} rx={3} />
              ))}
            </g>
          );
        })}
        <g ref={marksRef} />
      </svg>
      <p className="memcg-legend muted small">
        head → tail within a bin ·{' '}
        <svg width={14} height={14} aria-hidden="true">
          <path className="memcg-shape seg-default legend" transform="translate(7,7)" d={markPath(0)} />
        </svg>{' '}
        default{' '}
        <svg width={14} height={14} aria-hidden="true">
          <path className="memcg-shape seg-head legend" transform="translate(7,7) rotate(-90)" d={markPath(1)} />
        </svg>{' '}
        {compact ? 'head segment' : 'head segment (MEMCG_LRU_HEAD)'}{' '}
        <svg width={14} height={14} aria-hidden="true">
          <path className="memcg-shape seg-tail legend" transform="translate(7,7)" d={markPath(2)} />
        </svg>{' '}
        {compact ? 'tail segment · ring: just moved' : 'tail segment (MEMCG_LRU_TAIL) · ring: just moved · colour: memcg, as in the bars'}
      </p>
    </div>
  );
}

/** pgsteal up and usage down from a common axis, one column per memcg id. */
function MemcgBars({ lru, nameOf, testPrefix, labelPx, height: BARS_H }: { lru: MemcgLru; nameOf: (id: number) => string; testPrefix: string; labelPx: number; height: number }) {
  const [box, width] = useWidth(240, 600);
  const ids = [...Array(lru.pgsteal.length).keys()];
  const left = Math.max(44, Math.round(labelPx * 4.4)); // "10,752" under "usage"
  const x = d3.scaleBand<number>().domain(ids).range([left, width - 6]).paddingInner(lru.pgsteal.length > 48 ? 0.1 : 0.25);
  const mid = BARS_H * 0.58;
  const up = d3.scaleLinear().domain([0, Math.max(1, d3.max(lru.pgsteal) ?? 0)]).range([0, mid - 2 * labelPx + 4]);
  const down = d3.scaleLinear().domain([0, Math.max(1, d3.max(lru.usage) ?? 0)]).range([0, BARS_H - mid - labelPx - 8]);
  // Every k-th id labelled, k a round number, so that the widest label (digits ~0.65 em each,
  // plus a gap) never runs into the next one: 128 ids in a 600 px compare column would.
  const idLabelW = String(Math.max(0, lru.pgsteal.length - 1)).length * 0.65 * labelPx + 6;
  const labelEvery = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].find((k) => k * x.step() >= idLabelW) ?? 1000;
  return (
    <div className="memcg-bars" ref={box}>
      <svg width={width} height={BARS_H} role="img" aria-label="pgsteal (up) and usage (down) per memcg, by id" data-testid={`${testPrefix}memcg-bars`} data-bars={lru.pgsteal.length}>
        <text className="memcg-axis-label" x={2} y={labelPx + 2} style={{ fontSize: labelPx }}>
          pgsteal
        </text>
        <text className="memcg-axis-label" x={2} y={2 * labelPx + 4} style={{ fontSize: labelPx }}>
          {formatCount(up.domain()[1]!)}
        </text>
        <text className="memcg-axis-label" x={2} y={BARS_H - labelPx - 6} style={{ fontSize: labelPx }}>
          usage
        </text>
        <text className="memcg-axis-label" x={2} y={BARS_H - 4} style={{ fontSize: labelPx }}>
          {formatCount(down.domain()[1]!)}
        </text>
        {ids.map((id) => (
          <g key={id} className="memcg-bar" data-memcg={id} data-pgsteal={lru.pgsteal[id]} data-usage={lru.usage[id]}>
            <title>{`${nameOf(id)} (id ${id}): pgsteal ${formatCount(lru.pgsteal[id]!)} pages, pgscan ${formatCount(lru.pgscan[id]!)}, usage ${formatCount(lru.usage[id]!)} pages (own)`}</title>
            <rect className="memcg-steal" x={x(id)} width={x.bandwidth()} y={mid - up(lru.pgsteal[id]!)} height={up(lru.pgsteal[id]!)} style={{ fill: memcgColor(id) }} />
            <rect className="memcg-usage" x={x(id)} width={x.bandwidth()} y={mid + labelPx + 4} height={down(lru.usage[id]!)} />
          </g>
        ))}
        <line className="memcg-axis" x1={left - 4} x2={width - 4} y1={mid + 0.5} y2={mid + 0.5} />
        {ids
          .filter((id) => id % labelEvery === 0)
          .map((id) => (
            <text key={id} className="memcg-id-label" x={(x(id) ?? 0) + x.bandwidth() / 2} y={mid + labelPx + 1} textAnchor="middle" style={{ fontSize: labelPx }}>
              {id}
            </text>
          ))}
      </svg>
      <p className="muted small">pgsteal (up) and usage (down, own pages) per memcg id; 0 is the root.</p>
    </div>
  );
}
