// Your own workload (issue #47): a trace file given to the page (dropped, or chosen in the
// tools) becomes a scenario the engine builds for it (`trace_scenario`), opened like any other;
// its miss-ratio curve (LRU, OPT and each kernel variant) is computed in the results workers.
// The trace's bytes stay in the browser: they go to the engine workers only.
import { useEffect, useRef, useState } from 'react';
import { startEngineWorker } from '../engine/client';
import { MrcPool, type MrcState } from '../engine/mrcPool';
import { poolSize } from '../engine/reportPool';
import { traceFormat } from '../lib/dropped';
import { traceScenarioName } from '../lib/link';
import { scenarioMeta, variantNames } from '../lib/scenarioText';
import type { Setup, TraceSetup } from './useSetup';

/** Cache sizes of a curve, 1% to 100% of the footprint (the CLI's default, mrc::POINTS). */
export const MRC_POINTS = 16;

/** The largest trace file the page reads: the engine's own budget (MAX_TRACE_BYTES in
 *  wasm-core/src/scenario/budget.rs), which it checks again; here so that a larger file is
 *  refused before the tab reads it whole. */
export const MAX_TRACE_FILE_BYTES = 256 * 1024 * 1024;

/** What the page says about the trace it was given last. */
export interface TraceStatus {
  /** 'reading': the file is read and the engine builds its scenario. */
  phase: 'idle' | 'reading' | 'ready' | 'error';
  /** The file's name. */
  name: string | null;
  /** Why the trace was refused (the engine names the bad record); the scenario shown stays. */
  error: string | null;
}

export function useTrace(setup: Setup) {
  const [status, setStatus] = useState<TraceStatus>({ phase: 'idle', name: null, error: null });
  const [mrc, setMrc] = useState<MrcState | null>(null);
  const openTrace = useRef(setup.openTrace);
  openTrace.current = setup.openTrace;
  const seq = useRef(0);
  /** A link that names a trace it does not carry: what to do once that file is given. */
  const awaited = useRef<{ name: string; apply: (t: TraceSetup) => void } | null>(null);

  /** Read `file`, have the engine build its scenario, and open it (or restore the link that
   *  waits for it). */
  const load = (file: File) => {
    const n = ++seq.current;
    const format = traceFormat(file.name);
    if (!format) {
      setStatus({ phase: 'error', name: file.name, error: `${file.name}: not a trace the page reads (an oracleGeneral .bin, or a .csv of time,id,size[,op]).` });
      return;
    }
    if (file.size > MAX_TRACE_FILE_BYTES) {
      // Refused before it is read: a file of gigabytes would be copied whole into the tab.
      setStatus({ phase: 'error', name: file.name, error: `${file.name} is ${file.size} bytes; a trace may be at most ${MAX_TRACE_FILE_BYTES} bytes (256 MiB, the engine's MAX_TRACE_BYTES).` });
      return;
    }
    setStatus({ phase: 'reading', name: file.name, error: null });
    file
      .arrayBuffer()
      .then(
        (buf) => buildTrace(file.name, format, new Uint8Array(buf)),
        (err: unknown) => Promise.reject(new Error(`${file.name} could not be read: ${String(err)}`)),
      )
      .then(
        (t) => {
          if (n !== seq.current) return;
          setStatus({ phase: 'ready', name: file.name, error: null });
          const wait = awaited.current;
          if (wait && wait.name === file.name) {
            awaited.current = null;
            wait.apply(t);
          } else openTrace.current(t);
        },
        (err: unknown) => n === seq.current && setStatus({ phase: 'error', name: file.name, error: err instanceof Error ? err.message : String(err) }),
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
  /** A link's trace that it does not carry: opened with `apply` once a file of that name is given. */
  const await_ = (name: string, apply: (t: TraceSetup) => void) => {
    awaited.current = { name, apply };
  };
  return { status, load, mrc, openPoint, openWhole, awaitTrace: await_, clearError: () => setStatus((s) => (s.phase === 'error' ? { ...s, phase: 'idle', error: null } : s)) };
}

/** The scenario the engine builds for trace `name` (a worker of its own, ended once it has
 *  answered); rejects with the engine's reason (the bad record). */
export function buildTrace(name: string, format: 'oracleGeneral' | 'csv', bytes: Uint8Array): Promise<TraceSetup> {
  return new Promise((resolve, reject) => {
    const trace = { name, bytes };
    const worker = startEngineWorker(
      {
        onMessage: (msg) => {
          if (msg.type !== 'traceScenario') return;
          worker.dispose();
          if (msg.text === null) return reject(new Error(`${name} was not loaded: ${msg.problem}`));
          const scenario = traceScenarioName(name);
          resolve({ file: { name: scenario, text: msg.text, ...scenarioMeta(msg.text, scenario) }, trace, format, mrcPages: null });
        },
        onError: (message) => {
          worker.dispose();
          reject(new Error(`${name} was not loaded: ${message}`));
        },
      },
      'reclaim-trace',
    );
    worker.send({ type: 'traceScenario', id: 1, trace, format });
  });
}

export type TraceModel = ReturnType<typeof useTrace>;
