// Going to a virtual time (a restored link, a host's seek, a lesson step, the scrubber): one
// `seek` to the worker, which restores its nearest checkpoint at or before that time and
// replays only from there (engine/checkpoints.ts), saying how far it is (state.seek); the runs
// are paused there. A paused lesson's next step is computed ahead in the background, so that
// a clicker's next lands at once.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EngineState } from '../engine/useEngine';
import { commonNowNs } from '../engine/protocol';
import { lessonTarget } from '../lib/hostApi';
import type { LessonStep } from '../lib/lesson';

/** A seek under way (the worker's progress; from and now null until it says), or one waiting
 *  for the first load. */
export interface Seek {
  fromNs: number | null;
  toNs: number;
  nowNs: number | null;
}

/** Whether the runs can be shown and driven: loaded, not refused, one frame per run. */
export function runPhase(state: EngineState) {
  const frames = state.frames;
  // Scenario text the core refused (on a first load too, e.g. a reload of such text): its error
  // stands where the runs would be, and nothing plays.
  // (client.ts words a `scenario` error so; a rejected message leaves the runs as they are.)
  const broken = state.phase !== 'error' && !!state.error?.startsWith('The scenario could not be loaded');
  const ready = state.phase === 'ready' && !broken && frames.length > 0 && frames.length === state.runs.length;
  const finished = ready && frames.every((f) => f.finished);
  return { frames, broken, ready, finished, nowNs: commonNowNs(frames) };
}

export function useSeek(state: EngineState, engineSeek: (ns: number) => void) {
  const { ready } = runPhase(state);
  // A time to go to once the first load is in place (a restored link's).
  const [pending, setPending] = useState<number | null>(null);
  useEffect(() => {
    if (pending === null || !ready || state.loads < 1) return;
    setPending(null);
    engineSeek(pending);
  }, [pending, ready, state.loads, engineSeek]);
  // Before the first load there are no runs to seek: wait for it. After it the worker takes
  // messages in order, so a seek sent while a reload is on its way applies to the new runs.
  const seekTo = useCallback((ns: number) => (state.loads < 1 ? setPending(ns) : engineSeek(ns)), [state.loads, engineSeek]);
  const seekAfterLoad = useCallback((ns: number) => setPending(ns), []);
  const seek: Seek | null = state.seek ?? (pending !== null ? { fromNs: null, toNs: pending, nowNs: null } : null);
  return { seek, seeking: seek !== null, seekTo, seekAfterLoad };
}

/** While a lesson is paused, have the worker compute its next step's state in the background
 *  (engine `ahead`); stop when it plays. */
export function useAhead(state: EngineState, lessonSteps: LessonStep[], seeking: boolean, ahead: (ns: number | null) => void) {
  const { ready, finished, nowNs } = runPhase(state);
  const next = ready && !finished && !seeking && !state.playing ? lessonTarget(lessonSteps, nowNs, 1) : null;
  const sent = useRef<number | null>(null);
  useEffect(() => {
    if (next === sent.current) return;
    sent.current = next;
    ahead(next !== null && next > nowNs ? next : null);
  }, [next, nowNs, ahead]);
}
