// The link codec: round trip, the frozen v1 fixture, and hostile inputs.
import { describe, expect, it } from 'vitest';
import { DECODERS, decodeLink, encodeLink, fromBase64Url, LinkError, MAX_LINK_CHARS, MAX_LINK_TRACE_BYTES, toBase64Url, traceBytes, traceData, traceScenarioName, type LinkState } from './link';

const SCENARIOS = ['s000-thrash.toml', 's001-used-once.toml'];

/** Written by the v1 encoder on 2026-11-21. Frozen: it must decode forever, whatever the current version. */
const V1_FIXTURE =
  'v1=HcjBCoJQEEDRf7nrSZ5BBPMr0eKVI0qWj5lnLsR_D7ubA3cjUCKldKqD5xiaOr8nhC9642H97IaQ-2rOXXii1RcToqDtWagHl_RPeKEbseZSxo9FoO1xw6xDr7uwoky-sP8A';

const state: LinkState = {
  scenario: 's001-used-once.toml',
  knobs: { ram: '2GiB', frameScale: 4, swapDevice: 'ssd', fileDevice: 'hdd' },
  edited: 'title = "edited ✓"\n[machine]\nram = "1GiB"\n',
  variants: ['after'],
  compare: false,
  speedStep: 0,
  view: null,
  timeNs: 3_000_000_123,
};

/** A payload: deflate-raw of arbitrary text, base64url. */
async function payload(text: string): Promise<string> {
  const cs = new CompressionStream('deflate-raw');
  const w = cs.writable.getWriter();
  void w.write(new TextEncoder().encode(text));
  void w.close();
  return toBase64Url(new Uint8Array(await new Response(cs.readable).arrayBuffer()));
}

async function failure(hash: string): Promise<string> {
  try {
    await decodeLink(hash, SCENARIOS);
  } catch (e) {
    expect(e).toBeInstanceOf(LinkError);
    return (e as Error).message;
  }
  throw new Error(`decoded: ${hash.slice(0, 60)}`);
}

describe('link codec', () => {
  it('round-trips the page state, with or without #', async () => {
    const hash = await encodeLink(state);
    expect(hash).toMatch(/^v1=[A-Za-z0-9_-]+$/);
    expect(await decodeLink(hash, SCENARIOS)).toStrictEqual(state);
    expect(await decodeLink(`#${hash}`, SCENARIOS)).toStrictEqual(state);
  });

  it('round-trips per-run flag overrides (an optional v1 field), and drops empty ones', async () => {
    const withFlags: LinkState = { ...state, variants: ['before', 'after'], compare: true, flags: [{ refault_scan_anon: false }, { io_cost_balance: true, rotation_cost: false }] };
    const hash = await encodeLink(withFlags);
    expect(hash).toMatch(/^v1=/);
    expect(await decodeLink(hash, SCENARIOS)).toStrictEqual(withFlags);
    expect(await decodeLink(await encodeLink({ ...state, flags: [{}, {}] }), SCENARIOS)).toStrictEqual(state);
  });

  it('round-trips a knob comparison (swappiness pair, an optional v1 field) and checks its values', async () => {
    const pair: LinkState = { ...state, swapPair: [0, 200] };
    expect(await decodeLink(await encodeLink(pair), SCENARIOS)).toStrictEqual(pair);
    expect(await decodeLink(await encodeLink(state), SCENARIOS)).not.toHaveProperty('swapPair');
    const bad = async (p: unknown, c = false) =>
      decodeLink(`v1=${await payload(JSON.stringify({ s: 's000-thrash.toml', v: c ? ['a', 'b'] : [], c, sp: 0, t: 0, p }))}`, SCENARIOS);
    await expect(bad([0, 201])).rejects.toThrow(/swappiness/);
    await expect(bad([60])).rejects.toThrow(/two values/);
    await expect(bad([0, 200], true)).rejects.toThrow(/two variants and two swappiness/);
  });

  it('carries a small trace (an optional v1 field) and only names a large one', async () => {
    // A trace that compresses well, and one of random bytes that does not.
    const small = new Uint8Array(240_000).map((_, i) => (i * 7) % 13);
    let x = 2463534242; // xorshift32: bytes deflate cannot shrink
    const large = new Uint8Array(MAX_LINK_TRACE_BYTES + 4096).map(() => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) & 0xff;
    });
    const data = await traceData(small);
    expect(data).not.toBeNull();
    expect(await traceBytes(data!)).toStrictEqual(small);
    expect(await traceData(large)).toBeNull();
    const withTrace: LinkState = { ...state, scenario: traceScenarioName('mine.bin'), edited: null, variants: ['mglru'], trace: { name: 'mine.bin', format: 'oracleGeneral', mrcPages: 490, data: data! } };
    // A trace scenario is not a bundled file: it decodes without being among the known names.
    expect(await decodeLink(await encodeLink(withTrace), SCENARIOS)).toStrictEqual(withTrace);
    const named: LinkState = { ...withTrace, trace: { name: 'mine.bin', format: 'csv' } };
    expect(await decodeLink(await encodeLink(named), SCENARIOS)).toStrictEqual(named);
    const bad = async (r: unknown, s = 'trace:mine.bin') => decodeLink(`v1=${await payload(JSON.stringify({ s, v: [], c: false, sp: 0, t: 0, r }))}`, SCENARIOS);
    await expect(bad({ n: 'mine.bin', fmt: 'vscsi' })).rejects.toThrow(/trace format/);
    await expect(bad({ n: 'other.bin', fmt: 'o' })).rejects.toThrow(/not the one its scenario/);
    await expect(bad({ n: 'mine.bin', fmt: 'o', d: 'x'.repeat(400_000) })).rejects.toThrow(/at most 262144 bytes compressed/);
    await expect(bad({ n: 'mine.bin', fmt: 'o', q: 1 })).rejects.toThrow(/unknown field 'q' in its trace/);
    await expect(traceBytes('AAAA')).rejects.toThrow(/damaged/);
  });

  it('base64url round-trips every length', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n) & 255);
      expect(fromBase64Url(toBase64Url(bytes))).toStrictEqual(bytes);
    }
  });

  it('decodes the frozen v1 fixture through the v1 migration into the current shape', async () => {
    expect(await decodeLink(V1_FIXTURE, ['s000-thrash.toml'])).toStrictEqual({
      scenario: 's000-thrash.toml',
      knobs: { swappiness: 100, seed: 7 },
      edited: null,
      variants: ['before', 'after'],
      compare: true,
      speedStep: 12,
      view: 'lru',
      timeNs: 125_000_000,
    });
  });

  it('still decodes the v1 fixture after a (simulated) format change to v2', async () => {
    // A hypothetical v2: long field names, time in µs. The page would read both versions.
    const parseV2 = (p: unknown): LinkState => {
      const o = p as { scenario: string; variants: string[]; timeUs: number };
      return { scenario: o.scenario, knobs: {}, edited: null, variants: o.variants, compare: false, speedStep: 10, view: null, timeNs: o.timeUs * 1000 };
    };
    const decoders = { ...DECODERS, 2: parseV2 };
    const v1 = await decodeLink(V1_FIXTURE, ['s000-thrash.toml'], decoders);
    expect(v1.timeNs).toBe(125_000_000);
    expect(v1.variants).toEqual(['before', 'after']);
    const v2 = await decodeLink(`v2=${await payload(JSON.stringify({ scenario: 's000-thrash.toml', variants: ['after'], timeUs: 7 }))}`, ['s000-thrash.toml'], decoders);
    expect(v2.timeNs).toBe(7000);
    expect(await failure(`v3=${await payload('{}')}`)).toMatch(/format version 3; this page reads version 1/);
  });

  it('rejects a huge link before decoding it', async () => {
    // Its data is not valid deflate: had it been decoded first, it would say "damaged".
    const huge = 'v1=' + 'A'.repeat(MAX_LINK_CHARS + 10);
    expect(await failure(huge)).toMatch(/too long/);
    expect(await failure('v1=' + 'A'.repeat(100))).not.toMatch(/too long/);
  });

  it('rejects a truncated link', async () => {
    const hash = await encodeLink(state);
    for (const cut of [hash.length - 5, hash.length - 20, Math.floor(hash.length / 2)]) {
      expect(await failure(hash.slice(0, cut))).toMatch(/truncated|damaged/);
    }
    expect(await failure('v1=')).toMatch(/truncated/);
  });

  it('rejects a wrong or missing version', async () => {
    const body = (await encodeLink(state)).slice(3);
    expect(await failure(`v2=${body}`)).toMatch(/format version 2/);
    expect(await failure(`v0=${body}`)).toMatch(/format version 0/);
    expect(await failure(body)).toMatch(/does not start with a format version/);
  });

  it('rejects characters outside base64url', async () => {
    expect(await failure('v1=abc+def/ghi=')).toMatch(/not base64url: "\+" at position 3/);
    expect(await failure('v1=abc def')).toMatch(/not base64url/);
  });

  it('rejects valid compression of invalid JSON', async () => {
    expect(await failure(`v1=${await payload('{"s": "s000-thrash.toml", ')}`)).toMatch(/not valid JSON/);
  });

  it('rejects a decompression bomb', async () => {
    expect(await failure(`v1=${await payload(' '.repeat(3_000_000))}`)).toMatch(/expands to more than/);
  });

  it('rejects unknown fields, unknown scenarios and bad values, naming them', async () => {
    const base = { s: 's000-thrash.toml', v: [], c: false, sp: 10, t: 0 };
    const bad = async (v: unknown) => failure(`v1=${await payload(JSON.stringify(v))}`);
    expect(await bad({ ...base, zz: 1 })).toMatch(/unknown field 'zz'/);
    expect(await bad({ ...base, k: { swappiness: 60, turbo: true } })).toMatch(/unknown field 'turbo' in its knobs/);
    expect(await bad({ ...base, s: 'nope.toml' })).toMatch(/unknown scenario "nope.toml"/);
    expect(await bad({ ...base, w: 'graphs' })).toMatch(/unknown view "graphs"/);
    expect(await bad({ ...base, k: { swappiness: 900 } })).toMatch(/swappiness must be a whole number from 0 to 200/);
    expect(await bad({ ...base, t: -1 })).toMatch(/virtual time/);
    expect(await bad({ ...base, c: true })).toMatch(/compare mode must name two variants/);
    expect(await bad({ ...base, k: { ram: '2 lots' } })).toMatch(/RAM must be a size/);
    expect(await bad([1, 2])).toMatch(/not an object/);
    expect(await bad({ ...base, f: { x: true } })).toMatch(/flag overrides must be a list of at most 1/);
    expect(await bad({ ...base, f: [{}, {}] })).toMatch(/at most 1 \(one per variant\)/);
    expect(await bad({ ...base, f: [{ 'Bad Name': true }] })).toMatch(/malformed kernel flag "Bad Name"/);
    expect(await bad({ ...base, f: [{ io_cost_balance: 'yes' }] })).toMatch(/kernel flag io_cost_balance must be true or false, got "yes"/);
    const { t: _t, ...noTime } = base;
    expect(await bad(noTime)).toMatch(/missing its 't' field/);
  });
});

describe('link codec against hostile links (issue #25)', () => {
  const good = { s: 's000-thrash.toml', v: [], c: false, sp: 0, t: 0 };

  it('parses the version strictly: v000001 is not v1', async () => {
    const p = await payload(JSON.stringify(good));
    await expect(decodeLink(`#v1=${p}`, SCENARIOS)).resolves.toMatchObject({ scenario: 's000-thrash.toml' });
    for (const v of ['v000001', 'v01']) {
      await expect(decodeLink(`#${v}=${p}`, SCENARIOS)).rejects.toThrow(/version/);
    }
  });

  it('refuses __proto__, constructor and prototype keys by name, wherever they are', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const inFlags = `{"s":"s000-thrash.toml","v":[],"c":false,"sp":0,"t":0,"f":[{"${key}":true}]}`;
      await expect(decodeLink(`#v1=${await payload(inFlags)}`, SCENARIOS)).rejects.toThrow(`forbidden key "${key}"`);
      const top = `{"s":"s000-thrash.toml","v":[],"c":false,"sp":0,"t":0,"${key}":{"x":1}}`;
      await expect(decodeLink(`#v1=${await payload(top)}`, SCENARIOS)).rejects.toThrow(`forbidden key "${key}"`);
    }
  });

  it('refuses data after the end of the deflate stream', async () => {
    const p = await payload(JSON.stringify(good));
    const bytes = fromBase64Url(p);
    for (const junk of [[0], [1, 2, 3], Array.from({ length: 40 }, (_, i) => i * 7)]) {
      const longer = new Uint8Array([...bytes, ...junk]);
      await expect(decodeLink(`#v1=${toBase64Url(longer)}`, SCENARIOS)).rejects.toBeInstanceOf(LinkError);
    }
    // The exact stream still decodes.
    await expect(decodeLink(`#v1=${toBase64Url(bytes)}`, SCENARIOS)).resolves.toMatchObject({ scenario: 's000-thrash.toml' });
  });
});
