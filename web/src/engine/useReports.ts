// A second engine worker that runs every variant of a scenario to the end, so
// the results table and the per-round chart never hold up the live view.
import { useEffect, useRef, useState } from 'react';
import { startEngineWorker, type EngineClient } from './client';
import type { ScenarioSource } from './protocol';
import { parseAssessment, parseReport, type RunReport } from '../lib/report';
import type { Assessment } from './generated/views';
import { WATCHDOG_MS } from './useEngine';

export interface ReportsState {
  status: 'idle' | 'running' | 'done' | 'error';
  /** The scenario text the reports belong to. */
  text: string | null;
  reports: RunReport[];
  /** Headline rows and expectation verdicts, as the engine computed them. */
  assessment?: Assessment;
  error: string | null;
  /** While running: variant `index` of `count` has reached `nowNs` (of at most `endNs`). */
  progress?: { index: number; count: number; nowNs: number; endNs: number; variants?: string[] };
  /** No word from the worker for WATCHDOG_MS while running: the panel says so and offers `stop`. */
  slow?: boolean;
  /** Terminate the results worker (the watchdog's Stop). */
  stop?: () => void;
  /** After Stop: start a new results worker on the same scenario. */
  retry?: () => void;
}

export function useReports(scenario: ScenarioSource | null): ReportsState {
  const [state, setState] = useState<ReportsState>({ status: 'idle', text: null, reports: [], error: null });
  const client = useRef<EngineClient | null>(null);
  const wanted = useRef<string | null>(null);
  // Bumped by `retry`: the effect starts a new worker for the same scenario.
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!scenario) return;
    wanted.current = scenario.text;
    client.current?.dispose(); // a stale run is abandoned, not waited for
    const text = scenario.text;
    // The watchdog: "slow" only while the worker has said nothing for WATCHDOG_MS (a long run
    // that reports progress is not stalled).
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => setState((s) => (s.status === 'running' && s.text === text ? { ...s, slow: true } : s)), WATCHDOG_MS);
    };
    const c = startEngineWorker(
      {
        onMessage: (msg) => {
          if (wanted.current !== text) return;
          if (msg.type === 'reportProgress') {
            const { index, count, nowNs, endNs } = msg;
            arm();
            setState((s) => (s.text === text && s.status === 'running' ? { ...s, slow: false, progress: { index, count, nowNs, endNs } } : s));
            return;
          }
          if (msg.type !== 'reports') return;
          try {
            setState({ status: 'done', text, reports: msg.reports.map(parseReport), ...(msg.assessment ? { assessment: parseAssessment(msg.assessment) } : {}), error: null });
          } catch (err) {
            setState({ status: 'error', text, reports: [], error: String(err) });
          }
        },
        onError: (message) => {
          if (wanted.current === text) setState({ status: 'error', text, reports: [], error: message });
        },
      },
      'reclaim-reports',
    );
    client.current = c;
    const stop = () => {
      c.dispose();
      if (wanted.current === text) setState({ status: 'error', text, reports: [], error: 'Stopped: the results worker was terminated.', retry: () => setAttempt((a) => a + 1) });
    };
    setState({ status: 'running', text, reports: [], error: null, stop });
    c.send({ type: 'report', scenario });
    arm();
    return () => {
      clearTimeout(watchdog);
      c.dispose();
      if (client.current === c) client.current = null;
    };
  }, [scenario, attempt]);

  return state;
}
