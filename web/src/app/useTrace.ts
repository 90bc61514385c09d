// Your own workload (issue #47): a trace file given to the page (dropped, or chosen in the
// tools) becomes a scenario the engine builds for it (`trace_scenario`), opened like any other;
// its miss-ratio curve (LRU, OPT and each kernel variant) is computed in the results workers.
// The trace's bytes stay in the browser: they go to the engine workers only.
import { useEffect, useRef, useState } from 'react';
import { startEngineWorker } from '../engine/client';
import { MrcPool, type MrcState } from '../engine/mrcPool';
import { poolSize } from '../engine/reportPool';
import { traceFormat } from '../lib/dropped';
import { fetchTrace, loadManifest, traceUrl, type ShippedTrace } from '../lib/shippedTraces';
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

/** The shipped traces as the page knows them: loading, the list, or why there is none. */
export type Shipped = { phase: 'loading' } | { phase: 'ready'; traces: ShippedTrace[] } | { phase: 'error'; error: string };

/** A served trace the open scenario names that could not be fetched, and why (with its URL). */
export interface FetchFailure {
  name: string;
  error: string;
}

export function useTrace(setup: Setup) {
  const [status, setStatus] = useState<TraceStatus>({ phase: 'idle', name: null, error: null });
  const [shipped, setShipped] = useState<Shipped>({ phase: 'loading' });
  useEffect(() => {
    let live = true;
    loadManifest().then(
      (traces) => live && setShipped({ phase: 'ready', traces }),
      (err: unknown) => live && setShipped({ phase: 'error', error: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, []);
  const [mrc, setMrc] = useState<MrcState | null>(null);
  const openTrace = useRef(setup.openTrace);
  openTrace.current = setup.openTrace;
  const seq = useRef(0);
  /** A link that names a trace it does not carry: what to do once that file is given. */
  const awaited = useRef<{ name: string; apply: (t: TraceSetup) => void } | null>(null);

  const supply = useRef(setup.supplyTrace);
  supply.current = setup.supplyTrace;
  const missing = setup.missingTraces;
  const named = setup.namedTraces;
  const [fetchFailed, setFetchFailed] = useState<FetchFailure | null>(null);

  /** Read `file`, have the engine build its scenario, and open it (or restore the link that
   *  waits for it). A file of a name the open scenario (a lesson) replays is that trace: it is
   *  supplied to the scenario instead, replacing one given before (`as`: the name to supply it
   *  under, whatever the file is called). */
  const load = (file: File, as: string | null = null) => {
    const n = ++seq.current;
    const wanted = as ?? (named.includes(file.name) ? file.name : null);
    const format = traceFormat(wanted ?? file.name);
    if (!format) {
      setStatus({ phase: 'error', name: file.name, error: `${file.name}: not a trace the page reads (an oracleGeneral .bin, or a .csv of time,id,size[,op]).` });
      return;
    }
    const refused = sizeRefusal(file);
    if (refused) {
      setStatus({ phase: 'error', name: file.name, error: refused });
      return;
    }
    setStatus({ phase: 'reading', name: file.name, error: null });
    if (wanted) {
      file.arrayBuffer().then(
        (buf) => {
          if (n !== seq.current) return;
          setStatus({ phase: 'ready', name: file.name, error: null });
          supply.current(wanted, new Uint8Array(buf), file.name, true);
        },
        (err: unknown) => n === seq.current && setStatus({ phase: 'error', name: file.name, error: `${file.name} could not be read: ${String(err)}` }),
      );
      return;
    }
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

  // A served trace the open scenario (a lesson) names: fetched once, then supplied (a failure is
  // kept, with its URL, until the user asks to try again or gives the file).
  const fetching = useRef(new Set<string>());
  const [retries, setRetries] = useState(0);
  const missingKey = missing.join('\u0000');
  useEffect(() => {
    if (shipped.phase !== 'ready') return;
    for (const name of missingKey ? missingKey.split('\u0000') : []) {
      const t = shipped.traces.find((x) => x.file === name && x.served);
      if (!t || fetching.current.has(name)) continue;
      fetching.current.add(name);
      const url = traceUrl(t);
      fetchTrace(t).then(
        (bytes) => {
          fetching.current.delete(name);
          supply.current(name, bytes, url, false);
        },
        (err: unknown) => setFetchFailed({ name, error: err instanceof Error ? err.message : String(err) }),
      );
    }
  }, [missingKey, shipped, retries]);
  /** Fetch the served trace that failed again. */
  const retry = () => {
    if (fetchFailed) fetching.current.delete(fetchFailed.name);
    setFetchFailed(null);
    setRetries((n) => n + 1);
  };

  /** Replay shipped trace `t` as if its file were dropped. */
  const pick = (t: ShippedTrace) => {
    const n = ++seq.current;
    setStatus({ phase: 'reading', name: t.file, error: null });
    fetchTrace(t)
      .then((bytes) => buildTrace(t.file, t.format, bytes))
      .then(
        (built) => {
          if (n !== seq.current) return;
          setStatus({ phase: 'ready', name: t.file, error: null });
          openTrace.current(built);
        },
        (err: unknown) => n === seq.current && setStatus({ phase: 'error', name: t.file, error: err instanceof Error ? err.message : String(err) }),
      );
  };

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
  return { status, load, pick, shipped, fetchFailed, retry, mrc, openPoint, openWhole, awaitTrace: await_, clearError: () => setStatus((s) => (s.phase === 'error' ? { ...s, phase: 'idle', error: null } : s)) };
}

/** Why `file` is refused before it is read (larger than the engine's budget), or null: a file of
 *  gigabytes would otherwise be copied whole into the tab. */
export function sizeRefusal(file: { name: string; size: number }): string | null {
  if (file.size <= MAX_TRACE_FILE_BYTES) return null;
  return `${file.name} is ${file.size} bytes; a trace may be at most ${MAX_TRACE_FILE_BYTES} bytes (256 MiB, the engine's MAX_TRACE_BYTES).`;
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
