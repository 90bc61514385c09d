import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeLink, encodeLink } from './link';
import { initSync, resolve_scenario } from '../../pkg/reclaim_core.js';
import { setupOf } from './knobs';
import { guessScenario, heatmap, parseCsv, readSweep, rowLink, values } from './sweep';

const s000 = readFileSync(new URL('../../../scenarios/s000-thrash.toml', import.meta.url), 'utf8');

// The shape `reclaim sweep` writes: key columns, preset, error, metrics, counters.
const HEAD = 'variant,seed,swappiness,ram,dirty_ratio,preset,error,virtual_s,pswpout';
const rows: string[] = [];
for (const variant of ['before', 'after'])
  for (const swappiness of ['0', '60', '200'])
    for (const ram of ['1GiB', '2GiB'])
      rows.push(`${variant},1,${swappiness},${ram},20,linux-5.x,,${Number(swappiness) + (ram === '1GiB' ? 0.5 : 0)},${variant === 'after' ? 7 : 3}`);
rows.push('after,2,200,2GiB,20,linux-5.3,"engine: bad, ""quoted""",,');
const CSV = `${HEAD}\n${rows.join('\n')}\n`;

describe('sweep tables', () => {
  it('parse RFC 4180 fields', () => {
    expect(parseCsv('a,"b,c","say ""hi"""\r\n1,"x\ny",\n')).toEqual([
      ['a', 'b,c', 'say "hi"'],
      ['1', 'x\ny', ''],
    ]);
  });

  it('find the axes and the numeric metrics', () => {
    const t = readSweep(CSV);
    expect(t.axes).toEqual(['variant', 'seed', 'swappiness', 'ram', 'dirty_ratio']);
    expect(t.metrics).toEqual(['virtual_s', 'pswpout']);
    expect(values(t, 'swappiness')).toEqual(['0', '60', '200']);
    expect(values(t, 'seed')).toEqual(['1', '2']);
  });

  it('refuse what is not a sweep table, naming why', () => {
    expect(() => readSweep('')).toThrow(/empty/);
    expect(() => readSweep('a,b\n1,2\n')).toThrow(/no column "variant", "seed", "preset", "error"/);
    expect(() => readSweep(`${HEAD}\nbefore,1\n`)).toThrow(/row 2 has 2 cells, the header 9/);
  });

  it('pick one cell per pair of values, the other axes fixed', () => {
    const t = readSweep(CSV);
    const h = heatmap(t, 'virtual_s', 'swappiness', 'ram', { variant: 'before', seed: '1', dirty_ratio: '20' });
    expect(h.xs).toEqual(['0', '60', '200']);
    expect(h.ys).toEqual(['1GiB', '2GiB']);
    expect(h.cells.map((c) => c.value)).toEqual([0.5, 60.5, 200.5, 0, 60, 200]);
    expect(h.domain).toEqual([0, 200.5]);
    const failed = heatmap(t, 'virtual_s', 'swappiness', 'ram', { variant: 'after', seed: '2' });
    const cell = failed.cells.find((c) => c.x === '200' && c.y === '2GiB')!;
    expect(cell.value).toBeNull();
    expect(cell.error).toBe('engine: bad, "quoted"');
    expect(failed.cells.filter((c) => c.row === null)).toHaveLength(5);
  });

  it('turn a row into the link of its run', async () => {
    const t = readSweep(CSV);
    const row = t.rows.findIndex((r) => r[0] === 'after' && r[2] === '200' && r[3] === '1GiB');
    const state = rowLink(t, row, 's000-thrash.toml', 10);
    expect(state.variants).toEqual(['after']);
    // A swept sysctl that is no page knob is one of the knobs' sysctls; the text is the file's.
    expect(state.knobs).toEqual({ seed: 1, swappiness: 200, ram: '1GiB', sysctls: { dirty_ratio: '20' } });
    expect(state.edited).toBeNull();
    const back = await decodeLink(await encodeLink(state), ['s000-thrash.toml']);
    expect(back.knobs).toEqual(state.knobs);
    // The engine writes them in.
    initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
    const text = resolve_scenario(s000, JSON.stringify(setupOf(back.knobs)));
    expect(text).toMatch(/^swappiness = 200$/m);
    expect(text).toMatch(/^dirty_ratio = 20$/m);
    expect(text).toMatch(/^seed = 1$/m);
  });

  it('guess the scenario from the table file name', () => {
    const names = ['s000-thrash.toml', 's001-used-once.toml'];
    expect(guessScenario('sweeps/s000-thrash.csv', names)).toBe('s000-thrash.toml');
    expect(guessScenario('s001-used-once-ram.csv', names)).toBe('s001-used-once.toml');
    expect(guessScenario('other.csv', names)).toBeNull();
  });
});
