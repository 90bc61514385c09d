// Going to a virtual time (a restored link, a host's seek, a lesson step, the scrubber): the
// runs step until they are there, paused. Stepping is exact whatever the step sizes, so the
// state equals the one linked. Seeking back replays from the start.
import { useCallback, useEffect, useState } from 'react';
import type { EngineState } from '../engine/useEngine';

/** A seek goes in this many steps at most, so a long replay shows its progress. */
const SEEK_PARTS = 20;

/** Where to go in virtual time, once the engine has done `load` loads. */
export interface Seek {
  ns: number;
  load: number;
  /** Virtual time the seek started from (0 for a replay), for its progress. */
  from: number;
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
  return { frames, broken, ready, finished, nowNs: frames[0]?.nowNs ?? 0 };
}

export function useSeek(state: EngineState, step: (ns: number) => void, reset: () => void) {
  const { frames, ready, finished } = runPhase(state);
  const [seek, setSeek] = useState<Seek | null>(null);
  useEffect(() => {
    if (!seek || !ready || state.loads < seek.load) return;
    const now = frames[0]!.nowNs;
    if (finished || now >= seek.ns) setSeek(null);
    else step(Math.min(seek.ns - now, Math.max(1_000_000, Math.ceil((seek.ns - seek.from) / SEEK_PARTS))));
  }, [seek, ready, finished, state.loads, state.seq, frames, step]);
  const seekTo = useCallback(
    (ns: number) => {
      const now = frames[0]?.nowNs ?? 0;
      if (ns >= now) setSeek({ ns, load: state.loads, from: now });
      else {
        reset();
        setSeek({ ns, load: state.loads + 1, from: 0 });
      }
    },
    [frames, state.loads, reset],
  );
  /** A restored link's time, reached after the first load. */
  const seekAfterLoad = useCallback((ns: number) => setSeek({ ns, load: 1, from: 0 }), []);
  return { seek, seeking: seek !== null, seekTo, seekAfterLoad };
}
