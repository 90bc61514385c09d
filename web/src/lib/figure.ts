// Image exports as complete figures a speaker can put on a slide: a title (scenario, kernels,
// virtual time), the LRU list sizes of every run and the counters over time with a legend and
// labelled axes (units), both runs in compare mode. The SVG carries the `#v1=` link that
// reproduces it in <metadata>; the PNG (2x, for projectors) in a tEXt chunk. Dropping either
// onto the page reopens that state (linkOfImage).
import { scaleLinear } from 'd3';
import { commonNowNs, type RunFrame, type RunInfo } from '../engine/protocol';
import { sum, value, type SeriesColumnName, type SeriesRow } from '../engine/series';
import { formatCount, formatNs } from '../format';
import { LIST_ROWS, OKABE_ITO, SERIES_COLORS, TYPE_COLORS } from './palette';

/** Keyword of the PNG text chunk and id of the SVG metadata that carry the link. */
export const LINK_KEY = 'reclaimlab-link';

/** Counter groups drawn in the live counters chart and in exported figures: label, counters summed. */
export const COUNTER_GROUPS: { label: string; counters: SeriesColumnName[] }[] = [
  { label: 'pgscan', counters: ['pgscan_kswapd', 'pgscan_direct'] },
  { label: 'pgsteal', counters: ['pgsteal_kswapd', 'pgsteal_direct'] },
  { label: 'refaults', counters: ['workingset_refault_anon', 'workingset_refault_file'] },
  { label: 'pswpin', counters: ['pswpin'] },
  { label: 'pswpout', counters: ['pswpout'] },
  { label: 'pgmajfault', counters: ['pgmajfault'] },
];
const GROUPS = COUNTER_GROUPS;
// Counter lines keep clear of the anon orange and file blue, which mean a page type everywhere.
const GROUP_COLORS = SERIES_COLORS;
const DASHES = ['', '8 4', '2 3', '10 3 2 3'];
// A list's bars take its page type's colour (grey: unevictable, free); runs differ by opacity.
const LIST_FILLS = [TYPE_COLORS[0], TYPE_COLORS[0], TYPE_COLORS[1], TYPE_COLORS[1], OKABE_ITO[7]!, '#bbbbbb'];
const RUN_OPACITY = [1, 0.5, 0.75, 0.3];

export interface FigureInput {
  title: string;
  runs: RunInfo[];
  kernels: string[];
  frames: RunFrame[];
  series: SeriesRow[][];
  /** The full page URL with `#v1=…` that reproduces the figure. */
  link: string;
}

export const FIGURE = { w: 1200, h: 680 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (n: number) => (Math.abs(n) >= 1e6 ? `${Number((n / 1e6).toPrecision(3))}M` : Math.abs(n) >= 1e4 ? `${Number((n / 1e3).toPrecision(3))}k` : formatCount(n));

/** The figure as a standalone SVG document. */
export function figureSvg(f: FigureInput): string {
  const { w, h } = FIGURE;
  const nowNs = commonNowNs(f.frames);
  const out: string[] = [];
  const text = (x: number, y: number, s: string, attrs = '') => out.push(`<text x="${x}" y="${y}" ${attrs}>${esc(s)}</text>`);
  out.push(`<rect width="${w}" height="${h}" fill="#ffffff"/>`);
  text(30, 40, f.title, 'font-size="24" font-weight="bold"');
  const who = f.runs.map((r, i) => `${r.variant}: ${f.kernels[i] ?? r.preset}`).join('  vs  ');
  text(30, 68, `${who}  ·  virtual time ${formatNs(nowNs)}`, 'font-size="16" fill="#333"');

  // Panel 1: list sizes, one bar per run and list.
  const p1 = { x: 150, y: 110, w: 330, h: 460 };
  text(30, p1.y - 12, 'LRU list sizes (pages)', 'font-size="16" font-weight="bold"');
  const maxPages = Math.max(1, ...f.frames.flatMap((fr) => LIST_ROWS.map(([k]) => fr.lists[k])));
  const xb = scaleLinear().domain([0, maxPages]).nice(4).range([p1.x, p1.x + p1.w]);
  const slot = p1.h / LIST_ROWS.length;
  const barH = Math.min(26, (slot - 14) / Math.max(1, f.runs.length));
  LIST_ROWS.forEach(([key, name], li) => {
    const y0 = p1.y + li * slot;
    // The runs' bars centred on the list's name, so each value sits beside its name.
    const top = y0 + (slot - f.frames.length * barH) / 2;
    text(p1.x - 8, y0 + slot / 2, name, 'font-size="15" text-anchor="end" dominant-baseline="middle"');
    f.frames.forEach((fr, r) => {
      const v = fr.lists[key];
      const y = top + r * barH;
      out.push(`<rect x="${p1.x}" y="${y}" width="${Math.max(0, xb(v) - p1.x)}" height="${barH - 3}" fill="${LIST_FILLS[li]}" fill-opacity="${RUN_OPACITY[r % RUN_OPACITY.length]}" stroke="#333" stroke-width="0.6"/>`);
      text(xb(v) + 4, y + barH / 2, formatCount(v), 'font-size="13" dominant-baseline="middle"');
    });
  });
  const axisY = p1.y + p1.h;
  out.push(`<line x1="${p1.x}" x2="${p1.x + p1.w}" y1="${axisY}" y2="${axisY}" stroke="#555"/>`);
  for (const t of xb.ticks(4)) {
    out.push(`<line x1="${xb(t)}" x2="${xb(t)}" y1="${axisY}" y2="${axisY + 5}" stroke="#555"/>`);
    text(xb(t), axisY + 20, fmt(t), 'font-size="13" text-anchor="middle"');
  }
  text(p1.x + p1.w / 2, axisY + 42, 'pages', 'font-size="14" text-anchor="middle"');

  // Panel 2: counters over virtual time.
  const p2 = { x: 640, y: 110, w: 520, h: 400 };
  text(560, p2.y - 12, 'Reclaim counters over virtual time (cumulative; pgmajfault in faults)', 'font-size="16" font-weight="bold"');
  const lines: { color: string; dash: string; pts: [number, number][] }[] = [];
  f.runs.forEach((_run, r) => {
    GROUPS.forEach((g, gi) => {
      const pts = (f.series[r] ?? []).map((s) => [value(s, 't_ns') / 1e9, sum(s, g.counters)] as [number, number]);
      lines.push({ color: GROUP_COLORS[gi]!, dash: DASHES[r % DASHES.length]!, pts });
    });
  });
  // At least 0.1 s of axis (as the live counters chart), so time 0 does not read 0, 2e-10, ... 1e-9.
  const tMax = Math.max(0.1, nowNs / 1e9, ...lines.flatMap((l) => l.pts.map((p) => p[0])));
  const yMax = Math.max(1, ...lines.flatMap((l) => l.pts.map((p) => p[1])));
  const x = scaleLinear().domain([0, tMax]).nice(5).range([p2.x, p2.x + p2.w]);
  const y = scaleLinear().domain([0, yMax]).nice(5).range([p2.y + p2.h, p2.y]);
  out.push(`<line x1="${p2.x}" x2="${p2.x + p2.w}" y1="${p2.y + p2.h}" y2="${p2.y + p2.h}" stroke="#555"/>`);
  out.push(`<line x1="${p2.x}" x2="${p2.x}" y1="${p2.y}" y2="${p2.y + p2.h}" stroke="#555"/>`);
  for (const t of x.ticks(5)) {
    out.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${p2.y + p2.h}" y2="${p2.y + p2.h + 5}" stroke="#555"/>`);
    text(x(t), p2.y + p2.h + 20, String(t), 'font-size="13" text-anchor="middle"');
  }
  // Counts are whole pages: no 0.2-page ticks that print as 0, 0, 0, 1, 1, 1.
  for (const t of y.ticks(5).filter(Number.isInteger)) {
    out.push(`<line x1="${p2.x - 5}" x2="${p2.x + p2.w}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/>`);
    text(p2.x - 8, y(t), fmt(t), 'font-size="13" text-anchor="end" dominant-baseline="middle"');
  }
  text(p2.x + p2.w / 2, p2.y + p2.h + 42, 'virtual time (s)', 'font-size="14" text-anchor="middle"');
  text(p2.x - 62, p2.y + p2.h / 2, 'pages or faults (cumulative)', `font-size="14" text-anchor="middle" transform="rotate(-90 ${p2.x - 62} ${p2.y + p2.h / 2})"`);
  for (const l of lines) {
    if (l.pts.length === 0) continue;
    const d = l.pts.map((p, i) => `${i ? 'L' : 'M'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join('');
    out.push(`<path class="series" d="${d}" fill="none" stroke="${l.color}" stroke-width="2.2"${l.dash ? ` stroke-dasharray="${l.dash}"` : ''}/>`);
  }
  // Legend: counter colours, then one line style per run (and its bar colour).
  let lx = 560;
  const ly = p2.y + p2.h + 78;
  GROUPS.forEach((g, gi) => {
    out.push(`<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${GROUP_COLORS[gi]}" stroke-width="3"/>`);
    text(lx + 30, ly, g.label, 'font-size="14" dominant-baseline="middle"');
    lx += 40 + g.label.length * 8.5;
  });
  f.runs.forEach((run, r) => {
    const yy = ly + 28 + r * 24;
    out.push(`<line x1="560" x2="600" y1="${yy}" y2="${yy}" stroke="#333" stroke-width="2.2"${DASHES[r % DASHES.length] ? ` stroke-dasharray="${DASHES[r % DASHES.length]}"` : ''}/>`);
    out.push(`<rect x="610" y="${yy - 7}" width="14" height="14" fill="#777" fill-opacity="${RUN_OPACITY[r % RUN_OPACITY.length]}" stroke="#333" stroke-width="0.6"/>`);
    text(632, yy, `${run.variant} (${f.kernels[r] ?? run.preset})`, 'font-size="14" dominant-baseline="middle"');
  });
  if (f.link) text(30, h - 14, `Reclaim Lab · reopen this state: ${f.link.length > 140 ? `${f.link.slice(0, 137)}…` : f.link}`, 'font-size="11" fill="#555"');

  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="Liberation Sans, DejaVu Sans, Arial, sans-serif" fill="#1d2330">\n` +
    `<title>${esc(`${f.title} — ${who} — ${formatNs(nowNs)}`)}</title>\n` +
    `<metadata id="${LINK_KEY}">${esc(f.link)}</metadata>\n` +
    `${out.join('\n')}\n</svg>\n`
  );
}

// PNG text chunks (PNG spec 11.3.4.3): length, "tEXt", keyword NUL text (Latin-1), CRC-32.
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The PNG with a tEXt chunk `keyword`=`text` inserted right after IHDR. */
export function withPngText(png: Uint8Array, keyword: string, text: string): Uint8Array {
  const body = new TextEncoder().encode(`tEXt${keyword}\u0000${text}`); // the link is ASCII
  const chunk = new Uint8Array(12 + body.length - 4);
  const dv = new DataView(chunk.buffer);
  dv.setUint32(0, body.length - 4);
  chunk.set(body, 4);
  dv.setUint32(4 + body.length, crc32(body));
  const ihdrEnd = 8 + 12 + new DataView(png.buffer, png.byteOffset).getUint32(8);
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, ihdrEnd));
  out.set(chunk, ihdrEnd);
  out.set(png.subarray(ihdrEnd), ihdrEnd + chunk.length);
  return out;
}

/** The text of a PNG's tEXt chunk named `keyword` (null: none, or not a PNG). */
export function pngText(png: Uint8Array, keyword: string): string | null {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 8 || sig.some((b, i) => png[i] !== b)) return null;
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at + 12 <= png.length; ) {
    const len = dv.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (at + 12 + len > png.length) return null;
    if (type === 'tEXt') {
      const data = png.subarray(at + 8, at + 8 + len);
      const nul = data.indexOf(0);
      if (nul > 0 && new TextDecoder('latin1').decode(data.subarray(0, nul)) === keyword) return new TextDecoder('latin1').decode(data.subarray(nul + 1));
    }
    if (type === 'IEND') return null;
    at += 12 + len;
  }
  return null;
}

/** The link an exported image carries: the PNG text chunk or the SVG metadata (null: none). */
export async function linkOfImage(file: Blob): Promise<string | null> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const png = pngText(bytes, LINK_KEY);
  if (png !== null) return png;
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 4_000_000)));
  if (!/<svg[\s>]/.test(head)) return null;
  const doc = new DOMParser().parseFromString(head, 'image/svg+xml');
  return doc.getElementById(LINK_KEY)?.textContent ?? null;
}

/** The figure as a PNG at `scale` x its size, carrying the link. */
export async function figurePng(svg: string, link: string, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = FIGURE.w * scale;
    canvas.height = FIGURE.h * scale;
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, FIGURE.w, FIGURE.h);
    const blob = await new Promise<Blob>((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error('the PNG could not be made'))), 'image/png'));
    return new Blob([withPngText(new Uint8Array(await blob.arrayBuffer()), LINK_KEY, link) as BlobPart], { type: 'image/png' });
  } finally {
    URL.revokeObjectURL(url);
  }
}
