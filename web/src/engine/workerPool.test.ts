// The pools' shared core (workerPool.ts), with fake workers: started up to its size, answers of
// a worker passed on only while it is in the pool and the pool is open.
import { describe, expect, it } from 'vitest';
import type { EngineClientHandlers } from './client';
import { WorkerPool } from './workerPool';

function fakes() {
  const started: { handlers: EngineClientHandlers; disposed: boolean }[] = [];
  const start = (handlers: EngineClientHandlers) => {
    const w = { handlers, disposed: false };
    started.push(w);
    return { send() {}, dispose: () => void (w.disposed = true) };
  };
  return { started, start };
}

describe('the worker pool core', () => {
  it('starts workers up to its size, ends idle ones, and passes on only what its live workers say', () => {
    const f = fakes();
    const heard: string[] = [];
    const pool = new WorkerPool<number>(2, f.start, {
      onMessage: (slot, msg) => heard.push(`${pool.slots.indexOf(slot)}:${msg.type}`),
      onError: (slot, message) => heard.push(`${pool.slots.indexOf(slot)}:error ${message}`),
    });
    const a = pool.idle()!;
    a.job = 1;
    const b = pool.idle()!;
    b.job = 2;
    expect(pool.idle()).toBeUndefined(); // full and busy
    expect(f.started.length).toBe(2);
    f.started[1]!.handlers.onMessage({ type: 'ready', protocol: 13, engineVersion: 'x' });
    f.started[0]!.handlers.onError('boom', false);
    expect(heard).toEqual(['1:ready', '0:error boom']);
    // A dropped worker is ended and not heard any more.
    pool.drop(a);
    expect(f.started[0]!.disposed).toBe(true);
    f.started[0]!.handlers.onError('late', true);
    expect(heard.length).toBe(2);
    // Idle ones end but the first `keep`.
    b.job = null;
    pool.idle()!.job = 3; // b again: the idle one is reused, no new worker
    expect(f.started.length).toBe(2);
    pool.spawn();
    pool.spawn();
    pool.dropIdle(1);
    expect(pool.slots.length).toBe(2);
    // Disposed: every worker ended, nothing passed on.
    pool.dispose();
    expect(f.started.every((w) => w.disposed)).toBe(true);
    f.started[1]!.handlers.onMessage({ type: 'ready', protocol: 13, engineVersion: 'x' });
    expect(heard.length).toBe(2);
  });
});
