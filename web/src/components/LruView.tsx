// The four LRU lists as horizontal strips of cells on a canvas: a cell is a
// bucket of frames coloured by its majority owner, head on the left, tail at
// the strip's end (strip length is proportional to the list's size), and the
// sampled page moves of the last step animated between strips.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { RunFrame, RunInfo } from '../engine/protocol';
import { formatCount, formatRate } from '../format';
import { LISTS, MOVE_COLORS, MOVE_REASONS, ownerColor } from '../lib/palette';
import type { ListRates } from '../lib/rates';
import { useWidth } from '../lib/useWidth';

const ROW = 58;
const LABEL_H = 20;
const STRIP_H = 26;
const LEFT = 40;
const RIGHT = 46;
const MOVE_MS = 700;


interface Particle {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  color: string;
  start: number;
}

interface Props {
  info: RunInfo;
  frame: RunFrame;
  rates: ListRates;
  /** Distinguishes the views in compare mode ("" or the variant name). */
  testPrefix: string;
  /** The colour theme (the canvas reads its colours from CSS variables). */
  theme?: string;
}

function rowOf(list: number): number {
  return LISTS.findIndex((l) => l.index === list);
}

export function LruView({ info, frame, rates, testPrefix, theme }: Props) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [box, width] = useWidth(320, 800);
  const particles = useRef<Particle[]>([]);
  const raf = useRef(0);
  const frameRef = useRef(frame);
  frameRef.current = frame;

  const height = LISTS.length * ROW + 6;
  const stripW = width - LEFT - RIGHT;
  const maxCells = Math.max(1, Math.ceil(info.frames / frame.bucket));
  const cellW = stripW / maxCells;
  const stripY = (row: number) => row * ROW + LABEL_H;

  // Spawn particles for the frame's sampled moves.
  useEffect(() => {
    const now = performance.now();
    const m = frame.moves;
    const xAt = (idx: number) => LEFT + (idx / frame.bucket) * cellW;
    for (let k = 0; k + 5 <= m.length; k += 5) {
      const [from, to, reason, fromIdx, toIdx] = [m[k]!, m[k + 1]!, m[k + 2]!, m[k + 3]!, m[k + 4]!];
      const r0 = rowOf(from);
      const r1 = rowOf(to);
      if (r0 < 0 && r1 < 0) continue;
      // From outside (a new page, a refault) it drops in from above its place; to outside
      // (evicted, freed) it falls out below the strip.
      const x1 = r1 >= 0 ? xAt(toIdx) : xAt(fromIdx);
      const x0 = r0 >= 0 ? xAt(fromIdx) : x1;
      const y1 = r1 >= 0 ? stripY(r1) + STRIP_H / 2 : stripY(r0) + STRIP_H + 14;
      const y0 = r0 >= 0 ? stripY(r0) + STRIP_H / 2 : stripY(r1) - 14;
      particles.current.push({ x0, y0, x1, y1, color: MOVE_COLORS[reason] ?? '#999', start: now + Math.random() * 250 });
    }
    if (particles.current.length > 2000) particles.current.splice(0, particles.current.length - 2000);
  }, [frame, cellW, width]); // eslint-disable-line react-hooks/exhaustive-deps

  // Canvas backing store: resized only when the layout changes (resizing clears it).
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  useLayoutEffect(() => {
    const el = canvas.current;
    if (!el) return;
    el.width = Math.round(width * dpr);
    el.height = Math.round(height * dpr);
  }, [width, height, dpr]);

  // One draw per animation frame at most: cells, marks, then the particles on top; the loop
  // keeps going while particles fly.
  const geometry = useRef({ width, height, stripW, info });
  geometry.current = { width, height, stripW, info };
  const drawRef = useRef<() => void>(() => {});
  drawRef.current = () => {
    raf.current = 0;
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const { width, height, stripW, info } = geometry.current;
    const f = frameRef.current;
    const css = getComputedStyle(el);
    const stripBg = css.getPropertyValue('--strip-bg').trim() || '#e3e6eb';
    const fg = css.getPropertyValue('--fg').trim() || '#1d2330';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px "Liberation Sans", sans-serif';
    ctx.textBaseline = 'middle';
    const w = stripW / Math.max(1, Math.ceil(info.frames / f.bucket));
    let offset = 0;
    for (let index = 0; index < 4; index++) {
      const row = rowOf(index);
      const y = stripY(row);
      ctx.fillStyle = stripBg;
      ctx.fillRect(LEFT, y, stripW, STRIP_H);
      const len = f.listFrames[index]!;
      const n = Math.ceil(len / f.bucket);
      // Runs of equal owners are drawn as one rectangle.
      let c = 0;
      while (c < n) {
        const owner = f.cells[offset + c]!;
        let e = c + 1;
        while (e < n && f.cells[offset + e] === owner) e++;
        const end = e === n ? len / f.bucket : e; // the last cell may be a partial bucket
        ctx.fillStyle = owner > 0 ? ownerColor(owner - 1) : '#777777';
        ctx.fillRect(LEFT + c * w, y, Math.max((end - c) * w, 0.8), STRIP_H);
        c = e;
      }
      offset += n;
      ctx.fillStyle = fg;
      ctx.textAlign = 'right';
      ctx.fillText('head', LEFT - 4, y + STRIP_H / 2);
      const tailX = LEFT + Math.max(2, (len / f.bucket) * w);
      ctx.fillRect(tailX, y - 3, 1.5, STRIP_H + 6);
      ctx.textAlign = 'left';
      ctx.fillText('tail', Math.min(tailX + 3, width - RIGHT + 4), y + STRIP_H / 2);
    }
    const now = performance.now();
    particles.current = particles.current.filter((p) => now - p.start < MOVE_MS);
    ctx.lineWidth = 0.5;
    ctx.strokeStyle = fg;
    for (const p of particles.current) {
      const t = (now - p.start) / MOVE_MS;
      if (t < 0) continue;
      const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
      const x = p.x0 + (p.x1 - p.x0) * e;
      const y = p.y0 + (p.y1 - p.y0) * e - Math.sin(Math.PI * e) * (p.y0 === p.y1 ? 14 : 0);
      ctx.globalAlpha = 1 - 0.6 * t;
      ctx.fillStyle = p.color;
      ctx.beginPath();
      ctx.arc(x, y, 3.2, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    if (particles.current.length > 0) raf.current = requestAnimationFrame(() => drawRef.current());
  };
  useEffect(() => {
    if (raf.current === 0) raf.current = requestAnimationFrame(() => drawRef.current());
  }, [frame, width, height, info, theme]);
  useEffect(
    () => () => {
      if (raf.current) cancelAnimationFrame(raf.current);
      raf.current = 0;
    },
    [],
  );

  const present = new Set<number>();
  for (const c of frame.cells) if (c > 0) present.add(c - 1);

  return (
    <figure className="lru-view" aria-label={`LRU lists of ${info.variant}`}>
      <div className="lru-canvas-box" ref={box} style={{ height }}>
        <canvas
          ref={canvas}
          style={{ width, height }}
          role="img"
          aria-label={`LRU lists: ${LISTS.map((l) => `${l.label} ${formatCount(frame.lru[l.index]!)} pages`).join(', ')}`}
          data-testid={`${testPrefix}lru-canvas`}
          data-cells={frame.cells.length}
        />
        {LISTS.map((l, row) => (
          <div key={l.key} className="lru-label" style={{ top: row * ROW, left: LEFT }}>
            <strong>{l.label}</strong>{' '}
            <span data-testid={`${testPrefix}lru-size-${l.key}`} data-pages={frame.lru[l.index]} data-frames={frame.listFrames[l.index]}>
              {formatCount(frame.lru[l.index]!)}
            </span>{' '}
            pages
            {Number.isFinite(rates.scan[l.index]) && (
              <span className="muted">
                {' '}
                · {l.index === 0 || l.index === 2 ? 'scanned' : 'refilled (both)'} {formatRate(rates.scan[l.index]!)}/s
              </span>
            )}
          </div>
        ))}
      </div>
      <figcaption className="legend">
        <span className="muted">
          cell = {formatCount(frame.bucket * info.scale)} page{frame.bucket * info.scale === 1 ? '' : 's'} · free{' '}
          <span data-testid={`${testPrefix}lru-size-free`} data-pages={frame.lru[5]}>
            {formatCount(frame.lru[5]!)}
          </span>{' '}
          · unevictable {formatCount(frame.lru[4]!)} · moves seen {formatCount(frame.movesSeen)}
        </span>
        <span className="legend-group" aria-label="Owners">
          {frame.spaceNames.map((name, i) =>
            present.has(i) ? (
              <span key={name + i} className="legend-item">
                <span className="swatch" style={{ background: ownerColor(i) }} />
                {name}
              </span>
            ) : null,
          )}
        </span>
        <span className="legend-group" aria-label="Page moves">
          {MOVE_REASONS.map((r, i) => (
            <span key={r} className="legend-item">
              <span className="dot" style={{ background: MOVE_COLORS[i] }} />
              {r}
            </span>
          ))}
        </span>
      </figcaption>
    </figure>
  );
}
