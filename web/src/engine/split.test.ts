// The live runs split over two engine workers (split.ts): against one worker holding them all,
// over the real wasm engine. Each "worker" is an EngineHost in this process, reached through
// macrotasks and structured clones as a Worker is.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineClient, EngineClientHandlers } from './client';
import { dispatchFromWorker } from './client';
import { EngineHost, type EngineModule, type EngineSimulation } from './host';
import { initWasm, wasmEngine } from './nodeEngine';
import type { FromWorker, ToWorker } from './protocol';
import { SERIES_WIDTH } from './series';
import { absorb, livePartsFor, shares, startLiveEngine } from './split';

const s000 = readFileSync(new URL('../../../scenarios/s000-thrash.toml', import.meta.url), 'utf8');
// A small S000 (64 pages per frame) keeps the tests fast.
const scenario = { name: 's000-thrash.toml', text: s000.replace('[machine]', '[machine]\nframe_scale = 64') };

beforeAll(initWasm);

/** The wasm engine, with the 'after' variant's steps cut to at most `capNs` of virtual time:
 *  its runs stop short of the others', as a busy run does (the engine bounds a step's work). */
function shortStepping(capNs: number): EngineModule {
  const wrap = (sim: EngineSimulation, variant: string): EngineSimulation =>
    new Proxy(sim, {
      get(target, prop) {
        if (prop === 'step' && variant === 'after') return (ns: number) => target.step(Math.min(ns, capNs));
        if (prop === 'snapshot') return () => wrap(target.snapshot!(), variant);
        const v: unknown = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  return { ...wasmEngine, create: (t, v, f) => wrap(wasmEngine.create(t, v, f), v) };
}

/** In-process workers: each `start` is a new EngineHost; what they were sent is recorded. */
function workers(engines: EngineModule | EngineModule[]) {
  const sent: ToWorker[][] = [];
  const disposed: number[] = [];
  const start = (handlers: EngineClientHandlers): EngineClient => {
    const id = sent.length;
    const engine = Array.isArray(engines) ? engines[id]! : engines;
    const log: ToWorker[] = [];
    sent.push(log);
    let live = true;
    const host = new EngineHost({
      load: async () => engine,
      post: (msg) => setTimeout(() => live && dispatchFromWorker(structuredClone(msg), handlers)),
      checkpoints: { spacingMs: 1 },
    });
    return {
      send: (msg) => {
        log.push(msg);
        setTimeout(() => void host.handle(structuredClone(msg)));
      },
      dispose: () => {
        live = false;
        disposed.push(id);
      },
    };
  };
  return { start, sent, disposed };
}

/** A page's view of one engine: what it was told, and a way to wait for the next frame. */
function page(parts: number, engine: EngineModule | EngineModule[]) {
  const got: FromWorker[] = [];
  const errors: string[] = [];
  const fatal: boolean[] = [];
  let waiting: (() => void) | null = null;
  const w = workers(engine);
  const client = startLiveEngine(
    {
      onMessage: (m) => {
        got.push(m);
        if (m.type === 'frame') waiting?.();
      },
      onError: (message, isFatal) => {
        errors.push(message);
        fatal.push(isFatal);
        waiting?.();
      },
    },
    parts,
    w.start,
  );
  /** Send `msg` and wait for the frame (or error) that answers it. */
  const ask = (msg: ToWorker) =>
    new Promise<void>((resolve) => {
      waiting = () => {
        waiting = null;
        resolve();
      };
      client.send(msg);
    });
  return { client, got, errors, fatal, ask, ...w };
}

/** Resolves once `done()` holds (checked every few ms). */
const until = (done: () => boolean) =>
  new Promise<void>((resolve) => {
    const poll = () => (done() ? resolve() : setTimeout(poll, 5));
    poll();
  });

const frames = (got: FromWorker[]) => got.filter((m): m is Extract<FromWorker, { type: 'frame' }> => m.type === 'frame');

/** What the page keeps of each frame: each run's time, lists and counters, and its series rows
 *  as the page holds them (seriesStart drops rows after a seek back). */
function observed(got: FromWorker[]) {
  const series: number[][] = [];
  return frames(got).map((f) =>
    f.runs.map((r, i) => {
      series[i] = (series[i] ?? []).slice(0, r.seriesStart * SERIES_WIDTH).concat([...r.series]);
      return { nowNs: r.nowNs, lists: r.lists, counters: [...r.counters], rows: series[i]!.length / SERIES_WIDTH, series: series[i]! };
    }),
  );
}

describe('messages without frames', () => {
  it('go to worker 0, and one of no known type is an error, not dropped', async () => {
    const p = page(2, wasmEngine);
    const trace = { name: 't.csv', bytes: new TextEncoder().encode('0,1,4096\n1,2,4096\n') };
    p.client.send({ type: 'traceScenario', id: 3, trace, format: 'csv' });
    await until(() => p.got.some((m) => m.type === 'traceScenario'));
    expect(p.got.find((m) => m.type === 'traceScenario')).toMatchObject({ id: 3, problem: null });
    expect(p.sent.length).toBe(1);
    p.client.send({ type: 'nosuch' } as unknown as ToWorker);
    expect(p.errors).toEqual(["the live engine has no route for a 'nosuch' message"]);
    expect(p.fatal).toEqual([false]);
    expect(p.sent[0]!.map((m) => m.type)).toEqual(['traceScenario']);
    p.client.dispose();
  });
});

describe('the live runs over two workers', () => {
  it('shares the runs in order and says how many workers a machine gets', () => {
    expect(shares(1, 2)).toEqual([[0]]);
    expect(shares(2, 2)).toEqual([[0], [1]]);
    expect(shares(3, 2)).toEqual([[0, 1], [2]]);
    expect(shares(4, 2)).toEqual([[0, 1], [2, 3]]);
    expect(livePartsFor(1)).toBe(1);
    expect(livePartsFor(2)).toBe(2);
    expect(livePartsFor(8)).toBe(2);
    expect(livePartsFor(undefined)).toBe(1);
  });

  it('frame for frame, what one worker holding both runs shows: steps whose runs stop short, a seek back, a background computation', async () => {
    const script: ToWorker[] = [
      { type: 'load', scenario, variants: ['before', 'after'] },
      ...Array.from({ length: 6 }, (): ToWorker => ({ type: 'step', ns: 200_000_000 })),
      { type: 'seek', ns: 700_000_000 },
      { type: 'step', ns: 150_000_000 },
      { type: 'seek', ns: 2_000_000_000 },
    ];
    // 'after' steps at most 37 ms at a time: both the one worker's lockstep and the split's
    // catch-up steps bring it to the time of 'before'.
    const one = page(1, shortStepping(37_000_000));
    const two = page(2, shortStepping(37_000_000));
    for (const p of [one, two]) for (const m of script) await p.ask(m);
    expect(two.errors).toEqual([]);
    expect(two.sent.length).toBe(2);
    // Each worker held one run: a load with its share, the same steps and seeks.
    expect(two.sent.map((log) => (log[0] as Extract<ToWorker, { type: 'load' }>).runs)).toEqual([[0], [1]]);
    // Catch-up steps went to the worker of 'after' only.
    expect(two.sent[1]!.filter((m) => m.type === 'step').length).toBeGreaterThan(two.sent[0]!.filter((m) => m.type === 'step').length);
    const a = observed(one.got);
    const b = observed(two.got);
    expect(b.length).toBe(script.length);
    expect(b.map((f) => f.map((r) => r.nowNs))).toEqual(a.map((f) => f.map((r) => r.nowNs)));
    expect(b).toEqual(a);
    const loaded = two.got.find((m) => m.type === 'loaded') as Extract<FromWorker, { type: 'loaded' }>;
    expect(loaded.runs.map((r) => r.variant)).toEqual(['before', 'after']);
  });

  it('computes ahead on both workers and says done only when both are', async () => {
    const two = page(2, wasmEngine);
    await two.ask({ type: 'load', scenario, variants: ['before', 'after'] });
    two.client.send({ type: 'ahead', ns: 1_500_000_000 });
    await until(() => two.got.some((m) => m.type === 'aheadProgress' && m.done));
    const progress = two.got.filter((m): m is Extract<FromWorker, { type: 'aheadProgress' }> => m.type === 'aheadProgress');
    expect(two.sent.map((log) => log.filter((m) => m.type === 'ahead').length)).toEqual([1, 1]);
    // One `done` only, the last word; before it, the less advanced worker's time.
    expect(progress.filter((p) => p.done).length).toBe(1);
    expect(progress.at(-1)).toEqual({ type: 'aheadProgress', toNs: 1_500_000_000, nowNs: 1_500_000_000, done: true });
    // The seek there restores on both: nothing to replay.
    await two.ask({ type: 'seek', ns: 1_500_000_000 });
    const seek = two.got.filter((m) => m.type === 'seekProgress');
    expect(seek[0]).toMatchObject({ fromNs: 1_500_000_000, toNs: 1_500_000_000 });
    expect(frames(two.got).at(-1)!.runs.map((r) => r.nowNs)).toEqual([1_500_000_000, 1_500_000_000]);
  });

  it('a refused load: one error, the runs stay on their workers; a load of one run lets the second worker go', async () => {
    const two = page(2, wasmEngine);
    await two.ask({ type: 'load', scenario, variants: ['before', 'after'] });
    await two.ask({ type: 'step', ns: 100_000_000 });
    // Run 2's flag is unknown: both workers refuse (each builds every run), the page hears once.
    await two.ask({ type: 'load', scenario, variants: ['before', 'after'], flags: [{}, { no_such_flag: true }] });
    expect(two.errors.length).toBe(1);
    expect(two.errors[0]).toMatch(/no_such_flag/);
    await two.ask({ type: 'step', ns: 100_000_000 });
    expect(frames(two.got).at(-1)!.runs.map((r) => r.nowNs)).toEqual([200_000_000, 200_000_000]);
    // Messages sent while a request is under way are held and sent in order after it.
    const before = frames(two.got).length;
    two.client.send({ type: 'step', ns: 50_000_000 });
    two.client.send({ type: 'step', ns: 50_000_000 });
    expect(two.sent.map((log) => log.filter((m) => m.type === 'step').length)).toEqual([3, 3]); // the second is held
    await until(() => frames(two.got).length === before + 2);
    expect(two.sent.map((log) => log.filter((m) => m.type === 'step').length)).toEqual([4, 4]);
    expect(frames(two.got).map((f) => f.runs[1]!.nowNs).slice(-2)).toEqual([250_000_000, 300_000_000]);
    expect(two.disposed).toEqual([]);
    await two.ask({ type: 'load', scenario, variants: ['after'] });
    expect(two.disposed).toEqual([1]);
    const last = two.got.filter((m) => m.type === 'loaded').at(-1) as Extract<FromWorker, { type: 'loaded' }>;
    expect(last.runs.map((r) => r.variant)).toEqual(['after']);
    // A comparison again: a new second worker.
    await two.ask({ type: 'load', scenario, variants: ['after', 'before'] });
    expect(two.sent.length).toBe(3);
    expect(frames(two.got).at(-1)!.runs.length).toBe(2);
  });

  it('a load only the second worker refuses (not expected: both build every run) stops the engine with its reason', async () => {
    const refusing: EngineModule = {
      ...wasmEngine,
      create: () => {
        throw new Error('out of memory here');
      },
    };
    const two = page(2, [wasmEngine, refusing]);
    await two.ask({ type: 'load', scenario, variants: ['before', 'after'] });
    expect(two.errors).toEqual(['A second engine worker refused what the first accepted: The scenario could not be loaded: Error: out of memory here']);
    expect(two.fatal).toEqual([true]);
    expect(frames(two.got)).toEqual([]);
  });

  it('merges two frames of the same runs in a row: the later view, the rows of both', () => {
    const run = (nowNs: number, seriesStart: number, rows: number) => ({ nowNs, seriesStart, series: Float64Array.from({ length: rows * SERIES_WIDTH }, (_, i) => seriesStart * SERIES_WIDTH + i) }) as never;
    const merged = absorb({ type: 'frame', seq: 3, stepMs: 2, runs: [run(10, 4, 2)] }, { type: 'frame', seq: 4, stepMs: 5, runs: [run(15, 6, 3)] });
    expect(merged.stepMs).toBe(7);
    expect(merged.runs[0]!.nowNs).toBe(15);
    expect(merged.runs[0]!.seriesStart).toBe(4);
    expect([...merged.runs[0]!.series]).toEqual(Array.from({ length: 5 * SERIES_WIDTH }, (_, i) => 4 * SERIES_WIDTH + i));
  });
});
