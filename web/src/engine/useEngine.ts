// React state for one engine worker: version, counters, virtual time, running,
// a bounded history for the chart, and the error text if anything failed.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { startEngineWorker, type EngineClient } from './client';
import type { FromWorker } from './protocol';

/** Virtual time advanced per run tick (about 60 ticks per second): 1 ms. */
export const RUN_SLICE_NS = 1_000_000;
/** Samples kept for the chart. */
export const HISTORY_LEN = 400;

export interface Sample {
  nowNs: number;
  values: Float64Array;
}

export interface EngineState {
  phase: 'loading' | 'ready' | 'error';
  engineVersion: string | null;
  scenario: string | null;
  counterNames: string[];
  counters: Float64Array | null;
  nowNs: number;
  running: boolean;
  history: Sample[];
  error: string | null;
}

export const initialState: EngineState = {
  phase: 'loading',
  engineVersion: null,
  scenario: null,
  counterNames: [],
  counters: null,
  nowNs: 0,
  running: false,
  history: [],
  error: null,
};

type Action = { type: 'message'; msg: Exclude<FromWorker, { type: 'error' }> } | { type: 'error'; message: string };

export function reducer(state: EngineState, action: Action): EngineState {
  if (action.type === 'error') return { ...state, phase: 'error', running: false, error: action.message };
  if (state.phase === 'error') return state; // stay on the error until reload
  const msg = action.msg;
  switch (msg.type) {
    case 'ready':
      return { ...state, engineVersion: msg.engineVersion };
    case 'loaded':
      return { ...state, phase: 'ready', scenario: msg.scenario, counterNames: msg.counterNames, history: [], counters: null, nowNs: 0 };
    case 'snapshot': {
      const history = [...state.history, { nowNs: msg.nowNs, values: msg.counters }];
      if (history.length > HISTORY_LEN) history.splice(0, history.length - HISTORY_LEN);
      return { ...state, counters: msg.counters, nowNs: msg.nowNs, running: msg.running, history };
    }
    case 'events':
      return state; // no view consumes events yet
  }
}

export function useEngine() {
  const [state, dispatch] = useReducer(reducer, initialState);
  const client = useRef<EngineClient | null>(null);

  useEffect(() => {
    const c = startEngineWorker({
      onMessage: (msg) => dispatch({ type: 'message', msg }),
      onError: (message) => dispatch({ type: 'error', message }),
    });
    client.current = c;
    c.send({ type: 'load', scenario: { kind: 'builtin', name: 'demo' } });
    return () => {
      c.dispose();
      client.current = null;
    };
  }, []);

  const toggleRun = useCallback(() => {
    client.current?.send(state.running ? { type: 'pause' } : { type: 'run', sliceNs: RUN_SLICE_NS });
  }, [state.running]);

  return { state, toggleRun };
}
