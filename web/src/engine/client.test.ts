import { describe, expect, it } from 'vitest';
import { dispatchFromWorker, spareClient, type EngineClientHandlers } from './client';

function collect(data: unknown) {
  const messages: unknown[] = [];
  const errors: [string, boolean][] = [];
  dispatchFromWorker(data, { onMessage: (m) => messages.push(m), onError: (e, fatal) => errors.push([e, fatal]) });
  return { messages, errors };
}

describe('dispatchFromWorker', () => {
  it('passes valid messages on', () => {
    expect(collect({ type: 'reports', scenario: 's', reports: [] }).messages).toHaveLength(1);
  });
  it('makes a bad scenario a recoverable error and a failed engine a fatal one', () => {
    expect(collect({ type: 'error', phase: 'scenario', message: 'line 3' }).errors).toEqual([['The scenario could not be loaded: line 3', false]]);
    expect(collect({ type: 'error', phase: 'protocol', message: 'x' }).errors).toEqual([['The engine rejected a message: x', false]]);
    expect(collect({ type: 'error', phase: 'init', message: 'x' }).errors).toEqual([['The engine failed to load: x', true]]);
    expect(collect({ type: 'error', phase: 'engine', message: 'x' }).errors).toEqual([['The engine failed: x', true]]);
  });
  it('reports a message it does not understand', () => {
    const { errors } = collect({ type: 'frame', seq: 0, stepMs: 0, runs: 'none' });
    expect(errors[0]![0]).toMatch(/^The engine sent a message the page does not understand: ProtocolError: 'runs'/);
    expect(errors[0]![1]).toBe(true);
  });
});

describe('spareClient', () => {
  it('starts at once and hands what was said before it was taken to the taker, in order, after take returns', async () => {
    let worker: EngineClientHandlers | null = null;
    let disposed = 0;
    const spare = spareClient((h) => {
      worker = h;
      return { send() {}, dispose: () => void disposed++ };
    });
    expect(worker).not.toBeNull();
    worker!.onMessage({ type: 'ready', protocol: 1, engineVersion: 'a' } as never);
    worker!.onError('The engine failed: x', true);
    const got: string[] = [];
    const client = spare.take({ onMessage: (m) => got.push(m.type), onError: (e) => got.push(e) });
    expect(got).toEqual([]); // not before the taker holds the client
    await Promise.resolve();
    worker!.onMessage({ type: 'reports', scenario: 's', reports: [] } as never);
    expect(got).toEqual(['ready', 'The engine failed: x', 'reports']);
    client.dispose();
    expect(disposed).toBe(1);
  });
});
