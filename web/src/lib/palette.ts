// The page's one colour language, used by every view: anon is orange and file is sky blue
// everywhere (LRU strips, balance, generations, costs); within a type, shades tell owners apart
// (keyed to a legend, and named on hover); the moving dots use hues outside both families and a
// halo, so they stand out on any cell. Base hues are Okabe & Ito's (2008) colour-blind-safe set.
import type { LruList, MoveReason } from '../engine/generated/views';

export const OKABE_ITO = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7', '#999999'];

/** Page types: 0 anon, 1 file (the order of the engine's lists and of lib/gens' TYPES). */
export const ANON_COLOR = OKABE_ITO[0]!;
export const FILE_COLOR = OKABE_ITO[1]!;
export const TYPE_COLORS = [ANON_COLOR, FILE_COLOR] as const;
export const TYPE_NAMES = ['anon', 'file'] as const;

/** Shades of a type's hue for owners, most distinct first: the base, lighter, darker, ... */
const SHADE_STEPS: [string, number][] = [
  ['#000000', 0],
  ['#ffffff', 0.45],
  ['#000000', 0.35],
  ['#ffffff', 0.7],
  ['#000000', 0.55],
  ['#ffffff', 0.22],
];
export const OWNER_SHADES = SHADE_STEPS.length;

/** Colour of the `k`th owner (0-based, in order of appearance) of a page type. */
export function typeShade(type: number, k: number): string {
  const [to, t] = SHADE_STEPS[k % SHADE_STEPS.length]!;
  return mix(TYPE_COLORS[type] ?? ANON_COLOR, to, t);
}

/** Type of LRU list `index` (engine order: inactive_anon, active_anon, inactive_file, active_file). */
export const listType = (index: number): number => (index < 2 ? 0 : 1);

/** Hues for owners keyed alone (memcgs), none near the anon orange or the file blue. */
export const OWNER_HUES = ['#009E73', '#CC79A7', '#F0E442', '#6A3D9A', '#882255', '#999999', '#117733', '#44AA99'];

/** Colour of owner space `id` (0-based); cycles with a lighter tint after the eight. For views
 *  that key by owner alone (memcgs), not by page type: no orange or sky blue, which mean anon
 *  and file everywhere. */
export function ownerColor(id: number): string {
  const base = OWNER_HUES[id % OWNER_HUES.length]!;
  if (id < OWNER_HUES.length) return base;
  const round = Math.floor(id / OWNER_HUES.length);
  return mix(base, round % 2 ? '#ffffff' : '#000000', 0.45);
}

/** `a` mixed with `b`, `t` of the way to b (hex colours). */
export function mix(a: string, b: string, t: number): string {
  const ch = (h: string, i: number) => parseInt(h.slice(1 + 2 * i, 3 + 2 * i), 16);
  let out = '#';
  for (let i = 0; i < 3; i++) out += Math.round(ch(a, i) * (1 - t) + ch(b, i) * t).toString(16).padStart(2, '0');
  return out;
}

/** Lines that are neither anon nor file (counter sums): no orange, vermillion or blue of any
 *  shade, so a line never reads as one type; the yellow is left out (too light on white). */
export const SERIES_COLORS = ['#009E73', '#CC79A7', '#6A3D9A', '#808000', '#7F7F7F', '#882255'];
/** Free memory and the watermarks: one neutral grey; the watermarks differ by dash and label. */
export const NEUTRAL = '#7F7F7F';
export const WATERMARK_DASHES = { min: '2 3', low: '6 3', high: '12 4' } as const;

/** Why a page moved (the engine's MoveReason, generated). */
export { MOVE_REASONS } from '../engine/generated/views';
/** Dot colour per move reason: none near orange or sky blue (nor their shades), also under
 *  deuteranopia, protanopia and tritanopia (checked by e2e/colours.spec.ts), and distinct from
 *  each other. */
export const MOVE_COLORS: Record<MoveReason, string> = {
  add: '#FFFFFF',
  activate: '#009E73',
  deactivate: '#FF00FF',
  rotate: '#6A3D9A',
  evict: '#000000',
  refault: '#FF3366',
  free: '#999999',
};
/** The halo drawn around every dot: light inside, dark outside, so it reads on light and dark cells. */
export const DOT_HALO = { inner: '#ffffff', outer: '#000000' } as const;

/** The four LRU lists in drawing order (top to bottom): the engine's list name and a label. */
export const LISTS: readonly { key: LruList; label: string }[] = [
  { key: 'active_anon', label: 'active anon' },
  { key: 'inactive_anon', label: 'inactive anon' },
  { key: 'inactive_file', label: 'inactive file' },
  { key: 'active_file', label: 'active file' },
];

/** The list sizes a table or figure shows, in the order the page shows them, with labels. */
export const LIST_ROWS: [keyof import('../engine/generated/views').ListSizes, string][] = [
  ['inactive_anon', 'inactive anon'],
  ['active_anon', 'active anon'],
  ['inactive_file', 'inactive file'],
  ['active_file', 'active file'],
  ['unevictable', 'unevictable'],
  ['free', 'free'],
];

/** Page type of an LRU list: 0 anon, 1 file. */
export const listTypeOf = (list: LruList): number => (list.endsWith('_anon') ? 0 : 1);
