// A replayed trace's miss-ratio curve (issue #47) in the results workers: one worker computes
// the plan and the LRU and OPT columns (`mrc`), then every kernel point (a variant at a cache
// size, run to its end) is queued over the pool, the coarse sizes first so that each curve takes
// its shape early; each point is reported as it completes.
import type { MrcReference } from './generated/views';
import type { ScenarioSource } from './protocol';
import type { ColumnStatus } from './reportPool';
import { WorkerPool, type PoolMessage, type PoolSlot, type StartWorker } from './workerPool';

/** One kernel point of the curve. */
export interface MrcPoint {
  variant: string;
  /** The cache size, pages (memory.max of the replaying task's memcg). */
  pages: number;
  status: ColumnStatus;
  /** How far its run is in virtual time, of at most `endNs`. */
  nowNs: number;
  endNs: number;
  misses?: number;
  error?: string;
}

export interface MrcState {
  /** 'reference': the plan and reference columns are being computed. */
  phase: 'reference' | 'running' | 'done' | 'error';
  reference?: MrcReference;
  /** Every kernel point, variant by variant, sizes ascending (empty until the plan is known). */
  points: MrcPoint[];
  workers: number;
  /** Why there is no curve (a bad trace, an engine that would not load). */
  error?: string;
}

/** Indices 0..n-1, the ends first, then the midpoints of the gaps, coarse to fine. */
export function coarseFirst(n: number): number[] {
  if (n <= 0) return [];
  const out = n === 1 ? [0] : [0, n - 1];
  let gaps: [number, number][] = n > 2 ? [[0, n - 1]] : [];
  while (gaps.length > 0) {
    const next: [number, number][] = [];
    for (const [a, b] of gaps) {
      const m = Math.floor((a + b) / 2);
      out.push(m);
      if (m - a > 1) next.push([a, m]);
      if (b - m > 1) next.push([m, b]);
    }
    gaps = next;
  }
  return out;
}

/** A worker's job: the point index it runs, or 'reference'. */
type Slot = PoolSlot<number | 'reference'>;

const REFERENCE_ID = 0;

export class MrcPool {
  private readonly pool: WorkerPool<number | 'reference'>;
  private queue: number[] = [];
  private state: MrcState = { phase: 'reference', points: [], workers: 0 };

  constructor(
    private readonly scenario: ScenarioSource,
    /** The kernel variants to draw, in order. */
    private readonly variants: string[],
    private readonly sizes: number,
    private readonly size: number,
    startWorker: StartWorker,
    private readonly onChange: (s: MrcState) => void,
  ) {
    this.pool = new WorkerPool(size, startWorker, { onMessage: (slot, msg) => this.onMessage(slot, msg), onError: (slot, message, fatal) => this.onError(slot, message, fatal) });
  }

  start(): void {
    const slot = this.pool.spawn();
    slot.job = 'reference';
    slot.client.send({ type: 'mrc', id: REFERENCE_ID, scenario: this.scenario, points: this.sizes });
    // The other workers load their engines meanwhile.
    for (let i = 1; i < this.size; i++) this.pool.spawn();
    this.emit();
  }

  dispose(): void {
    this.pool.dispose();
  }

  private emit(): void {
    if (!this.pool.closed) this.onChange({ ...this.state, workers: this.pool.slots.length, points: this.state.points.map((p) => ({ ...p })) });
  }

  private onMessage(slot: Slot, msg: PoolMessage): void {
    if (msg.type === 'mrc' && slot.job === 'reference' && msg.id === REFERENCE_ID) {
      slot.job = null;
      if (!msg.reference) return this.fail(msg.problem ?? 'no curve');
      this.plan(msg.reference);
    } else if (msg.type === 'mrcProgress' && slot.job === msg.id - 1) {
      this.set(msg.id - 1, { status: 'running', nowNs: msg.nowNs, endNs: msg.endNs });
    } else if (msg.type === 'mrcPoint' && slot.job === msg.id - 1) {
      slot.job = null;
      const p = this.state.points[msg.id - 1];
      if (msg.misses !== null) this.set(msg.id - 1, { status: 'done', misses: msg.misses, nowNs: p?.endNs ?? 0 });
      else this.set(msg.id - 1, { status: 'error', error: msg.problem ?? 'no result' });
    } else return;
    this.fill();
    this.emit();
  }

  private onError(slot: Slot, message: string, fatal: boolean): void {
    const job = slot.job;
    slot.job = null;
    if (fatal) this.pool.drop(slot);
    if (job === 'reference') return this.fail(message);
    if (typeof job === 'number') this.set(job, { status: 'error', error: message });
    if (this.pool.slots.length === 0 && this.queue.length > 0 && fatal && job === null) return this.fail(message);
    this.fill();
    this.emit();
  }

  private set(i: number, patch: Partial<MrcPoint>): void {
    const p = this.state.points[i];
    if (p) this.state.points[i] = { ...p, ...patch };
  }

  /** The plan is known: one point per variant and size, queued coarse sizes first. */
  private plan(reference: MrcReference): void {
    const sizes = reference.plan.sizes;
    this.state = {
      ...this.state,
      phase: 'running',
      reference,
      points: this.variants.flatMap((variant) => sizes.map((pages) => ({ variant, pages, status: 'waiting' as const, nowNs: 0, endNs: 0 }))),
    };
    this.queue = coarseFirst(sizes.length).flatMap((s) => this.variants.map((_, v) => v * sizes.length + s));
  }

  private fill(): void {
    const ref = this.state.reference;
    while (!this.pool.closed && ref) {
      const next = this.queue[0];
      if (next === undefined) break;
      const idle = this.pool.idle();
      if (!idle) break;
      this.queue.shift();
      idle.job = next;
      const p = this.state.points[next]!;
      idle.client.send({ type: 'mrcPoint', id: next + 1, scenario: this.scenario, variant: p.variant, pages: p.pages, task: ref.plan.taskName, requests: ref.plan.requests });
    }
    if (this.state.phase === 'running' && this.state.points.every((p) => p.status === 'done' || p.status === 'error')) {
      this.state = { ...this.state, phase: 'done' };
      this.emit();
      this.dispose();
      return;
    }
    // Workers with no work to come are ended (each holds an engine's memory).
    if (ref && this.queue.length === 0) this.pool.dropIdle();
  }

  private fail(message: string): void {
    this.state = { ...this.state, phase: 'error', error: message };
    this.emit();
    this.dispose();
  }
}
