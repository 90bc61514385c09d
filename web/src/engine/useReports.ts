// A second engine worker that runs every variant of a scenario to the end, so
// the results table and the per-round chart never hold up the live view.
import { useEffect, useRef, useState } from 'react';
import { startEngineWorker, type EngineClient } from './client';
import type { ScenarioSource } from './protocol';
import { parseAssessment, parseReport, type RunReport } from '../lib/report';
import type { Assessment } from './generated/views';

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
          if (wanted.current !== text) return;
          if (msg.type === 'reportProgress') {
            const { index, count, nowNs, endNs } = msg;
            setState((s) => (s.text === text && s.status === 'running' ? { ...s, progress: { index, count, nowNs, endNs } } : s));
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
    setState({ status: 'running', text, reports: [], error: null });
    c.send({ type: 'report', scenario });
    return () => {
      c.dispose();
      if (client.current === c) client.current = null;
    };
  }, [scenario]);

  return state;
}
