// The multi-gen LRU state of one lruvec as the engine's `lru_gen_view` lays it out
// (wasm-core/src/engine/mod.rs), decoded for the generations view, and a plain-language
// reading of the PID controller's choice (mm/vmscan.c: get_type_to_scan, get_tier_idx;
// the 6.1 and 6.14 shapes as in docs/kernel-mglru-memcg.md §3.3).

export const NR_TIERS = 4;
export const TYPES = ['anon', 'file'] as const;
export type GenType = 0 | 1;

export interface GenRow {
  seq: number;
  /** Virtual time since the generation was created (ms). */
  ageMs: number;
  /** Pages per tier 0..3, [anon, file]. */
  tiers: [number[], number[]];
}

/** A controller position (refaulted, total), in frames as the engine counts them. */
export interface CtrlPos {
  refaulted: number;
  total: number;
}

export interface GenState {
  maxSeq: number;
  /** min_seq of [anon, file]. */
  minSeq: [number, number];
  /** Oldest sequence (the smaller min_seq) to max_seq. */
  rows: GenRow[];
  /** Refault rate per tier, [anon, file] (null: no data yet). */
  rates: [(number | null)[], (number | null)[]];
  /** Highest evictable tier per type; tiers above it are protected. */
  tierIdx: [number, number];
  /** The type the next eviction picks. */
  next: GenType;
  /** Positions the type choice compares: tier 0 and all tiers, per type. */
  tier0: [CtrlPos, CtrlPos];
  all: [CtrlPos, CtrlPos];
  /** MIN_LRU_BATCH in frames. */
  batch: number;
  /** The 6.14 controller (all tiers, gains 3:2) rather than 6.1's (tier 0, gains 2:1). */
  rework: boolean;
}

/** Numbers after the rows: 8 rates, 2 thresholds, the type, 8 positions, batch, rework. */
const TAIL = 8 + 2 + 1 + 8 + 2;

/** Why `v` is not a well-formed lru_gen_view array, or null if it is (empty is fine: no MGLRU). */
export function gensLayoutError(v: ArrayLike<number>): string | null {
  if (v.length === 0) return null;
  if (v.length < 4) return `must hold at least 4 numbers, got ${v.length}`;
  const n = v[3]!;
  if (!Number.isInteger(n) || n < 1 || n > 64) return `row count must be 1..64, got ${n}`;
  const want = 4 + n * (2 + 2 * NR_TIERS) + TAIL;
  if (v.length !== want) return `must hold ${want} numbers for ${n} generations, got ${v.length}`;
  if (v[4] !== Math.min(v[1]!, v[2]!) || v[4 + (n - 1) * 10] !== v[0]) return 'rows must run from the oldest min_seq to max_seq';
  return null;
}

/** Decode a lru_gen_view array; null when empty (the run has no MGLRU). Assumes a valid layout. */
export function readGens(v: ArrayLike<number>): GenState | null {
  if (v.length === 0 || gensLayoutError(v) !== null) return null;
  const n = v[3]!;
  const rows: GenRow[] = [];
  for (let i = 0; i < n; i++) {
    const o = 4 + i * 10;
    const t = (k: number) => Array.from({ length: NR_TIERS }, (_, j) => v[o + 2 + k * NR_TIERS + j]!);
    rows.push({ seq: v[o]!, ageMs: v[o + 1]!, tiers: [t(0), t(1)] });
  }
  let o = 4 + n * 10;
  const rate = (x: number) => (x < 0 ? null : x);
  const rates: GenState['rates'] = [[], []];
  for (const ty of [0, 1]) for (let t = 0; t < NR_TIERS; t++) rates[ty]!.push(rate(v[o++]!));
  const tierIdx: [number, number] = [v[o]!, v[o + 1]!];
  const next = (v[o + 2] === 1 ? 1 : 0) as GenType;
  o += 3;
  const pos = (): CtrlPos => {
    const p = { refaulted: v[o]!, total: v[o + 1]! };
    o += 2;
    return p;
  };
  const tier0: [CtrlPos, CtrlPos] = [pos(), pos()];
  const all: [CtrlPos, CtrlPos] = [pos(), pos()];
  return { maxSeq: v[0]!, minSeq: [v[1]!, v[2]!], rows, rates, tierIdx, next, tier0, all, batch: v[o]!, rework: v[o + 1] === 1 };
}

/** Pages per generation of one type, oldest first, from its own min_seq to max_seq. */
export function columnsOf(g: GenState, ty: GenType): { seq: number; ageMs: number; tiers: number[]; pages: number }[] {
  return g.rows
    .filter((r) => r.seq >= g.minSeq[ty])
    .map((r) => ({ seq: r.seq, ageMs: r.ageMs, tiers: r.tiers[ty], pages: r.tiers[ty].reduce((a, b) => a + b, 0) }));
}

const pct = (x: number) => {
  const p = x * 100;
  return `${p < 10 && p > 0 ? p.toFixed(1) : Math.round(p)}%`;
};
const rateOf = (p: CtrlPos) => (p.total > 0 ? p.refaulted / p.total : 0);

/** One line: which type the next eviction takes and why, at swappiness `s`. */
export function explainGens(g: GenState, s: number, scale: number): string {
  const min = `${g.batch * scale}`;
  if (g.rework) {
    if (s <= 1) return `Evicting file: swappiness ${s} makes MGLRU take file pages first.`;
    if (s >= 200) return 'Evicting anon: swappiness 200 makes MGLRU take anon pages first.';
    return compare(g.all, s, g.next, g.batch, min, 'refault rate', "anon's");
  }
  if (s === 0) return 'Evicting file: swappiness 0 leaves anon alone.';
  if (g.minSeq[0] < g.minSeq[1]) {
    return `Evicting anon: its oldest generation (seq ${g.minSeq[0]}) is older than file's (seq ${g.minSeq[1]}), and 6.1 evicts the older type first.`;
  }
  if (s === 1) return 'Evicting file: swappiness 1 makes MGLRU take file pages first.';
  if (s >= 200) return 'Evicting anon: swappiness 200 makes MGLRU take anon pages first.';
  return compare(g.tier0, s, g.next, g.batch, min, 'tier-0 refault rate', "anon's tier 0");
}

/** The type choice as positive_ctrl_err makes it: file unless its (gain-weighted) rate is higher.
 *  The kernel smooths anon's side to (refaulted + 1) / (total + MIN_LRU_BATCH), so that is the
 *  anon rate shown (it is what makes file the choice while anon has no history). */
function compare(pos: [CtrlPos, CtrlPos], s: number, next: GenType, batch: number, min: string, what: string, anonWhat: string): string {
  // positive_ctrl_err(SP = anon with gain s, PV = file with gain 200 - s).
  const [a, f] = pos;
  const ratio = `${200 - s}/${s}`;
  const anon = (a.refaulted + 1) / (a.total + batch);
  const anonText = `${anonWhat} ${pct(anon)}${a.total === 0 ? ` (no history yet: 1 in ${min})` : ''}`;
  const bound = anon * ((200 - s) / s);
  if (next === 1) {
    if (f.refaulted < batch) return `Evicting file: file has too few refaults so far (under ${min} pages) to count against it.`;
    return `Evicting file: its ${what} ${pct(rateOf(f))} is at most ${anonText} × ${ratio} (swappiness ${s}) = ${pct(bound)}.`;
  }
  return `Evicting anon: file's ${what} ${pct(rateOf(f))} is above ${anonText} × ${ratio} (swappiness ${s}) = ${pct(bound)}, so file pages are worth keeping.`;
}

/** Which tiers are protected, in words, for the controller shape. 6.14: each type's tiers
 *  against its own tier 0 (gains 2:3). 6.1: the scanned type's tiers against the other type's
 *  tier 0 with the swappiness gains; the other type's against its own tier 0 (gains 1:2). */
export function explainTiers(g: GenState): string {
  const parts = TYPES.map((t, ty) => (g.tierIdx[ty]! >= NR_TIERS - 1 ? `${t}: none` : `${t}: tiers ${g.tierIdx[ty]! + 1}–3`));
  if (g.rework) return `Protected (refault rate above 1.5× tier 0's): ${parts.join('; ')}.`;
  const [next, other] = [TYPES[g.next], TYPES[1 - g.next]];
  return `Protected (${next}: refault rate above ${other}'s tier 0, weighed by swappiness; ${other}: above 2× its tier 0): ${parts.join('; ')}.`;
}
