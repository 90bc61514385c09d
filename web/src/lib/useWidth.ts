import { useLayoutEffect, useRef, useState } from 'react';

/** Tracks a div's width (floored, never below `min`) through a ResizeObserver; returns [ref, width]. */
export function useWidth(min: number, initial: number) {
  const box = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(min, Math.floor(el.clientWidth)));
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    measure();
    return () => ro.disconnect();
  }, [min]);
  return [box, width] as const;
}
