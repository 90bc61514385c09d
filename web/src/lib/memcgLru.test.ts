// The memcg LRU view's reading of the engine's flat array, against the real wasm engine
// running a small S003 (16 memcgs, root memory.reclaim from 10 s on).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, WasmSimulation } from '../../pkg/reclaim_core.js';
import { genOrder, leafIds, MEMCG_NR_BINS, parseMemcgLru, spreadPercent } from './memcgLru';
import { SMALL_S003_MEMCGS, smallS003 } from './s003Small';

const text = smallS003(readFileSync(new URL('../../../scenarios/s003-memcg-lru.toml', import.meta.url), 'utf8'));

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
});

describe('parseMemcgLru', () => {
  it('reads every memcg of an MGLRU run once, bins head to tail, and the per-memcg counters', () => {
    const sim = WasmSimulation.fromScenario(text, 'after');
    sim.step(30e9); // past the first memory.reclaim writes (10 s on, every 6 s)
    const flat = sim.memcg_lru_view();
    const names = sim.memcg_names();
    sim.free();
    const lru = parseMemcgLru(flat);
    expect(lru.active).toBe(true);
    expect(lru.nrMemcgs).toBe(names.length);
    expect(names.length).toBe(SMALL_S003_MEMCGS + 1);
    // Every memcg (root included: it has an lruvec) sits on exactly one bin.
    expect(lru.places.map((p) => p.id).sort((a, b) => a - b)).toEqual([...Array(lru.nrMemcgs).keys()]);
    expect(lru.counts.flat().reduce((a, b) => a + b, 0)).toBe(lru.places.length);
    expect(lru.counts.every((g) => g.length === MEMCG_NR_BINS)).toBe(true);
    for (const p of lru.places) expect(p.pos).toBeLessThan(lru.counts[p.gen]![p.bin]!);
    expect(genOrder(lru).slice(0, 2)).toEqual([lru.oldGen, lru.youngGen]);
    // Reclaim took pages from the leaf memcgs.
    const leaves = leafIds(names);
    expect(leaves).toHaveLength(SMALL_S003_MEMCGS);
    expect(leaves.reduce((s, id) => s + lru.pgsteal[id]!, 0)).toBeGreaterThan(0);
    expect(lru.usage.every((u) => u >= 0)).toBe(true);
  });

  it('marks a classic run inactive and still carries its counters', () => {
    const sim = WasmSimulation.fromScenario(text, 'before');
    sim.step(20e9);
    const lru = parseMemcgLru(sim.memcg_lru_view());
    sim.free();
    expect(lru.active).toBe(false);
    expect([...lru.pgsteal].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('names what is wrong with a malformed array', () => {
    expect(() => parseMemcgLru([0, 2, 0, 1])).toThrow(/ends before its header/);
    expect(() => parseMemcgLru([0, 5, 0, 1, 1, 1])).toThrow(/nr_gens must be 2 or 3, got 5/);
    const empty = [0, 2, 0, 1, 1, 1, ...Array(16).fill(0)];
    expect(() => parseMemcgLru(empty)).toThrow(/expected 25 numbers, got 22/);
    expect(parseMemcgLru([...empty, 10, 2, 3]).usage[0]).toBe(10);
    const bad = [0, 2, 0, 1, 1, 1, 1, 7, 0, ...Array(15).fill(0), 0, 0, 0];
    expect(() => parseMemcgLru(bad)).toThrow(/gen 0 bin 0 entry 0 is \[7, 0\]/);
  });
});

describe('fairness', () => {
  it('is the population stddev over the mean, in percent', () => {
    expect(spreadPercent([1, 3])).toBeCloseTo(50);
    expect(spreadPercent([2, 2, 2])).toBe(0);
    expect(spreadPercent([5])).toBeNull();
    expect(spreadPercent([0, 0])).toBeNull();
  });
  it('counts leaves by path: not the root, nothing below them', () => {
    expect(leafIds(['/', 'a', 'a/b', 'c'])).toEqual([2, 3]);
    expect(leafIds(['/'])).toEqual([]);
  });
});
