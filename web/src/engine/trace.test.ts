// A dropped trace through the engine host and the miss-ratio pool, against the real wasm engine
// (web/pkg) in Node: the scenario built for it, a bad record named, the curve's columns.
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineHost, type EngineModule } from './host';
import { coarseFirst, MrcPool, type MrcState } from './mrcPool';
import { initWasm, wasmEngine } from './nodeEngine';
import { parseFromWorker, type FromWorker, type ToWorker } from './protocol';
import type { StartWorker } from './reportPool';

beforeAll(initWasm);

/** An oracleGeneral trace (24-byte records: u32 time, u64 id, u32 size, i64 next access,
 *  1-based as libCacheSim writes it) of `ids`. */
function oracleGeneral(ids: number[]): Uint8Array {
  const b = new DataView(new ArrayBuffer(ids.length * 24));
  ids.forEach((id, i) => {
    const next = ids.indexOf(id, i + 1);
    b.setUint32(i * 24, i, true);
    b.setBigUint64(i * 24 + 4, BigInt(id), true);
    b.setUint32(i * 24 + 12, 4096, true);
    b.setBigInt64(i * 24 + 16, BigInt(next < 0 ? -1 : next + 1), true);
  });
  return new Uint8Array(b.buffer);
}

/** A skewed reference string: object i*i mod 97 of a loop, so some objects recur often. */
const IDS = Array.from({ length: 1500 }, (_, i) => ((i * i) % 97) + 1000 * (i % 3));

/** Plain LRU misses at `size` objects, counted here, independently of the engine. */
function lruMisses(ids: number[], size: number): number {
  const cache = new Map<number, true>();
  let misses = 0;
  for (const id of ids) {
    if (cache.has(id)) cache.delete(id);
    else {
      misses++;
      if (cache.size === size) cache.delete(cache.keys().next().value!);
    }
    cache.set(id, true);
  }
  return misses;
}

/** Answers of a host in this process. */
async function ask(msg: ToWorker): Promise<FromWorker[]> {
  const posted: FromWorker[] = [];
  const host = new EngineHost({ load: async () => wasmEngine, post: (m) => posted.push(parseFromWorker(m)) });
  await host.handle(msg);
  return posted.filter((m) => m.type !== 'ready');
}

describe('a dropped trace', () => {
  it('gets a scenario built by the engine, which loads with the trace', async () => {
    const trace = { name: 'mine.bin', bytes: oracleGeneral(IDS) };
    const [answer] = await ask({ type: 'traceScenario', id: 7, trace, format: 'oracleGeneral' });
    expect(answer).toMatchObject({ type: 'traceScenario', id: 7, problem: null });
    const text = (answer as Extract<FromWorker, { type: 'traceScenario' }>).text!;
    expect(text).toContain(`${IDS.length} requests to ${new Set(IDS).size} objects`);
    const loaded = await ask({ type: 'load', scenario: { name: 'trace', text, traces: [trace] }, variants: [] });
    expect(loaded.map((m) => m.type)).toEqual(['loaded', 'frame']);
    // Without its bytes a worker cannot run it, and says which trace is missing (one engine
    // instance serves every host here: forget what the load supplied).
    wasmEngine.setTraces!([]);
    const [missing] = await ask({ type: 'load', scenario: { name: 'trace', text }, variants: [] });
    expect(missing).toMatchObject({ type: 'error', phase: 'scenario' });
    expect((missing as Extract<FromWorker, { type: 'error' }>).message).toContain('mine.bin');
  });

  /** A host with a trace's scenario loaded (its trace supplied with the load), and what it posted. */
  async function loadedTrace() {
    const posted: FromWorker[] = [];
    const host = new EngineHost({ load: async () => wasmEngine, post: (m) => posted.push(parseFromWorker(m)) });
    const trace = { name: 'mine.bin', bytes: oracleGeneral(IDS) };
    await host.handle({ type: 'traceScenario', id: 1, trace, format: 'oracleGeneral' });
    const text = (posted.find((m) => m.type === 'traceScenario') as Extract<FromWorker, { type: 'traceScenario' }>).text!;
    await host.handle({ type: 'load', scenario: { name: 'trace', text, traces: [trace] }, variants: [] });
    return { posted, host, trace, text };
  }

  it('supplied with a load that is refused leaves the running scenario its own trace', async () => {
    const { posted, host, text } = await loadedTrace();
    expect(posted.at(-1)?.type).toBe('frame');
    // A load with another trace, refused (no such variant) after its traces came.
    const other = { name: 'other.bin', bytes: oracleGeneral([1, 2, 3]) };
    await host.handle({ type: 'load', scenario: { name: 'trace', text, traces: [other] }, variants: ['nosuch'] });
    expect(posted.at(-1)).toMatchObject({ type: 'error', phase: 'scenario' });
    // The scenario shown can still be built again from its text alone: its trace is there.
    await host.handle({ type: 'report', scenario: { name: 'trace', text }, index: 0 });
    const last = posted.at(-1)!;
    expect(last.type, JSON.stringify(last).slice(0, 300)).toBe('variantReport');
  });

  it('is held by the engine only: the host keeps no reference to its bytes, and a refused load puts the engine\'s set back', async () => {
    const { posted, host, trace, text } = await loadedTrace();
    const other = { name: 'other.bin', bytes: oracleGeneral([1, 2, 3]) };
    await host.handle({ type: 'load', scenario: { name: 'trace', text, traces: [other] }, variants: ['nosuch'] });
    expect(posted.at(-1)).toMatchObject({ type: 'error', phase: 'scenario' });
    // Nothing the host holds (its fields, the runs, checkpoints, what it built from) reaches
    // either message's bytes: the worker's copy of a message is garbage once it is handled.
    const held = reachable(host, [trace.bytes, other.bytes, trace.bytes.buffer, other.bytes.buffer]);
    expect(held).toEqual([]);
    // A seek to the start builds the runs again from the engine's traces: the ones put back.
    await host.handle({ type: 'step', ns: 50_000_000 });
    await host.handle({ type: 'seek', ns: 0 });
    expect(posted.at(-1)?.type, JSON.stringify(posted.at(-1)).slice(0, 300)).toBe('frame');
  });

  it('brought again by a results worker\'s message replaces the engine\'s set without holding two at once', async () => {
    const trace = { name: 'mine.bin', bytes: oracleGeneral(IDS) };
    const built = (await ask({ type: 'traceScenario', id: 1, trace, format: 'oracleGeneral' }))[0] as Extract<FromWorker, { type: 'traceScenario' }>;
    const calls: string[] = [];
    const traced = new Proxy(wasmEngine, {
      get: (target, key: keyof EngineModule) => {
        const f = target[key];
        return typeof f === 'function' && /Traces$/.test(key) ? (...a: unknown[]) => (calls.push(key), (f as (...x: unknown[]) => unknown)(...a)) : f;
      },
    });
    const posted: FromWorker[] = [];
    const host = new EngineHost({ load: async () => traced, post: (m) => posted.push(parseFromWorker(m)) });
    for (const id of [1, 2]) await host.handle({ type: 'mrc', id, scenario: { name: 'trace', text: built.text!, traces: [trace] }, points: 4 });
    expect(posted.filter((m) => m.type === 'mrc').map((m) => (m as Extract<FromWorker, { type: 'mrc' }>).problem)).toEqual([null, null]);
    // The set before is forgotten first, then the new one copied in, and nothing is kept aside.
    expect(calls).toEqual(['clearTraces', 'setTraces', 'keepTraces', 'clearTraces', 'setTraces', 'keepTraces']);
  });

  it('that is bad is refused with its record number', async () => {
    const good = oracleGeneral(IDS.slice(0, 10));
    const cut = good.slice(0, 24 * 4 + 5); // record 5 is cut short
    const [a] = await ask({ type: 'traceScenario', id: 1, trace: { name: 'cut.bin', bytes: cut }, format: 'oracleGeneral' });
    expect(a).toMatchObject({ type: 'traceScenario', text: null });
    expect((a as Extract<FromWorker, { type: 'traceScenario' }>).problem).toMatch(/record 5/);
    const csv = new TextEncoder().encode('0,1,4096\n1,2,4096\n2,x,4096\n');
    const [b] = await ask({ type: 'traceScenario', id: 2, trace: { name: 'bad.csv', bytes: csv }, format: 'csv' });
    expect((b as Extract<FromWorker, { type: 'traceScenario' }>).problem).toMatch(/line 3 field 2/); // a CSV record is its line
  });
});

describe('the miss-ratio pool', () => {
  it('orders sizes coarse to fine, each once', () => {
    expect(coarseFirst(5)).toEqual([0, 4, 2, 1, 3]);
    const o = coarseFirst(16);
    expect([...o].sort((a, b) => a - b)).toEqual([...Array(16).keys()]);
  });

  it('draws LRU (equal to an LRU counted here), OPT below it, and every kernel point', async () => {
    const trace = { name: 'mine.bin', bytes: oracleGeneral(IDS) };
    const built = (await ask({ type: 'traceScenario', id: 1, trace, format: 'oracleGeneral' }))[0] as Extract<FromWorker, { type: 'traceScenario' }>;
    const scenario = { name: 'trace', text: built.text!, traces: [trace] };
    // Workers in this process, each its own host (the engine module is shared: one trace set).
    const start: StartWorker = (handlers) => {
      const host = new EngineHost({
        load: async () => wasmEngine,
        post: (m) => {
          const msg = parseFromWorker(m);
          if (msg.type === 'error') handlers.onError(msg.message, msg.phase === 'engine');
          else queueMicrotask(() => handlers.onMessage(msg));
        },
      });
      return { send: (msg) => void host.handle(msg), dispose() {} };
    };
    const states: MrcState[] = [];
    const done = new Promise<MrcState>((resolve) => {
      const pool = new MrcPool(scenario, ['classic', 'mglru'], 4, 2, start, (s) => {
        states.push(s);
        if (s.phase === 'done' || s.phase === 'error') resolve(s);
      });
      pool.start();
    });
    const end = await done;
    expect(end.error).toBeUndefined();
    const ref = end.reference!;
    expect(ref.plan.requests).toBe(IDS.length);
    expect(ref.plan.footprint).toBe(new Set(IDS).size);
    expect(ref.lru).toEqual(ref.plan.sizes.map((s) => lruMisses(IDS, s)));
    ref.opt.forEach((o, i) => expect(o).toBeLessThanOrEqual(ref.lru[i]!));
    expect(end.points).toHaveLength(2 * ref.plan.sizes.length);
    for (const p of end.points) {
      expect(p.status, p.error).toBe('done');
      expect(p.misses).toBeGreaterThan(0);
      expect(p.misses).toBeLessThanOrEqual(IDS.length);
    }
    // Points filled in one by one: some state had the reference and no kernel point done.
    expect(states.some((s) => s.reference && s.points.every((p) => p.status !== 'done'))).toBe(true);
  }, 120_000);
});

/** The paths from `root` through its fields (objects, arrays, maps, sets; not functions) to any
 *  of `targets`. */
function reachable(root: object, targets: object[]): string[] {
  const seen = new Set<unknown>();
  const found: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (targets.includes(v)) found.push(path);
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return;
    if (v instanceof Map) for (const [k, x] of v) walk(x, `${path}.get(${String(k)})`);
    else if (v instanceof Set) for (const x of v) walk(x, `${path}{}`);
    else for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], `${path}.${k}`);
  };
  walk(root, 'host');
  return found;
}
