// Your own workload (issue #47): a trace file given to the page (dropped, or chosen in the
// tools) becomes a scenario the engine builds for it (`trace_scenario`), opened like any other;
// its miss-ratio curve (LRU, OPT and each kernel variant) is computed in the results workers.
// The trace's bytes stay in the browser: they go to the engine workers only.
import { useEffect, useRef, useState } from 'react';
import { startEngineWorker } from '../engine/client';
import { MrcPool, type MrcState } from '../engine/mrcPool';
import { poolSize } from '../engine/reportPool';
import { traceFormat } from '../lib/dropped';
import { scenarioMeta, variantNames } from '../lib/scenarioText';
import type { Setup, TraceSetup } from './useSetup';

/** Cache sizes of a curve, 1% to 100% of the footprint (the CLI's default, mrc::POINTS). */
export const MRC_POINTS = 16;

/** What the page says about the trace it was given last. */
export interface TraceStatus {
  /** 'reading': the file is read and the engine builds its scenario. */
  phase: 'idle' | 'reading' | 'ready' | 'error';
  /** The file's name. */
  name: string | null;
  /** Why the trace was refused (the engine names the bad record); the scenario shown stays. */
  error: string | null;
}

/** The scenario name of trace `name`: never one of the bundled files' names. */
export const traceScenarioName = (name: string) => `trace:${name}`;

export function useTrace(setup: Setup) {
  const [status, setStatus] = useState<TraceStatus>({ phase: 'idle', name: null, error: null });
  const [mrc, setMrc] = useState<MrcState | null>(null);
  const openTrace = useRef(setup.openTrace);
  openTrace.current = setup.openTrace;
  const seq = useRef(0);

  /** Read `file`, have the engine build its scenario, and open it. */
  const load = (file: File) => {
    const n = ++seq.current;
    const format = traceFormat(file.name);
    if (!format) {
      setStatus({ phase: 'error', name: file.name, error: `${file.name}: not a trace the page reads (an oracleGeneral .bin, or a .csv of time,id,size[,op]).` });
      return;
    }
    setStatus({ phase: 'reading', name: file.name, error: null });
    file.arrayBuffer().then(
      (buf) => {
        if (n !== seq.current) return;
        const trace = { name: file.name, bytes: new Uint8Array(buf) };
        // A worker of its own, ended once it has answered.
        const worker = startEngineWorker(
          {
            onMessage: (msg) => {
              if (msg.type !== 'traceScenario') return;
              worker.dispose();
              if (n !== seq.current) return;
              if (msg.text === null) {
                setStatus({ phase: 'error', name: file.name, error: `${file.name} was not loaded: ${msg.problem}` });
                return;
              }
              const name = traceScenarioName(file.name);
              const t: TraceSetup = { file: { name, text: msg.text, ...scenarioMeta(msg.text, name) }, trace, format, mrcPages: null };
              setStatus({ phase: 'ready', name: file.name, error: null });
              openTrace.current(t);
            },
            onError: (message) => {
              worker.dispose();
              if (n === seq.current) setStatus({ phase: 'error', name: file.name, error: `${file.name} was not loaded: ${message}` });
            },
          },
          'reclaim-trace',
        );
        worker.send({ type: 'traceScenario', id: n, trace, format });
      },
      (err: unknown) => n === seq.current && setStatus({ phase: 'error', name: file.name, error: `${file.name} could not be read: ${String(err)}` }),
    );
  };

  // The curve of the trace given last, computed once per trace (knobs and the point opened do
  // not change it: each kernel point sets its own memory limit).
  const trace = setup.trace;
  const base = trace?.file.text ?? null;
  const bytes = trace?.trace ?? null;
  useEffect(() => {
    if (!trace || base === null || !bytes) {
      setMrc(null);
      return;
    }
    const scenario = { name: trace.file.name, text: base, traces: [bytes] };
    const variants = variantNames(base);
    const pool = new MrcPool(scenario, variants, MRC_POINTS, poolSize(), (h) => startEngineWorker(h, 'reclaim-mrc'), setMrc);
    setMrc({ phase: 'reference', points: [], workers: 0 });
    pool.start();
    return () => pool.dispose();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one curve per trace
  }, [base, bytes]);

  /** Open kernel point `variant` at `pages` of the curve in the live view. */
  const openPoint = (variant: string, pages: number) => {
    if (trace) setup.openTrace({ ...trace, mrcPages: pages }, variant);
  };
  /** Back to the trace's scenario as built (no point). */
  const openWhole = () => {
    if (trace) setup.openTrace({ ...trace, mrcPages: null });
  };
  return { status, load, mrc, openPoint, openWhole, clearError: () => setStatus((s) => (s.phase === 'error' ? { ...s, phase: 'idle', error: null } : s)) };
}

export type TraceModel = ReturnType<typeof useTrace>;
