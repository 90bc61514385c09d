// The results: every variant of a scenario run to the end in a pool of results workers
// (reportPool.ts), apart from the live view's, so the results table and the per-round chart
// never hold up the live view. Each column shows as soon as its variant is done.
import { useEffect, useRef, useState } from 'react';
import { prepareEngineWorker, startEngineWorker } from './client';
import type { ScenarioSource } from './protocol';
import { parseAssessment, parseReport, type RunReport } from '../lib/report';
import { variantNames } from '../lib/scenarioText';
import type { Assessment } from './generated/views';
import { WATCHDOG_MS } from './useEngine';
import { poolSize, ReportPool, type ColumnStatus, type PoolState } from './reportPool';

/** One variant's column of the results table. */
export interface ReportColumn {
  /** Its name, once the engine has read the scenario. */
  variant: string | null;
  status: ColumnStatus;
  nowNs: number;
  endNs: number;
  report?: RunReport;
  error?: string;
}

export interface ReportsState {
  status: 'idle' | 'running' | 'done' | 'error';
  /** The scenario (text and setup) the reports belong to. */
  scenario: ScenarioSource | null;
  /** The reports of the variants done so far, in the scenario's order (all of them when done). */
  reports: RunReport[];
  /** Every variant's column, in the scenario's order (empty until the engine has read it). */
  columns: ReportColumn[];
  /** Results workers running the variants. */
  workers: number;
  /** Headline rows and expectation verdicts, as the engine computed them. */
  assessment?: Assessment;
  /** Why there are no results, or why some are missing (the rest stand). */
  error: string | null;
  /** No word from any results worker for WATCHDOG_MS while running: the panel says so and offers `stop`. */
  slow?: boolean;
  /** Terminate the results workers (the watchdog's Stop). */
  stop?: () => void;
  /** After Stop: run the results again on the same scenario. */
  retry?: () => void;
}

/** The results workers' name (a spare is started under it). */
const REPORTS_WORKER = 'reclaim-reports';

const IDLE: ReportsState = { status: 'idle', scenario: null, reports: [], columns: [], workers: 0, error: null };

export function useReports(scenario: ScenarioSource | null): ReportsState {
  const [state, setState] = useState<ReportsState>(IDLE);
  const wanted = useRef<ScenarioSource | null>(null);
  // Bumped by `retry`: the effect starts a new pool for the same scenario.
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!scenario) return;
    wanted.current = scenario;
    // The watchdog: "slow" only while no worker has said anything for WATCHDOG_MS (a long run
    // that reports progress is not stalled).
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => setState((s) => (s.status === 'running' && s.scenario === scenario ? { ...s, slow: true } : s)), WATCHDOG_MS);
    };
    // Reports parsed once each (progress arrives several times a second).
    const parsed = new Map<string, RunReport>();
    const parse = (json: string) => {
      let r = parsed.get(json);
      if (!r) parsed.set(json, (r = parseReport(json)));
      return r;
    };
    // The file's variant names, for the columns no worker has named yet (a swappiness pair's
    // are the engine's: its columns wait for a worker to name them).
    const names = scenario.setup?.pair ? [] : variantNames(scenario.text);
    let stopped = false;
    const pool = new ReportPool(
      scenario,
      poolSize(),
      (handlers) => startEngineWorker(handlers, REPORTS_WORKER),
      (p: PoolState) => {
        if (wanted.current !== scenario || stopped) return;
        if (p.phase === 'running' || p.phase === 'assessing') arm();
        else clearTimeout(watchdog);
        setState((s) => ({ ...toState(p, scenario, names, parse), stop: s.stop }));
      },
    );
    const stop = () => {
      stopped = true;
      clearTimeout(watchdog);
      pool.dispose();
      setState((s) =>
        wanted.current === scenario
          ? {
              ...s,
              columns: stoppedColumns(s.columns),
              status: 'error',
              slow: false,
              error: `Stopped: the results ${s.workers === 1 ? 'worker was' : 'workers were'} terminated.`,
              retry: () => setAttempt((a) => a + 1),
              stop: undefined,
            }
          : s,
      );
    };
    setState({ ...IDLE, status: 'running', scenario, stop });
    pool.start(names.length);
    arm();
    return () => {
      clearTimeout(watchdog);
      pool.dispose(); // a stale run is abandoned, not waited for
    };
  }, [scenario, attempt]);

  // Once results are in and the page is idle, a results worker is started for the next run (a
  // change of scenario, knob or variant): its engine is fetched, compiled and instantiated then,
  // not after the user asks. A page showing no results (most embeds) never starts one.
  const done = state.status === 'done';
  useEffect(() => {
    if (!done) return;
    const prepare = () => prepareEngineWorker(REPORTS_WORKER);
    if (typeof requestIdleCallback !== 'function') {
      const t = setTimeout(prepare, 0);
      return () => clearTimeout(t);
    }
    const id = requestIdleCallback(prepare);
    return () => cancelIdleCallback(id);
  }, [done]);

  return state;
}

/** After Stop: the columns not in are stopped, no longer running or waiting (their workers are
 *  terminated); the ones in stand. */
export function stoppedColumns(columns: readonly ReportColumn[]): ReportColumn[] {
  return columns.map((c) => (c.status === 'done' || c.status === 'error' ? c : { ...c, status: 'error', error: 'stopped' }));
}

/** The page's view of the pool: reports parsed, a report the page cannot read its column's
 *  error; a column no worker has named yet named as the page reads the scenario (`names`, when
 *  they are as many as the engine's). */
function toState(p: PoolState, scenario: ScenarioSource, names: string[], parse: (json: string) => RunReport): ReportsState {
  const named = names.length === p.columns.length;
  const columns: ReportColumn[] = p.columns.map((c, i) => {
    const { report, ...rest } = c;
    if (rest.variant === null && named) rest.variant = names[i]!;
    if (report === undefined) return rest;
    try {
      return { ...rest, report: parse(report) };
    } catch (err) {
      return { ...rest, status: 'error', error: String(err) };
    }
  });
  const reports = columns.flatMap((c) => (c.report ? [c.report] : []));
  let assessment: Assessment | undefined;
  let error = p.error ?? null;
  try {
    if (p.assessment) assessment = parseAssessment(p.assessment);
  } catch (err) {
    error = String(err);
  }
  const unreadable = columns.some((c) => c.status === 'error') && p.phase === 'done';
  if (unreadable) error ??= 'The report of a variant could not be read (see its column).';
  const status = p.phase === 'error' || unreadable ? 'error' : p.phase === 'done' ? 'done' : 'running';
  return { status, scenario, reports, columns, workers: p.workers, ...(assessment ? { assessment } : {}), error, slow: false };
}
