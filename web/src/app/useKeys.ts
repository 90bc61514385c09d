// Keyboard (lib/keys.ts): Space play/pause, PageDown/PageUp (clickers) next/previous lesson
// step, → ↑ / ← one time step forwards/back, +/- speed, r reset; never a key the focused
// control uses itself.
import { useEffect } from 'react';
import { keyAction } from '../lib/keys';

interface KeyDeps {
  togglePlay: () => void;
  go: (dir: 1 | -1, unit?: 'lesson' | 'time') => void;
  reset: () => void;
  setSpeedStep: (f: (s: number) => number) => void;
}

export function useKeys({ togglePlay, go, reset, setSpeedStep }: KeyDeps) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = keyAction(e);
      if (!action) return;
      if (['play', 'next', 'prev', 'forward', 'back'].includes(action)) e.preventDefault();
      if (action === 'play') togglePlay();
      else if (action === 'next') go(1);
      else if (action === 'prev') go(-1);
      else if (action === 'forward') go(1, 'time');
      else if (action === 'back') go(-1, 'time');
      else if (action === 'faster') setSpeedStep((s) => Math.min(24, s + 1));
      else if (action === 'slower') setSpeedStep((s) => Math.max(0, s - 1));
      else reset();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [togglePlay, go, reset, setSpeedStep]);
}
