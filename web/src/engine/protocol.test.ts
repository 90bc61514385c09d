import { describe, expect, it } from 'vitest';
import {
  encodeError,
  encodeFrame,
  MAX_STEP_NS,
  parseFromWorker,
  parseToWorker,
  PROTOCOL_VERSION,
  ProtocolError,
  type RunFrame,
} from './protocol';
import type { LruStrip } from './generated/views';

const scenario = { name: 's.toml', text: 'title = "x"' };

function frame(over: Partial<RunFrame> = {}): RunFrame {
  const strip = (list: LruStrip['list'], frames: number, cells: number[]): LruStrip => ({ list, frames, cells });
  return {
    nowNs: 5,
    finished: false,
    counters: new Float64Array([1, 2]),
    lists: { inactive_anon: 6, active_anon: 0, inactive_file: 2, active_file: 0, unevictable: 0, free: 8 },
    watermarks: { min: 1, low: 2, high: 3 },
    dirty: { dirty: 0, writeback: 0, backgroundThresh: 1, thresh: 2 },
    lru: {
      bucket: 2,
      strips: [strip('inactive_anon', 3, [1, 1]), strip('active_anon', 0, []), strip('inactive_file', 1, [0]), strip('active_file', 0, [])],
      moves: [{ from: null, to: { list: 'inactive_anon', index: 0 }, reason: 'add' }],
      movesSeen: 1,
    },
    balance: { era: 'rotation', source: 'get_scan_count', swappiness: 60, last: null, decisions: [0, 0, 0, 0], recentScanned: [0, 0], recentRotated: [0, 0], anonCost: 0, fileCost: 0, pgscan: 0, forcedScan: 0 },
    spaceNames: ['heap'],
    series: new Float64Array(0),
    seriesStart: 0,
    ...over,
  };
}

describe('parseToWorker (messages the worker accepts)', () => {
  it('accepts every well-formed message', () => {
    expect(parseToWorker({ type: 'load', scenario, variants: ['a', 'b'] })).toEqual({ type: 'load', scenario, variants: ['a', 'b'] });
    const flags = [{ io_cost_balance: false }, {}];
    expect(parseToWorker({ type: 'load', scenario, variants: ['a', 'b'], flags })).toEqual({ type: 'load', scenario, variants: ['a', 'b'], flags });
    expect(parseToWorker({ type: 'load', scenario, variants: ['a', 'b', 'c'], runs: [1, 2] })).toEqual({ type: 'load', scenario, variants: ['a', 'b', 'c'], runs: [1, 2] });
    expect(parseToWorker({ type: 'step', ns: MAX_STEP_NS })).toEqual({ type: 'step', ns: MAX_STEP_NS });
    expect(parseToWorker({ type: 'report', scenario })).toEqual({ type: 'report', scenario });
    expect(parseToWorker({ type: 'report', scenario, index: 1 })).toEqual({ type: 'report', scenario, index: 1 });
    expect(parseToWorker({ type: 'check', id: 0, text: 'x' })).toEqual({ type: 'check', id: 0, text: 'x' });
    expect(parseToWorker({ type: 'assess', id: 3, scenario, reports: ['{}'] })).toEqual({ type: 'assess', id: 3, scenario, reports: ['{}'] });
    const setup = { knobs: [['swappiness', '0'] as [string, string]], pair: { variant: 'a', swappiness: [0, 200] as [number, number] } };
    expect(parseToWorker({ type: 'load', scenario: { ...scenario, setup }, variants: [] })).toEqual({ type: 'load', scenario: { ...scenario, setup }, variants: [] });
    expect(parseToWorker({ type: 'check', id: 0, text: 'x', setup: { knobs: [], pair: null } })).toEqual({ type: 'check', id: 0, text: 'x', setup: { knobs: [], pair: null } });
    expect(parseToWorker({ type: 'seek', ns: 0 })).toEqual({ type: 'seek', ns: 0 });
    expect(parseToWorker({ type: 'seek', ns: 7_100_000_000_000 })).toEqual({ type: 'seek', ns: 7_100_000_000_000 });
    expect(parseToWorker({ type: 'ahead', ns: 1_000_000 })).toEqual({ type: 'ahead', ns: 1_000_000 });
    expect(parseToWorker({ type: 'ahead', ns: null })).toEqual({ type: 'ahead', ns: null });
  });

  it.each([
    ['a non-object', 42, /must be an object, got 42/],
    ['null', null, /must be an object, got null/],
    ['a missing type', { ns: 5 }, /'type' must be a string/],
    ['an unknown type', { type: 'explode' }, /unknown message type "explode"/],
    ['a missing field', { type: 'step' }, /'step' message is missing 'ns'/],
    ['an unknown field', { type: 'step', ns: 5, now: true }, /unknown field 'now'/],
    ['a string number', { type: 'step', ns: '1000' }, /'ns' must be a finite number, got "1000"/],
    ['zero time', { type: 'step', ns: 0 }, /between 1 and/],
    ['a fractional nanosecond', { type: 'step', ns: 1.5 }, /must be an integer/],
    ['too big a step', { type: 'step', ns: MAX_STEP_NS + 1 }, /between 1 and 60000000000/],
    ['a scenario string', { type: 'load', scenario: 'demo', variants: [] }, /'scenario' must be an object/],
    ['a scenario without text', { type: 'load', scenario: { name: 'x' }, variants: [] }, /missing 'text'/],
    ['variants that are not strings', { type: 'load', scenario, variants: [1] }, /array of strings/],
    ['a check without text', { type: 'check', id: 1 }, /'check' message is missing 'text'/],
    ['a check with a negative id', { type: 'check', id: -1, text: '' }, /'id' must be between 0/],
    ['an assess without reports', { type: 'assess', id: 1, scenario }, /'assess' message is missing 'reports'/],
    ['an assess with a report that is not text', { type: 'assess', id: 1, scenario, reports: [{}] }, /'reports' must be an array of strings/],
    ['a setup that is not an object', { type: 'load', scenario: { ...scenario, setup: 'x' }, variants: [] }, /'setup' must be an object/],
    ['a knob that is not a pair of texts', { type: 'load', scenario: { ...scenario, setup: { knobs: [['ram', 1]], pair: null } }, variants: [] }, /'setup\.knobs\[0\]' must be a \[name, value\] pair/],
    ['too many knobs', { type: 'check', id: 1, text: '', setup: { knobs: Array(65).fill(['seed', '1']), pair: null } }, /at most 64/],
    ['a pair of one value', { type: 'load', scenario: { ...scenario, setup: { knobs: [], pair: { variant: 'a', swappiness: [1] } } }, variants: [] }, /two whole numbers/],
    ['too many variants', { type: 'load', scenario, variants: ['a', 'b', 'c', 'd', 'e'] }, /at most 4/],
    ['flags that are not a list', { type: 'load', scenario, variants: [], flags: { x: true } }, /'flags' must be an array/],
    ['a flag that is not true/false', { type: 'load', scenario, variants: [], flags: [{ x: 1 }] }, /'flags\[0\]\.x' must be true or false, got 1/],
    ['a malformed flag name', { type: 'load', scenario, variants: [], flags: [{ 'x y': true }] }, /malformed flag name "x y"/],
    ['a share of no runs', { type: 'load', scenario, variants: [], runs: [] }, /'runs' must be ascending run indices below 4, at least one/],
    ['a share out of order', { type: 'load', scenario, variants: [], runs: [1, 0] }, /'runs' must be ascending/],
    ['a share past the last run', { type: 'load', scenario, variants: [], runs: [4] }, /'runs' must be ascending run indices below 4/],
    ['a seek to a negative time', { type: 'seek', ns: -1 }, /'ns' must be between 0/],
    ['a seek to a fractional nanosecond', { type: 'seek', ns: 0.5 }, /must be an integer/],
    ['an ahead without a time', { type: 'ahead' }, /'ahead' message is missing 'ns'/],
    ['an ahead to a string', { type: 'ahead', ns: '5' }, /'ns' must be a finite number/],
    ['a report of a fractional variant', { type: 'report', scenario, index: 0.5 }, /'index' must be an integer/],
  ])('rejects %s', (_what, data, message) => {
    expect(() => parseToWorker(data)).toThrow(ProtocolError);
    expect(() => parseToWorker(data)).toThrow(message);
  });
});

describe('parseFromWorker (messages the page accepts)', () => {
  it('accepts ready, loaded, frame, reports and error', () => {
    expect(parseFromWorker({ type: 'ready', protocol: PROTOCOL_VERSION, engineVersion: '0.1.0' }).type).toBe('ready');
    expect(parseFromWorker({ type: 'assessed', id: 2, assessment: '{}' })).toEqual({ type: 'assessed', id: 2, assessment: '{}' });
    expect(() => parseFromWorker({ type: 'assessed', id: 2 })).toThrow(/missing 'assessment'/);
    const loaded = {
      type: 'loaded',
      scenario: 's.toml',
      title: 'T',
      description: 'D',
      variants: [{ name: 'before', preset: 'linux-5.2' }],
      text: 'title = "S"',
      file: { title: 'S', description: '', variants: [{ name: 'before', preset: 'linux-5.2' }], lesson: [], devices: [], swappiness: 60, expect: [] },
      counterNames: ['pgscan_anon'],
      runs: [{ variant: 'before', preset: 'linux-5.2', scale: 1, frames: 8, endNs: 1e9, kernel: { flags: {}, baseFlags: {}, swappiness: { asked: 60, cap: 100, runs: 60 } } }],
      lesson: [{ atNs: 0, caption: 'Look.', pause: true, highlight: 'lru', compare: false }],
    };
    expect(parseFromWorker(loaded)).toEqual(loaded);
    const { lesson: _lesson, ...noLesson } = loaded;
    expect(() => parseFromWorker(noLesson)).toThrow(/'loaded' message is missing 'lesson'/);
    expect(() => parseFromWorker({ ...loaded, runs: [] })).toThrow(/'runs' must be a non-empty array/);
    expect(() => parseFromWorker({ ...loaded, file: null })).toThrow(/'file' must be an object/);
    const problem = { line: 3, column: 7, field: 'machine.ram', message: 'bad' };
    expect(parseFromWorker({ type: 'checked', id: 4, problem })).toEqual({ type: 'checked', id: 4, problem });
    expect(parseFromWorker({ type: 'checked', id: 5, problem: null })).toEqual({ type: 'checked', id: 5, problem: null });
    expect(() => parseFromWorker({ type: 'checked', id: 5, problem: 'line 3' })).toThrow(/'problem' must be null or an object/);
    const f = parseFromWorker({ type: 'frame', seq: 0, stepMs: 0, runs: [frame()] });
    expect(f.type === 'frame' && f.runs[0]!.lru.strips[0]!.cells).toEqual([1, 1]);
    expect(parseFromWorker({ type: 'reports', scenario: 's', reports: ['{}'] }).type).toBe('reports');
    const one = { type: 'variantReport', scenario: 's', index: 1, count: 2, variant: 'after', report: '{}' };
    expect(parseFromWorker(one)).toEqual(one);
    expect(() => parseFromWorker({ ...one, report: {} })).toThrow(/'report' must be a string/);
    const going = { type: 'reportProgress', scenario: 's', index: 0, count: 2, variant: 'before', nowNs: 5, endNs: 10 };
    expect(parseFromWorker(going)).toEqual(going);
    expect(() => parseFromWorker({ ...going, variant: undefined })).toThrow(ProtocolError);
    expect(parseFromWorker({ type: 'error', phase: 'scenario', message: 'line 3' })).toEqual({ type: 'error', phase: 'scenario', message: 'line 3' });
    const progress = { type: 'seekProgress', fromNs: 1e9, toNs: 2e9, nowNs: 1.5e9 };
    expect(parseFromWorker(progress)).toEqual(progress);
    expect(() => parseFromWorker({ ...progress, toNs: -1 })).toThrow(/'toNs' must be between 0/);
    const ahead = { type: 'aheadProgress', toNs: 2e9, nowNs: 2e9, done: true };
    expect(parseFromWorker(ahead)).toEqual(ahead);
    expect(() => parseFromWorker({ ...ahead, done: 1 })).toThrow(/'done' must be true or false/);
  });

  it('checks the envelope of a frame: its fields and the typed arrays it transfers', () => {
    // The views inside are the engine's generated types (built with the page), not re-checked.
    expect(() => parseFromWorker({ type: 'frame', seq: 0, stepMs: 0, runs: [{ ...frame(), counters: [1, 2] }] })).toThrow(/'counters' must be a Float64Array/);
    expect(() => parseFromWorker({ type: 'frame', seq: 0, stepMs: 0, runs: [{ ...frame(), series: undefined }] })).toThrow(/'series' must be a Float64Array/);
    expect(() => parseFromWorker({ type: 'frame', seq: 0, stepMs: 0, runs: [] })).toThrow(/non-empty/);
    expect(() => parseFromWorker({ type: 'frame', seq: 0, stepMs: 0, runs: [frame()], extra: 1 })).toThrow(/'frame' message has unknown field 'extra'/);
    expect(() => parseFromWorker({ type: 'frames', seq: 0 })).toThrow(/unknown message type "frames"/);
    // The worker's step time sizes play steps: it must be there and be a time.
    expect(() => parseFromWorker({ type: 'frame', seq: 0, runs: [frame()] })).toThrow(/'frame' message is missing 'stepMs'/);
    expect(() => parseFromWorker({ type: 'frame', seq: 0, stepMs: -1, runs: [frame()] })).toThrow(/'stepMs' must be between 0/);
    // Where the rows start: a count of rows the page holds.
    const { seriesStart: _, ...noStart } = frame();
    expect(() => parseFromWorker({ type: 'frame', seq: 0, stepMs: 0, runs: [noStart] })).toThrow(/missing 'seriesStart'/);
    expect(() => parseFromWorker({ type: 'frame', seq: 0, stepMs: 0, runs: [frame({ seriesStart: 1.5 })] })).toThrow(/'seriesStart' must be an integer/);
  });

  it('rejects another protocol version and unknown phases', () => {
    expect(() => parseFromWorker({ type: 'ready', protocol: 1, engineVersion: 'x' })).toThrow(/protocol 1/);
    expect(() => parseFromWorker({ type: 'error', phase: 'later', message: 'x' })).toThrow(/phase/);
  });
});

describe('encoding', () => {
  it('transfers every typed array of every run once', () => {
    const a = frame();
    const out = encodeFrame(3, 1.5, [a, frame()]);
    expect(out.message).toEqual({ type: 'frame', seq: 3, stepMs: 1.5, runs: [a, expect.anything()] });
    // 2 typed arrays per run (counters, series); the views are plain objects, not transferred.
    expect(out.transfer).toHaveLength(4);
    expect(new Set(out.transfer).size).toBe(4);
  });

  it('turns any thrown value into readable text', () => {
    expect(encodeError('engine', new RangeError('boom'))).toEqual({ type: 'error', phase: 'engine', message: 'RangeError: boom' });
    expect(encodeError('init', 'plain')).toMatchObject({ message: 'plain' });
    expect(encodeError('init', { a: 1 })).toMatchObject({ message: 'unexpected error: {"a":1}' });
  });
});
