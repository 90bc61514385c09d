// The chart views: counters over virtual time, free memory against the
// watermarks (from the engine's time series, per run), and per-round time of
// every variant (from the reports of full runs).
import { useMemo } from 'react';
import type { RunFrame, RunInfo } from '../engine/protocol';
import { formatCount } from '../format';
import { OKABE_ITO, SERIES_COLORS, TYPE_COLORS } from '../lib/palette';
import type { RunReport } from '../lib/report';
import { LineChart, type RefLine, type Series } from './LineChart';

/** Counter groups drawn in the counters chart: label, counters summed. */
export const COUNTER_GROUPS: { label: string; counters: string[] }[] = [
  { label: 'pgscan', counters: ['pgscan_kswapd', 'pgscan_direct'] },
  { label: 'pgsteal', counters: ['pgsteal_kswapd', 'pgsteal_direct'] },
  { label: 'refaults', counters: ['workingset_refault_anon', 'workingset_refault_file'] },
  { label: 'pswpin', counters: ['pswpin'] },
  { label: 'pswpout', counters: ['pswpout'] },
  { label: 'pgmajfault', counters: ['pgmajfault'] },
];

const DASHES = [undefined, '6 3', '2 2', '8 2 2 2'];
const secs = (ns: number) => `${Number((ns / 1e9).toPrecision(3))}`;

interface Props {
  runs: RunInfo[];
  frames: RunFrame[];
  series: Float64Array[][];
  counterNames: string[];
}

export function CounterCharts({ runs, frames, series, counterNames }: Props) {
  const counterSeries = useMemo(() => {
    const out: Series[] = [];
    runs.forEach((run, r) => {
      COUNTER_GROUPS.forEach((g, gi) => {
        const cols = g.counters.map((c) => 9 + counterNames.indexOf(c)).filter((c) => c >= 9);
        out.push({
          name: runs.length > 1 ? `${g.label} (${run.variant})` : g.label,
          color: SERIES_COLORS[gi % SERIES_COLORS.length]!,
          dash: DASHES[r],
          points: (series[r] ?? []).map((row) => [row[0]!, cols.reduce((s, c) => s + row[c]!, 0) * run.scale]),
        });
      });
    });
    return out;
  }, [runs, series, counterNames]);

  const freeSeries = useMemo(
    () =>
      runs.map((run, r) => ({
        name: runs.length > 1 ? `free (${run.variant})` : 'free',
        color: OKABE_ITO[4]!,
        dash: DASHES[r],
        points: (series[r] ?? []).map((row) => [row[0]!, row[6]! * run.scale] as [number, number]),
      })),
    [runs, series],
  );
  const costSeries = useMemo(
    () =>
      runs.flatMap((run, r) =>
        (['anon cost', 'file cost'] as const).map((label, k) => ({
          name: runs.length > 1 ? `${label} (${run.variant})` : label,
          color: TYPE_COLORS[k]!,
          dash: DASHES[r],
          points: (series[r] ?? []).map((row) => [row[0]!, row[7 + k]!] as [number, number]),
        })),
      ),
    [runs, series],
  );
  const wm = frames[0]?.watermarks;
  const refLines: RefLine[] = useMemo(
    () =>
      wm
        ? [
            { name: 'min', y: wm[0]!, color: OKABE_ITO[5]! },
            { name: 'low', y: wm[1]!, color: OKABE_ITO[6]! },
            { name: 'high', y: wm[2]!, color: OKABE_ITO[2]! },
          ]
        : [],
    [wm?.[0], wm?.[1], wm?.[2]], // eslint-disable-line react-hooks/exhaustive-deps
  );

  return (
    <>
      <LineChart
        title="Counters (pages, cumulative)"
        series={counterSeries}
        xFormat={secs}
        xLabel="virtual time (s)"
        yFormat={formatCount}
        minXSpan={1e8}
        testId="chart-counters"
      />
      <LineChart
        title="Free memory and watermarks (pages, log)"
        series={freeSeries}
        refLines={refLines}
        log
        xFormat={secs}
        xLabel="virtual time (s)"
        yFormat={formatCount}
        minXSpan={1e8}
        testId="chart-free"
      />
      <LineChart
        title="Reclaim cost, anon vs file (the balance's inputs)"
        series={costSeries}
        xFormat={secs}
        xLabel="virtual time (s)"
        yFormat={formatCount}
        minXSpan={1e8}
        testId="chart-cost"
      />
    </>
  );
}

const roundLabel = (x: number) => (Number.isInteger(x) ? String(x) : '');
const secondsLabel = (y: number) => `${Number(y.toPrecision(2))}`;

export function RoundsChart({ reports }: { reports: RunReport[] }) {
  const series = useMemo(() => {
    const out: Series[] = [];
    reports.forEach((rep, r) => {
      for (const t of rep.tasks) {
        if (!t.rounds_s?.length) continue;
        out.push({
          name: `${rep.variant} (${rep.preset}) ${t.name}`,
          color: SERIES_COLORS[r % SERIES_COLORS.length]!,
          dash: DASHES[r],
          points: t.rounds_s.map((s, i) => [i, s]),
        });
      }
    });
    return out;
  }, [reports]);
  if (series.length === 0) return null;
  return (
    <LineChart
      title="Time per round, every variant run to the end (s, log)"
      series={series}
      log
      xFormat={roundLabel}
      xLabel="round"
      yFormat={secondsLabel}
      testId="chart-rounds"
    />
  );
}

