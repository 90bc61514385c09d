// The four LRU lists as horizontal strips of cells on a canvas: a cell is a bucket of frames,
// coloured by page type (anon orange, file blue: the colour language of every view) in a shade
// that keys its majority owner (legend below, name on hover); head on the left, tail at the
// strip's end; the sampled page moves of the last step fly between strips as haloed dots.
//
// Strip length follows a chosen scale: proportional to RAM (the default, as in the exported
// figures: lengths compare as the page counts do), log of the size (a longer strip always
// holds more pages, and a 7-page list of a 524k-page machine still shows), per list (each list
// fills the width: readable, but a 7-page list looks as big as a 474k-page one, so the sizes are
// written at the strips' ends); and the view can zoom into the head or
// the tail of every list. The scale in use is stated above the strips, and an axis under them
// marks page counts on the log and RAM scales.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { RunFrame, RunInfo } from '../engine/protocol';
import type { LruList, LruStrip } from '../engine/generated/views';
import { formatCount, formatRate } from '../format';
import { GlossaryTerm } from './GlossaryTerm';
import { DOT_HALO, LISTS, listTypeOf, MOVE_COLORS, MOVE_REASONS, OWNER_SHADES, TYPE_COLORS, TYPE_NAMES, typeShade } from '../lib/palette';
import type { ListRates } from '../lib/rates';
import { useWidth } from '../lib/useWidth';

const ROW = 58;
const LABEL_H = 20;
const STRIP_H = 26;
const LEFT = 40;
const RIGHT = 46;
const MOVE_MS = 700;
/** The canvas's own text (head, tail, the axis), px before any scaling of the page; a page may
 *  set it with the CSS variable --lru-font-px (the slide embed does: it is projected). */
const FONT_PX = 11;
/** The axis under the strips (page counts of the log and RAM scales). */
const AXIS_H = 24;
/** The share of a list a head or tail zoom shows. */
export const ZOOM_SHARE = 0.1;

export type StripScale = 'list' | 'log' | 'ram';
export type StripZoom = 'all' | 'head' | 'tail';

const SCALE_TEXT: Record<StripScale, string> = {
  list: 'per list: each list fills the strip whatever its size, so lengths do not compare; the sizes are at the strip ends',
  log: 'log of size: a longer strip holds more pages; full width = all of RAM; page counts on the axis below',
  ram: 'linear in RAM: full width = all of memory; page counts on the axis below',
};

/** A page count in a few characters: 7, 900, 12k, 1.5M. */
function shortCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${+(n / 1e3).toPrecision(n < 1e4 ? 2 : 3)}k`;
  return `${+(n / 1e6).toPrecision(2)}M`;
}

/** Axis ticks [pages, x offset from the strip start] of a scale over `pages` pages of RAM. */
export function axisTicks(scale: StripScale, pages: number, stripW: number): [number, number][] {
  if (scale === 'list' || pages <= 0) return [];
  const ticks: [number, number][] = [];
  if (scale === 'log') {
    for (let p = 1; p < pages; p *= 10) ticks.push([p, (stripW * Math.log1p(p)) / Math.log1p(pages)]);
  } else {
    for (const q of [0.25, 0.5, 0.75]) ticks.push([Math.round(pages * q), stripW * q]);
  }
  ticks.push([pages, stripW]);
  return ticks;
}

interface Particle {
  /** Rows (-1: outside the lists) and frame indexes from the list heads. */
  r0: number;
  r1: number;
  i0: number;
  i1: number;
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

function rowOf(list: LruList): number {
  return LISTS.findIndex((l) => l.key === list);
}

/** The engine's strip of a list. */
function stripOf(f: RunFrame, list: LruList): LruStrip {
  return f.lru.strips.find((s) => s.list === list)!;
}

/** Strip length in px of a list of `len` frames in a machine of `frames` frames of `pagesPer`
 *  pages (the log scale counts pages, so it does not depend on the frame scale). */
function stripLength(scale: StripScale, len: number, frames: number, stripW: number, pagesPer = 1): number {
  if (len <= 0) return 0;
  if (scale === 'list') return stripW;
  if (scale === 'log') return (stripW * Math.log1p(len * pagesPer)) / Math.log1p(Math.max(1, frames * pagesPer));
  return (stripW * len) / Math.max(1, frames);
}

/** The window of a list shown, in frames from the head: [lo, hi). */
function windowOf(zoom: StripZoom, len: number): [number, number] {
  if (zoom === 'all' || len <= 0) return [0, len];
  const n = Math.max(1, Math.ceil(len * ZOOM_SHARE));
  return zoom === 'head' ? [0, n] : [len - n, len];
}

export function LruView({ info, frame, rates, testPrefix, theme }: Props) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [box, width] = useWidth(320, 800);
  const particles = useRef<Particle[]>([]);
  const raf = useRef(0);
  const frameRef = useRef(frame);
  frameRef.current = frame;
  // Linear in RAM by default: lengths a newcomer reads right, as the exported figures draw them.
  const [scale, setScale] = useState<StripScale>('ram');
  const [zoom, setZoom] = useState<StripZoom>('all');
  const [hover, setHover] = useState<{ x: number; y: number; text: string } | null>(null);
  /** Per type, the shade index of each owner, in order of first appearance (stable for the run). */
  const shades = useRef<[Map<number, number>, Map<number, number>]>([new Map(), new Map()]);
  const shadesOf = useRef(info);
  if (shadesOf.current !== info) {
    shadesOf.current = info;
    shades.current = [new Map(), new Map()];
  }

  const height = LISTS.length * ROW + 6 + AXIS_H;
  const stripW = width - LEFT - RIGHT;
  const stripY = (row: number) => row * ROW + LABEL_H;

  // Owners of each type in this frame, given shades in order of first appearance.
  for (const strip of frame.lru.strips) {
    const m = shades.current[listTypeOf(strip.list)]!;
    for (const o of strip.cells) if (o > 0 && !m.has(o - 1)) m.set(o - 1, m.size);
  }
  const cellColor = (list: LruList, owner: number) => typeShade(listTypeOf(list), shades.current[listTypeOf(list)]!.get(owner) ?? 0);

  /** x of frame index `idx` of `list`, or null outside the zoom window. */
  const geometry = useRef({ width, height, stripW, info, scale, zoom });
  geometry.current = { width, height, stripW, info, scale, zoom };
  const xOf = (f: RunFrame, list: LruList, idx: number): number | null => {
    const g = geometry.current;
    const len = stripOf(f, list).frames;
    const [lo, hi] = windowOf(g.zoom, len);
    if (idx < lo || idx > hi || hi <= lo) return null;
    return LEFT + ((idx - lo) / (hi - lo)) * stripLength(g.scale, len, g.info.frames, g.stripW, g.info.scale);
  };

  // Spawn particles for the frame's sampled moves.
  useEffect(() => {
    const now = performance.now();
    for (const m of frame.lru.moves) {
      const r0 = m.from ? rowOf(m.from.list) : -1;
      const r1 = m.to ? rowOf(m.to.list) : -1;
      if (r0 < 0 && r1 < 0) continue;
      particles.current.push({ r0, r1, i0: m.from?.index ?? -1, i1: m.to?.index ?? -1, color: MOVE_COLORS[m.reason], start: now + Math.random() * 250 });
    }
    if (particles.current.length > 2000) particles.current.splice(0, particles.current.length - 2000);
  }, [frame]);

  // Canvas backing store: resized only when the layout changes (resizing clears it), in device
  // pixels: the display's ratio times any CSS zoom above the canvas (the projector's stage), so
  // that zoomed strips and their text stay sharp. A zoom changes the layout width too.
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  const backing = useRef(dpr);
  useLayoutEffect(() => {
    const el = canvas.current;
    if (!el) return;
    backing.current = dpr * ((el as HTMLCanvasElement & { currentCSSZoom?: number }).currentCSSZoom ?? 1);
    el.width = Math.round(width * backing.current);
    el.height = Math.round(height * backing.current);
  }, [width, height, dpr]);

  // One draw per animation frame at most: cells, marks, then the particles on top; the loop
  // keeps going while particles fly.
  const drawRef = useRef<() => void>(() => {});
  drawRef.current = () => {
    raf.current = 0;
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const { width, height, stripW, info, scale, zoom } = geometry.current;
    const f = frameRef.current;
    const css = getComputedStyle(el);
    const stripBg = css.getPropertyValue('--strip-bg').trim() || '#e3e6eb';
    const fg = css.getPropertyValue('--fg').trim() || '#1d2330';
    ctx.setTransform(backing.current, 0, 0, backing.current, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const fontPx = Number(css.getPropertyValue('--lru-font-px')) || FONT_PX;
    el.dataset.fontPx = String(fontPx);
    ctx.font = `${fontPx}px "Liberation Sans", sans-serif`;
    ctx.textBaseline = 'middle';
    const bucket = f.lru.bucket;
    for (const strip of f.lru.strips) {
      const row = rowOf(strip.list);
      const y = stripY(row);
      ctx.fillStyle = stripBg;
      ctx.fillRect(LEFT, y, stripW, STRIP_H);
      const len = strip.frames;
      const cells = strip.cells;
      const n = cells.length;
      const [lo, hi] = windowOf(zoom, len);
      const L = stripLength(scale, len, info.frames, stripW, info.scale);
      const px = (frameIdx: number) => LEFT + ((frameIdx - lo) / Math.max(1, hi - lo)) * L;
      // Runs of equal owners are drawn as one rectangle, clipped to the zoom window.
      let c = 0;
      while (c < n) {
        const owner = cells[c]!;
        let e = c + 1;
        while (e < n && cells[e] === owner) e++;
        const s0 = Math.max(lo, c * bucket);
        const s1 = Math.min(hi, e * bucket, len);
        if (s1 > s0) {
          ctx.fillStyle = owner > 0 ? cellColor(strip.list, owner - 1) : '#777777';
          ctx.fillRect(px(s0), y, Math.max(px(s1) - px(s0), 0.8), STRIP_H);
        }
        c = e;
      }
      ctx.fillStyle = fg;
      ctx.textAlign = 'right';
      ctx.fillText(zoom === 'tail' ? '…' : 'head', LEFT - 4, y + STRIP_H / 2);
      const tailX = LEFT + Math.max(2, L);
      ctx.fillRect(tailX, y - 3, 1.5, STRIP_H + 6);
      ctx.textAlign = 'left';
      ctx.fillText(zoom === 'head' ? '…' : 'tail', Math.min(tailX + 3, width - RIGHT + 4), y + STRIP_H / 2);
      // Per list, every strip is full: its size, in the strip, says how big it really is.
      if (scale === 'list' && len > 0) {
        const text = `${shortCount(f.lists[strip.list])} pages`;
        ctx.font = `bold ${fontPx}px "Liberation Sans", sans-serif`;
        const w = ctx.measureText(text).width + 8;
        ctx.fillStyle = stripBg;
        ctx.fillRect(tailX - w - 2, y + 5, w, STRIP_H - 10);
        ctx.fillStyle = fg;
        ctx.textAlign = 'right';
        ctx.fillText(text, tailX - 6, y + STRIP_H / 2);
        ctx.font = `${fontPx}px "Liberation Sans", sans-serif`;
      }
    }
    // The axis: where 1, 10, 100 ... pages end on the log scale, quarters of RAM on the RAM scale.
    const axisY = LISTS.length * ROW + 4;
    const ticks = zoom === 'all' ? axisTicks(scale, info.frames * info.scale, stripW) : [];
    ctx.fillStyle = fg;
    if (ticks.length > 0) {
      ctx.fillRect(LEFT, axisY, stripW, 1);
      ctx.textAlign = 'center';
      const place = (pages: number, dx: number, last: boolean) => {
        const label = last ? `${shortCount(pages)} = RAM` : shortCount(pages);
        const w = ctx.measureText(label).width;
        const cx = Math.min(Math.max(LEFT + dx, LEFT + w / 2), width - w / 2 - 2);
        return { label, left: cx - w / 2, right: cx + w / 2, cx };
      };
      // The RAM label is always written; others only where they overlap no label (the tick stays).
      const end = place(...ticks[ticks.length - 1]!, true);
      let lastRight = -Infinity;
      ticks.forEach(([pages, dx], k) => {
        ctx.fillRect(LEFT + dx - 0.5, axisY - 3, 1, 7);
        const last = k === ticks.length - 1;
        const at = last ? end : place(pages, dx, false);
        if (!last && (at.left < lastRight + 6 || at.right > end.left - 6)) return;
        ctx.fillText(at.label, at.cx, axisY + 13);
        lastRight = at.right;
      });
    } else {
      ctx.textAlign = 'left';
      ctx.fillText(zoom === 'all' ? 'not to scale: compare the sizes, not the lengths' : `each strip: the ${zoom} ${Math.round(ZOOM_SHARE * 100)}% of its list`, LEFT, axisY + 10);
    }
    const now = performance.now();
    particles.current = particles.current.filter((p) => now - p.start < MOVE_MS);
    const at = (row: number, idx: number) => {
      const list = LISTS[row]?.key;
      return list ? xOf(f, list, Math.min(idx, stripOf(f, list).frames)) : null;
    };
    for (const p of particles.current) {
      const t = (now - p.start) / MOVE_MS;
      if (t < 0) continue;
      // From outside (a new page, a refault) a dot drops in from above its place; to outside
      // (evicted, freed) it falls out below the strip. Ends outside the zoom window are not drawn.
      const xa = at(p.r0, p.i0);
      const xb = at(p.r1, p.i1);
      if ((p.r0 >= 0 && xa === null) || (p.r1 >= 0 && xb === null)) continue;
      const x1 = xb ?? xa!;
      const x0 = xa ?? x1;
      const y1 = p.r1 >= 0 ? stripY(p.r1) + STRIP_H / 2 : stripY(p.r0) + STRIP_H + 14;
      const y0 = p.r0 >= 0 ? stripY(p.r0) + STRIP_H / 2 : stripY(p.r1) - 14;
      const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
      const x = x0 + (x1 - x0) * e;
      const yy = y0 + (y1 - y0) * e - Math.sin(Math.PI * e) * (y0 === y1 ? 10 : 0);
      ctx.globalAlpha = 1 - 0.5 * t;
      // A halo (light ring, dark edge) keeps the dot visible on any cell and either theme.
      ctx.beginPath();
      ctx.arc(x, yy, 4.6, 0, Math.PI * 2);
      ctx.fillStyle = DOT_HALO.outer;
      ctx.fill();
      ctx.beginPath();
      ctx.arc(x, yy, 3.8, 0, Math.PI * 2);
      ctx.fillStyle = DOT_HALO.inner;
      ctx.fill();
      ctx.beginPath();
      ctx.arc(x, yy, 2.8, 0, Math.PI * 2);
      ctx.fillStyle = p.color;
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    // How many dots are still flying, and the theme of this paint: tests wait for 0 and the
    // page's theme instead of sleeping through the flight or the next animation frame.
    el.dataset.flying = String(particles.current.length);
    el.dataset.paintedTheme = theme ?? '';
    el.dataset.paintedScale = `${scale} ${zoom}`;
    if (particles.current.length > 0) raf.current = requestAnimationFrame(() => drawRef.current());
  };
  useEffect(() => {
    if (raf.current === 0) raf.current = requestAnimationFrame(() => drawRef.current());
  }, [frame, width, height, info, theme, scale, zoom]);
  useEffect(
    () => () => {
      if (raf.current) cancelAnimationFrame(raf.current);
      raf.current = 0;
    },
    [],
  );

  /** What is under the pointer: list, owner and position of the cell. */
  const describe = (mx: number, my: number): string | null => {
    const row = Math.floor((my - LABEL_H + (ROW - STRIP_H) / 2) / ROW);
    const l = LISTS[row];
    if (!l || my < stripY(row) - 2 || my > stripY(row) + STRIP_H + 2) return null;
    const strip = stripOf(frame, l.key);
    const len = strip.frames;
    const [lo, hi] = windowOf(zoom, len);
    const L = stripLength(scale, len, info.frames, stripW, info.scale);
    if (mx < LEFT || mx > LEFT + L || hi <= lo) return null;
    const idx = Math.min(len - 1, Math.floor(lo + ((mx - LEFT) / L) * (hi - lo)));
    const owner = strip.cells[Math.floor(idx / frame.lru.bucket)] ?? 0;
    const name = owner > 0 ? frame.spaceNames[owner - 1] ?? `owner ${owner}` : 'no owner';
    const page = formatCount(idx * info.scale);
    return `${l.label}: ${name} (${TYPE_NAMES[listTypeOf(l.key)]}) · page ${page} of ${formatCount(len * info.scale)} from the head`;
  };

  const owners: [number, number, string][] = []; // [type, owner, colour]
  for (const ty of [0, 1]) for (const [o, k] of shades.current[ty]!) if (o < frame.spaceNames.length) owners.push([ty, o, typeShade(ty, k)]);
  const zoomText =
    zoom === 'all'
      ? 'whole lists, head to tail'
      : `${zoom === 'head' ? 'head' : 'tail'} ${Math.round(ZOOM_SHARE * 100)}% of each list (the ${zoom === 'head' ? 'newest pages' : 'pages reclaim takes next'})`;

  return (
    <figure className="lru-view" aria-label={`LRU lists of ${info.variant}`} data-scale={scale} data-zoom={zoom}>
      <div className="lru-tools">
        <label className="lru-tool">
          <span className="muted">Strip length</span>{' '}
          <select value={scale} onChange={(e) => setScale(e.target.value as StripScale)} aria-label="Strip length scale" data-testid={`${testPrefix}lru-scale-select`}>
            <option value="list">per list</option>
            <option value="log">log of size</option>
            <option value="ram">linear in RAM</option>
          </select>
        </label>
        <span className="lru-tool" role="group" aria-label="Zoom into the lists">
          <span className="muted">Show</span>{' '}
          {(['all', 'head', 'tail'] as const).map((z) => (
            <button key={z} type="button" className={`ghost small-button${zoom === z ? ' on' : ''}`} aria-pressed={zoom === z} onClick={() => setZoom(z)} data-testid={`${testPrefix}lru-zoom-${z}`}>
              {z === 'all' ? 'whole' : `${z} ${Math.round(ZOOM_SHARE * 100)}%`}
            </button>
          ))}
        </span>
      </div>
      <p className="lru-scale small" data-testid={`${testPrefix}lru-scale`}>
        Scale: {SCALE_TEXT[scale]} · {zoomText} · cell = {formatCount(frame.lru.bucket * info.scale)} page{frame.lru.bucket * info.scale === 1 ? '' : 's'}
      </p>
      <div className="lru-canvas-box" ref={box} style={{ height }}>
        <canvas
          ref={canvas}
          style={{ width, height }}
          role="img"
          aria-label={`LRU lists: ${LISTS.map((l) => `${l.label} ${formatCount(frame.lists[l.key])} pages`).join(', ')}`}
          data-testid={`${testPrefix}lru-canvas`}
          data-cells={frame.lru.strips.reduce((n, s) => n + s.cells.length, 0)}
          data-strip-x={LEFT}
          data-strip-y={LISTS.map((_, r) => stripY(r) + STRIP_H / 2).join(',')}
          data-axis={zoom === 'all' ? axisTicks(scale, info.frames * info.scale, stripW).map(([p]) => p).join(',') : ''}
          data-strip-px={LISTS.map((l) => Math.round(stripLength(scale, stripOf(frame, l.key).frames, info.frames, stripW, info.scale))).join(',')}
          onMouseMove={(e) => {
            const r = e.currentTarget.getBoundingClientRect();
            const text = describe(e.clientX - r.left, e.clientY - r.top);
            setHover(text ? { x: e.clientX - r.left, y: e.clientY - r.top, text } : null);
          }}
          onMouseLeave={() => setHover(null)}
        />
        {LISTS.map((l, row) => (
          <div key={l.key} className="lru-label" style={{ top: row * ROW, left: LEFT }}>
            <span className="type-chip" style={{ background: TYPE_COLORS[listTypeOf(l.key)] }} />
            <strong>
              <GlossaryTerm term={l.key}>{l.label}</GlossaryTerm>
            </strong>{' '}
            <span data-testid={`${testPrefix}lru-size-${l.key}`} data-pages={frame.lists[l.key]} data-frames={stripOf(frame, l.key).frames}>
              {formatCount(frame.lists[l.key])}
            </span>{' '}
            {frame.lists[l.key] === 1 ? 'page' : 'pages'}
            {/* pgrefill counts both active lists together: the rate is shown once, on the first.
                A run that has ended (its tasks exited, or the OOM killer ended it) scans nothing:
                the last interval's rate would claim work that is not going on. */}
            {Number.isFinite(rates.scan[l.key]) && l.key !== 'active_file' && !frame.finished && (
              <span className="muted">
                {' '}
                · <GlossaryTerm term={l.key.startsWith('inactive') ? 'scanned' : 'refilled'}>{l.key.startsWith('inactive') ? 'scanned' : 'refilled (both)'}</GlossaryTerm> {formatRate(rates.scan[l.key])}/s
              </span>
            )}
          </div>
        ))}
        {hover && (
          <div className="lru-hover" role="tooltip" data-testid={`${testPrefix}lru-hover`} style={{ left: Math.min(hover.x + 10, width - 260), top: hover.y + 14 }}>
            {hover.text}
          </div>
        )}
      </div>
      <figcaption className="legend">
        <span className="muted">
          free{' '}
          <span data-testid={`${testPrefix}lru-size-free`} data-pages={frame.lists.free}>
            {formatCount(frame.lists.free)}
          </span>{' '}
          · unevictable {formatCount(frame.lists.unevictable)} · moves seen {formatCount(frame.lru.movesSeen)}
        </span>
        {[0, 1].map((ty) => (
          <span key={ty} className="legend-group" aria-label={`${TYPE_NAMES[ty]} pages by owner`} data-testid={`${testPrefix}lru-legend-${TYPE_NAMES[ty]}`}>
            <strong style={{ color: 'var(--fg)' }}>
              <span className="swatch" style={{ background: TYPE_COLORS[ty] }} data-color={TYPE_COLORS[ty]} /> {TYPE_NAMES[ty]}:
            </strong>
            {owners
              .filter(([t]) => t === ty)
              .map(([, o, color]) => (
                <span key={o} className="legend-item" data-testid="owner-swatch" data-color={color}>
                  <span className="swatch" style={{ background: color }} />
                  {frame.spaceNames[o]}
                </span>
              ))}
            {owners.filter(([t]) => t === ty).length > OWNER_SHADES && <span className="muted">(shades repeat: hover a cell for its owner)</span>}
          </span>
        ))}
        <span className="legend-group" aria-label="Page moves">
          {MOVE_REASONS.map((r) => (
            <span key={r} className="legend-item" data-testid="move-dot" data-color={MOVE_COLORS[r]}>
              <span className="dot" style={{ background: MOVE_COLORS[r] }} />
              <GlossaryTerm term={r}>{r}</GlossaryTerm>
            </span>
          ))}
        </span>
      </figcaption>
    </figure>
  );
}
