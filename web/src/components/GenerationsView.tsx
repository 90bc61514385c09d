// The multi-gen LRU of the root lruvec: per type (anon, file) its generations as columns from
// min_seq (left, evicted first) to max_seq (right, youngest), each column's height its pages
// and its bands the tiers; beside it the PID controller's state (refault rate per tier, the
// protected tiers, the type the next eviction takes) and one line of why.
//
// The columns are SVG drawn by D3 with a data join keyed by sequence number, so aging (a new
// max_seq) slides the generations left and grows the new one in on the right, and eviction
// (min_seq advancing) drains the oldest and lets it fall out on the left.
import './gens.css';
import { useLayoutEffect, useRef } from 'react';
import { axisLeft, format, max, scaleLinear, select, transition, type Selection } from 'd3';
import type { RunFrame, RunInfo } from '../engine/protocol';
import { formatCount } from '../format';
import { columnsOf, explainGens, explainTiers, NR_TIERS, TYPES, type GenType, type GensView } from '../lib/gens';
import { mix, TYPE_COLORS } from '../lib/palette';
import { GlossaryTerm } from './GlossaryTerm';
import { useWidth } from '../lib/useWidth';

/** Tier t of a type: light (tier 0, cold) to dark (tier 3, accessed most through fds). */
export function tierColor(ty: number, t: number): string {
  const base = TYPE_COLORS[ty]!;
  return [mix(base, '#ffffff', 0.6), mix(base, '#ffffff', 0.3), base, mix(base, '#000000', 0.35)][t]!;
}
const TIER_MEANING = ['0–1 fd accesses', '2', '3–4', '5+ or workingset'];

const M = { top: 36, bottom: 50, left: 46, right: 8 };
/** Plot height grows with its width (a projector gets taller columns), within bounds. */
const heightFor = (width: number) => Math.round(Math.min(460, Math.max(220, width * 0.34)));
const pagesFormat = format('~s');
const GAP = 22;
const MS = 280;

function formatAge(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

interface Props {
  info: RunInfo;
  frame: RunFrame;
  testPrefix: string;
  theme?: string;
}

interface Col {
  seq: number;
  ageMs: number;
  tiers: number[];
  pages: number;
}

export function GenerationsView({ info, frame, testPrefix, theme }: Props) {
  const g = frame.gens;
  const svgRef = useRef<SVGSVGElement | null>(null);
  const [box, width] = useWidth(300, 560);
  const H = heightFor(width);

  // Layout effect: the columns are in place in the same commit as the React-drawn numbers.
  useLayoutEffect(() => {
    if (!svgRef.current || !g) return;
    draw(select(svgRef.current), g, width, H, info, testPrefix);
  }, [g, width, H, info, testPrefix, theme]);

  if (!g) return null;
  const cols: [Col[], Col[]] = [columnsOf(g, 0), columnsOf(g, 1)];
  const total = (ty: GenType) => cols[ty].reduce((a, c) => a + c.pages, 0);
  const patternId = `${testPrefix}gens-protected`;

  return (
    <section
      className="gens"
      aria-label={`Generations of ${info.variant}`}
      data-testid={`${testPrefix}gens`}
      data-max-seq={g.maxSeq}
      data-min-seq-anon={g.minSeq[0]}
      data-min-seq-file={g.minSeq[1]}
      data-pages-anon={total(0)}
      data-pages-file={total(1)}
      data-now-ns={frame.nowNs}
    >
      <h3>
        Generations <span className="muted">— {info.variant} · max_seq </span>
        <span data-testid={`${testPrefix}gens-max-seq`}>{g.maxSeq}</span>
        <span className="muted">
          {' '}
          · min_seq anon {g.minSeq[0]}, file {g.minSeq[1]}
          {frame.gensMemcg !== undefined && info.memcgNames ? ` · memcg ${info.memcgNames[frame.gensMemcg] ?? frame.gensMemcg} (the largest)` : ''}
        </span>
      </h3>
      <div className="gens-body">
        <div className="gens-plot" ref={box}>
          <svg
            ref={svgRef}
            width={width}
            height={H}
            role="img"
            aria-label={`Generations: ${TYPES.map((t, ty) => `${t} ${cols[ty as GenType].map((c) => `seq ${c.seq} ${formatCount(c.pages)} pages`).join(', ')}`).join('; ')}`}
          >
            <defs>
              <pattern id={patternId} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="2.2" height="6" fill="var(--fg)" opacity="0.55" />
              </pattern>
            </defs>
          </svg>
        </div>
        <Controller g={g} testPrefix={testPrefix} />
      </div>
      <figcaption className="legend">
        {TYPES.map((t, ty) => (
          <span key={t} className="legend-group" aria-label={`${t} tiers`}>
            <strong>{t}</strong>
            {Array.from({ length: NR_TIERS }, (_, tier) => (
              <span key={tier} className="legend-item" title={`tier ${tier}: ${TIER_MEANING[tier]}`}>
                <span className="swatch" style={{ background: tierColor(ty, tier) }} />
                tier {tier}
              </span>
            ))}
          </span>
        ))}
        <span className="legend-item">
          <svg width="11" height="11" aria-hidden="true">
            <rect width="11" height="11" fill="var(--strip-bg)" />
            <rect width="11" height="11" fill={`url(#${patternId})`} />
          </svg>
          protected tier (kept at the next eviction)
        </span>
        <span className="muted">tier = how often a page was used through file descriptors ({TIER_MEANING.map((m, t) => `${t}: ${m}`).join(', ')})</span>
      </figcaption>
    </section>
  );
}

/** The PID controller: refault rate per tier, protected tiers, the type scanned next, and why. */
function Controller({ g, testPrefix }: { g: GensView; testPrefix: string }) {
  return (
    <div className="gens-pid" aria-label="PID controller">
      <p className="decision">
        next eviction{' '}
        <span className="tag" data-testid={`${testPrefix}gens-next`} style={{ borderLeft: `4px solid ${TYPE_COLORS[g.next]}` }}>
          {TYPES[g.next]}
        </span>{' '}
        <span className="muted small">
          {g.rework ? '6.14 controller: all tiers, ' : '6.1 controller: tier 0, '}
          <GlossaryTerm term="gains">gains s : 200−s</GlossaryTerm>
        </span>
      </p>
      <table className="pid-table">
        <caption className="muted small">refault rate per tier (refaulted / evicted + protected)</caption>
        <thead>
          <tr>
            <th scope="col" />
            {Array.from({ length: NR_TIERS }, (_, t) => (
              <th key={t} scope="col">
                tier {t}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {TYPES.map((name, ty) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              {g.rates[ty]!.map((r, t) => {
                const prot = t > g.tierIdx[ty]!;
                return (
                  <td key={t} className={prot ? 'protected' : undefined} data-testid={`${testPrefix}gens-rate-${name}-${t}`} data-protected={prot}>
                    {r === null ? '—' : `${(r * 100).toFixed(r < 0.1 ? 1 : 0)}%`}
                    {prot && <span className="lock"> protected</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="explain" data-testid={`${testPrefix}gens-explain`} data-reason={g.reason}>
        {explainGens(g)}
      </p>
      <p className="explain muted small">{explainTiers(g)}</p>
    </div>
  );
}

/** The columns of both types: a D3 join keyed by seq, animated between frames. */
function draw(svg: Selection<SVGSVGElement, unknown, null, undefined>, g: GensView, width: number, H: number, info: RunInfo, prefix: string) {
  const panelW = (width - M.left - M.right - GAP) / 2;
  // The labels under the columns are set in lines of the view's label font (--gens-font-px:
  // 11 px on the page, 14 px in a slide embed), the bottom margin as tall as their three lines.
  const fs = Number(getComputedStyle(svg.node()!).getPropertyValue('--gens-font-px')) || 11;
  const lh = Math.max(13, Math.round(fs * 1.2));
  const bottom = Math.max(M.bottom, 3 * lh + 11);
  const slots = Math.max(4, g.maxSeq - Math.min(g.minSeq[0], g.minSeq[1]) + 1);
  const slotW = panelW / slots;
  const colW = Math.min(90, slotW * 0.72);
  const cols: [Col[], Col[]] = [columnsOf(g, 0), columnsOf(g, 1)];
  const ramPages = info.frames * info.scale;
  // A stable scale: a quarter of RAM, or more when a generation is bigger.
  const top = Math.max(ramPages / 4, max([...cols[0], ...cols[1]], (c) => c.pages) ?? 0, 1);
  // Headroom above the tallest column for its label, clear of the band label.
  const y = scaleLinear().domain([0, top * 1.12]).nice().range([H - bottom, M.top]);
  const slotX = (ty: number, seq: number) => M.left + ty * (panelW + GAP) + (slots - 1 - (g.maxSeq - seq)) * slotW + (slotW - colW) / 2;
  const protectedFill = `url(#${prefix}gens-protected)`;
  // One timing for every move of this frame (a new frame interrupts and retargets it), named
  // per view so that two views in compare mode do not interrupt each other's.
  const tr = transition(`${prefix}gens`).duration(MS);
  // While the columns move, data-moving is "true": tests wait for "false" before a screenshot
  // instead of sleeping through MS. An interrupted move leaves it to the next draw's.
  svg.attr('data-moving', 'true');
  tr.end().then(
    () => svg.attr('data-moving', 'false'),
    () => {},
  );

  let axis = svg.select<SVGGElement>('g.y-axis');
  if (axis.empty()) axis = svg.append('g').attr('class', 'y-axis');
  axis.attr('transform', `translate(${M.left - 4},0)`).call(axisLeft(y).ticks(5).tickFormat((v) => pagesFormat(Number(v))));
  if (axis.select('text.axis-title').empty()) axis.append('text').attr('class', 'axis-title').attr('text-anchor', 'start');
  axis.select('text.axis-title').attr('x', -M.left + 6).attr('y', M.top - 12).text('pages');

  // The generations the engine says count as the classic "active" lists (the two youngest).
  const active = g.rows.filter((r) => r.active).map((r) => r.seq);
  const activeFrom = active.length > 0 ? Math.min(...active) : g.maxSeq + 1;
  let band = svg.select<SVGGElement>('g.active-bands');
  if (band.empty()) band = svg.insert('g', 'g.y-axis').attr('class', 'active-bands');
  band
    .selectAll<SVGGElement, number>('g.band')
    .data([0, 1])
    .join((e) => {
      const b = e.append('g').attr('class', 'band');
      b.append('rect').attr('class', 'band-bg');
      b.append('text').attr('class', 'band-label').text('active (2 youngest)');
      b.append('text').attr('class', 'type-label');
      return b;
    })
    .each(function (ty) {
      const x0 = M.left + ty * (panelW + GAP) + (slots - 1 - (g.maxSeq - activeFrom)) * slotW;
      const w = slotW * active.length;
      const b = select(this).attr('data-active-seqs', active.join(' '));
      b.select('rect.band-bg').attr('x', x0).attr('y', 16).attr('width', w).attr('height', H - bottom - 16);
      b.select('text.band-label').attr('x', x0 + w - 4).attr('y', 27).attr('text-anchor', 'end');
      b.select('text.type-label')
        .attr('x', M.left + ty * (panelW + GAP) + 2)
        .attr('y', 11)
        .text(`${TYPES[ty]} ${g.next === ty ? '— scanned next' : ''}`);
    });

  for (const ty of [0, 1] as GenType[]) {
    let panel = svg.select<SVGGElement>(`g.panel-${ty}`);
    if (panel.empty()) panel = svg.append('g').attr('class', `panel panel-${ty}`);
    const data = cols[ty];
    const oldest = data[0]?.seq;
    const sel = panel.selectAll<SVGGElement, Col>('g.col').data(data, (d) => String(d.seq));

    // Aging: a new youngest generation grows in from the right.
    const entered = sel
      .enter()
      .append('g')
      .attr('class', 'col')
      .attr('transform', (d) => `translate(${slotX(ty, d.seq) + slotW},0)`)
      .attr('opacity', 0);
    entered
      .selectAll('rect.tier')
      .data(() => Array.from({ length: NR_TIERS }, (_, t) => t))
      .join('rect')
      .attr('class', 'tier')
      .attr('y', y(0))
      .attr('height', 0)
      .attr('fill', (t) => tierColor(ty, t));
    entered
      .selectAll('rect.hatch')
      .data(() => Array.from({ length: NR_TIERS }, (_, t) => t))
      .join('rect')
      .attr('class', 'hatch')
      .attr('y', y(0))
      .attr('height', 0)
      .attr('fill', protectedFill);
    entered.append('text').attr('class', 'col-pages').attr('text-anchor', 'middle').attr('y', y(0) - 3);
    entered.append('text').attr('class', 'col-seq').attr('text-anchor', 'middle').attr('y', H - bottom + lh + 1);
    entered.append('text').attr('class', 'col-age').attr('text-anchor', 'middle').attr('y', H - bottom + 2 * lh + 1);
    entered.append('text').attr('class', 'col-mark').attr('text-anchor', 'middle').attr('y', H - bottom + 3 * lh + 1);

    // Eviction: a retired generation (below min_seq) falls out on the left.
    sel
      .exit()
      .attr('data-testid', null)
      .classed('col', false)
      .classed('retired', true)
      .transition(tr)
      .attr('transform', function () {
        const m = /translate\(([-\d.e]+)/.exec(select(this).attr('transform') ?? '');
        return `translate(${(m ? Number(m[1]) : 0) - slotW},0)`;
      })
      .attr('opacity', 0)
      .remove();

    const all = entered.merge(sel);
    all
      .attr('data-testid', (d) => `${prefix}gen-${TYPES[ty]}-${d.seq}`)
      .attr('data-seq', (d) => d.seq)
      .attr('data-pages', (d) => d.pages)
      .attr('data-oldest', (d) => String(d.seq === oldest))
      .transition(tr)
      .attr('transform', (d) => `translate(${slotX(ty, d.seq)},0)`)
      .attr('opacity', 1);
    all.each(function (d) {
      const c = select(this);
      // Stack tier 0 at the bottom (the coldest, evicted first) up to tier 3.
      const y0s: number[] = [];
      let acc = 0;
      for (let t = 0; t < NR_TIERS; t++) {
        y0s.push(acc);
        acc += d.tiers[t]!;
      }
      const geom = (sel: Selection<SVGRectElement, number, SVGGElement, unknown>) =>
        sel
          .attr('x', 0)
          .attr('width', colW)
          .transition(tr)
          .attr('y', (t) => y(y0s[t]! + d.tiers[t]!))
          .attr('height', (t) => Math.max(0, y(y0s[t]!) - y(y0s[t]! + d.tiers[t]!)));
      geom(c.selectAll<SVGRectElement, number>('rect.tier').attr('data-pages', (t) => d.tiers[t]!));
      geom(c.selectAll<SVGRectElement, number>('rect.hatch').attr('visibility', (t) => (t > g.tierIdx[ty]! ? 'visible' : 'hidden')));
      c.select('text.col-pages')
        .attr('x', colW / 2)
        .text(d.pages > 0 ? formatCount(d.pages) : '0')
        .transition(tr)
        .attr('y', y(d.pages) - 3);
      c.select('text.col-seq').attr('x', colW / 2).attr('y', H - bottom + lh + 1).text(`seq ${d.seq}`);
      c.select('text.col-age').attr('x', colW / 2).attr('y', H - bottom + 2 * lh + 1).text(formatAge(d.ageMs));
      c.select('text.col-mark')
        .attr('x', colW / 2)
        .attr('y', H - bottom + 3 * lh + 1)
        .classed('next', d.seq === oldest && g.next === ty)
        .text(d.seq !== oldest ? '' : g.next === ty ? '▲ evicted next' : 'oldest');
    });
  }
}
