// A second engine worker that runs every variant of a scenario to the end, so
// the results table and the per-round chart never hold up the live view.
import { useEffect, useRef, useState } from 'react';
import { startEngineWorker, type EngineClient } from './client';
import type { ScenarioSource } from './protocol';
import { WATCHDOG_MS } from './useEngine';
import { parseReport, type RunReport } from '../lib/report';

export interface ReportsState {
  status: 'idle' | 'running' | 'done' | 'error';
  /** The scenario text the reports belong to. */
  text: string | null;
  reports: RunReport[];
  error: string | null;
  /** Still running after WATCHDOG_MS: the panel says so and offers `stop`. */
  slow?: boolean;
  /** Terminate the results worker (the watchdog's Stop). */
  stop?: () => void;
}

export function useReports(scenario: ScenarioSource | null): ReportsState {
  const [state, setState] = useState<ReportsState>({ status: 'idle', text: null, reports: [], error: null });
  const client = useRef<EngineClient | null>(null);
  const wanted = useRef<string | null>(null);

  useEffect(() => {
    if (!scenario) return;
    wanted.current = scenario.text;
    client.current?.dispose(); // a stale run is abandoned, not waited for
    const text = scenario.text;
    const c = startEngineWorker(
      {
        onMessage: (msg) => {
          if (msg.type !== 'reports' || wanted.current !== text) return;
          try {
            setState({ status: 'done', text, reports: msg.reports.map(parseReport), error: null });
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
      if (wanted.current === text) setState({ status: 'error', text, reports: [], error: 'Stopped: the results worker was terminated.' });
    };
    setState({ status: 'running', text, reports: [], error: null, stop });
    c.send({ type: 'report', scenario });
    const watchdog = setTimeout(() => setState((s) => (s.status === 'running' && s.text === text ? { ...s, slow: true } : s)), WATCHDOG_MS);
    return () => {
      clearTimeout(watchdog);
      c.dispose();
      if (client.current === c) client.current = null;
    };
  }, [scenario]);

  return state;
}
