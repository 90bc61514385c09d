// The page's engine state: a seek's progress and the series rows a seek back drops.
import { describe, expect, it } from 'vitest';
import { SERIES_COLUMNS, type LruStrip } from './generated/views';
import type { RunFrame } from './protocol';
import { value } from './series';
import { initialState, reducer, type EngineState } from './useEngine';

/** A series row at time `t` (the other columns 0). */
const row = (t: number): number[] => SERIES_COLUMNS.map((c) => (c.name === 't_ns' ? t : 0));

function frame(nowNs: number, seriesStart: number, rows: number[]): RunFrame {
  const strip = (list: LruStrip['list']): LruStrip => ({ list, frames: 0, cells: [] });
  return {
    nowNs,
    finished: false,
    counters: new Float64Array(0),
    lists: { inactive_anon: 0, active_anon: 0, inactive_file: 0, active_file: 0, unevictable: 0, free: 0 },
    watermarks: { min: 1, low: 2, high: 3 },
    dirty: { dirty: 0, writeback: 0, backgroundThresh: 1, thresh: 2 },
    lru: { bucket: 1, strips: [strip('inactive_anon'), strip('active_anon'), strip('inactive_file'), strip('active_file')], moves: [], movesSeen: 0 },
    balance: { era: 'rotation', source: 'get_scan_count', swappiness: 60, last: null, decisions: [0, 0, 0, 0], recentScanned: [0, 0], recentRotated: [0, 0], anonCost: 0, fileCost: 0, pgscan: 0, forcedScan: 0 },
    spaceNames: [],
    series: Float64Array.from(rows.flatMap(row)),
    seriesStart,
  };
}

const kernel = { flags: {}, baseFlags: {}, swappiness: { asked: 60, cap: 100, runs: 60 } };
const loaded = reducer(initialState, {
  type: 'message',
  msg: { type: 'loaded', scenario: 's', title: 'T', description: '', variants: [], text: '', file: { title: 'T', description: '', variants: [], lesson: [], devices: [], swappiness: 60, expect: [] }, counterNames: [], runs: [{ variant: 'v', preset: 'p', scale: 1, frames: 0, endNs: 1e9, kernel }], lesson: [] },
});
const at = (state: EngineState, nowNs: number, seriesStart: number, rows: number[], seq = state.seq + 1) =>
  reducer(state, { type: 'message', msg: { type: 'frame', seq, stepMs: 0, runs: [frame(nowNs, seriesStart, rows)] } });
const times = (s: EngineState) => s.series[0]!.map((r) => value(r, 't_ns'));

describe('useEngine reducer', () => {
  it('appends rows, and after a seek back keeps only the rows before seriesStart', () => {
    let s = at(loaded, 10, 0, [0, 5, 10]);
    s = at(s, 20, 3, [15, 20]);
    expect(times(s)).toEqual([0, 5, 10, 15, 20]);
    // Back to 7: the worker holds rows up to 5, the page keeps those.
    s = at(s, 7, 2, []);
    expect(times(s)).toEqual([0, 5]);
    // And on from there: the replayed rows come again.
    s = at(s, 12, 2, [10]);
    expect(times(s)).toEqual([0, 5, 10]);
  });

  it('shows a seek from where the runs are until the seek ends, and its progress meanwhile', () => {
    let s = at(loaded, 10, 0, [0]);
    s = reducer(s, { type: 'seeking', toNs: 500 });
    expect(s.seek).toEqual({ fromNs: null, toNs: 500, nowNs: null }); // where from: the worker says
    s = reducer(s, { type: 'message', msg: { type: 'seekProgress', fromNs: 100, toNs: 500, nowNs: 300 } });
    expect(s.seek).toEqual({ fromNs: 100, toNs: 500, nowNs: 300 });
    expect(s.seekFromNs).toBe(100);
    // A frame alone does not end it (a step's frame may come before the seek's answer).
    s = at(s, 11, 1, []);
    expect(s.seek).not.toBeNull();
    s = reducer(s, { type: 'seeked' });
    expect(s.seek).toBeNull();
    expect(s.seekFromNs).toBe(100); // kept after it landed
    // Progress of a seek the page no longer waits for (a load came between) is ignored.
    s = reducer(s, { type: 'message', msg: { type: 'seekProgress', fromNs: 0, toNs: 5, nowNs: 1 } });
    expect(s.seek).toBeNull();
  });
});
