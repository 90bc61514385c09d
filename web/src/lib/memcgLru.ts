// The memcg LRU (Linux 6.3, mm/vmscan.c `lru_gen_rotate_memcg` / `shrink_many`) as the engine
// reports it (`views::MemcgLruView`, type generated into engine/generated/views.ts), with
// S003's fairness and accuracy computed there; the page only lays it out.
import type { MemcgLruView, MemcgPlace, Seg } from '../engine/generated/views';

export type { MemcgLruView, MemcgPlace, Seg };

/** Bins per generation (`MEMCG_NR_BINS`): the length of each `counts` row. */
export const MEMCG_NR_BINS = 8;

/** The segments in drawing order (the mark shapes are indexed by it). */
export const SEGS: readonly Seg[] = ['default', 'head', 'tail'];
export const segIndex = (seg: Seg) => SEGS.indexOf(seg);

/** Label of a generation slot: which role it plays at this seq. */
export function genRole(lru: Pick<MemcgLruView, 'oldGen' | 'youngGen'>, gen: number): 'old' | 'young' | 'spare' {
  return gen === lru.oldGen ? 'old' : gen === lru.youngGen ? 'young' : 'spare';
}

/** The generation slots in drawing order: old, young, then the spare (nr_gens = 3). */
export function genOrder(lru: Pick<MemcgLruView, 'nrGens' | 'oldGen' | 'youngGen'>): number[] {
  const rest = [...Array(lru.nrGens).keys()].filter((g) => g !== lru.oldGen && g !== lru.youngGen);
  return [lru.oldGen, lru.youngGen, ...rest];
}
