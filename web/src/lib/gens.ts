// The multi-gen LRU state of one lruvec as the engine reports it (`views::GensView`, type
// generated into engine/generated/views.ts), and its wording: the engine says which type the
// next eviction takes and why (mm/vmscan.c get_type_to_scan, positive_ctrl_err, get_tier_idx;
// the 6.1 and 6.14 shapes as in docs/kernel-mglru-memcg.md §3.3), the page only words it.
import type { GensView } from '../engine/generated/views';

export type { GensView };
export const NR_TIERS = 4;
export const TYPES = ['anon', 'file'] as const;
export type GenType = 0 | 1;

/** Pages per generation of one type, oldest first, from its own min_seq to max_seq. */
export function columnsOf(g: GensView, ty: GenType): { seq: number; ageMs: number; tiers: number[]; pages: number }[] {
  return g.rows
    .filter((r) => r.seq >= g.minSeq[ty])
    .map((r) => ({ seq: r.seq, ageMs: r.ageMs, tiers: [...r.tiers[ty]], pages: r.tiers[ty].reduce((a, b) => a + b, 0) }));
}

const pct = (x: number) => {
  const p = x * 100;
  return `${p < 10 && p > 0 ? p.toFixed(1) : Math.round(p)}%`;
};

/** One line: which type the next eviction takes and why, in the engine's terms. */
export function explainGens(g: GensView): string {
  const s = g.swappiness;
  const next = TYPES[g.next];
  switch (g.reason) {
    case 'swappiness_zero':
      return 'Evicting file: swappiness 0 leaves anon alone.';
    case 'swappiness_low':
      return `Evicting file: swappiness ${s} makes MGLRU take file pages first.`;
    case 'swappiness_max':
      return `Evicting anon: swappiness ${s} makes MGLRU take anon pages first.`;
    case 'older_anon':
      return `Evicting anon: its oldest generation (seq ${g.minSeq[0]}) is older than file's (seq ${g.minSeq[1]}), and 6.1 evicts the older type first.`;
    case 'few_file_refaults':
      return `Evicting file: file has too few refaults so far (under ${g.batchPages} pages) to count against it.`;
    case 'refault_rates': {
      const c = g.compare;
      if (!c) return `Evicting ${next}.`;
      const [what, anonWhat] = g.rework ? ['refault rate', "anon's"] : ['tier-0 refault rate', "anon's tier 0"];
      // The anon rate shown is the one the kernel compares: smoothed to (refaulted + 1) / (total + MIN_LRU_BATCH).
      const anon = `${anonWhat} ${pct(c.anonRate)}${c.anon.total === 0 ? ` (no history yet: 1 in ${g.batchPages})` : ''}`;
      const ratio = `${c.file.gain}/${c.anon.gain}`;
      if (g.next === 1) return `Evicting file: its ${what} ${pct(c.fileRate)} is at most ${anon} × ${ratio} (swappiness ${s}) = ${pct(c.bound)}.`;
      return `Evicting anon: file's ${what} ${pct(c.fileRate)} is above ${anon} × ${ratio} (swappiness ${s}) = ${pct(c.bound)}, so file pages are worth keeping.`;
    }
  }
}

/** Which tiers are protected, in words, for the controller shape. 6.14: each type's tiers
 *  against its own tier 0 (gains 2:3). 6.1: the scanned type's tiers against the other type's
 *  tier 0 with the swappiness gains; the other type's against its own tier 0 (gains 1:2). */
export function explainTiers(g: GensView): string {
  const parts = TYPES.map((t, ty) => (g.tierIdx[ty]! >= NR_TIERS - 1 ? `${t}: none` : `${t}: tiers ${g.tierIdx[ty]! + 1}–3`));
  if (g.rework) return `Protected (refault rate above 1.5× tier 0's): ${parts.join('; ')}.`;
  const [next, other] = [TYPES[g.next], TYPES[1 - g.next]];
  return `Protected (${next}: refault rate above ${other}'s tier 0, weighed by swappiness; ${other}: above 2× its tier 0): ${parts.join('; ')}.`;
}
