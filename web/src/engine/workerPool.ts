// The core the results pools share (reportPool.ts: a scenario's variants to the end;
// mrcPool.ts: a trace's miss-ratio points): engine workers started up to a size, each holding
// at most one job, their answers passed on only while the pool is open and the worker still in
// it, idle workers ended, all of them ended at once on dispose.
import type { EngineClient, EngineClientHandlers } from './client';
import type { FromWorker } from './protocol';

/** Start one engine worker with these handlers (a results worker, or a fake in tests). */
export type StartWorker = (handlers: EngineClientHandlers) => EngineClient;

export interface PoolSlot<J> {
  client: EngineClient;
  /** The job it runs, or null when idle. */
  job: J | null;
}

/** A worker's answer (its errors come to onError). */
export type PoolMessage = Exclude<FromWorker, { type: 'error' }>;

export interface PoolHandlers<J> {
  onMessage(slot: PoolSlot<J>, msg: PoolMessage): void;
  onError(slot: PoolSlot<J>, message: string, fatal: boolean): void;
}

export class WorkerPool<J> {
  slots: PoolSlot<J>[] = [];
  closed = false;

  constructor(
    /** At most this many workers. */
    readonly size: number,
    private readonly startWorker: StartWorker,
    private readonly handlers: PoolHandlers<J>,
  ) {}

  /** Start one more worker (idle). */
  spawn(): PoolSlot<J> {
    const slot: PoolSlot<J> = { client: { send() {}, dispose() {} }, job: null };
    this.slots.push(slot);
    const live = () => !this.closed && this.slots.includes(slot);
    slot.client = this.startWorker({
      onMessage: (msg) => live() && this.handlers.onMessage(slot, msg),
      onError: (message, fatal) => live() && this.handlers.onError(slot, message, fatal),
    });
    return slot;
  }

  /** An idle worker, started if the pool has room; undefined when all are busy. */
  idle(): PoolSlot<J> | undefined {
    return this.slots.find((s) => s.job === null) ?? (this.slots.length < this.size ? this.spawn() : undefined);
  }

  /** End one worker (its engine's memory goes with it). */
  drop(slot: PoolSlot<J>): void {
    slot.client.dispose();
    this.slots = this.slots.filter((s) => s !== slot);
  }

  /** End the idle workers but the first `keep` of them. */
  dropIdle(keep = 0): void {
    for (const s of this.slots.filter((x) => x.job === null).slice(keep)) this.drop(s);
  }

  /** End every worker; nothing more is passed on. */
  dispose(): void {
    this.closed = true;
    for (const s of this.slots) s.client.dispose();
    this.slots = [];
  }
}
