// The chart views: counters over virtual time, free memory against the
// watermarks (from the engine's time series, per run), and per-round time of
// every variant (from the reports of full runs).
import { useMemo } from 'react';
import type { RunFrame, RunInfo } from '../engine/protocol';
import { sum, value, type SeriesRow } from '../engine/series';
import { formatCount } from '../format';
import { NEUTRAL, SERIES_COLORS, TYPE_COLORS, WATERMARK_DASHES } from '../lib/palette';
import type { RunReport } from '../lib/report';
import { COUNTER_GROUPS } from '../lib/figure';
import { groupTotals, type KernelRun } from '../lib/kernelRun';
import { LineChart, type RefLine, type Series } from './LineChart';


const DASHES = [undefined, '6 3', '2 2', '8 2 2 2'];
/** A real kernel's series (issue #27 §2): long dashes, unlike any model run's. */
export const KERNEL_DASH = '12 4';
const NO_KERNELS: KernelRun[] = [];
const secs = (ns: number) => `${Number((ns / 1e9).toPrecision(3))}`;

interface Props {
  runs: RunInfo[];
  frames: RunFrame[];
  series: SeriesRow[][];
  /** Real kernel runs: each one whose variant runs here draws its end-of-run totals. */
  kernels?: KernelRun[];
  /** Only this chart (a slide embed shows one, large). */
  only?: 'counters' | 'free' | 'cost';
}

export function CounterCharts({ runs, frames, series, kernels = NO_KERNELS, only }: Props) {
  const counterSeries = useMemo(() => {
    const out: Series[] = [];
    runs.forEach((run, r) => {
      COUNTER_GROUPS.forEach((g, gi) => {
        out.push({
          name: runs.length > 1 ? `${g.label} (${run.variant})` : g.label,
          color: SERIES_COLORS[gi % SERIES_COLORS.length]!,
          dash: DASHES[r],
          points: (series[r] ?? []).map((s) => [value(s, 't_ns'), sum(s, g.counters)]),
        });
      });
      // The kernel file has whole-run totals, not a series over time: each total is a level
      // across the model's time span, where the model's curve ends up against it.
      const rows = series[r] ?? [];
      const first = rows[0];
      const last = rows.at(-1);
      const x0 = first ? value(first, 't_ns') : 0;
      const x1 = Math.max(last ? value(last, 't_ns') : 0, x0 + 1e8);
      for (const k of kernels.filter((k) => k.report.variant === run.variant)) {
        groupTotals(k, COUNTER_GROUPS).forEach((g, gi) => {
          if (g.total === null) return;
          out.push({
            name: `${g.label}: real kernel ${k.kernel.name}${runs.length > 1 ? ` (${run.variant})` : ''}, end of run`,
            color: SERIES_COLORS[gi % SERIES_COLORS.length]!,
            dash: KERNEL_DASH,
            points: [
              [x0, g.total],
              [x1, g.total],
            ],
          });
        });
      }
    });
    return out;
  }, [runs, series, kernels]);

  const freeSeries = useMemo(
    () =>
      runs.map((run, r) => ({
        name: runs.length > 1 ? `free (${run.variant})` : 'free',
        color: NEUTRAL,
        dash: DASHES[r],
        points: (series[r] ?? []).map((s) => [value(s, 't_ns'), value(s, 'free')] as [number, number]),
      })),
    [runs, series],
  );
  // The balance's inputs follow each run's kernel era: <= 5.7 scanned/rotated per type, 5.8+
  // anon_cost/file_cost; none for MGLRU.
  const eras = frames.map((f) => f?.balance.era ?? 'cost').join(',');
  const costSeries = useMemo(() => {
    const era = eras.split(',');
    return runs.flatMap((run, r): Series[] => {
      const rows = series[r] ?? [];
      const tag = (label: string) => (runs.length > 1 ? `${label} (${run.variant})` : label);
      if (era[r] === 'rotation') {
        const lines = [
          ['anon scanned', 'recent_scanned_anon'],
          ['anon rotated', 'recent_rotated_anon'],
          ['file scanned', 'recent_scanned_file'],
          ['file rotated', 'recent_rotated_file'],
        ] as const;
        return lines.map(([label, col], k) => ({
          name: tag(label),
          color: TYPE_COLORS[k < 2 ? 0 : 1]!,
          dash: k % 2 === 1 ? '2 2' : DASHES[r],
          points: rows.map((s) => [value(s, 't_ns'), value(s, col)] as [number, number]),
        }));
      }
      if (era[r] === 'mglru') return [];
      return ([['anon cost', 'anon_cost'], ['file cost', 'file_cost']] as const).map(([label, col], k) => ({
        name: tag(label),
        color: TYPE_COLORS[k]!,
        dash: DASHES[r],
        points: rows.map((s) => [value(s, 't_ns'), value(s, col)] as [number, number]),
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
            { name: 'min', y: wm.min, color: NEUTRAL, dash: WATERMARK_DASHES.min },
            { name: 'low', y: wm.low, color: NEUTRAL, dash: WATERMARK_DASHES.low },
            { name: 'high', y: wm.high, color: NEUTRAL, dash: WATERMARK_DASHES.high },
          ]
        : [],
    [wm?.min, wm?.low, wm?.high], // eslint-disable-line react-hooks/exhaustive-deps
  );

  const shows = (c: 'counters' | 'free' | 'cost') => only === undefined || only === c;
  return (
    <>
      {shows('counters') && <LineChart
        title="Counters (cumulative: pages; pgmajfault: faults)"
        series={counterSeries}
        xFormat={secs}
        xLabel="virtual time (s)"
        yFormat={formatCount}
        minXSpan={1e8}
        testId="chart-counters"
      />}
      {shows('free') && <LineChart
        title="Free memory and watermarks (pages, log)"
        series={freeSeries}
        refLines={refLines}
        log
        xFormat={secs}
        xLabel="virtual time (s)"
        yFormat={formatCount}
        minXSpan={1e8}
        testId="chart-free"
      />}
      {shows('cost') && <LineChart
        title={costTitle}
        series={costSeries}
        xFormat={secs}
        xLabel="virtual time (s)"
        yFormat={formatCount}
        minXSpan={1e8}
        testId="chart-cost"
      />}
    </>
  );
}

const roundLabel = (x: number) => (Number.isInteger(x) ? String(x) : '');
const secondsLabel = (y: number) => `${Number(y.toPrecision(2))}`;

/** `reports`: one per variant in the scenario's order, undefined while its run is not in (the
 *  results come in any order): a variant keeps its colour and dash whatever arrived first. */
export function RoundsChart({ reports, kernels = NO_KERNELS }: { reports: readonly (RunReport | undefined)[]; kernels?: KernelRun[] }) {
  const series = useMemo(() => {
    const out: Series[] = [];
    reports.forEach((rep, r) => {
      if (!rep) return;
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
    // A real kernel's rounds, in its variant's colour (wall-clock seconds of the guest).
    for (const k of kernels) {
      const r = Math.max(0, reports.findIndex((rep) => rep?.variant === k.report.variant));
      for (const t of k.report.tasks) {
        if (!t.rounds_s?.length) continue;
        out.push({
          name: `real kernel ${k.kernel.name} (${k.accelerator}) ${k.report.variant} ${t.name}`,
          color: SERIES_COLORS[r % SERIES_COLORS.length]!,
          dash: KERNEL_DASH,
          points: t.rounds_s.map((s, i) => [i, s]),
        });
      }
    }
    return out;
  }, [reports, kernels]);
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

