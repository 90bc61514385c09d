// Embed mode: the query parameters (`?embed&view=lru&autoplay=1&lesson=1&host=ORIGIN`, and
// `chart=counters|free|cost|rounds` with `view=charts`), the
// iframe snippet, and the postMessage API a host page drives the embed with (protocol v1;
// `v: 1` may be given, any other version is refused):
//   {type:'reclaimlab', action:'play'|'pause'|'next'|'prev'}
//   {type:'reclaimlab', action:'ping', id?}            (answered by a `pong` event: the handshake)
//   {type:'reclaimlab', action:'step', ns?}            (one step of ns, or of the page's step size)
//   {type:'reclaimlab', action:'seek', ns}             (virtual time to go to, ns >= 0)
//   {type:'reclaimlab', action:'set', knob, value}     (knob: swappiness|ram|frameScale|seed)
// Anything else (other shapes, extra fields, bad values) is ignored. The events the embed
// posts back are in hostApi.ts.
import { VIEWS, type View } from './link';
import type { Overrides } from './knobs';

export interface EmbedParams {
  embed: boolean;
  /** The view asked for; null: the link's view, else 'lru'. */
  view: View | null;
  autoplay: boolean;
  /** Show the lesson panel (`lesson=0` hides it). */
  lesson: boolean;
  /** `host=ORIGIN`: commands only from, and events only to, this origin (null: see hostApi.ts). */
  host: string | null;
  /** `view=charts&chart=NAME`: one chart, large, for a slide (null: every chart). */
  chart: EmbedChart | null;
}

/** The charts an embed can show one of. */
export const EMBED_CHARTS = ['counters', 'free', 'cost', 'rounds'] as const;
export type EmbedChart = (typeof EMBED_CHARTS)[number];

/** An origin as `new URL(x).origin` spells it, or null when `x` is not an http(s) origin. */
function originOf(x: string | null): string | null {
  if (!x) return null;
  try {
    const u = new URL(x);
    return /^https?:$/.test(u.protocol) ? u.origin : null;
  } catch {
    return null;
  }
}

export function parseEmbedParams(search: string): EmbedParams {
  const q = new URLSearchParams(search);
  const view = q.get('view');
  return {
    embed: q.has('embed'),
    view: VIEWS.includes(view as View) ? (view as View) : null,
    autoplay: q.get('autoplay') === '1',
    lesson: q.get('lesson') !== '0',
    host: originOf(q.get('host')),
    chart: EMBED_CHARTS.includes(q.get('chart') as EmbedChart) ? (q.get('chart') as EmbedChart) : null,
  };
}

/** The embed URL of a page URL (origin + path) and a state hash (without '#'). */
export function embedUrl(base: string, hash: string, view: View, autoplay: boolean, lesson = true): string {
  return `${base}?embed&view=${view}${autoplay ? '&autoplay=1' : ''}${lesson ? '' : '&lesson=0'}#${hash}`;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function iframeSnippet(src: string, width: number, height: number): string {
  return `<iframe src="${escapeAttr(src)}" width="${width}" height="${height}" title="Reclaim Lab" style="border:0" loading="lazy"></iframe>`;
}

export type KnobName = 'swappiness' | 'ram' | 'frameScale' | 'seed';

export type ControlMessage =
  | { action: 'play' }
  | { action: 'pause' }
  | { action: 'next' }
  | { action: 'prev' }
  | { action: 'ping'; id: string | number | null }
  | { action: 'step'; ns: number | null }
  | { action: 'seek'; ns: number }
  | { action: 'set'; knob: KnobName; value: number | string };

/** The postMessage protocol's version, in every event and optional in commands. */
export const PROTOCOL_VERSION = 1;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keysAre = (o: Record<string, unknown>, keys: string[]) => {
  const k = Object.keys(o).sort();
  return k.length === keys.length && [...keys].sort().every((x, i) => x === k[i]);
};
const intIn = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** A host page's message, validated strictly; null for anything that is not exactly one of the API's shapes. */
export function parseControlMessage(message: unknown): ControlMessage | null {
  if (!isObj(message) || message.type !== 'reclaimlab') return null;
  // `v` is optional (v0 hosts sent none); a message of another version is not understood.
  const { v, ...data } = message;
  if ('v' in message && v !== PROTOCOL_VERSION) return null;
  switch (data.action) {
    case 'play':
    case 'pause':
    case 'next':
    case 'prev':
      return keysAre(data, ['type', 'action']) ? { action: data.action } : null;
    case 'ping': {
      if (keysAre(data, ['type', 'action'])) return { action: 'ping', id: null };
      const id = data.id;
      return keysAre(data, ['type', 'action', 'id']) && ((typeof id === 'string' && id.length <= 200) || intIn(id, 0, Number.MAX_SAFE_INTEGER)) ? { action: 'ping', id: id as string | number } : null;
    }
    case 'step':
      if (keysAre(data, ['type', 'action'])) return { action: 'step', ns: null };
      return keysAre(data, ['type', 'action', 'ns']) && intIn(data.ns, 1, 3_600e9) ? { action: 'step', ns: data.ns as number } : null;
    case 'seek':
      return keysAre(data, ['type', 'action', 'ns']) && intIn(data.ns, 0, 3_600e9) ? { action: 'seek', ns: data.ns as number } : null;
    case 'set': {
      if (!keysAre(data, ['type', 'action', 'knob', 'value'])) return null;
      const v = data.value;
      switch (data.knob) {
        case 'swappiness':
          return intIn(v, 0, 200) ? { action: 'set', knob: 'swappiness', value: v as number } : null;
        case 'frameScale':
          return intIn(v, 1, 1024) ? { action: 'set', knob: 'frameScale', value: v as number } : null;
        case 'seed':
          return intIn(v, 0, Number.MAX_SAFE_INTEGER) ? { action: 'set', knob: 'seed', value: v as number } : null;
        case 'ram':
          return typeof v === 'string' && /^\d+(\.\d+)?\s*[KMGT]i?B$/.test(v) ? { action: 'set', knob: 'ram', value: v } : null;
        default:
          return null;
      }
    }
    default:
      return null;
  }
}

/** The knobs after a `set` message. */
export function applySet(knobs: Overrides, m: Extract<ControlMessage, { action: 'set' }>): Overrides {
  return { ...knobs, [m.knob]: m.value };
}
