// The goals table of BENCHMARKS.md: generated from bench-results/ (scripts/bench-goals.mjs).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goalsTable, readResults, replaceGoals } from './bench-goals.mjs';

const run = { date: '2026-12-02T20:00:00Z', commit: 'abc1234', load_avg: [1.5, 1, 1] };
const anchor = (engine: number, loop: number, lcs: number) => ({ engine: { per_s: engine }, lru_loop: { per_s: loop }, libcachesim: { per_s: lcs } });
const row = (table: string, start: string) => table.split('\n').find((l) => l.startsWith(`| ${start}`))!.split(' | ');

describe('goals table', () => {
  it('judges each anchor goal from the engine run, both LRUs, and names the run', () => {
    const engine = { run, anchors: { anchor_reclaim_classic: anchor(25, 100, 12), anchor_reclaim_mglru: anchor(24, 100, 12), anchor_hit_classic: anchor(75, 100, 1), anchor_hit_mglru: anchor(80, 100, 1) } };
    const table = goalsTable({ engine }, { anchor_hit_loop: 'a | note' });
    const reclaim = row(table, '#48 reclaim-heavy: engine / plain');
    expect(reclaim[1]).toBe('0.25 classic, 0.24 MGLRU');
    expect(reclaim[2]).toBe('no'); // one LRU below the goal
    expect(reclaim[3]).toBe('engine: 2026-12-02 20:00 UTC, abc1234, load 1.50');
    const hit = row(table, '#48 hit-heavy');
    expect(hit[2]).toBe('yes');
    expect(hit[4]).toBe('a \\| note |'); // the note, its pipe escaped
    expect(row(table, '#48 reclaim-heavy: engine / libCacheSim')[2]).toBe('yes');
  });

  it('says which result file is missing', () => {
    const table = goalsTable({}, {});
    expect(row(table, '#48 live memcg view')[1]).toBe('no bench-results/web-memcg-frames.json');
    expect(row(table, '#48 live memcg view')[2]).toBe('not measured');
  });

  it('judges S003 < 8 s by the page’s own pool, not the forced pool of 2', () => {
    const results = { 'web-results': { run, pool: 1, cases: [{ id: 's003_original', after_ms: [9000, 8500, 9500], after_pool2_ms: [7000, 7500, 7200] }] } };
    const r = row(goalsTable(results, {}), '#48 S003 original size (128');
    expect(r[1]).toBe("9.00 s (page's pool of 1), 7.20 s (pool of 2)");
    expect(r[2]).toBe('no');
  });

  it('does not call a cold run taken another way than the app’s Run met', () => {
    const results = { 'web-run-to-end': { run, s000: { settled_ms: [250, 260, 270, 240, 255], cold_method: 'bench page' } } };
    expect(row(goalsTable(results, {}), '#48 cold S000')[2]).toBe('not as defined');
  });

  it('judges the cold run by the app’s run (web-cold-run) when there is one', () => {
    const results = {
      'web-run-to-end': { run, s000: { settled_ms: [250, 260, 270, 240, 255], cold_method: 'bench page' } },
      'web-cold-run': { run, s000: { before_ms: [400, 420, 410, 430, 405], after_ms: [310, 290, 280, 295, 300] } },
    };
    const r = row(goalsTable(results, {}), '#48 cold S000');
    expect(r[1]).toBe('295 ms, median of 5 (310, 290, 280, 295, 300); the app: page idle, then S000 chosen, to its full results; before 410 ms (after/before 0.72)');
    expect(r[2]).toBe('yes');
    expect(r[3]).toBe('web-cold-run: 2026-12-02 20:00 UTC, abc1234, load 1.50');
  });

  it('replaces only its own section, or inserts it before the first', () => {
    const doc = '# B\n\nintro\n\n## Engine\n\nx\n';
    const once = replaceGoals(doc, 'T1');
    expect(once.indexOf('## Goals')).toBeLessThan(once.indexOf('## Engine'));
    const twice = replaceGoals(once, 'T2');
    expect(twice).toContain('T2');
    expect(twice).not.toContain('T1');
    expect(twice.endsWith('## Engine\n\nx\n')).toBe(true);
  });

  it('is what BENCHMARKS.md shows (regenerate with `node scripts/bench-goals.mjs`)', () => {
    const { results, notes } = readResults();
    const doc = readFileSync(new URL('../BENCHMARKS.md', import.meta.url), 'utf8');
    expect(doc).toBe(replaceGoals(doc, goalsTable(results, notes)));
  });
});
