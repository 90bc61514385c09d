// Seek checkpoints: copies of the runs (the engine's `snapshot`, a clone of the simulation) at
// virtual times already reached, so that a seek restores the nearest one at or before its
// target and replays only from there. The engine is deterministic: a run restored from a
// checkpoint and stepped to a time is the run that got there from the start
// (wasm-core/tests/checkpoint.rs, checkpoints.test.ts).
//
// Budget: the checkpoints' bytes (each run's `snapshot_bytes`: what cloning it allocated on the
// wasm heap) stay within `budgetBytes`. Spacing: a checkpoint is due once the engine has worked
// `spacingMs` of wall time since the latest checkpoint at or before the runs' time, so a
// replay from the nearest checkpoint takes about that long; in virtual time that is every N s,
// N being what the engine covers in `spacingMs` (S000 and S003 differ by orders of magnitude).
// Taking a checkpoint costs a copy of the runs, so the spacing is at least CLONE_FACTOR times
// the latest copy's time: checkpoints cost at most ~1/CLONE_FACTOR of the engine's time.
// Eviction, when over budget: the checkpoint whose neighbours are closest in engine work goes
// first (removing it leaves the smallest replay gap), so the survivors stay evenly spread over
// the work done; the latest checkpoint goes only when no other unpinned one is left, pinned
// ones (lesson steps) only when nothing else is.

/** What a checkpoint holds: one engine object per run, freed on eviction. */
export interface Freeable {
  free(): void;
}

export interface Checkpoint<S extends Freeable> {
  /** Virtual time of the runs (ns). */
  ns: number;
  /** Engine work (wall ms) from t=0 to here along the run's timeline: the replay cost model. */
  workMs: number;
  /** One copy per run, in run order. */
  runs: S[];
  bytes: number;
  /** A lesson step's time: kept while unpinned checkpoints can go instead. */
  pinned: boolean;
}

/** Default memory budget of the checkpoints of the page's runs (split over its engine workers). */
export const CHECKPOINT_BUDGET_BYTES = 384 * 2 ** 20;
/** Default engine work between two checkpoints on the way forward (wall ms). */
export const CHECKPOINT_SPACING_MS = 120;
/** The spacing is at least this many times what taking a checkpoint took. */
export const CLONE_FACTOR = 8;

export class CheckpointStore<S extends Freeable> {
  /** In time order, one per virtual time. */
  private list: Checkpoint<S>[] = [];
  private total = 0;
  /** Checkpoints evicted since the last clear (for the stats). */
  evicted = 0;
  /** Wall ms the latest checkpoint took to copy (the host measures it). */
  copyMs = 0;

  /** The bytes held at most: the page's budget, or this worker's share of it. */
  budgetBytes: number;

  constructor(
    private readonly fullBudgetBytes = CHECKPOINT_BUDGET_BYTES,
    readonly spacingMs = CHECKPOINT_SPACING_MS,
  ) {
    this.budgetBytes = fullBudgetBytes;
  }

  /** Hold at most `fraction` of the budget (a worker holding that share of the runs; split.ts).
   *  Call when empty (a new load). */
  share(fraction: number): void {
    this.budgetBytes = Math.round(this.fullBudgetBytes * Math.min(1, Math.max(0, fraction)));
  }

  get bytes(): number {
    return this.total;
  }
  get size(): number {
    return this.list.length;
  }
  /** Virtual times held, in order (tests, stats). */
  times(): number[] {
    return this.list.map((c) => c.ns);
  }

  /** The latest checkpoint at or before `ns`, or null. */
  atOrBefore(ns: number): Checkpoint<S> | null {
    let best: Checkpoint<S> | null = null;
    for (const c of this.list) {
      if (c.ns > ns) break;
      best = c;
    }
    return best;
  }

  /** Whether a checkpoint at `ns` is due: none at or before it (or t=0, where a new run
   *  starts) within `spacingMs` of work. */
  due(ns: number, workMs: number): boolean {
    const prev = this.atOrBefore(ns);
    return prev?.ns !== ns && workMs - (prev?.workMs ?? 0) >= Math.max(this.spacingMs, CLONE_FACTOR * this.copyMs);
  }

  has(ns: number): boolean {
    return this.list.some((c) => c.ns === ns);
  }

  /** Keep `cp` (taking ownership of its runs), then evict down to the budget. A checkpoint
   *  larger than the whole budget, or at a time already held (its pin is kept), is freed at
   *  once. Returns whether `cp` is kept. */
  add(cp: Checkpoint<S>): boolean {
    const same = this.list.find((c) => c.ns === cp.ns);
    if (same || cp.bytes > this.budgetBytes) {
      if (same) same.pinned ||= cp.pinned;
      for (const r of cp.runs) r.free();
      return false;
    }
    const at = this.list.findIndex((c) => c.ns > cp.ns);
    this.list.splice(at < 0 ? this.list.length : at, 0, cp);
    this.total += cp.bytes;
    while (this.total > this.budgetBytes) this.remove(this.victim());
    return this.list.includes(cp);
  }

  /** Free every checkpoint (a new load: they belong to the old runs). */
  clear(): void {
    for (const c of this.list) for (const r of c.runs) r.free();
    this.list = [];
    this.total = 0;
    this.evicted = 0;
  }

  /** The checkpoint to evict: the one whose removal leaves the smallest gap in work between
   *  its neighbours (before the first: t=0, which a new run rebuilds); unpinned ones first. */
  private victim(): number {
    const n = this.list.length;
    const gap = (i: number) => (i + 1 < n ? this.list[i + 1]!.workMs : Infinity) - (i > 0 ? this.list[i - 1]!.workMs : 0);
    let best = -1;
    let bestRank = [Infinity, Infinity];
    for (let i = 0; i < n; i++) {
      const rank = [this.list[i]!.pinned ? 1 : 0, gap(i)];
      if (rank[0]! < bestRank[0]! || (rank[0] === bestRank[0] && rank[1]! < bestRank[1]!)) {
        best = i;
        bestRank = rank;
      }
    }
    return best < 0 ? 0 : best;
  }

  private remove(i: number): void {
    const [c] = this.list.splice(i, 1);
    if (!c) return;
    this.total -= c.bytes;
    this.evicted++;
    for (const r of c.runs) r.free();
  }
}
