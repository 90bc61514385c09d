// Counters over virtual time, one line per counter, drawn with D3 into an SVG.
import { useLayoutEffect, useRef } from 'react';
import { axisBottom, axisLeft, line, max, scaleLinear, scaleOrdinal, schemeTableau10, select } from 'd3';
import type { Sample } from '../engine/useEngine';
import { formatCount, formatNs } from '../format';

const WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 16, bottom: 28, left: 64 };

export const seriesColor = scaleOrdinal<string, string>(schemeTableau10);

interface Props {
  names: string[];
  history: Sample[];
}

export function CounterChart({ names, history }: Props) {
  const ref = useRef<SVGSVGElement | null>(null);

  // Layout effect: the chart updates in the same frame as the counter table.
  useLayoutEffect(() => {
    if (ref.current === null) return;
    const svg = select(ref.current);

    const first = history[0]?.nowNs ?? 0;
    const last = history.at(-1)?.nowNs ?? 0;
    const x = scaleLinear()
      .domain([first, Math.max(last, first + 1)])
      .range([MARGIN.left, WIDTH - MARGIN.right]);
    const maxValue = max(history, (s) => max(s.values)) ?? 0;
    const y = scaleLinear()
      .domain([0, Math.max(maxValue, 1)])
      .nice()
      .range([HEIGHT - MARGIN.bottom, MARGIN.top]);

    svg
      .selectAll<SVGGElement, null>('g.x-axis')
      .data([null])
      .join('g')
      .attr('class', 'x-axis')
      .attr('transform', `translate(0,${HEIGHT - MARGIN.bottom})`)
      .call(axisBottom(x).ticks(5).tickFormat((d) => formatNs(Number(d))));
    svg
      .selectAll<SVGGElement, null>('g.y-axis')
      .data([null])
      .join('g')
      .attr('class', 'y-axis')
      .attr('transform', `translate(${MARGIN.left},0)`)
      .call(axisLeft(y).ticks(5).tickFormat((d) => formatCount(Number(d))));

    const series = names.map((name, i) => ({ name, i }));
    svg
      .selectAll<SVGPathElement, { name: string; i: number }>('path.series')
      .data(series, (d) => d.name)
      .join('path')
      .attr('class', 'series')
      .attr('data-counter', (d) => d.name)
      .attr('fill', 'none')
      .attr('stroke-width', 2)
      .attr('stroke', (d) => seriesColor(d.name))
      .attr('d', (d) =>
        line<Sample>()
          .x((s) => x(s.nowNs))
          .y((s) => y(s.values[d.i] ?? 0))(history),
      );
  }, [names, history]);

  return (
    <svg
      ref={ref}
      className="counter-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label="Counters over virtual time"
    />
  );
}
