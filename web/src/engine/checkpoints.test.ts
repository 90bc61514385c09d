// Seek checkpoints: the store's budget and eviction (checkpoints.ts), a wasm run's snapshot
// going on bit for bit as the run would, and the host's seeks and background work against the
// real wasm engine (web/pkg, built by `npm run wasm`).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { WasmSimulation } from '../../pkg/reclaim_core.js';
import { CheckpointStore, type Checkpoint } from './checkpoints';
import { EngineHost, type EngineModule, type EngineSimulation } from './host';
import { initWasm, wasmEngine as engine } from './nodeEngine';
import type { FrameView } from './generated/views';
import { parseFromWorker, type FromWorker } from './protocol';
import { SERIES_WIDTH } from './series';
import { stepTo } from './stepTo';

const root = new URL('../../../', import.meta.url);
const s000 = readFileSync(new URL('scenarios/s000-thrash.toml', root), 'utf8');
// A small S000 (64 pages per frame) keeps the tests fast; its lesson steps stay.
const small = s000.replace('[machine]', '[machine]\nframe_scale = 64');
const scenario = { name: 's000-thrash.toml', text: small };

beforeAll(initWasm);

// ---------------------------------------------------------------- the store

class Fake {
  freed = 0;
  free() {
    this.freed++;
  }
}

const cp = (ns: number, workMs: number, bytes = 10, pinned = false): Checkpoint<Fake> => ({ ns, workMs, runs: [new Fake()], bytes, pinned });

describe('CheckpointStore', () => {
  it('finds the latest checkpoint at or before a time, and says when one is due', () => {
    const s = new CheckpointStore<Fake>(1000, 100);
    expect(s.atOrBefore(5)).toBeNull();
    expect(s.due(5, 50)).toBe(false); // t=0 is a new run: 50 ms of work from it is not enough
    expect(s.due(5, 100)).toBe(true);
    s.add(cp(10, 100));
    s.add(cp(30, 300));
    expect(s.atOrBefore(9)).toBeNull();
    expect(s.atOrBefore(10)!.ns).toBe(10);
    expect(s.atOrBefore(29)!.ns).toBe(10);
    expect(s.atOrBefore(1e12)!.ns).toBe(30);
    expect(s.due(20, 199)).toBe(false);
    expect(s.due(20, 200)).toBe(true);
    expect(s.due(30, 900)).toBe(false); // one is there
  });

  it('stays within its budget, freeing what it evicts and nothing it keeps', () => {
    const s = new CheckpointStore<Fake>(100, 1);
    const all = Array.from({ length: 40 }, (_, i) => cp((i + 1) * 1000, (i + 1) * 10, 10));
    for (const c of all) s.add(c);
    expect(s.size).toBe(10);
    expect(s.bytes).toBe(100);
    expect(s.evicted).toBe(30);
    const kept = new Set(s.times());
    for (const c of all) expect(c.runs[0]!.freed).toBe(kept.has(c.ns) ? 0 : 1);
    // One too big for the whole budget is refused and freed; one at a time held is freed.
    const big = cp(99_000, 500, 101);
    expect(s.add(big)).toBe(false);
    expect(big.runs[0]!.freed).toBe(1);
    const again = cp(40_000, 400, 10, true);
    expect(s.add(again)).toBe(false);
    expect(again.runs[0]!.freed).toBe(1);
    s.clear();
    expect(s.size).toBe(0);
    expect(all.every((c) => c.runs[0]!.freed === 1)).toBe(true);
  });

  it('evicts so that the survivors stay spread over the work done (not the oldest or newest first)', () => {
    const s = new CheckpointStore<Fake>(100, 1);
    for (let i = 1; i <= 200; i++) s.add(cp(i * 1000, i * 10, 10));
    const work = s.times().map((ns) => ns / 100);
    const gaps = work.map((w, i) => w - (i > 0 ? work[i - 1]! : 0));
    // 2,000 ms of work over 10 checkpoints: an even spread has gaps of 200 ms. Keeping the
    // newest 10 would leave a gap of 1,810 ms from t=0, the oldest 10 one of 1,900 ms to the end.
    expect(work.at(-1)).toBe(2000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(400);
  });

  it('keeps pinned checkpoints (lesson steps) while unpinned ones can go', () => {
    const s = new CheckpointStore<Fake>(50, 1);
    s.add(cp(1, 1, 10, true));
    s.add(cp(2, 2, 10, true));
    for (let i = 3; i <= 20; i++) s.add(cp(i, i, 10));
    expect(s.times()).toContain(1);
    expect(s.times()).toContain(2);
    expect(s.size).toBe(5);
  });
});

// ---------------------------------------------------------------- a wasm run's snapshot

/** Everything a run shows, compared exactly. */
function observed(sim: WasmSimulation) {
  return {
    now: sim.now_ns(),
    counters: [...sim.counter_values()],
    lru: [...sim.lru_sizes()],
    series: [...sim.series_from(0)],
    lists: [0, 1, 2, 3, 4].map((l) => [...sim.list_frames(l)]),
    spaces: [...sim.frame_spaces()],
    balance: sim.balance_view(),
    refault: sim.refault_view(),
    gens: sim.lru_gen_view(0),
  };
}

describe('WasmSimulation.snapshot', () => {
  it('goes on bit for bit as the run it was taken from, and leaves that run alone', () => {
    for (const variant of ['before', 'after']) {
      const run = WasmSimulation.fromScenario(small, variant);
      const fresh = WasmSimulation.fromScenario(small, variant);
      stepTo(run, 1_500_000_000);
      const copy = run.snapshot();
      expect(observed(copy)).toEqual(observed(run));
      stepTo(copy, 2_500_000_000);
      expect(run.now_ns()).toBe(1_500_000_000); // the copy stepped alone
      stepTo(run, 2_500_000_000);
      stepTo(fresh, 2_500_000_000);
      expect(observed(copy)).toEqual(observed(fresh));
      expect(observed(run)).toEqual(observed(fresh));
      expect(copy.run_to_end_json()).toBe(fresh.run_to_end_json());
      for (const s of [run, fresh, copy]) s.free();
    }
  });

  it('says how many bytes it holds: at least the frame table, at most the whole heap', () => {
    const run = WasmSimulation.fromScenario(small, 'after');
    stepTo(run, 1_000_000_000);
    expect(run.snapshot_bytes()).toBe(0); // not a snapshot
    const copy = run.snapshot();
    const frames = 524_288 / 64;
    // frame_spaces alone is 4 bytes a frame; the folios, lists and page tables add more.
    expect(copy.snapshot_bytes()).toBeGreaterThan(4 * frames);
    expect(copy.snapshot_bytes()).toBeLessThan(64 << 20);
    // A second copy of the same state holds the same.
    const again = run.snapshot();
    expect(again.snapshot_bytes()).toBe(copy.snapshot_bytes());
    for (const s of [run, copy, again]) s.free();
  });
});

// ---------------------------------------------------------------- the host's seeks

/** What a snapshot costs on the work clock (ms). */
const COPY_MS = 0.5;

/** The real engine on a clock its work drives: a run's step costs 1 ms per virtual ms it
 *  covers and a snapshot COPY_MS, so where checkpoints fall and how far a background slice
 *  gets depend on the runs alone, never on how busy the machine is. */
function workClock(): { engine: EngineModule; clock: () => number } {
  let t = 0;
  const timed = (sim: EngineSimulation): EngineSimulation =>
    new Proxy(sim, {
      get(target, prop) {
        if (prop === 'step')
          return (ns: number) => {
            const before = target.now_ns();
            target.step(ns);
            t += (target.now_ns() - before) / 1e6;
          };
        if (prop === 'snapshot')
          return () => {
            t += COPY_MS;
            return timed(target.snapshot!());
          };
        const v: unknown = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  return { engine: { ...engine, create: (text, variant, flags) => timed(engine.create(text, variant, flags)) }, clock: () => t };
}

function harness(checkpoints?: { budgetBytes?: number; spacingMs?: number }) {
  const posted: FromWorker[] = [];
  const { engine: timedEngine, clock } = workClock();
  const host = new EngineHost({ load: async () => timedEngine, post: (msg) => posted.push(parseFromWorker(msg)), checkpoints, clock });
  return { host, posted };
}

type Of<T extends FromWorker['type']> = Extract<FromWorker, { type: T }>;
const all = <T extends FromWorker['type']>(posted: FromWorker[], type: T) => posted.filter((m): m is Of<T> => m.type === type);

/** The page's series of run 0 from the frames so far (seriesStart drops rows after a seek back). */
function pageSeries(posted: FromWorker[]): number[] {
  let rows: number[] = [];
  for (const f of all(posted, 'frame')) {
    const r = f.runs[0]!;
    rows = rows.slice(0, r.seriesStart * SERIES_WIDTH).concat([...r.series]);
  }
  return rows;
}

/** A fresh run of `variant` stepped to `ns`. */
function reference(variant: string, ns: number) {
  const ref = WasmSimulation.fromScenario(small, variant);
  stepTo(ref, ns);
  const o = { ...observed(ref), lists: (JSON.parse(ref.frame_view(0, 0)) as FrameView).lists };
  ref.free();
  return o;
}

describe('EngineHost seeks', () => {
  it('seeks back from a checkpoint, not from t=0, and lands on the state a fresh run has there', async () => {
    // A checkpoint is due after 1 ms of work (8 copies' worth, 4 ms, on the work clock); a
    // step covers 250 ms: play keeps one at every step's end.
    const { host, posted } = harness({ spacingMs: 1 });
    await host.handle({ type: 'load', scenario, variants: ['before', 'after'] });
    for (let k = 0; k < 12; k++) await host.handle({ type: 'step', ns: 250_000_000 });
    const stats = host.checkpointStats;
    for (let k = 1; k <= 12; k++) expect(stats.times).toContain(k * 250_000_000);
    expect(stats.bytes).toBeGreaterThan(0);
    const target = 2_100_000_000;
    const below = stats.times.filter((t) => t <= target).at(-1)!;
    await host.handle({ type: 'seek', ns: target });
    const progress = all(posted, 'seekProgress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatchObject({ fromNs: below, toNs: target });
    expect(below).toBeGreaterThan(0);
    const frame = all(posted, 'frame').at(-1)!;
    expect(frame.runs.map((r) => r.nowNs)).toEqual([target, target]);
    expect(frame.runs[0]!.lru.movesSeen).toBe(0);
    for (const [i, v] of ['before', 'after'].entries()) {
      const ref = reference(v, target);
      expect([...frame.runs[i]!.counters]).toEqual(ref.counters);
      expect(frame.runs[i]!.lists).toEqual(ref.lists);
    }
    // The page's rows, cut back by seriesStart, are the fresh run's.
    expect(pageSeries(posted)).toEqual(reference('before', target).series);
    // Forwards again from there, then back before every checkpoint: a new run from t=0.
    await host.handle({ type: 'step', ns: 400_000_000 });
    await host.handle({ type: 'seek', ns: 1_000_000 });
    expect(all(posted, 'seekProgress').at(-1)).toMatchObject({ fromNs: 0, toNs: 1_000_000 });
    expect(pageSeries(posted)).toEqual(reference('before', 1_000_000).series);
    expect([...all(posted, 'frame').at(-1)!.runs[1]!.counters]).toEqual(reference('after', 1_000_000).counters);
  });

  it('keeps checkpoints within a budget', async () => {
    const probe = WasmSimulation.fromScenario(small, 'after');
    stepTo(probe, 1_000_000_000);
    const one = probe.snapshot();
    const size = one.snapshot_bytes();
    one.free();
    probe.free();
    const { host } = harness({ spacingMs: 0.001, budgetBytes: 3.5 * size });
    await host.handle({ type: 'load', scenario, variants: ['after'] });
    for (let k = 0; k < 20; k++) await host.handle({ type: 'step', ns: 200_000_000 });
    const stats = host.checkpointStats;
    expect(stats.bytes).toBeLessThanOrEqual(stats.budgetBytes);
    expect(stats.evicted).toBeGreaterThan(0);
    expect(stats.times.length).toBeGreaterThanOrEqual(2);
  });

  it('computes a lesson step ahead in the background; a seek there restores it', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario, variants: ['before', 'after'] });
    const [loaded] = all(posted, 'loaded');
    const next = loaded!.lesson.find((st) => st.atNs > 2_000_000_000)!.atNs;
    await host.handle({ type: 'ahead', ns: next });
    // Messages are answered while it works: a step of the live runs.
    await host.handle({ type: 'step', ns: 10_000_000 });
    expect(all(posted, 'frame').at(-1)!.runs[0]!.nowNs).toBe(10_000_000);
    await host.aheadSettled();
    expect(all(posted, 'aheadProgress').at(-1)).toEqual({ type: 'aheadProgress', toNs: next, nowNs: next, done: true });
    expect(host.checkpointStats.times).toContain(next);
    await host.handle({ type: 'seek', ns: next });
    // Nothing left to replay.
    expect(all(posted, 'seekProgress').at(-1)).toMatchObject({ fromNs: next, toNs: next, nowNs: next });
    const frame = all(posted, 'frame').at(-1)!;
    for (const [i, v] of ['before', 'after'].entries()) expect([...frame.runs[i]!.counters]).toEqual(reference(v, next).counters);
    expect(pageSeries(posted)).toEqual(reference('before', next).series);
    // A new load drops the checkpoints (they belong to the old runs).
    await host.handle({ type: 'load', scenario, variants: ['after'] });
    expect(host.checkpointStats.times).toEqual([]);
  });

  it('keeps a background slice short when the run turns costly after a quiet stretch', async () => {
    // The work clock, but the first 900 ms of virtual time cost a thousandth of the rest, and
    // each engine step covers at most 5 ms (its bounded work: 5 ms of the clock once costly).
    let t = 0;
    const cost = (from: number, to: number) => Math.max(0, Math.min(to, 9e8) - from) / 1e9 + Math.max(0, to - Math.max(from, 9e8)) / 1e6;
    const phased = (sim: EngineSimulation): EngineSimulation =>
      new Proxy(sim, {
        get(target, prop) {
          if (prop === 'step')
            return (ns: number) => {
              const before = target.now_ns();
              target.step(Math.min(ns, 5_000_000));
              t += cost(before, target.now_ns());
            };
          if (prop === 'snapshot') return () => phased(target.snapshot!());
          const v: unknown = Reflect.get(target, prop);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    const yields: number[] = [];
    const host = new EngineHost({
      load: async () => ({ ...engine, create: (text, variant, flags) => phased(engine.create(text, variant, flags)) }),
      post: () => {},
      clock: () => t,
      yieldNow: async () => {
        yields.push(t);
        await new Promise((resolve) => setTimeout(resolve, 0));
      },
    });
    await host.handle({ type: 'load', scenario, variants: ['after'] });
    // The seek learns the quiet stretch's rate; the background work then meets the costly part.
    await host.handle({ type: 'seek', ns: 890_000_000 });
    await host.handle({ type: 'ahead', ns: 1_400_000_000 });
    await host.aheadSettled();
    const slices = yields.slice(1).map((y, i) => y - yields[i]!);
    expect(slices.length).toBeGreaterThan(5);
    // A slice stops after the step that ends AHEAD_SLICE_MS (40 ms): 5 ms over at most.
    expect(Math.max(...slices)).toBeLessThanOrEqual(45);
  });

  it('stops background work on request and on a new load', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario, variants: ['after'] });
    await host.handle({ type: 'ahead', ns: 5_000_000_000 });
    await host.handle({ type: 'ahead', ns: null });
    await host.aheadSettled();
    expect(all(posted, 'aheadProgress').filter((m) => m.done)).toEqual([]);
    await host.handle({ type: 'ahead', ns: 5_000_000_000 });
    await host.handle({ type: 'load', scenario, variants: ['before'] });
    await host.aheadSettled();
    expect(all(posted, 'aheadProgress').filter((m) => m.done)).toEqual([]);
    expect(posted.filter((m) => m.type === 'error')).toEqual([]);
  });
});
