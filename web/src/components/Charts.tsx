// The chart views: counters over virtual time, free memory against the
// watermarks (from the engine's time series, per run), and per-round time of
// every variant (from the reports of full runs).
import { useMemo } from 'react';
import type { RunFrame, RunInfo } from '../engine/protocol';
import { formatCount } from '../format';
import { OKABE_ITO, SERIES_COLORS, TYPE_COLORS } from '../lib/palette';
import type { RunReport } from '../lib/report';
import { COUNTER_GROUPS } from '../lib/figure';
import { LineChart, type RefLine, type Series } from './LineChart';


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
  // The balance's inputs follow each run's kernel era: <= 5.7 scanned/rotated per type (the
  // last four columns of a series row), 5.8+ anon_cost/file_cost (columns 7, 8); none for MGLRU.
  const eras = frames.map((f) => f?.balance.era ?? 'cost').join(',');
  const costSeries = useMemo(() => {
    const era = eras.split(',');
    return runs.flatMap((run, r): Series[] => {
      const rows = series[r] ?? [];
      const tag = (label: string) => (runs.length > 1 ? `${label} (${run.variant})` : label);
      if (era[r] === 'rotation') {
        return (['anon scanned', 'anon rotated', 'file scanned', 'file rotated'] as const).map((label, k) => ({
          name: tag(label),
          color: TYPE_COLORS[k < 2 ? 0 : 1]!,
          dash: k % 2 === 1 ? '2 2' : DASHES[r],
          // recent_scanned [anon, file] then recent_rotated [anon, file], in frames.
          points: rows.map((row) => [row[0]!, row[row.length - 4 + (k % 2) * 2 + (k < 2 ? 0 : 1)]! * run.scale] as [number, number]),
        }));
      }
      if (era[r] === 'mglru') return [];
      return (['anon cost', 'file cost'] as const).map((label, k) => ({
        name: tag(label),
        color: TYPE_COLORS[k]!,
        dash: DASHES[r],
        points: rows.map((row) => [row[0]!, row[7 + k]!] as [number, number]),
      }));
    });
  }, [runs, series, eras]);
  const costTitle = eras.split(',').every((e) => e === 'rotation')
    ? "Recent scanned and rotated pages per type, up to 5.7 (the balance's inputs)"
    : eras.split(',').every((e) => e === 'mglru')
      ? 'The multi-gen LRU does not use get_scan_count: see the generations view'
      : eras.split(',').every((e) => e === 'cost2016')
        ? "numer[anon] and numer[file] of the June 2016 series, not mainline (the balance's inputs)"
      : eras.split(',').every((e) => e === 'cost')
        ? "Reclaim cost, anon vs file, 5.8+ (the balance's inputs)"
        : "The balance's inputs: reclaim cost (5.8+) or scanned/rotated pages (up to 5.7), per run";
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
        title={costTitle}
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

