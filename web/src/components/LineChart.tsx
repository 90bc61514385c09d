// A small D3 line chart in an SVG: several series, optional horizontal
// reference lines, linear or log y axis. Used by every chart view.
import './chart.css';
import { useLayoutEffect, useRef } from 'react';
import { axisBottom, axisLeft, extent, line, max, min, scaleLinear, scaleLog, select } from 'd3';
import { useSize } from '../lib/useWidth';

export interface Series {
  name: string;
  color: string;
  dash?: string;
  points: [number, number][];
}

export interface RefLine {
  name: string;
  y: number;
  color: string;
  /** Lines of one colour differ by their dash (and their label). */
  dash?: string;
}

interface Props {
  title: string;
  series: Series[];
  refLines?: RefLine[];
  log?: boolean;
  xFormat: (x: number) => string;
  yFormat: (y: number) => string;
  xLabel: string;
  testId: string;
  /** Smallest x range drawn (so a chart with one point still has a sensible axis). */
  minXSpan?: number;
}

/** The size before the first measure (the box's CSS gives it this aspect on the page). */
const INITIAL = { width: 560, height: 240 };

/** Powers of ten within [lo, hi] (at least the two around the domain). */
export function decades([lo, hi]: [number, number]): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    const v = 10 ** e;
    if (v >= lo && v <= hi) out.push(v);
  }
  return out.length ? out : [lo, hi];
}

export function LineChart({ title, series, refLines = [], log = false, xFormat, yFormat, xLabel, testId, minXSpan = 1 }: Props) {
  const ref = useRef<SVGSVGElement | null>(null);
  // The SVG is drawn at its box's size in CSS px (viewBox = box), so its text is the font size
  // the CSS gives it whatever the width, and a bigger box gets more ticks, not bigger ones.
  const [box, { width: W, height: H }] = useSize(INITIAL);

  useLayoutEffect(() => {
    if (!ref.current) return;
    const svg = select(ref.current);
    const fontPx = parseFloat(getComputedStyle(ref.current).fontSize) || 11;
    const all = series.flatMap((s) => s.points);
    const [x0, x1] = extent(all, (p) => p[0]) as [number | undefined, number | undefined];
    const ys = [...all.map((p) => p[1]), ...refLines.map((r) => r.y)];
    // Margins for labels of this font: the bottom for the tick row and the axis title, the left
    // for the widest y tick label (about 0.6 em a character in Liberation Sans).
    const M = { top: Math.round(fontPx), right: Math.round(fontPx * 0.9), bottom: Math.round(fontPx * 2.6 + 6), left: 0 };
    const yTicks = Math.max(2, Math.min(6, Math.floor((H - M.top - M.bottom) / (fontPx * 3))));
    const y = log
      ? scaleLog()
          .domain([Math.max(1e-6, min(ys.filter((v) => v > 0)) ?? 1e-3) / 1.5, Math.max(1e-5, max(ys) ?? 1) * 1.5])
          .range([H - M.bottom, M.top])
          .clamp(true)
      : scaleLinear()
          .domain([0, Math.max(10, max(ys) ?? 10)])
          .nice(yTicks)
          .range([H - M.bottom, M.top]);
    const yValues = log ? decades(y.domain() as [number, number]) : (y as ReturnType<typeof scaleLinear<number>>).ticks(yTicks);
    M.left = Math.round(Math.max(...yValues.map((v) => yFormat(v).length), 2) * fontPx * 0.6 + fontPx);
    const x = scaleLinear()
      .domain([x0 ?? 0, Math.max(x1 ?? 0, (x0 ?? 0) + minXSpan)])
      .range([M.left, W - M.right]);
    // As many x ticks as labels of this font fit (a label is up to ~6 characters, "1.25 s").
    const xTicks = Math.max(2, Math.min(8, Math.floor((W - M.left - M.right) / (fontPx * 6))));

    svg
      .selectAll<SVGGElement, null>('g.x-axis')
      .data([null])
      .join('g')
      .attr('class', 'x-axis')
      .attr('transform', `translate(0,${H - M.bottom})`)
      .call(axisBottom(x).ticks(xTicks).tickFormat((d) => xFormat(Number(d))));
    svg
      .selectAll<SVGTextElement, null>('text.x-label')
      .data([null])
      .join('text')
      .attr('class', 'x-label')
      .attr('x', W - M.right)
      .attr('y', H - 2)
      .attr('text-anchor', 'end')
      .text(xLabel);
    svg
      .selectAll<SVGGElement, null>('g.y-axis')
      .data([null])
      .join('g')
      .attr('class', 'y-axis')
      .attr('transform', `translate(${M.left},0)`)
      .call(
        axisLeft(y).tickValues(yValues).tickFormat((d) =>
          yFormat(Number(d)),
        ) as never,
      );

    svg
      .selectAll<SVGLineElement, RefLine>('line.ref')
      .data(refLines, (d) => d.name)
      .join('line')
      .attr('class', 'ref')
      .attr('x1', M.left)
      .attr('x2', W - M.right)
      .attr('y1', (d) => y(d.y))
      .attr('y2', (d) => y(d.y))
      .attr('stroke', (d) => d.color)
      .attr('stroke-dasharray', (d) => d.dash ?? '4 3');
    svg
      .selectAll<SVGTextElement, RefLine>('text.ref')
      .data(refLines, (d) => d.name)
      .join('text')
      .attr('class', 'ref')
      .attr('x', (_, i) => W - M.right - 2 - i * fontPx * 3)
      .attr('y', (d) => y(d.y) - 3)
      .attr('text-anchor', 'end')
      .attr('fill', (d) => d.color)
      .text((d) => d.name);

    const path = line<[number, number]>()
      .defined((p) => Number.isFinite(p[1]) && (!log || p[1] > 0))
      .x((p) => x(p[0]))
      .y((p) => y(p[1]));
    svg
      .selectAll<SVGPathElement, Series>('path.series')
      .data(series, (d) => d.name)
      .join('path')
      .attr('class', 'series')
      .attr('data-series', (d) => d.name)
      .attr('data-points', (d) => d.points.length)
      .attr('fill', 'none')
      .attr('stroke-width', 2)
      .attr('stroke', (d) => d.color)
      .attr('stroke-dasharray', (d) => d.dash ?? null)
      .attr('d', (d) => path(d.points));
  }, [series, refLines, log, xFormat, yFormat, xLabel, minXSpan, W, H]);

  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        <strong>{title}</strong>
        <span className="chart-legend">
          {series.map((s) => (
            <span key={s.name} className="legend-item">
              <svg width="18" height="8" aria-hidden="true">
                <line x1="0" x2="18" y1="4" y2="4" stroke={s.color} strokeWidth="2.5" strokeDasharray={s.dash} />
              </svg>
              {s.name}
            </span>
          ))}
        </span>
      </figcaption>
      <div ref={box} className="chart-box">
        <svg ref={ref} viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={title} />
      </div>
    </figure>
  );
}
