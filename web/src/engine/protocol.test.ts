import { describe, expect, it } from 'vitest';
import {
  encodeError,
  encodeSnapshot,
  MAX_STEP_NS,
  parseFromWorker,
  parseToWorker,
  PROTOCOL_VERSION,
  ProtocolError,
} from './protocol';

describe('parseToWorker (messages the worker accepts)', () => {
  it('accepts every well-formed message', () => {
    expect(parseToWorker({ type: 'load', scenario: { kind: 'builtin', name: 'demo' } })).toEqual({
      type: 'load',
      scenario: { kind: 'builtin', name: 'demo' },
    });
    expect(parseToWorker({ type: 'run', sliceNs: 1_000_000 })).toEqual({ type: 'run', sliceNs: 1_000_000 });
    expect(parseToWorker({ type: 'pause' })).toEqual({ type: 'pause' });
    expect(parseToWorker({ type: 'step', ns: MAX_STEP_NS })).toEqual({ type: 'step', ns: MAX_STEP_NS });
  });

  it.each([
    ['a non-object', 42, /must be an object, got 42/],
    ['null', null, /must be an object, got null/],
    ['an array', [{ type: 'pause' }], /must be an object, got an array/],
    ['a missing type', { ns: 5 }, /'type' must be a string/],
    ['an unknown type', { type: 'explode' }, /unknown message type "explode"/],
    ['a missing field', { type: 'step' }, /'step' message is missing 'ns'/],
    ['an unknown field', { type: 'pause', now: true }, /unknown field 'now'/],
    ['a string number', { type: 'step', ns: '1000' }, /'ns' must be a finite number, got "1000"/],
    ['NaN', { type: 'step', ns: NaN }, /finite number/],
    ['Infinity', { type: 'run', sliceNs: Infinity }, /finite number/],
    ['zero time', { type: 'step', ns: 0 }, /between 1 and/],
    ['negative time', { type: 'run', sliceNs: -5 }, /between 1 and/],
    ['a fractional nanosecond', { type: 'step', ns: 1.5 }, /must be an integer/],
    ['too big a step', { type: 'step', ns: MAX_STEP_NS + 1 }, /between 1 and 10000000000/],
    ['an unknown scenario', { type: 'load', scenario: { kind: 'builtin', name: 'nope' } }, /unknown built-in scenario "nope"/],
    ['a scenario of unknown kind', { type: 'load', scenario: { kind: 'url', name: 'demo' } }, /kind' must be "builtin"/],
    ['a scenario string', { type: 'load', scenario: 'demo' }, /'scenario' must be an object/],
  ])('rejects %s', (_what, data, message) => {
    expect(() => parseToWorker(data)).toThrow(ProtocolError);
    expect(() => parseToWorker(data)).toThrow(message);
  });
});

describe('parseFromWorker (messages the page accepts)', () => {
  it('accepts ready, loaded, snapshot, events and error', () => {
    expect(parseFromWorker({ type: 'ready', protocol: PROTOCOL_VERSION, engineVersion: '0.1.0' }).type).toBe('ready');
    expect(parseFromWorker({ type: 'loaded', scenario: 'demo', counterNames: ['pgfault'] })).toEqual({
      type: 'loaded',
      scenario: 'demo',
      counterNames: ['pgfault'],
    });
    const counters = new Float64Array([1, 2, 3]);
    const snap = parseFromWorker({ type: 'snapshot', seq: 3, nowNs: 5000, running: true, counters });
    expect(snap).toEqual({ type: 'snapshot', seq: 3, nowNs: 5000, running: true, counters });
    expect(parseFromWorker({ type: 'events', events: [{ tNs: 1, kind: 'evict' }] })).toEqual({
      type: 'events',
      events: [{ tNs: 1, kind: 'evict' }],
    });
    expect(parseFromWorker({ type: 'error', phase: 'engine', message: 'boom' })).toEqual({
      type: 'error',
      phase: 'engine',
      message: 'boom',
    });
  });

  it.each([
    ['a protocol version mismatch', { type: 'ready', protocol: PROTOCOL_VERSION + 1, engineVersion: '0.1.0' }, /speaks protocol 2/],
    ['counters as a plain array', { type: 'snapshot', seq: 0, nowNs: 0, running: false, counters: [1, 2] }, /Float64Array, got an array/],
    ['a negative time', { type: 'snapshot', seq: 0, nowNs: -1, running: false, counters: new Float64Array(1) }, /'nowNs'/],
    ['running as a string', { type: 'snapshot', seq: 0, nowNs: 0, running: 'yes', counters: new Float64Array(1) }, /true or false/],
    ['an empty counter name', { type: 'loaded', scenario: 'demo', counterNames: ['pgfault', ''] }, /non-empty strings/],
    ['an event without a kind', { type: 'events', events: [{ tNs: 1 }] }, /event is missing 'kind'/],
    ['an unknown error phase', { type: 'error', phase: 'later', message: 'x' }, /phase' must be init, protocol or engine/],
    ['a page-to-worker message', { type: 'pause' }, /unknown message type "pause" from the engine worker/],
  ])('rejects %s', (_what, data, message) => {
    expect(() => parseFromWorker(data)).toThrow(message);
  });
});

describe('encoding', () => {
  it('transfers the counters buffer with a snapshot, and the result validates', () => {
    const counters = new Float64Array([7, 8]);
    const out = encodeSnapshot(1, 2000, false, counters);
    expect(out.transfer).toEqual([counters.buffer]);
    expect(parseFromWorker(out.message)).toEqual(out.message);
  });

  it('turns any thrown value into readable error text', () => {
    expect(encodeError('engine', new RangeError('too far'))).toEqual({ type: 'error', phase: 'engine', message: 'RangeError: too far' });
    expect(encodeError('init', 'no wasm').message).toBe('no wasm');
    expect(encodeError('init', { code: 7 }).message).toBe('unexpected error: {"code":7}');
    expect(parseFromWorker(encodeError('protocol', new ProtocolError('bad'))).type).toBe('error');
  });
});
