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

/** Tracks a box's width and height (floored) through a ResizeObserver; returns [ref, size]. The
 *  box's CSS decides its size (an aspect ratio, or the room a flex layout leaves it). */
export function useSize(initial: { width: number; height: number }) {
  const box = useRef<HTMLDivElement | null>(null);
  const [size, setSize] = useState(initial);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      const width = Math.max(1, Math.floor(el.clientWidth));
      const height = Math.max(1, Math.floor(el.clientHeight));
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    measure();
    return () => ro.disconnect();
  }, []);
  return [box, size] as const;
}
