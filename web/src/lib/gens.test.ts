// The generations view's data: the engine's typed view (views::GensView) and its wording — on
// hand-made views and on the real wasm engine.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, WasmSimulation } from '../../pkg/reclaim_core.js';
import { columnsOf, explainGens, explainTiers, TYPES, type GensView } from './gens';

const z: [number, number, number, number] = [0, 0, 0, 0];
type Tiers = [number, number, number, number];

/** A view as the engine writes it; rows from the older min_seq, ageMs 100 apart. */
function make(m: Partial<GensView> & { minSeq: [number, number]; maxSeq: number; tiers?: [Tiers, Tiers][] }): GensView {
  const first = Math.min(...m.minSeq);
  const n = m.maxSeq - first + 1;
  const { tiers, ...rest } = m;
  return {
    rows: Array.from({ length: n }, (_, i) => ({ seq: first + i, ageMs: 100 * i, tiers: tiers?.[i] ?? [z, z], active: i >= n - 2 })),
    rates: [
      [null, null, null, null],
      [null, null, null, null],
    ],
    tierIdx: [3, 3],
    next: 1,
    reason: 'refault_rates',
    compare: null,
    batchPages: 64,
    rework: false,
    swappiness: 60,
    ...rest,
  };
}

const pos = (refaulted: number, total: number, gain: number) => ({ refaulted, total, gain });

describe('the generations view columns', () => {
  it('columns start at each type’s own min_seq', () => {
    const g = make({ maxSeq: 5, minSeq: [2, 3], tiers: [[[1, 2, 3, 4], z], [[5, 0, 0, 0], [6, 0, 0, 0]], [z, [7, 0, 0, 0]], [z, [0, 0, 0, 8]]] });
    expect(columnsOf(g, 0).map((c) => [c.seq, c.pages])).toEqual([[2, 10], [3, 5], [4, 0], [5, 0]]);
    expect(columnsOf(g, 1).map((c) => [c.seq, c.pages, c.ageMs])).toEqual([[3, 6, 100], [4, 7, 200], [5, 8, 300]]);
  });
});

describe('the controller worded from the engine’s reason and figures', () => {
  it('6.14: the rates the engine compared', () => {
    const compare = { anon: pos(100, 1000, 60), file: pos(200, 1000, 140), anonRate: 101 / 1064, fileRate: 0.2, bound: ((101 / 1064) * 140) / 60 };
    const file = make({ maxSeq: 2, minSeq: [0, 0], next: 1, rework: true, compare });
    expect(explainGens(file)).toBe("Evicting file: its refault rate 20% is at most anon's 9.5% × 140/60 (swappiness 60) = 22%.");
    const anon = make({ maxSeq: 2, minSeq: [0, 0], next: 0, rework: true, compare: { ...compare, file: pos(300, 1000, 140), fileRate: 0.3 } });
    expect(explainGens(anon)).toMatch(/^Evicting anon: file's refault rate 30% is above anon's 9.5% × 140\/60 \(swappiness 60\) = 22%/);
    const fresh = make({ maxSeq: 2, minSeq: [0, 0], next: 1, rework: true, compare: { anon: pos(0, 0, 60), file: pos(100, 4000, 140), anonRate: 1 / 64, fileRate: 0.025, bound: (140 / 60) * (1 / 64) } });
    expect(explainGens(fresh)).toBe("Evicting file: its refault rate 2.5% is at most anon's 1.6% (no history yet: 1 in 64) × 140/60 (swappiness 60) = 3.6%.");
  });

  it('the reasons that need no comparison', () => {
    const g = (m: Partial<GensView>) => explainGens(make({ maxSeq: 3, minSeq: [1, 2], ...m }));
    expect(g({ reason: 'few_file_refaults', batchPages: 64 })).toMatch(/too few refaults so far \(under 64 pages\)/);
    expect(g({ reason: 'swappiness_low', swappiness: 1 })).toMatch(/^Evicting file: swappiness 1/);
    expect(g({ reason: 'swappiness_max', swappiness: 200, next: 0 })).toMatch(/^Evicting anon: swappiness 200/);
    expect(g({ reason: 'swappiness_zero', swappiness: 0 })).toMatch(/^Evicting file: swappiness 0/);
    expect(g({ reason: 'older_anon', next: 0 })).toMatch(/^Evicting anon: its oldest generation \(seq 1\) is older than file's \(seq 2\)/);
  });

  it('6.1: tier 0 against tier 0', () => {
    const t0 = make({ maxSeq: 2, minSeq: [0, 0], next: 1, swappiness: 100, compare: { anon: pos(50, 100, 100), file: pos(80, 400, 100), anonRate: 51 / 164, fileRate: 0.2, bound: 51 / 164 } });
    expect(explainGens(t0)).toMatch(/^Evicting file: its tier-0 refault rate 20% is at most anon's tier 0 31% × 100\/100 \(swappiness 100\) = 31%/);
  });

  it('says which tiers are protected', () => {
    const g = make({ maxSeq: 2, minSeq: [0, 0], tierIdx: [3, 1], rework: true });
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
    it(`${preset}: the view passes the decoder, holds the LRU pages, ages, and is worded by its reason`, () => {
      const sim = WasmSimulation.fromScenario(text.replaceAll('linux-6.3-mglru', preset), 'before');
      expect(sim.lru_gen()).toBe(true);
      expect(sim.lru_gen_view(99)).toBe('null');
      const seqs: number[] = [];
      const reasons = new Set<string>();
      for (let i = 0; i < 40 && !sim.finished(); i++) {
        sim.step(500_000_000);
        const g = JSON.parse(sim.lru_gen_view(0)) as GensView;
        expect(g.rework).toBe(preset === 'linux-6.14-mglru');
        expect(g.swappiness).toBe(sim.swappiness());
        expect(g.batchPages).toBe(64); // MIN_LRU_BATCH at 64 pages per frame: one frame
        const lru = [...sim.lru_sizes()];
        const total = (ty: 0 | 1) => columnsOf(g, ty).reduce((a, c) => a + c.pages, 0);
        expect([total(0), total(1)]).toEqual([lru[0]! + lru[1]!, lru[2]! + lru[3]!]);
        expect(explainGens(g)).toMatch(new RegExp(`^Evicting ${TYPES[g.next]}:`));
        reasons.add(g.reason);
        seqs.push(g.maxSeq);
      }
      sim.free();
      expect(seqs.at(-1)!).toBeGreaterThan(seqs[0]!);
      expect([...reasons].some((r) => r === 'refault_rates' || r === 'few_file_refaults')).toBe(true);
    });
  }
});
