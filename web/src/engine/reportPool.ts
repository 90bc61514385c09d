// The results in parallel (issue #48): the variants of a scenario run to the end in a pool of
// results workers, each with its own engine (its own wasm instance), one variant per worker at
// a time. Each column is reported as it completes; when every one has, one worker assesses
// them together (the engine's headline rows and verdicts), as the single worker did.
//
// The page does not read the scenario: the first worker's first word names the number of
// variants (`count`); the other variants are queued then. The other workers are started at
// once, so their engines load meanwhile.
import type { ScenarioSource } from './protocol';
import { WorkerPool, type PoolMessage, type PoolSlot, type StartWorker } from './workerPool';

export type ColumnStatus = 'waiting' | 'running' | 'done' | 'error';

/** One variant's column, in the scenario's order. */
export interface PoolColumn {
  /** The variant's name, once a worker has read it from the scenario (null before). */
  variant: string | null;
  status: ColumnStatus;
  /** How far the run is in virtual time, of at most `endNs` (0 and 0 until it starts). */
  nowNs: number;
  endNs: number;
  /** The RunReport JSON, once done. */
  report?: string;
  /** Why this variant has no report (the rest of the table stands). */
  error?: string;
}

export interface PoolState {
  /** 'assessing': every column is done, the engine computes the figures over all of them. */
  phase: 'running' | 'assessing' | 'done' | 'error';
  /** One per variant of the scenario; empty until the engine has read it. */
  columns: PoolColumn[];
  /** Workers started so far. */
  workers: number;
  /** JSON Assessment over every column's report (phase done). */
  assessment?: string;
  /** Why the request failed as a whole (a bad scenario, an engine that would not load), or
   *  why there is no assessment or no report for some column. */
  error?: string;
}

export type { StartWorker };

/** Results workers: one fewer than the machine's cores (the page and the live view's worker
 *  have the last one), at least one. */
export function poolSize(cores: number | undefined = typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency): number {
  return Math.max(1, Math.floor(cores || 2) - 1);
}

/** A worker's job: the variant index it runs, or 'assess' while it assesses. */
type Slot = PoolSlot<number | 'assess'>;

const ASSESS_ID = 1;

export class ReportPool {
  private readonly pool: WorkerPool<number | 'assess'>;
  private queue: number[] = [];
  private state: PoolState = { phase: 'running', columns: [], workers: 0 };

  /** `size`: at most this many workers; `onChange` hears every change (and every word from a
   *  worker, for the watchdog). */
  constructor(
    private readonly scenario: ScenarioSource,
    private readonly size: number,
    startWorker: StartWorker,
    private readonly onChange: (s: PoolState) => void,
  ) {
    this.pool = new WorkerPool(size, startWorker, { onMessage: (slot, msg) => this.onMessage(slot, msg), onError: (slot, message, fatal) => this.failed(slot, message, fatal) });
  }

  /** Start the workers (`expected`: how many variants the page expects; the engine's count
   *  decides what runs). */
  start(expected = 1): void {
    this.queue = [0];
    for (let i = 0; i < Math.min(this.size, Math.max(1, expected)); i++) this.pool.spawn();
    this.fill();
    this.emit();
  }

  /** Terminate every worker; nothing more is reported. */
  dispose(): void {
    this.pool.dispose();
  }

  private emit(): void {
    // `workers`: the ones alive now (idle ones are ended, a crashed one replaced).
    if (!this.pool.closed) this.onChange({ ...this.state, workers: this.pool.slots.length, columns: this.state.columns.map((c) => ({ ...c })) });
  }

  private onMessage(slot: Slot, msg: PoolMessage): void {
    switch (msg.type) {
      case 'reportProgress':
        if (msg.scenario !== this.scenario.name) return;
        this.learn(msg.count);
        this.set(msg.index, { variant: msg.variant, status: 'running', nowNs: msg.nowNs, endNs: msg.endNs });
        break;
      case 'variantReport':
        if (msg.scenario !== this.scenario.name) return;
        this.learn(msg.count);
        this.set(msg.index, { variant: msg.variant, status: 'done', nowNs: this.col(msg.index)?.endNs ?? 0, report: msg.report });
        slot.job = null;
        break;
      case 'assessed':
        if (msg.id !== ASSESS_ID || slot.job !== 'assess') return;
        slot.job = null;
        this.state = { ...this.state, phase: 'done', assessment: msg.assessment };
        this.finish();
        return;
      default:
        return; // ready and the rest: nothing to do
    }
    this.fill();
    this.emit();
  }

  private col(i: number): PoolColumn | undefined {
    return this.state.columns[i];
  }

  private set(i: number, patch: Partial<PoolColumn>): void {
    const c = this.col(i);
    if (c) this.state.columns[i] = { ...c, ...patch };
  }

  /** The engine has said how many variants the scenario has: queue the rest. */
  private learn(count: number): void {
    if (this.state.columns.length > 0) return;
    this.state.columns = Array.from({ length: count }, () => ({ variant: null, status: 'waiting' as const, nowNs: 0, endNs: 0 }));
    const running = new Set(this.pool.slots.map((s) => s.job));
    for (let i = 0; i < count; i++) if (!running.has(i) && !this.queue.includes(i)) this.queue.push(i);
    this.queue = this.queue.filter((i) => i < count);
  }

  /** Give queued variants to idle workers, starting workers up to the pool's size. */
  private fill(): void {
    while (!this.pool.closed) {
      const next = this.queue[0];
      if (next === undefined) break;
      const idle = this.pool.idle();
      if (!idle) break;
      this.queue.shift();
      idle.job = next;
      idle.client.send({ type: 'report', scenario: this.scenario, index: next });
    }
    // Workers without work to come are ended (each holds an engine's memory).
    if (this.state.columns.length > 0 && this.queue.length === 0) {
      this.pool.dropIdle(this.allSettled() ? 1 : 0);
    }
    this.settle();
  }

  private allSettled(): boolean {
    const cols = this.state.columns;
    return cols.length > 0 && cols.every((c) => c.status === 'done' || c.status === 'error');
  }

  /** Every column settled: assess them together, or say which failed. */
  private settle(): void {
    if (this.state.phase !== 'running' || !this.allSettled()) return;
    const cols = this.state.columns;
    const failed = cols.filter((c) => c.status === 'error').length;
    if (failed > 0) {
      this.state = { ...this.state, phase: 'error', error: `${failed} of ${cols.length} variant${cols.length === 1 ? '' : 's'} could not be run to the end (see ${failed === 1 ? 'its column' : 'their columns'}).` };
      this.finish();
      return;
    }
    this.state = { ...this.state, phase: 'assessing' };
    const slot = this.pool.slots.find((s) => s.job === null) ?? this.pool.spawn();
    slot.job = 'assess';
    slot.client.send({ type: 'assess', id: ASSESS_ID, scenario: this.scenario, reports: cols.map((c) => c.report!) });
  }

  private failed(slot: Slot, message: string, fatal: boolean): void {
    const job = slot.job;
    slot.job = null;
    if (fatal) this.pool.drop(slot);
    if (job === 'assess') {
      // The reports stand; the engine's figures over them are missing, and the panel says why.
      this.state = { ...this.state, phase: 'done', error: message };
      this.finish();
      return;
    }
    if (job === null) {
      // An idle worker failed (its engine did not load): the others carry on without it.
      if (this.pool.slots.length === 0 && (this.queue.length > 0 || this.state.columns.length === 0)) this.fail(message);
      else this.fill();
      this.emit();
      return;
    }
    if (this.state.columns.length === 0) {
      // Before the engine read the scenario: the scenario itself (or the engine) is at fault.
      this.fail(message);
      return;
    }
    this.set(job, { status: 'error', error: message });
    this.fill();
    this.emit();
  }

  private fail(message: string): void {
    this.state = { ...this.state, phase: 'error', error: message };
    this.finish();
  }

  private finish(): void {
    this.emit();
    this.dispose();
  }
}
