// Plain-language wording of the engine's balance view (wasm-core/src/views.rs, type generated
// into engine/generated/views.ts): the branch get_scan_count took, the reason the engine
// reports, and the inputs of the run's kernel era. No kernel rule is re-derived here.
import type { BalanceView, ScanDecision, ScanReason } from '../engine/generated/views';

export type { BalanceView, ScanDecision };

const pct = (x: number) => `${Math.round(x * 100)}%`;
const n = (x: number) => x.toLocaleString('en-US');

/** Why get_scan_count took its branch, one clause per reason code the engine reports. */
export const REASON_WORDS: Record<ScanReason, string> = {
  may_not_swap: 'this reclaim may not swap (may_swap is off), so only file pages are scanned',
  no_swap: 'there is no free swap space, so anon cannot be reclaimed and only file pages are scanned',
  priority_zero: 'reclaim reached priority 0 (it is desperate), so every list is scanned in proportion to its size, whatever the costs',
  file_is_tiny: 'file pages are nearly gone (file + free at most the high watermark: file_is_tiny), so only anon is scanned',
  file_below_high: 'file pages are nearly gone (file + free at most the high watermark), so only anon is scanned',
  cache_trim: 'the inactive file list is large and not refaulting (cache_trim_mode), so only the cache is trimmed',
  plenty_inactive_file: 'the inactive file list is plentiful and not low, so only file pages are scanned ("only evict file pages when we have plenty")',
  swappiness_zero: 'swappiness is 0, which gives anon a weight of 0: anon is not scanned',
  swappiness_max: 'swappiness is 200, which gives file a weight of 0: file is not scanned',
  fraction: 'anon and file are scanned in proportion to their weights',
  anon_only: 'memory.reclaim was written with swappiness=max, so only anon is scanned',
};

/** Shares of the scan [anon, file] in [0, 1] of the last decision (as the engine reports them). */
export function scanShares(v: BalanceView): [number, number] {
  return v.last ? [v.last.shares[0], v.last.shares[1]] : [0, 0];
}

/** The inputs behind a SCAN_FRACT decision, in words (per era). */
function weights(v: BalanceView, d: ScanDecision): string {
  const [ap, fp] = d.fraction;
  if (v.era === 'rotation') {
    return `weights ap ${n(ap)} and fp ${n(fp)}: swappiness ${d.swappiness} times scanned/rotated of each type (anon ${n(d.recentScanned[0])}/${n(d.recentRotated[0])}, file ${n(d.recentScanned[1])}/${n(d.recentRotated[1])})`;
  }
  if (v.era === 'cost2016') {
    return `weights ap ${n(ap)} and fp ${n(fp)}: swappiness ${d.swappiness} (and 200 - swappiness) over each type's share of the recent refault IO and rotations (numer anon ${n(d.anonCost)}, file ${n(d.fileCost)}; denom ${n(d.costDenom)})`;
  }
  return `weights ap ${n(ap)} and fp ${n(fp)}: swappiness ${d.swappiness} against the recent reclaim cost of each type (anon ${n(d.anonCost)}, file ${n(d.fileCost)})`;
}

/** One line: the decision and the reason, in plain words. */
export function explainBalance(v: BalanceView): string {
  if (v.era === 'mglru') {
    return 'This kernel runs the multi-gen LRU: get_scan_count is not used. Which type is evicted is decided by the refault rates of the tiers (the PID controller), shown in the generations view.';
  }
  const d = v.last;
  if (!d) {
    if (v.forcedScan > 0) {
      return `get_scan_count has not run: no kswapd or direct reclaim yet. The ${n(v.forcedScan)} pages scanned so far were scanned by the scenario's forced scans of the inactive file list (scan_inactive_file), which do not ask get_scan_count.`;
    }
    return 'No reclaim yet: memory is above the watermarks, so get_scan_count has not run.';
  }
  const [a, f] = d.shares;
  const split = `anon gets ${pct(a)} of the scan and file ${pct(f)}`;
  if (d.balance === 'SCAN_FRACT') {
    return `${d.balance}: ${split}; ${REASON_WORDS[d.reason]} (${weights(v, d)}).`;
  }
  return `${d.balance}: ${REASON_WORDS[d.reason]}; ${split}.`;
}
