import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { explainBalance, type BalanceView, type ScanDecision } from './explain';
import { mix, ownerColor, OWNER_HUES } from './palette';
import { formatChange, formatPagesAsBytes, formatRate, formatSpeed, speedAt, SPEED_STEPS } from '../format';
import { tableRows, type RunReport } from './report';
import { initSync, results_table } from '../../pkg/reclaim_core.js';
import { coreOf } from '../engine/core';
import { scenarioMeta } from './scenarioText';
import { decades } from '../components/LineChart';
import { fitFor } from '../components/FitFrame';
import { ratesOf } from './rates';
import { SERIES_COLUMNS } from '../engine/generated/views';

const s000 = readFileSync(new URL('../../../scenarios/s000-thrash.toml', import.meta.url), 'utf8');

describe('scenario text', () => {
  it('reads the title and description for the picker', () => {
    expect(scenarioMeta(s000, 'f').title).toMatch(/^S000: thrash/);
    expect(scenarioMeta(s000, 'f').description).toMatch(/^2 GB RAM/);
    expect(scenarioMeta('x = 1', 'file.toml')).toEqual({ title: 'file.toml', description: '' });
  });
});

describe('balance explanation', () => {
  const view = (over: Partial<BalanceView> = {}): BalanceView => ({
    era: 'rotation', source: 'get_scan_count', swappiness: 60, last: null, decisions: [0, 0, 0, 0],
    recentScanned: [0, 0], recentRotated: [0, 0], anonCost: 0, fileCost: 0, pgscan: 0, forcedScan: 0, ...over,
  });
  const decision = (over: Partial<ScanDecision>): ScanDecision => ({
    atNs: 1, balance: 'SCAN_FRACT', reason: 'fraction', lruvec: 0, priority: 12, swappiness: 60, fraction: [1, 1],
    denominator: 2, shares: [0.5, 0.5], recentScanned: [0, 0], recentRotated: [0, 0], anonCost: 0, fileCost: 0, costDenom: 0, ...over,
  });
  it('words the reason the engine reports, never its own rule', () => {
    expect(explainBalance(view())).toMatch(/^No reclaim yet/);
    expect(explainBalance(view({ forcedScan: 204_800 }))).toMatch(/^get_scan_count has not run.*204,800 pages scanned so far were scanned by the scenario's forced scans/);
    expect(explainBalance(view({ last: decision({ balance: 'SCAN_EQUAL', reason: 'priority_zero', priority: 0, shares: [0.3, 0.7] }) }))).toMatch(/^SCAN_EQUAL: reclaim reached priority 0.*anon gets 30% of the scan and file 70%/);
    expect(explainBalance(view({ last: decision({ balance: 'SCAN_FILE', reason: 'cache_trim', shares: [0, 1] }) }))).toMatch(/^SCAN_FILE: the inactive file list is large/);
    expect(explainBalance(view({ era: 'mglru' }))).toMatch(/multi-gen LRU: get_scan_count is not used/);
  });
  it('names swappiness when it is what zeroes a side, and the words match the shares', () => {
    const zero = explainBalance(view({ swappiness: 0, last: decision({ reason: 'swappiness_zero', swappiness: 0, fraction: [0, 200], shares: [0, 1] }) }));
    expect(zero).toMatch(/anon gets 0% of the scan and file 100%; swappiness is 0/);
    expect(zero).not.toMatch(/cheaper/);
    const max = explainBalance(view({ era: 'cost', swappiness: 200, last: decision({ reason: 'swappiness_max', swappiness: 200, fraction: [200, 0], shares: [1, 0] }) }));
    expect(max).toMatch(/anon gets 100% of the scan and file 0%; swappiness is 200/);
  });
  it('states the inputs of the era', () => {
    const rot = explainBalance(view({ last: decision({ fraction: [60, 14014], recentScanned: [100, 1000], recentRotated: [99, 9] }) }));
    expect(rot).toMatch(/scanned\/rotated of each type \(anon 100\/99, file 1,000\/9\)/);
    const cost = explainBalance(view({ era: 'cost', last: decision({ anonCost: 300, fileCost: 100 }) }));
    expect(cost).toMatch(/recent reclaim cost of each type \(anon 300, file 100\)/);
  });
});

describe('formatting and scales', () => {
  it('speed slider goes from 1 ms/s to 1000 s/s in nice numbers, four a decade', () => {
    expect(speedAt(0)).toBe(1e6);
    expect(speedAt(SPEED_STEPS)).toBe(1e12);
    expect(speedAt(SPEED_STEPS / 2)).toBe(1e9);
    expect(speedAt(10)).toBe(300e6);
    expect([...Array(SPEED_STEPS + 1).keys()].map((i) => formatSpeed(speedAt(i))).slice(8, 14)).toEqual(['100 ms/s', '200 ms/s', '300 ms/s', '500 ms/s', '1 s/s', '2 s/s']);
    expect(formatSpeed(250e6)).toBe('250 ms/s');
    expect(formatSpeed(2e9)).toBe('2 s/s');
    expect(formatSpeed(1e5)).toBe('100 µs/s');
  });

  it('changes, rates and sizes', () => {
    expect(formatChange(150, 100)).toBe('+50.0%');
    expect(formatChange(50, 100)).toBe('-50.0%');
    expect(formatChange(0, 0)).toBe('0.0%');
    expect(formatChange(3, 0)).toBe('new');
    expect(formatRate(950)).toBe('950');
    expect(formatRate(12_345)).toBe('12.3k');
    expect(formatRate(4_560_000)).toBe('4.56M');
    expect(formatPagesAsBytes(524_288)).toBe('2.00 GiB');
    expect(formatPagesAsBytes(12_288)).toBe('48.0 MiB');
  });

  it('log axis ticks at powers of ten', () => {
    expect(decades([0.0005, 2])).toEqual([0.001, 0.01, 0.1, 1]);
    expect(decades([2, 3])).toEqual([2, 3]);
  });

  it('owner colours are Okabe-Ito, then tints', () => {
    expect(ownerColor(0)).toBe(OWNER_HUES[0]);
    expect(ownerColor(8)).toMatch(/^#[0-9a-f]{6}$/);
    expect(ownerColor(8)).not.toBe(OWNER_HUES[0]);
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
  });
});

describe('results table', () => {
  const rep = (variant: string, pswpout: number, rounds: number[]): RunReport => ({
    scenario: 'S',
    variant,
    preset: 'p',
    swappiness: 60,
    virtual_s: 1,
    counters: {},
    measured: { pswpout },
    tasks: [{ name: 't', rounds_s: rounds, major_faults: 1, killed: false }],
    oom_kills: [],
  });
  it('shows values and the change against the first variant', () => {
    initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
    const rows = tableRows(coreOf(results_table).resultsTable([rep('before', 100, [1, 1, 1]), rep('after', 400, [1, 0.01, 0.01])]));
    const swp = rows.find((r) => r.label === 'pswpout')!;
    expect(swp.values).toEqual([100, 400]);
    expect(swp.changes).toEqual(['0.0%', '+300.0%']);
    expect(rows.find((r) => r.label === 't median round (s)')!.values).toEqual([1, 0.01]);
    // A column not in yet keeps its place, its values NaN.
    const partial = tableRows(coreOf(results_table).resultsTable([null, rep('after', 400, [1, 0.01, 0.01])]));
    expect(partial.find((r) => r.label === 'pswpout')!.values).toEqual([NaN, 400]);
  });
});

describe('scan rates', () => {
  it('come from the last two series rows, in pages per virtual second', () => {
    // Rows by column name (the generated SERIES_COLUMNS), values in pages.
    const row = (t: number, refill: number, anon: number, file: number) => {
      const named: Record<string, number> = { t_ns: t, pgrefill: refill, pgscan_anon: anon, pgscan_file: file };
      return Float64Array.from(SERIES_COLUMNS, (c) => named[c.name] ?? 0);
    };
    const r = ratesOf([row(0, 0, 0, 0), row(1e8, 40, 0, 0), row(2e8, 120, 20, 400)]);
    expect(r.scan).toEqual({ inactive_anon: 200, active_anon: 800, inactive_file: 4000, active_file: 800 });
    expect(Object.values(ratesOf([row(0, 0, 0, 0)]).scan).every(Number.isNaN)).toBe(true);
  });
});

describe('fitFor (the embed fitted to its frame)', () => {
  it('lays a slide out at 960 x 540 unscaled, and at twice the size on a 1920 x 1080 projector', () => {
    expect(fitFor(960, 540, 540)).toEqual({ width: 960, height: 540, scale: 1, left: 0 });
    expect(fitFor(1920, 1080, 540)).toEqual({ width: 960, height: 540, scale: 2, left: 0 });
  });
  it('scales content taller than the frame down, centred', () => {
    const f = fitFor(960, 540, 600);
    expect(f.scale).toBeCloseTo(0.9);
    expect(f.left).toBeCloseTo((960 - 960 * 0.9) / 2);
  });
  it('a smaller frame is laid out at its own size', () => {
    expect(fitFor(560, 340, 340)).toEqual({ width: 560, height: 340, scale: 1, left: 0 });
  });
});
