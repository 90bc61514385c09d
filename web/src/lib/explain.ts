// Plain-language reading of the engine's balance() array: what get_scan_count
// decided on its last call and why.

export const BALANCE_NAMES: Record<number, string> = {
  [-1]: 'none yet',
  0: 'SCAN_EQUAL',
  1: 'SCAN_FRACT',
  2: 'SCAN_FILE',
  3: 'SCAN_ANON',
};

export interface Balance {
  anonCost: number;
  fileCost: number;
  swappiness: number;
  kind: number;
  ap: number;
  fp: number;
  denominator: number;
}

export function readBalance(b: ArrayLike<number>): Balance {
  return {
    anonCost: b[0] ?? 0,
    fileCost: b[1] ?? 0,
    swappiness: b[2] ?? 0,
    kind: b[3] ?? -1,
    ap: b[4] ?? 0,
    fp: b[5] ?? 0,
    denominator: b[6] ?? 0,
  };
}

/** Share of the scan pressure each side got, in [0, 1]: [anon, file]. */
export function scanShares(b: Balance): [number, number] {
  switch (b.kind) {
    case 2:
      return [0, 1];
    case 3:
      return [1, 0];
    case 0:
      return [0.5, 0.5]; // proportional to list sizes on both sides
    case 1: {
      const d = b.denominator > 0 ? b.denominator : b.ap + b.fp;
      return d > 0 ? [b.ap / d, b.fp / d] : [0, 0];
    }
    default:
      return [0, 0];
  }
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** One line: the decision and the reason, in plain words. */
export function explainBalance(b: Balance): string {
  switch (b.kind) {
    case -1:
      return 'No reclaim yet: memory is above the watermarks, so get_scan_count has not run.';
    case 2:
      return b.swappiness === 0
        ? 'SCAN_FILE: swappiness is 0, so only file pages are reclaimed and anon is left alone.'
        : 'SCAN_FILE: inactive file is plentiful and not thrashing (or anon cannot be swapped), so anon is left alone.';
    case 3:
      return 'SCAN_ANON: file pages are nearly gone (file + free below the high watermark), so only anon is reclaimed.';
    case 0:
      return 'SCAN_EQUAL: anon and file are scanned in proportion to their sizes, regardless of cost (swappiness 200, or reclaim is desperate).';
    case 1: {
      const [a, f] = scanShares(b);
      const cheaper =
        b.anonCost === b.fileCost ? 'both sides cost the same so far' : b.anonCost < b.fileCost ? 'anon has been cheaper to reclaim (fewer refaults and rotations)' : 'file has been cheaper to reclaim (fewer refaults and rotations)';
      return `SCAN_FRACT: anon gets ${pct(a)} of the scan pressure and file ${pct(f)}; swappiness ${b.swappiness} weighs it, and ${cheaper}.`;
    }
    default:
      return `Unknown balance decision ${b.kind}.`;
  }
}
