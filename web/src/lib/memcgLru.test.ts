// The memcg LRU view as the engine reports it (views::MemcgLruView), against the real wasm
// engine running a small S003 (16 memcgs, root memory.reclaim from 10 s on).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, WasmSimulation } from '../../pkg/reclaim_core.js';
import { genOrder, MEMCG_NR_BINS, type MemcgLruView } from './memcgLru';
import { SMALL_S003_MEMCGS, smallS003 } from './s003Small';

const text = smallS003(readFileSync(new URL('../../../scenarios/s003-memcg-lru.toml', import.meta.url), 'utf8'));

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
});

/** Population stddev / mean in percent, written out here to check the engine's figure. */
function spread(xs: number[]): number {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return (Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length) * 100) / mean;
}

describe('the memcg LRU view', () => {
  it('holds every memcg of an MGLRU run once, bins head to tail, the counters, and S003’s figures', () => {
    const sim = WasmSimulation.fromScenario(text, 'after');
    sim.step(30e9); // past the first memory.reclaim writes (10 s on, every 6 s)
    const lru = (JSON.parse(sim.memcg_lru_view()) as MemcgLruView);
    const names = sim.memcg_names();
    const requested = sim.reclaim_requested_pages();
    sim.free();
    expect(lru.active).toBe(true);
    expect(lru.pgsteal).toHaveLength(names.length);
    expect(names.length).toBe(SMALL_S003_MEMCGS + 1);
    // Every memcg (root included: it has an lruvec) sits on exactly one bin.
    expect(lru.places.map((p) => p.id).sort((a, b) => a - b)).toEqual([...names.keys()]);
    expect(lru.counts.flat().reduce((a, b) => a + b, 0)).toBe(lru.places.length);
    expect(lru.counts.every((g) => g.length === MEMCG_NR_BINS)).toBe(true);
    for (const p of lru.places) expect(p.pos).toBeLessThan(lru.counts[p.gen]![p.bin]!);
    expect(genOrder(lru).slice(0, 2)).toEqual([lru.oldGen, lru.youngGen]);
    // The leaves: every memcg but the root (S003's are flat), and reclaim took pages from them.
    expect(lru.leaves).toEqual([...names.keys()].slice(1));
    const leafSteal = lru.leaves.map((id) => lru.pgsteal[id]!);
    expect(leafSteal.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // S003's fairness and accuracy, reported live by the engine.
    expect(lru.pgstealSpreadPct).toBeCloseTo(spread(leafSteal), 9);
    expect(requested).toBeGreaterThan(0);
    expect(lru.reclaimRequestedPages).toBe(requested);
    expect(lru.reclaimAccuracyPct).toBeCloseTo((leafSteal.reduce((a, b) => a + b, 0) * 100) / requested, 9);
    // The generations view shows the memcg holding the most pages of its own.
    expect(lru.usage[lru.largest]).toBe(Math.max(...lru.usage));
  });

  it('marks a classic run inactive and still carries its counters; no accuracy before memory.reclaim', () => {
    const sim = WasmSimulation.fromScenario(text, 'before');
    sim.step(5e9);
    const early = (JSON.parse(sim.memcg_lru_view()) as MemcgLruView);
    sim.step(15e9);
    const lru = (JSON.parse(sim.memcg_lru_view()) as MemcgLruView);
    sim.free();
    expect(early.reclaimRequestedPages).toBe(0);
    expect(early.reclaimAccuracyPct).toBeNull();
    expect(lru.active).toBe(false);
    expect(lru.pgsteal.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
