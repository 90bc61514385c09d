// Commands from keys, clickers and a host page, applied in the order they came: one that
// arrives while the page is loading or seeking waits, and each runs only once the previous one
// has landed (a seek has reached its time), with the handlers of the moment it runs.
import { useCallback, useEffect, useRef, useState } from 'react';

export function useCommands(idle: boolean) {
  const queue = useRef<(() => void)[]>([]);
  // Bumped on each enqueue, so a command queued while idle runs on the next render.
  const [queued, setQueued] = useState(0);
  const run = useCallback((command: () => void) => {
    queue.current.push(command);
    setQueued((n) => n + 1);
  }, []);
  useEffect(() => {
    if (!idle || queue.current.length === 0) return;
    queue.current.shift()!();
    // More waiting: run the next after this one's render.
    if (queue.current.length > 0) setQueued((n) => n + 1);
  }, [idle, queued]);
  return { run };
}
