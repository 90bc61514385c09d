// Shareable links: the whole page state in the URL hash, `#v1=<payload>`.
//
// payload = base64url(deflate-raw(JSON of the wire shape of that version)),
// compressed with the platform's CompressionStream (no dependency).
//
// Versions: every format ever written keeps its own validator (`parseV1`, …) and a
// migration into the next one; `decodeLink` validates the payload in the shape of the
// version it names, then migrates it step by step into the current `LinkState`.
// `encodeLink` always writes the current version. A frozen v1 link lives in the
// tests (lib/link.test.ts) and must keep decoding after any format change.
//
// Every failure is a LinkError whose message says what is wrong; nothing else throws.
import type { Overrides } from './knobs';

/** The views an embed can show. */
export const VIEWS = ['lru', 'gens', 'balance', 'charts', 'results', 'memcg'] as const; // gens: MGLRU generations; memcg: the memcg LRU view
export type View = (typeof VIEWS)[number];

/** The page state a link restores (the current shape, whatever version the link was). */
export interface LinkState {
  /** Scenario file name, e.g. "s000-thrash.toml". */
  scenario: string;
  /** Knob overrides applied to the scenario text. */
  knobs: Overrides;
  /** The full scenario text when it was edited by hand; null: the file as bundled. */
  edited: string | null;
  /** Variants run: [] the scenario's first, [a] one, [a, b] compare mode. */
  variants: string[];
  compare: boolean;
  /** Position of the speed slider (0..SPEED_STEPS). */
  speedStep: number;
  /** Embed view, if any. */
  view: View | null;
  /** Virtual time position (ns). */
  timeNs: number;
  /** Behaviour flag overrides per run (side A, side B), when any; absent otherwise. */
  flags?: FlagOverrides[];
  /** Comparing a knob: `variants[0]` run at these two swappiness values; absent otherwise. */
  swapPair?: [number, number];
  /** The access trace the scenario (`trace:<name>`) replays; absent for a bundled file. */
  trace?: LinkTrace;
}

/** A trace scenario's trace in a link: its file name and format, the miss-ratio point opened
 *  (if one), and the file itself (deflate-raw, base64url) when it compresses to at most
 *  MAX_LINK_TRACE_BYTES; otherwise the page asks for the file by its name. */
export interface LinkTrace {
  name: string;
  format: 'oracleGeneral' | 'csv';
  mrcPages?: number;
  data?: string;
}

/** A trace travels in a link only when it compresses to at most this (256 KiB). */
export const MAX_LINK_TRACE_BYTES = 256 * 1024;
/** A trace carried by a link expands to at most this (64 MiB). */
export const MAX_LINK_TRACE_EXPANDED = 64 << 20;
/** The scenario name of a trace's scenario: never a bundled file's name. */
export const traceScenarioName = (name: string) => `trace:${name}`;

/** A trace's bytes as a link carries them, or null when they compress to more than
 *  MAX_LINK_TRACE_BYTES (the link then names the file). */
export async function traceData(bytes: Uint8Array): Promise<string | null> {
  const z = await pipe(bytes, new CompressionStream('deflate-raw'), MAX_LINK_TRACE_BYTES).catch((e: unknown) => {
    if (e instanceof LinkError) return null;
    throw e;
  });
  return z && toBase64Url(z);
}

/** The bytes of a trace a link carries; throws LinkError when damaged or too large. */
export async function traceBytes(data: string): Promise<Uint8Array> {
  try {
    return await pipe(fromBase64Url(data), new DecompressionStream('deflate-raw'), MAX_LINK_TRACE_EXPANDED);
  } catch (e) {
    if (e instanceof LinkError && /expands/.test(e.message)) throw new LinkError(`the link's trace expands to more than ${MAX_LINK_TRACE_EXPANDED} bytes`);
    throw new LinkError("the link's trace is damaged or truncated (it does not decompress)");
  }
}

/** Flag name -> on/off, as the engine names its flags. */
export type FlagOverrides = Record<string, boolean>;

export const CURRENT_VERSION = 1;
/** Longest link payload accepted (characters); anything longer is refused before decoding. */
export const MAX_LINK_CHARS = 1_000_000;
/** Largest decompressed payload (bytes): a small link cannot inflate into a huge document. */
export const MAX_JSON_BYTES = 2_000_000;
const MAX_SPEED_STEP = 24;
const MAX_TIME_NS = 3_600e9; // one virtual hour

export class LinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LinkError';
  }
}

// ---------------------------------------------------------------- base64url

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

export function fromBase64Url(text: string): Uint8Array {
  const bad = /[^A-Za-z0-9_-]/.exec(text);
  if (bad) throw new LinkError(`the link contains a character that is not base64url: ${JSON.stringify(bad[0])} at position ${bad.index}`);
  if (text.length % 4 === 1) throw new LinkError('the link is truncated (its payload length is impossible for base64url)');
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    acc = ((acc << 6) | B64.indexOf(text[i]!)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

// ---------------------------------------------------------------- compression

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new LinkError(`the link expands to more than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

async function deflate(text: string): Promise<Uint8Array> {
  return pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER);
}

async function inflate(bytes: Uint8Array): Promise<string> {
  let out: Uint8Array;
  try {
    out = await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_JSON_BYTES);
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError('the link is damaged or truncated (its compressed data does not decompress)');
  }
  // Data after the end of the deflate stream: not every platform's DecompressionStream
  // refuses it. A stream ends in the byte that holds its last bit, so without its last byte
  // a complete stream no longer decompresses; one that still does had bytes after its end.
  if (bytes.length > 1) {
    const shorter = await pipe(bytes.subarray(0, bytes.length - 1), new DecompressionStream('deflate-raw'), MAX_JSON_BYTES).catch(() => null);
    if (shorter !== null) throw new LinkError('the link has data after the end of its compressed payload');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(out);
  } catch {
    throw new LinkError('the link is damaged (its data is not text)');
  }
}

// ---------------------------------------------------------------- v1 wire shape

/** Version 1 as written in links (short keys). Frozen: what a v1 link decodes to never changes;
 *  only optional fields may be added (`f`), so every older v1 link keeps its meaning. Anything
 *  else is a v2. */
export interface LinkV1 {
  /** scenario file name */
  s: string;
  /** knobs: swappiness, ram, frameScale, seed, swapDevice, fileDevice, sysctls (all optional) */
  k?: Overrides;
  /** edited scenario text */
  x?: string;
  /** variants */
  v: string[];
  /** compare mode */
  c: boolean;
  /** speed slider step */
  sp: number;
  /** virtual time, ns */
  t: number;
  /** embed view */
  w?: View;
  /** flag overrides per run (added after the frozen fixture; optional) */
  f?: FlagOverrides[];
  /** the knob comparison: the variant run at these two swappiness values (optional) */
  p?: [number, number];
  /** the trace a `trace:` scenario replays (optional): name, format (o: oracleGeneral, c:
   *  csv), miss-ratio point, the file (deflate-raw, base64url) when small */
  r?: { n: string; fmt: 'o' | 'c'; m?: number; d?: string };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function onlyKeys(o: Obj, keys: readonly string[], where: string) {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new LinkError(`the link has an unknown field '${k}'${where}`);
}

function intIn(v: unknown, name: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new LinkError(`the link's ${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return v;
}

function shortStr(v: unknown, name: string, max = 200): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > max) throw new LinkError(`the link's ${name} must be a non-empty text of at most ${max} characters`);
  return v;
}

function parseKnobs(v: unknown): Overrides {
  if (!isObj(v)) throw new LinkError("the link's knobs must be an object");
  onlyKeys(v, ['swappiness', 'ram', 'frameScale', 'seed', 'swapDevice', 'fileDevice', 'sysctls'], ' in its knobs');
  const k: Overrides = {};
  if (v.swappiness !== undefined) k.swappiness = intIn(v.swappiness, 'swappiness', 0, 200);
  if (v.ram !== undefined) {
    const ram = shortStr(v.ram, 'RAM', 20);
    if (!/^\d+(\.\d+)?\s*[KMGT]i?B$/.test(ram)) throw new LinkError(`the link's RAM must be a size such as "2GiB", got ${JSON.stringify(ram)}`);
    k.ram = ram;
  }
  if (v.frameScale !== undefined) k.frameScale = intIn(v.frameScale, 'frame scale', 1, 1024);
  if (v.seed !== undefined) k.seed = intIn(v.seed, 'seed', 0, Number.MAX_SAFE_INTEGER);
  if (v.swapDevice !== undefined) k.swapDevice = shortStr(v.swapDevice, 'swap device');
  if (v.fileDevice !== undefined) k.fileDevice = shortStr(v.fileDevice, 'file device');
  if (v.sysctls !== undefined) k.sysctls = parseSysctls(v.sysctls);
  return k;
}

/** At most this many other sysctls in a link's knobs. */
const MAX_SYSCTLS = 16;

/** Other sysctls by knob name: names and values are short texts here; the engine checks that
 *  each is a sysctl it knows and its value one the sysctl takes. */
function parseSysctls(v: unknown): Record<string, string> {
  if (!isObj(v)) throw new LinkError("the link's sysctls must be an object");
  const keys = Object.keys(v);
  if (keys.length > MAX_SYSCTLS) throw new LinkError(`the link sets ${keys.length} sysctls; at most ${MAX_SYSCTLS}`);
  const out: Record<string, string> = {};
  for (const key of keys) {
    refuseForbidden(key);
    if (!/^[a-z_]{1,40}$/.test(key)) throw new LinkError(`the link's sysctl name ${JSON.stringify(key.slice(0, 40))} is not a sysctl name`);
    out[key] = shortStr(v[key], `sysctl ${key}`, 40);
  }
  return out;
}

/** Keys that name an object's prototype machinery: refused by name anywhere in a link, as
 *  assigning one would change what an object is rather than add a field. */
export const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

function refuseForbidden(key: string) {
  if ((FORBIDDEN_KEYS as readonly string[]).includes(key)) throw new LinkError(`the link has a forbidden key ${JSON.stringify(key)}`);
}

/** Validate a decoded v1 payload. */
export function parseV1(v: unknown): LinkV1 {
  if (!isObj(v)) throw new LinkError('the link does not hold a page state (not an object)');
  onlyKeys(v, ['s', 'k', 'x', 'v', 'c', 'sp', 't', 'w', 'f', 'p', 'r'], '');
  for (const key of ['s', 'v', 'c', 'sp', 't']) if (!(key in v)) throw new LinkError(`the link is missing its '${key}' field`);
  const out: LinkV1 = {
    s: shortStr(v.s, 'scenario name'),
    v: [],
    c: false,
    sp: intIn(v.sp, 'speed', 0, MAX_SPEED_STEP),
    t: intIn(v.t, 'virtual time', 0, MAX_TIME_NS),
  };
  if (!Array.isArray(v.v) || v.v.length > 2) throw new LinkError("the link's variants must be a list of at most two names");
  out.v = v.v.map((n) => shortStr(n, 'variant name'));
  if (typeof v.c !== 'boolean') throw new LinkError("the link's compare mode must be true or false");
  out.c = v.c;
  if (out.c && out.v.length !== 2) throw new LinkError('a link in compare mode must name two variants');
  if (v.k !== undefined) out.k = parseKnobs(v.k);
  if (v.x !== undefined) {
    if (typeof v.x !== 'string' || v.x.length > MAX_JSON_BYTES) throw new LinkError("the link's scenario text must be text");
    out.x = v.x;
  }
  if (v.w !== undefined) {
    if (!VIEWS.includes(v.w as View)) throw new LinkError(`the link names an unknown view ${JSON.stringify(v.w)} (known: ${VIEWS.join(', ')})`);
    out.w = v.w as View;
  }
  if (v.f !== undefined) out.f = parseFlags(v.f, Math.max(1, out.v.length));
  if (v.p !== undefined) {
    if (!Array.isArray(v.p) || v.p.length !== 2) throw new LinkError("the link's swappiness pair must be two values");
    out.p = [intIn(v.p[0], 'swappiness', 0, 200), intIn(v.p[1], 'swappiness', 0, 200)];
    if (out.c) throw new LinkError('a link cannot compare two variants and two swappiness values at once');
  }
  if (v.r !== undefined) {
    const r = v.r;
    if (!isObj(r)) throw new LinkError("the link's trace must be an object");
    onlyKeys(r, ['n', 'fmt', 'm', 'd'], ' in its trace');
    const n = shortStr(r.n, 'trace name');
    if (r.fmt !== 'o' && r.fmt !== 'c') throw new LinkError(`the link's trace format must be "o" (oracleGeneral) or "c" (csv), got ${JSON.stringify(r.fmt)}`);
    out.r = { n, fmt: r.fmt };
    if (r.m !== undefined) out.r.m = intIn(r.m, 'miss-ratio point', 1, 2 ** 40);
    if (r.d !== undefined) {
      // Base64url of at most MAX_LINK_TRACE_BYTES.
      if (typeof r.d !== 'string' || r.d.length > Math.ceil((MAX_LINK_TRACE_BYTES * 4) / 3)) throw new LinkError(`the link's trace must be text of at most ${MAX_LINK_TRACE_BYTES} bytes compressed`);
      out.r.d = r.d;
    }
    if (out.s !== traceScenarioName(n)) throw new LinkError(`the link's trace ${JSON.stringify(n)} is not the one its scenario ${JSON.stringify(out.s)} replays`);
  }
  return out;
}

/** Per-run flag overrides: at most one object per run, short flag names, true/false values.
 *  Whether the engine knows a name is for the engine to say (it names an unknown flag). */
function parseFlags(v: unknown, runs: number): FlagOverrides[] {
  if (!Array.isArray(v) || v.length > runs) throw new LinkError(`the link's flag overrides must be a list of at most ${runs} (one per variant)`);
  return v.map((o, i) => {
    if (!isObj(o)) throw new LinkError(`the link's flag overrides of run ${i + 1} must be an object`);
    const out: FlagOverrides = {};
    for (const [name, on] of Object.entries(o)) {
      if (!/^[a-z0-9_]{1,64}$/.test(name)) throw new LinkError(`the link names a malformed kernel flag ${JSON.stringify(name.slice(0, 70))}`);
      if (typeof on !== 'boolean') throw new LinkError(`the link's kernel flag ${name} must be true or false, got ${JSON.stringify(on)}`);
      out[name] = on;
    }
    return out;
  });
}

/** v1 -> the current shape. */
export function migrateV1(v: LinkV1): LinkState {
  return {
    scenario: v.s,
    knobs: v.k ?? {},
    edited: v.x ?? null,
    variants: v.v,
    compare: v.c,
    speedStep: v.sp,
    view: v.w ?? null,
    timeNs: v.t,
    // Only when present, so that links without overrides decode exactly as before.
    ...(v.f && v.f.some((o) => Object.keys(o).length > 0) ? { flags: v.f } : {}),
    ...(v.p ? { swapPair: v.p } : {}),
    ...(v.r
      ? { trace: { name: v.r.n, format: v.r.fmt === 'o' ? ('oracleGeneral' as const) : ('csv' as const), ...(v.r.m !== undefined ? { mrcPages: v.r.m } : {}), ...(v.r.d !== undefined ? { data: v.r.d } : {}) } }
      : {}),
  };
}

/** The current shape -> v1 (what encodeLink writes while v1 is current). */
export function toV1(s: LinkState): LinkV1 {
  const out: LinkV1 = { s: s.scenario, v: s.variants, c: s.compare, sp: s.speedStep, t: Math.round(s.timeNs) };
  if (Object.keys(s.knobs).length > 0) out.k = s.knobs;
  if (s.edited !== null) out.x = s.edited;
  if (s.view) out.w = s.view;
  if (s.flags && s.flags.some((o) => Object.keys(o).length > 0)) out.f = s.flags;
  if (s.swapPair) out.p = s.swapPair;
  if (s.trace) {
    out.r = { n: s.trace.name, fmt: s.trace.format === 'oracleGeneral' ? 'o' : 'c' };
    if (s.trace.mrcPages !== undefined) out.r.m = s.trace.mrcPages;
    if (s.trace.data !== undefined) out.r.d = s.trace.data;
  }
  return out;
}

/** Each version's validator and its path to the current shape. */
export type Decoders = Readonly<Record<number, (payload: unknown) => LinkState>>;
export const DECODERS: Decoders = {
  1: (p) => migrateV1(parseV1(p)),
};

// ---------------------------------------------------------------- encode / decode

/** The hash fragment (without '#') for a state: `v1=<payload>`. */
export async function encodeLink(state: LinkState): Promise<string> {
  return `v${CURRENT_VERSION}=${toBase64Url(await deflate(JSON.stringify(toV1(state))))}`;
}

/** Whether a hash (with or without '#') looks like a state link at all (`v<N>=`). */
export function isLinkHash(hash: string): boolean {
  return /^#?v\d*=/.test(hash);
}

/**
 * Decode a hash (with or without '#'). `scenarios` lists the known scenario file
 * names; an unknown one is an error. Throws LinkError only.
 */
export async function decodeLink(hash: string, scenarios: readonly string[], decoders: Decoders = DECODERS): Promise<LinkState> {
  if (hash.length > MAX_LINK_CHARS) throw new LinkError(`the link is too long (${hash.length} characters; at most ${MAX_LINK_CHARS})`);
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  const m = /^v(\d{1,6})=(.*)$/s.exec(h);
  if (!m) throw new LinkError('the link does not start with a format version (expected #v1=…)');
  // Strict: `v000001` is not version 1.
  if (/^0\d/.test(m[1]!)) throw new LinkError(`the link's format version ${JSON.stringify(m[1])} is malformed (expected #v1=…, no leading zeros)`);
  const version = Number(m[1]);
  const decoder = Object.hasOwn(decoders, version) ? decoders[version] : undefined;
  if (!decoder) throw new LinkError(`the link has format version ${version}; this page reads version ${Object.keys(decoders).join(', ')}`);
  if (m[2]!.length === 0) throw new LinkError('the link is truncated (no data after the version)');
  const text = await inflate(fromBase64Url(m[2]!));
  let json: unknown;
  try {
    json = JSON.parse(text, (key, value: unknown) => {
      refuseForbidden(key);
      return value;
    });
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError('the link is damaged (its data is not valid JSON)');
  }
  const state = decoder(json);
  if (!scenarios.includes(state.scenario) && !state.trace) throw new LinkError(`the link names an unknown scenario ${JSON.stringify(state.scenario)}`);
  return state;
}

/** Any thrown value as a user-facing sentence. */
export function linkErrorText(e: unknown): string {
  return e instanceof LinkError ? e.message : `the link could not be read (${e instanceof Error ? e.message : String(e)})`;
}
