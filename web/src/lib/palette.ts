// Colour-blind-safe colours (Okabe & Ito, 2008) for owners, move reasons and series.

export const OKABE_ITO = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7', '#999999'];

/** Colour of owner space `id` (0-based); cycles with a lighter tint after the eight. */
export function ownerColor(id: number): string {
  const base = OKABE_ITO[id % OKABE_ITO.length]!;
  if (id < OKABE_ITO.length) return base;
  const round = Math.floor(id / OKABE_ITO.length);
  return mix(base, round % 2 ? '#ffffff' : '#000000', 0.45);
}

/** `a` mixed with `b`, `t` of the way to b (hex colours). */
export function mix(a: string, b: string, t: number): string {
  const ch = (h: string, i: number) => parseInt(h.slice(1 + 2 * i, 3 + 2 * i), 16);
  let out = '#';
  for (let i = 0; i < 3; i++) out += Math.round(ch(a, i) * (1 - t) + ch(b, i) * t).toString(16).padStart(2, '0');
  return out;
}

/** Reasons of `drain_moves`: 0 add, 1 activate, 2 deactivate, 3 rotate, 4 evict, 5 refault, 6 free. */
export const MOVE_REASONS = ['add', 'activate', 'deactivate', 'rotate', 'evict', 'refault', 'free'] as const;
export const MOVE_COLORS = ['#0072B2', '#009E73', '#56B4E9', '#E69F00', '#D55E00', '#CC79A7', '#999999'];

/** The four LRU lists in drawing order (top to bottom) with their engine index. */
export const LISTS = [
  { index: 1, key: 'active_anon', label: 'active anon' },
  { index: 0, key: 'inactive_anon', label: 'inactive anon' },
  { index: 2, key: 'inactive_file', label: 'inactive file' },
  { index: 3, key: 'active_file', label: 'active file' },
] as const;
