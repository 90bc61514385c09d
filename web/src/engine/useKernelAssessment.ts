// The engine's run-wide figures (headline rows: reclaim accuracy, pgsteal spread, ...) for real
// kernel runs beside the model's (issue #27 §2): the core computes them (`assess`) over the
// model's reports and the kernel's together, in a worker of their own, so the page never
// derives a figure itself. Idle without kernel runs.
import { useEffect, useState } from 'react';
import { startEngineWorker } from './client';
import type { Assessment } from './generated/views';
import { parseAssessment, type RunReport } from '../lib/report';
import type { KernelRun } from '../lib/kernelRun';
import type { ScenarioSource } from './protocol';

export interface KernelAssessment {
  status: 'idle' | 'running' | 'done' | 'error';
  /** Over [...models, ...kernels], in that order. */
  assessment?: Assessment;
  error?: string;
}

export function useKernelAssessment(scenario: ScenarioSource | null, models: RunReport[], kernels: KernelRun[]): KernelAssessment {
  const [state, setState] = useState<KernelAssessment>({ status: 'idle' });
  useEffect(() => {
    if (scenario === null || models.length === 0 || kernels.length === 0) {
      setState({ status: 'idle' });
      return;
    }
    let live = true;
    const c = startEngineWorker(
      {
        onMessage: (msg) => {
          if (!live || msg.type !== 'assessed') return;
          try {
            setState({ status: 'done', assessment: parseAssessment(msg.assessment) });
          } catch (err) {
            setState({ status: 'error', error: String(err) });
          }
        },
        onError: (message) => live && setState({ status: 'error', error: message }),
      },
      'reclaim-assess',
    );
    setState({ status: 'running' });
    c.send({ type: 'assess', id: 1, scenario, reports: [...models, ...kernels.map((k) => k.report)].map((r) => JSON.stringify(r)) });
    return () => {
      live = false;
      c.dispose();
    };
  }, [scenario, models, kernels]);
  return state;
}
