// Play/pause and going forwards or back: by lesson step when the scenario has a lesson (and it
// is shown), else by one step of virtual time. Keys, the host API and the buttons share these.
import { useCallback } from 'react';
import { lessonTarget } from '../lib/hostApi';
import type { LessonStep } from '../lib/lesson';

interface TransportDeps {
  ready: boolean;
  finished: boolean;
  seeking: boolean;
  playing: boolean;
  nowNs: number;
  stepNs: number;
  lessonSteps: LessonStep[];
  setPlaying: (on: boolean) => void;
  step: (ns: number) => void;
  seekTo: (ns: number) => void;
}

export function useTransport({ ready, finished, seeking, playing, nowNs, stepNs, lessonSteps, setPlaying, step, seekTo }: TransportDeps) {
  const togglePlay = useCallback(() => {
    if (ready && !finished && !seeking) setPlaying(!playing);
  }, [ready, finished, seeking, playing, setPlaying]);
  const go = useCallback(
    (dir: 1 | -1, unit: 'lesson' | 'time' = lessonSteps.length > 0 ? 'lesson' : 'time', ns = stepNs) => {
      if (!ready || seeking) return;
      if (unit === 'lesson') {
        const to = lessonTarget(lessonSteps, nowNs, dir);
        if (to === null) return;
        setPlaying(false);
        seekTo(to);
      } else if (dir > 0) {
        if (!finished) step(ns);
      } else if (nowNs > 0) {
        setPlaying(false);
        seekTo(Math.max(0, nowNs - ns));
      }
    },
    [lessonSteps, ready, seeking, finished, nowNs, stepNs, step, seekTo, setPlaying],
  );
  /** Paused, then to a virtual time (the scrubber, a lesson step, a host's seek). */
  const pauseAndSeek = useCallback(
    (ns: number) => {
      setPlaying(false);
      seekTo(ns);
    },
    [setPlaying, seekTo],
  );
  return { togglePlay, go, pauseAndSeek };
}
