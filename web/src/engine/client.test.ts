import { describe, expect, it } from 'vitest';
import { dispatchFromWorker } from './client';

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
