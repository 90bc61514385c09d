// The embed's content scaled to its frame: laid out at a design width (the frame's width, or a
// 960 x 540 slide scaled up for bigger frames, so a 1920 x 1080 projector shows everything at
// twice the size), then scaled down when it is taller than the frame. Nothing scrolls; the
// width never depends on the scale, so the measure cannot oscillate.
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** The slide a presenter designs for: content laid out at this size is scaled up to fill bigger frames. */
export const DESIGN = { w: 960, h: 540 };

export interface Fit {
  /** Layout width of the content (px, before scaling). */
  width: number;
  /** Layout height of the frame (px, before scaling): the content is at least this tall, so a
   *  view can grow into the room the rest leaves (flex), and at most this to fit unscaled. */
  height: number;
  scale: number;
  /** Left offset that centres narrower-than-frame content (px, after scaling). */
  left: number;
}

/** The fit of content `contentH` high (at layout width `fitWidth(W, H)`) into a W x H frame. */
export function fitFor(W: number, H: number, contentH: number): Fit {
  const up = Math.max(1, Math.min(W / DESIGN.w, H / DESIGN.h));
  const width = W / up;
  const scale = contentH > 0 ? Math.min(up, H / contentH) : up;
  return { width, height: H / up, scale, left: Math.max(0, (W - width * scale) / 2) };
}

export function FitFrame({ children, className, testId }: { children: ReactNode; className?: string; testId?: string }) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState<Fit | null>(null);
  useLayoutEffect(() => {
    const o = outer.current;
    const i = inner.current;
    if (!o || !i) return;
    const measure = () => {
      const next = fitFor(o.clientWidth, o.clientHeight, i.offsetHeight);
      setFit((f) => (f && Math.abs(f.scale - next.scale) < 0.002 && Math.abs(f.width - next.width) < 0.5 && Math.abs(f.height - next.height) < 0.5 ? f : next));
    };
    const ro = new ResizeObserver(measure);
    ro.observe(o);
    ro.observe(i);
    measure();
    return () => ro.disconnect();
  }, []);
  return (
    <div ref={outer} className={`fit-frame ${className ?? ''}`} data-testid={testId} data-scale={fit ? fit.scale.toFixed(3) : ''}>
      <div
        ref={inner}
        className="fit-inner"
        style={fit ? { width: `${fit.width}px`, minHeight: `${fit.height}px`, transform: `translate(${fit.left}px, 0) scale(${fit.scale})` } : { width: '100%', visibility: 'hidden' }}
      >
        {children}
      </div>
    </div>
  );
}
