// Keyboard (lib/keys.ts): Space play/pause, PageDown/PageUp (clickers) next/previous lesson
// step, → ↑ / ← one time step forwards/back, +/- speed, r reset; never a key the focused
// control uses itself. Keys pressed while the page loads or seeks wait their turn (useCommands).
import { useEffect, useRef } from 'react';
import { keyAction } from '../lib/keys';

interface KeyDeps {
  togglePlay: () => void;
  go: (dir: 1 | -1, unit?: 'lesson' | 'time') => void;
  reset: () => void;
  setSpeedStep: (f: (s: number) => number) => void;
  run: (command: () => void) => void;
}

export function useKeys(deps: KeyDeps) {
  const h = useRef(deps);
  h.current = deps;
  const run = deps.run;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = keyAction(e);
      if (!action) return;
      if (['play', 'next', 'prev', 'forward', 'back'].includes(action)) e.preventDefault();
      if (action === 'faster') h.current.setSpeedStep((s) => Math.min(24, s + 1));
      else if (action === 'slower') h.current.setSpeedStep((s) => Math.max(0, s - 1));
      else
        run(() => {
          const { togglePlay, go, reset } = h.current;
          if (action === 'play') togglePlay();
          else if (action === 'next') go(1);
          else if (action === 'prev') go(-1);
          else if (action === 'forward') go(1, 'time');
          else if (action === 'back') go(-1, 'time');
          else reset();
        });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run]);
}
