// The memcg LRU (Linux 6.3, mm/vmscan.c `lru_gen_rotate_memcg` / `shrink_many`) as the engine
// flattens it (`Simulation::memcg_lru_view`), read into a structure the memcg LRU view draws,
// and the S003 numbers computed from it (stddev/mean of pgsteal over the leaf memcgs).

/** Bins per generation (`MEMCG_NR_BINS`). */
export const MEMCG_NR_BINS = 8;

/** Segment of a memcg in its bin: 0 default, 1 head, 2 tail (`lrugen.seg`). */
export type Seg = 0 | 1 | 2;
export const SEG_NAMES = ['default', 'head', 'tail'] as const;

export interface MemcgPlace {
  id: number;
  gen: number;
  bin: number;
  /** Position in its bin, 0 = head. */
  pos: number;
  seg: Seg;
}

export interface MemcgLru {
  seq: number;
  nrGens: number;
  oldGen: number;
  youngGen: number;
  nrMemcgs: number;
  /** MGLRU root reclaim walks this structure (lru_gen and memcg_lru on). */
  active: boolean;
  /** Every memcg on the memcg LRU, generation slot by slot, bin by bin, head to tail. */
  places: MemcgPlace[];
  /** How many memcgs each (generation slot, bin) holds: `counts[gen][bin]`. */
  counts: number[][];
  /** Per memcg id, of its own lruvec (pages). */
  usage: Float64Array;
  pgscan: Float64Array;
  pgsteal: Float64Array;
}

/** Read the engine's flat array; a malformed one is an error naming what is wrong. */
export function parseMemcgLru(v: ArrayLike<number>): MemcgLru {
  const at = (i: number, what: string): number => {
    if (i >= v.length) throw new Error(`memcg LRU view: ends before ${what} (length ${v.length})`);
    return v[i]!;
  };
  const [seq, nrGens, oldGen, youngGen, nrMemcgs, active] = [0, 1, 2, 3, 4, 5].map((i) => at(i, 'its header')) as [number, number, number, number, number, number];
  if (!Number.isInteger(nrGens) || nrGens < 2 || nrGens > 3) throw new Error(`memcg LRU view: nr_gens must be 2 or 3, got ${nrGens}`);
  for (const [name, g] of [['old_gen', oldGen], ['young_gen', youngGen]] as const) {
    if (!Number.isInteger(g) || g < 0 || g >= nrGens) throw new Error(`memcg LRU view: ${name} must be a slot below ${nrGens}, got ${g}`);
  }
  if (!Number.isInteger(nrMemcgs) || nrMemcgs < 0) throw new Error(`memcg LRU view: bad nr_memcgs ${nrMemcgs}`);
  const places: MemcgPlace[] = [];
  const counts: number[][] = [];
  let i = 6;
  for (let gen = 0; gen < nrGens; gen++) {
    counts.push([]);
    for (let bin = 0; bin < MEMCG_NR_BINS; bin++) {
      const k = at(i++, `the count of gen ${gen} bin ${bin}`);
      counts[gen]!.push(k);
      for (let pos = 0; pos < k; pos++) {
        const id = at(i++, `gen ${gen} bin ${bin} entry ${pos}`);
        const seg = at(i++, `gen ${gen} bin ${bin} entry ${pos}`);
        if (id < 0 || id >= nrMemcgs || (seg !== 0 && seg !== 1 && seg !== 2)) {
          throw new Error(`memcg LRU view: gen ${gen} bin ${bin} entry ${pos} is [${id}, ${seg}]`);
        }
        places.push({ id, gen, bin, pos, seg: seg as Seg });
      }
    }
  }
  if (v.length !== i + 3 * nrMemcgs) throw new Error(`memcg LRU view: expected ${i + 3 * nrMemcgs} numbers, got ${v.length}`);
  const column = (c: number) => Float64Array.from({ length: nrMemcgs }, (_, m) => v[i + 3 * m + c]!);
  return {
    seq,
    nrGens,
    oldGen,
    youngGen,
    nrMemcgs,
    active: active === 1,
    places,
    counts,
    usage: column(0),
    pgscan: column(1),
    pgsteal: column(2),
  };
}

/** Leaf memcgs by id: not the root, and no other memcg below it (names are paths). */
export function leafIds(names: string[]): number[] {
  return names.flatMap((n, id) => (n !== '/' && !names.some((o) => o.startsWith(`${n}/`)) ? [id] : []));
}

/** Population stddev / mean in percent (S003's fairness, as `reclaim --metrics` computes it);
 *  null with fewer than two values or a zero mean. */
export function spreadPercent(values: number[]): number | null {
  if (values.length < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (mean <= 0) return null;
  const variance = values.reduce((s, x) => s + (x - mean) * (x - mean), 0) / values.length;
  return (Math.sqrt(variance) * 100) / mean;
}

/** Label of a generation slot: which role it plays at this seq. */
export function genRole(lru: Pick<MemcgLru, 'oldGen' | 'youngGen'>, gen: number): 'old' | 'young' | 'spare' {
  return gen === lru.oldGen ? 'old' : gen === lru.youngGen ? 'young' : 'spare';
}

/** The generation slots in drawing order: old, young, then the spare (nr_gens = 3). */
export function genOrder(lru: Pick<MemcgLru, 'nrGens' | 'oldGen' | 'youngGen'>): number[] {
  const rest = [...Array(lru.nrGens).keys()].filter((g) => g !== lru.oldGen && g !== lru.youngGen);
  return [lru.oldGen, lru.youngGen, ...rest];
}
