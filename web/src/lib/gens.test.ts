// The generations view's data: the lru_gen_view layout, its decoding, and the controller's
// explanation — on hand-made arrays and on the real wasm engine.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, WasmSimulation } from '../../pkg/reclaim_core.js';
import { columnsOf, explainGens, explainTiers, gensLayoutError, readGens, TYPES } from './gens';

interface Made {
  maxSeq: number;
  minSeq: [number, number];
  /** Per row from the oldest min_seq: [anon tiers, file tiers]. */
  rows: [number[], number[]][];
  rates?: number[];
  tierIdx?: [number, number];
  next?: 0 | 1;
  /** tier0 anon, tier0 file, all anon, all file: [refaulted, total]. */
  pos?: [number, number][];
  batch?: number;
  rework?: boolean;
}

function make(m: Made): number[] {
  const first = Math.min(...m.minSeq);
  const v = [m.maxSeq, ...m.minSeq, m.rows.length];
  m.rows.forEach(([a, f], i) => v.push(first + i, 100 * i, ...a, ...f));
  v.push(...(m.rates ?? Array(8).fill(-1)), ...(m.tierIdx ?? [3, 3]), m.next ?? 1);
  for (const p of m.pos ?? [[0, 0], [0, 0], [0, 0], [0, 0]]) v.push(...p);
  v.push(m.batch ?? 64, m.rework ? 1 : 0);
  return v;
}

const z = [0, 0, 0, 0];

describe('lru_gen_view layout', () => {
  it('accepts an empty array (no MGLRU) and a well-formed one', () => {
    expect(gensLayoutError([])).toBeNull();
    expect(readGens([])).toBeNull();
    const v = make({ maxSeq: 5, minSeq: [2, 3], rows: [[[1, 2, 3, 4], z], [[5, 0, 0, 0], [6, 0, 0, 0]], [z, [7, 0, 0, 0]], [z, [0, 0, 0, 8]]] });
    expect(gensLayoutError(v)).toBeNull();
    const g = readGens(v)!;
    expect(g.maxSeq).toBe(5);
    expect(g.minSeq).toEqual([2, 3]);
    expect(columnsOf(g, 0).map((c) => [c.seq, c.pages])).toEqual([[2, 10], [3, 5], [4, 0], [5, 0]]);
    // File starts at its own min_seq: the row of seq 2 is not a file generation.
    expect(columnsOf(g, 1).map((c) => [c.seq, c.pages, c.ageMs])).toEqual([[3, 6, 100], [4, 7, 200], [5, 8, 300]]);
  });

  it('names what is wrong with a malformed array', () => {
    const v = make({ maxSeq: 3, minSeq: [0, 0], rows: [[z, z], [z, z], [z, z], [z, z]] });
    expect(gensLayoutError(v.slice(0, -1))).toMatch(/must hold 65 numbers for 4 generations, got 64/);
    expect(gensLayoutError([1, 2])).toMatch(/at least 4/);
    const bad = [...v];
    bad[0] = 9; // max_seq no longer the last row's seq
    expect(gensLayoutError(bad)).toMatch(/oldest min_seq to max_seq/);
    expect(readGens(bad)).toBeNull();
  });
});

describe('the controller explained', () => {
  const rows: Made['rows'] = [[z, z], [z, z], [z, z]];
  it('6.14: file unless its refault rate beats anon’s by (200 - s) / s', () => {
    // anon 101/1064 = 9.5% (smoothed as the kernel does), file 20%: 20% <= 9.5% x 140/60 = 22%.
    const file = readGens(make({ maxSeq: 2, minSeq: [0, 0], rows, next: 1, rework: true, pos: [[0, 0], [0, 0], [100, 1000], [200, 1000]] }))!;
    expect(explainGens(file, 60, 1)).toBe("Evicting file: its refault rate 20% is at most anon's 9.5% × 140/60 (swappiness 60) = 22%.");
    const anon = readGens(make({ maxSeq: 2, minSeq: [0, 0], rows, next: 0, rework: true, pos: [[0, 0], [0, 0], [100, 1000], [300, 1000]] }))!;
    expect(explainGens(anon, 60, 1)).toMatch(/^Evicting anon: file's refault rate 30% is above anon's 9.5% × 140\/60 \(swappiness 60\) = 22%/);
    // No anon history: the smoothing alone (1 in 64) bounds file.
    const fresh = readGens(make({ maxSeq: 2, minSeq: [0, 0], rows, next: 1, rework: true, pos: [[0, 0], [0, 0], [0, 0], [100, 4000]] }))!;
    expect(explainGens(fresh, 60, 1)).toBe("Evicting file: its refault rate 2.5% is at most anon's 1.6% (no history yet: 1 in 64) × 140/60 (swappiness 60) = 3.6%.");
    const few = readGens(make({ maxSeq: 2, minSeq: [0, 0], rows, next: 1, rework: true, batch: 4, pos: [[0, 0], [0, 0], [100, 1000], [3, 10]] }))!;
    expect(explainGens(few, 60, 16)).toMatch(/too few refaults so far \(under 64 pages\)/);
    expect(explainGens(few, 1, 16)).toMatch(/^Evicting file: swappiness 1/);
    expect(explainGens({ ...few, next: 0 }, 200, 16)).toMatch(/^Evicting anon: swappiness 200/);
  });

  it('6.1: the older type first, else tier 0 against tier 0', () => {
    const older = readGens(make({ maxSeq: 3, minSeq: [1, 2], rows, next: 0 }))!;
    expect(explainGens(older, 60, 1)).toMatch(/^Evicting anon: its oldest generation \(seq 1\) is older than file's \(seq 2\)/);
    const t0 = readGens(make({ maxSeq: 2, minSeq: [0, 0], rows, next: 1, pos: [[50, 100], [80, 400], [0, 0], [0, 0]] }))!;
    expect(explainGens(t0, 100, 1)).toMatch(/^Evicting file: its tier-0 refault rate 20% is at most anon's tier 0 31% × 100\/100 \(swappiness 100\) = 31%/);
    expect(explainGens(t0, 0, 1)).toMatch(/^Evicting file: swappiness 0/);
  });

  it('says which tiers are protected', () => {
    const g = readGens(make({ maxSeq: 2, minSeq: [0, 0], rows, tierIdx: [3, 1], rework: true }))!;
    expect(explainTiers(g)).toBe("Protected (refault rate above 1.5× tier 0's): anon: none; file: tiers 2–3.");
    expect(explainTiers({ ...g, rework: false, next: 0, tierIdx: [0, 3] })).toBe("Protected (anon: refault rate above file's tier 0, weighed by swappiness; file: above 2× its tier 0): anon: tiers 1–3; file: none.");
  });
});

describe('the real engine (S003b under MGLRU, 64 pages per frame)', () => {
  beforeAll(() => {
    initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
  });
  const text = readFileSync(new URL('../../../scenarios/s003b-noreuse.toml', import.meta.url), 'utf8').replace('[machine]', '[machine]\nframe_scale = 64');

  for (const preset of ['linux-6.3-mglru', 'linux-6.14-mglru']) {
    it(`${preset}: the generations hold the LRU pages, age, and the explanation names the engine's choice`, () => {
      const sim = WasmSimulation.fromScenario(text.replaceAll('linux-6.3-mglru', preset), 'before');
      expect(sim.lru_gen()).toBe(true);
      const seqs: number[] = [];
      for (let i = 0; i < 40 && !sim.finished(); i++) {
        sim.step(500_000_000);
        const g = readGens(sim.lru_gen_view(0))!;
        expect(g.rework).toBe(preset === 'linux-6.14-mglru');
        const lru = [...sim.lru_sizes()];
        const total = (ty: 0 | 1) => columnsOf(g, ty).reduce((a, c) => a + c.pages, 0);
        expect([total(0), total(1)]).toEqual([lru[0]! + lru[1]!, lru[2]! + lru[3]!]);
        expect(explainGens(g, (JSON.parse(sim.balance_view()) as { swappiness: number }).swappiness, sim.scale())).toMatch(new RegExp(`^Evicting ${TYPES[g.next]}:`));
        seqs.push(g.maxSeq);
      }
      sim.free();
      expect(seqs.at(-1)!).toBeGreaterThan(seqs[0]!);
    });
  }
});
