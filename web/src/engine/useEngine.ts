// React state for the engine worker (or two, a comparison's runs split between them: split.ts):
// scenario info, the runs' latest frames, their accumulated time series, and the play loop.
// The page pulls: while playing, each animation frame sends one `step` of speed x elapsed wall
// time, and the next one only after the frame came back.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { EngineClient } from './client';
import { Pace } from './pace';
import { commonNowNs, MAX_STEP_NS, type FlagOverrides, type FromWorker, type KernelInfo, type RunFrame, type ScenarioSource, type ToWorker } from './protocol';
import { splitRows, type SeriesRow } from './series';
import { startLiveEngine } from './split';

/** What the worker's `loaded` message says about a scenario; the state keeps the latest. */
type LoadedInfo = Omit<Extract<FromWorker, { type: 'loaded' }>, 'type' | 'scenario'>;

export interface EngineState extends Omit<LoadedInfo, 'file'> {
  /** The loaded file's own info, before the setup (null until a load). */
  file: LoadedInfo['file'] | null;
  phase: 'loading' | 'ready' | 'error';
  engineVersion: string | null;
  /** The engine's flags and presets (for the per-flag toggles); null until it has loaded. */
  kernel: KernelInfo | null;
  /** The last non-fatal error (bad scenario text…), shown until the next load. */
  error: string | null;
  scenario: string | null;
  frames: RunFrame[];
  /** Per run: time-series rows so far (engine/series.ts reads them by column name). */
  series: SeriesRow[][];
  seq: number;
  playing: boolean;
  /** Scenarios loaded so far (a load's frames follow its `loaded`). */
  loads: number;
  /** The worker has not answered a `load` or `step` within WATCHDOG_MS (the page offers Stop). */
  stalled: boolean;
  /** A seek under way: replaying from `fromNs` to `toNs`, at `nowNs` (the worker's
   *  seekProgress; null until its first one); null when none is. */
  seek: { fromNs: number | null; toNs: number; nowNs: number | null } | null;
  /** Where the latest seek replayed from, as the worker said (a checkpoint's time, where the
   *  runs were, or 0): kept after it lands (tests read it; a restore may never be drawn). */
  seekFromNs: number | null;
  /** The background computation of a virtual time (a paused lesson's next step): where it is,
   *  and whether the state there is kept (a seek there is then a restore). */
  ahead: { toNs: number; nowNs: number; done: boolean } | null;
}

/** How long the worker may take to answer before the page says so and offers Stop (ms). */
export const WATCHDOG_MS = 5000;

export const initialState: EngineState = {
  phase: 'loading',
  engineVersion: null,
  kernel: null,
  error: null,
  scenario: null,
  title: '',
  description: '',
  variants: [],
  text: '',
  file: null,
  counterNames: [],
  runs: [],
  lesson: [],
  frames: [],
  series: [],
  seq: -1,
  playing: false,
  loads: 0,
  stalled: false,
  seek: null,
  seekFromNs: null,
  ahead: null,
};

type Action =
  | { type: 'message'; msg: Exclude<FromWorker, { type: 'error' }> }
  | { type: 'error'; message: string; fatal: boolean }
  | { type: 'playing'; playing: boolean }
  | { type: 'stalled'; stalled: boolean }
  | { type: 'seeking'; toNs: number }
  | { type: 'seeked' }
  | { type: 'loading' };

export function reducer(state: EngineState, action: Action): EngineState {
  if (action.type === 'stalled') return state.stalled === action.stalled ? state : { ...state, stalled: action.stalled, playing: action.stalled ? false : state.playing };
  if (state.phase === 'error') return state; // stay on a fatal error until reload
  switch (action.type) {
    case 'error':
      return action.fatal
        ? { ...state, phase: 'error', playing: false, error: action.message }
        : { ...state, playing: false, error: action.message };
    case 'playing':
      return { ...state, playing: action.playing };
    case 'loading':
      return { ...state, error: null, playing: false, seek: null, seekFromNs: null, ahead: null };
    case 'seeking':
      return { ...state, playing: false, seek: { fromNs: null, toNs: action.toNs, nowNs: null } };
    case 'seeked':
      return { ...state, seek: null };
  }
  const msg = action.msg;
  switch (msg.type) {
    case 'ready':
      return { ...state, engineVersion: msg.engineVersion, kernel: msg.kernel ?? null };
    case 'loaded':
      return {
        ...state,
        phase: 'ready',
        error: null,
        scenario: msg.scenario,
        title: msg.title,
        description: msg.description,
        variants: msg.variants,
        text: msg.text,
        file: msg.file,
        counterNames: msg.counterNames,
        runs: msg.runs,
        lesson: msg.lesson,
        frames: [],
        series: msg.runs.map(() => []),
        seq: -1,
        loads: state.loads + 1,
      };
    case 'frame': {
      if (msg.runs.length !== state.runs.length) return state;
      // A new series array only when rows arrived, so the charts redraw only then.
      // After a seek back the worker sends from an earlier row (`seriesStart`): rows after it
      // belong to the later time the runs left.
      let grew = false;
      const next = state.series.map((s, i) => {
        const run = msg.runs[i]!;
        const add = splitRows(run.series);
        const kept = run.seriesStart < s.length ? s.slice(0, run.seriesStart) : s;
        if (add.length === 0 && kept === s) return s;
        grew = true;
        return kept.concat(add);
      });
      const series = grew ? next : state.series;
      const finished = msg.runs.every((r) => r.finished);
      return { ...state, frames: msg.runs, series, seq: msg.seq, playing: state.playing && !finished };
    }
    case 'seekProgress':
      return state.seek ? { ...state, seek: { fromNs: msg.fromNs, toNs: msg.toNs, nowNs: msg.nowNs }, seekFromNs: msg.fromNs } : state;
    case 'aheadProgress':
      return { ...state, ahead: { toNs: msg.toNs, nowNs: msg.nowNs, done: msg.done } };
    case 'reports':
    case 'variantReport':
    case 'reportProgress':
    case 'checked':
    case 'assessed':
    case 'traceScenario':
    case 'mrc':
    case 'mrcProgress':
    case 'mrcPoint':
      return state; // answered by the report workers (useReports, useTrace), and the editor's (checker.ts)
  }
}

export function useEngine() {
  const [state, dispatch] = useReducer(reducer, initialState);
  const client = useRef<EngineClient | null>(null);
  const speed = useRef(250_000_000); // ns of virtual time per wall second
  const playing = useRef(false);
  const waiting = useRef(false);
  const lastWall = useRef(0);
  const raf = useRef(0);
  const lastLoad = useRef<{ scenario: ScenarioSource; variants: string[]; flags?: FlagOverrides[] } | null>(null);
  // Lessons: a virtual time where play stops (null: none), and the runs' time so far.
  const pauseAt = useRef<number | null>(null);
  const nowNs = useRef(0);
  // The size of play steps (pace.ts), and the play step in flight.
  const pace = useRef(new Pace());
  const inFlight = useRef<number | null>(null);
  // A seek asked for while a step was in flight, sent when its frame arrives; and whether the
  // next frame answers a seek (the worker says how far a seek is before its frame).
  const queued = useRef<Extract<ToWorker, { type: 'seek' }> | null>(null);
  const seekAnswering = useRef(false);
  // The watchdog: armed while a `load` or `step` awaits its answer. Stop replaces the worker
  // (a new generation) and reloads the scenario from its start.
  const watchdog = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [generation, setGeneration] = useState(0);
  const send = useCallback((msg: Parameters<EngineClient['send']>[0]) => {
    if (watchdog.current) clearTimeout(watchdog.current);
    watchdog.current = setTimeout(() => dispatch({ type: 'stalled', stalled: true }), WATCHDOG_MS);
    client.current?.send(msg);
  }, []);
  /** The worker says it is on its way (a seek's progress): it is not stuck. */
  const alive = useCallback(() => {
    if (!watchdog.current) return;
    clearTimeout(watchdog.current);
    watchdog.current = setTimeout(() => dispatch({ type: 'stalled', stalled: true }), WATCHDOG_MS);
  }, []);
  const answered = useCallback(() => {
    if (watchdog.current) clearTimeout(watchdog.current);
    watchdog.current = null;
    dispatch({ type: 'stalled', stalled: false });
  }, []);

  const tick = useCallback((now: number) => {
    raf.current = 0;
    if (!playing.current || waiting.current) return;
    const dt = Math.min(250, Math.max(1, now - lastWall.current));
    lastWall.current = now;
    // Land exactly on a lesson's pause time rather than overshoot it.
    const limit = pauseAt.current !== null && pauseAt.current > nowNs.current ? pauseAt.current - nowNs.current : Infinity;
    const ns = pace.current.next(speed.current, dt, limit);
    waiting.current = true;
    inFlight.current = ns;
    send({ type: 'step', ns });
  }, [send]);

  const schedule = useCallback(() => {
    if (playing.current && !waiting.current && raf.current === 0) raf.current = requestAnimationFrame(tick);
  }, [tick]);

  useEffect(() => {
    const c = startLiveEngine({
      onMessage: (msg) => {
        if (msg.type === 'frame' || msg.type === 'loaded') answered();
        if (msg.type === 'seekProgress') {
          alive();
          seekAnswering.current = true;
        }
        if (msg.type === 'frame' && inFlight.current !== null) pace.current.observe(inFlight.current, msg.stepMs);
        if (msg.type === 'loaded') pace.current.reset();
        if (msg.type === 'frame' || msg.type === 'loaded') {
          waiting.current = false;
          inFlight.current = null;
        }
        if (msg.type === 'frame' && msg.runs.every((r) => r.finished)) playing.current = false;
        dispatch({ type: 'message', msg });
        if (msg.type === 'frame' && seekAnswering.current) {
          seekAnswering.current = false;
          dispatch({ type: 'seeked' });
        }
        if (msg.type === 'frame' && queued.current) {
          waiting.current = true;
          dispatch({ type: 'seeking', toNs: queued.current.ns });
          send(queued.current);
          queued.current = null;
        }
        if (msg.type === 'frame') {
          // Runs that finished stay put; the others set the pace.
          const now = commonNowNs(msg.runs);
          if (playing.current && pauseAt.current !== null && nowNs.current < pauseAt.current && now >= pauseAt.current) {
            playing.current = false;
            dispatch({ type: 'playing', playing: false });
          }
          nowNs.current = now;
        }
        schedule();
      },
      onError: (message, fatal) => {
        answered();
        waiting.current = false;
        playing.current = false;
        queued.current = null;
        seekAnswering.current = false;
        dispatch({ type: 'seeked' });
        dispatch({ type: 'error', message, fatal });
      },
    });
    client.current = c;
    waiting.current = false;
    inFlight.current = null;
    queued.current = null;
    seekAnswering.current = false;
    if (lastLoad.current) {
      dispatch({ type: 'loading' });
      send({ type: 'load', ...lastLoad.current });
    }
    return () => {
      if (raf.current) cancelAnimationFrame(raf.current);
      raf.current = 0;
      if (watchdog.current) clearTimeout(watchdog.current);
      watchdog.current = null;
      c.dispose();
      client.current = null;
    };
  }, [schedule, send, answered, alive, generation]);

  /** The watchdog's Stop: terminate the stuck worker, start a new one, reload the scenario. */
  const stop = useCallback(() => {
    playing.current = false;
    dispatch({ type: 'playing', playing: false });
    dispatch({ type: 'stalled', stalled: false });
    setGeneration((g) => g + 1);
  }, []);

  const load = useCallback((scenario: ScenarioSource, variants: string[], flags?: FlagOverrides[]) => {
    playing.current = false;
    waiting.current = false;
    queued.current = null;
    // Per-run flag overrides travel only when there are some (a plain load stays as it was).
    const hasFlags = !!flags && flags.some((f) => Object.keys(f).length > 0);
    lastLoad.current = hasFlags ? { scenario, variants, flags } : { scenario, variants };
    dispatch({ type: 'loading' });
    send({ type: 'load', ...lastLoad.current });
  }, [send]);

  const setPlaying = useCallback(
    (on: boolean) => {
      playing.current = on;
      lastWall.current = performance.now();
      dispatch({ type: 'playing', playing: on });
      schedule();
    },
    [schedule],
  );

  const step = useCallback((ns: number) => {
    if (waiting.current) return;
    playing.current = false;
    dispatch({ type: 'playing', playing: false });
    waiting.current = true;
    send({ type: 'step', ns: Math.min(MAX_STEP_NS, Math.max(1, Math.round(ns))) });
  }, [send]);

  /** Go to virtual time `ns`, paused: the worker restores its nearest checkpoint and replays
   *  from there (state.seek says how far); done when the frame at `ns` arrives. */
  const seek = useCallback((ns: number) => {
    playing.current = false;
    dispatch({ type: 'seeking', toNs: ns });
    const msg = { type: 'seek', ns: Math.max(0, Math.round(ns)) } as const;
    // A play step in flight: the seek follows its frame.
    if (waiting.current) queued.current = msg;
    else {
      waiting.current = true;
      send(msg);
    }
  }, [send]);

  /** Compute the state at `ns` in the background (null: stop), e.g. a paused lesson's next step. */
  const ahead = useCallback((ns: number | null) => {
    client.current?.send({ type: 'ahead', ns: ns === null ? null : Math.max(0, Math.round(ns)) });
  }, []);

  const setSpeed = useCallback((nsPerSecond: number) => {
    speed.current = nsPerSecond;
  }, []);

  const reset = useCallback(() => {
    if (lastLoad.current) load(lastLoad.current.scenario, lastLoad.current.variants, lastLoad.current.flags);
  }, [load]);

  /** Stop playing when the runs reach this virtual time (a lesson's pausing step); null: never. */
  const setPauseAt = useCallback((ns: number | null) => {
    pauseAt.current = ns;
  }, []);

  return { state, load, setPlaying, step, seek, ahead, setSpeed, reset, setPauseAt, stop };
}
