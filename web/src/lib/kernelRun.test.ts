// A real kernel's JSON (issue #27 §2): what the overlay accepts, and the message each bad file
// gets. The fixture has the layout of `reclaim kernel --json` (a shape fixture: see its notes).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { assess, initSync, results_table, WasmSimulation } from '../../pkg/reclaim_core.js';
import { COUNTER_GROUPS } from './figure';
import { groupTotals, isJsonFile, jsonErrorOffset, kernelCells, KernelRunError, kernelRunLabel, MAX_KERNEL_JSON_BYTES, MAX_KERNEL_RUNS, mergeRuns, mismatch, parseKernelRuns, readKernelFile } from './kernelRun';
import { tableRows, type RunReport } from './report';
import { coreOf } from '../engine/core';

/** The core's results table (web/pkg's wasm), as the page builds it. */
const resultsTable = (reports: RunReport[]) => tableRows(coreOf(results_table).resultsTable(reports));
import { resultsMarkdown } from './exports';

const FIXTURE = readFileSync(new URL('../../../e2e/fixtures/kernel-thrash-small-classic.shape.json', import.meta.url), 'utf8');
const TITLE = 'Validation: thrash (256 MiB, 192 MiB cold anon, 96 MiB re-read file)';
const fixture = () => JSON.parse(FIXTURE) as Record<string, unknown>;
const text = (v: unknown) => JSON.stringify(v);
const err = (t: string) => {
  try {
    parseKernelRuns(t, 'run.json');
  } catch (e) {
    expect(e).toBeInstanceOf(KernelRunError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('parseKernelRuns', () => {
  it('reads a `reclaim kernel --json` file: the report, the kernel build, the accelerator, the guest, the notes', () => {
    const [r, ...rest] = parseKernelRuns(FIXTURE, 'k.json');
    expect(rest).toHaveLength(0);
    expect(r!.file).toBe('k.json');
    expect(r!.report.scenario).toBe(TITLE);
    expect(r!.report.variant).toBe('classic');
    expect(r!.report.measured.pswpout).toBe(11583);
    expect(r!.report.tasks[0]!.rounds_s).toHaveLength(6);
    expect(r!.kernel).toEqual({ name: 'debian-6.1', release: '6.1.0-56-amd64', package_version: '6.1.192-2' });
    expect(r!.accelerator).toBe('tcg');
    expect(r!.guest?.kernel_reserved_kb).toBe(58164);
    expect(r!.notes[0]).toMatch(/^SHAPE FIXTURE/);
    expect(kernelRunLabel(r!)).toBe('real kernel debian-6.1 (6.1.0-56-amd64, Debian 6.1.192-2), tcg');
  });

  it('reads the kernel half of every pair of a `reclaim validate --json` file', () => {
    const mglru = { ...fixture(), variant: 'mglru', preset: 'linux-6.1-mglru' };
    const v = { scenario: TITLE, kernel: 'debian-6.1', accelerator: 'tcg', rows: [], directions: [], wall_s: 90, runs: [{ model: {}, kernel: fixture() }, { model: {}, kernel: mglru }] };
    expect(parseKernelRuns(text(v), 'v.json').map((r) => r.report.variant)).toEqual(['classic', 'mglru']);
    // A fault inside one pair names its path.
    v.runs[1]!.kernel = { ...mglru, counters: { pswpout: -1 } };
    expect(err(text(v))).toBe('run.json: runs[1].kernel.counters.pswpout must be a number >= 0, found -1');
    expect(err(text({ ...v, runs: [] }))).toBe('run.json: runs is empty: the validation holds no kernel run');
  });

  it('reads the first boot of each variant of a validation with several boots (`runs[].kernels`)', () => {
    const second = { ...fixture(), measured: { ...(fixture().measured as object), pswpout: 1 } };
    const v = { scenario: TITLE, runs: [{ model: {}, kernels: [fixture(), second] }] };
    const [r, ...rest] = parseKernelRuns(text(v), 'v.json');
    expect(rest).toHaveLength(0);
    expect(r!.report.measured.pswpout).toBe(11583);
    expect(err(text({ ...v, runs: [{ model: {}, kernels: [] }] }))).toBe('run.json: runs[0].kernels is empty: this variant has no kernel run yet');
    expect(err(text({ ...v, runs: [{ model: {}, kernels: [{ ...fixture(), variant: 3 }] }] }))).toBe('run.json: runs[0].kernels[0].variant must be text, found 3');
  });

  it('names what is wrong and where', () => {
    expect(err('')).toBe('run.json is empty');
    expect(err('{"source": "kernel",\n  "variant": oops}')).toMatch(/^run\.json is not JSON at line 2, column 14: /);
    expect(err('[1, 2]')).toBe('run.json: the file holds a list, not a kernel run (an object with "source": "kernel")');
    const model = fixture();
    delete model.source;
    expect(err(text(model))).toMatch(/^run\.json: the file is a model run \(reclaim run --json\): it has no "source": "kernel"/);
    expect(err(text({ a: 1 }))).toBe('run.json: source is missing (a real kernel run says "source": "kernel")');
    expect(err(text({ ...fixture(), source: 'model' }))).toBe('run.json: source must be "kernel", found "model"');
    expect(err(text({ ...fixture(), variant: 3 }))).toBe('run.json: variant must be text, found 3');
    expect(err(text({ ...fixture(), measured: { pgscan_anon: 'many' } }))).toBe('run.json: measured.pgscan_anon must be a number >= 0, found "many"');
    expect(err(text({ ...fixture(), counters: [1] }))).toBe('run.json: counters must be an object, found a list');
    const f = fixture();
    (f.tasks as Record<string, unknown>[])[0]!.rounds_s = [1, null];
    expect(err(text(f))).toBe('run.json: tasks[0].rounds_s[1] must be a number >= 0, found null');
    const g = fixture();
    delete (g.kernel as Record<string, unknown>).release;
    expect(err(text(g))).toBe('run.json: kernel.release is missing');
    expect(err(text({ ...fixture(), accelerator: undefined }))).toBe('run.json: accelerator is missing');
    expect(err(text({ ...fixture(), tasks: Array(1001).fill({}) }))).toBe('run.json: tasks has 1001 entries (at most 1000)');
    expect(err(text({ ...fixture(), counters: { pswpout: 1.5 } }))).toBe('run.json: counters.pswpout must be a whole number, found 1.5');
    expect(err(text({ ...fixture(), memcgs: [{ name: '/', parent: null, current_pages: 1, events: {}, pgsteal: 'x' }] }))).toBe('run.json: memcgs[0].pgsteal must be a number >= 0, found "x"');
    expect(err(text({ ...fixture(), memcgs: [{ name: 'a', parent: 3, current_pages: 1, events: {} }] }))).toBe('run.json: memcgs[0].parent must be text or null, found 3');
  });

  it('finds where text stops being JSON, and agrees with JSON.parse on what is JSON', () => {
    const good = [FIXTURE, '0', '-1.5e+3', '"a\\u00e9\\n"', '[]', '{}', ' [1, [2, {"a": [true, false, null]}]] ', '{"a":{"b":{}}}'];
    for (const t of good) expect(jsonErrorOffset(t), t.slice(0, 40)).toBe(-1);
    const bad: [string, number][] = [
      ['{"a": oops}', 6],
      ['[1, 2,]', 6],
      ['{"a" 1}', 5],
      ['{"a": 1', 7],
      ['01', 1],
      ['"tab\there"', 0],
      ['[1] x', 4],
      ['{a: 1}', 1],
      ['', 0],
    ];
    for (const [t, at] of bad) {
      expect(() => JSON.parse(t), t).toThrow();
      expect(jsonErrorOffset(t), t).toBe(at);
    }
    // Deep nesting is walked without recursion.
    expect(jsonErrorOffset('['.repeat(100_000) + ']'.repeat(100_000))).toBe(-1);
    expect(err('{"a": 1')).toMatch(/^run\.json is not JSON at line 1, column 8 \(the text ends too soon\): /);
  });

  it('refuses a file larger than the bound before reading it', async () => {
    expect(err(' '.repeat(MAX_KERNEL_JSON_BYTES + 1))).toMatch(/^run\.json is 4\.0 MB; a kernel run's JSON is at most 4\.0 MB/);
    let read = false;
    const huge = { name: 'huge.json', size: 50 * 1024 * 1024, type: 'application/json', text: async () => ((read = true), FIXTURE) } as unknown as File;
    await expect(readKernelFile(huge)).rejects.toThrow(/^huge\.json is 50\.0 MB; a kernel run's JSON is at most 4\.0 MB/);
    expect(read).toBe(false);
    const ok = { name: 'k.json', size: FIXTURE.length, type: '', text: async () => FIXTURE } as unknown as File;
    expect((await readKernelFile(ok))[0]!.report.variant).toBe('classic');
  });

  it('tells overlay files from dropped figures', () => {
    expect(isJsonFile({ name: 'run.JSON', type: '' })).toBe(true);
    expect(isJsonFile({ name: 'x', type: 'application/json' })).toBe(true);
    expect(isJsonFile({ name: 'figure.png', type: 'image/png' })).toBe(false);
  });
});

describe('what the engine reads of a kernel run', () => {
  beforeAll(() => {
    initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
  });
  const scenarioText = (f: string) => readFileSync(new URL(`../../../scenarios/validation/${f}`, import.meta.url), 'utf8');

  it('is a RunReport the core assesses, memcgs and memory.reclaim included', () => {
    const [run] = parseKernelRuns(FIXTURE, 'k.json');
    expect(JSON.parse(assess(scenarioText('thrash-small.toml'), [JSON.stringify(run!.report)])).headline).toBeInstanceOf(Array);
    // A memcg run: the kernel's memcgs and pages asked survive the check, so the core's
    // reclaim accuracy is the file's sum(leaf pgsteal) / requested.
    const memcgText = scenarioText('memcg-reclaim.toml');
    const sim = WasmSimulation.fromScenario(memcgText, 'classic');
    const model = JSON.parse(sim.run_to_end_json());
    sim.free();
    const file = { ...model, source: 'kernel', kernel: { name: 'debian-6.1', release: 'r' }, accelerator: 'tcg' };
    const [k] = parseKernelRuns(JSON.stringify(file), 'm.json');
    expect(k!.report.memcgs).toHaveLength(model.memcgs.length);
    expect(k!.report.reclaim_requested_pages).toBe(model.reclaim_requested_pages);
    const row = JSON.parse(assess(memcgText, [JSON.stringify(k!.report)])).headline.find((h: { metric: string }) => h.metric === 'reclaim_accuracy_pct');
    const leaves = model.memcgs.filter((m: { parent: string | null }) => m.parent !== null);
    expect(row.values[0]).toBeCloseTo((leaves.reduce((s: number, m: { pgsteal: number }) => s + m.pgsteal, 0) * 100) / model.reclaim_requested_pages, 9);
  });
});

describe('the overlay', () => {
  const run = parseKernelRuns(FIXTURE, 'k.json')[0]!;

  it('belongs to the scenario of the same title and one of its variants', () => {
    expect(mismatch([run], { title: TITLE, variants: ['classic', 'mglru'] })).toBeNull();
    expect(mismatch([run], { title: 'S000', variants: ['classic'] })).toBe(`k.json is a run of the scenario ${JSON.stringify(TITLE)}, but the page shows "S000"`);
    expect(mismatch([run], { title: TITLE, variants: ['before', 'after'] })).toBe(`k.json ran variant "classic", which ${JSON.stringify(TITLE)} does not have (its variants: before, after)`);
  });

  it('replaces a run of the same kernel and variant, keeps others, and holds at most MAX_KERNEL_RUNS', () => {
    const other = { ...run, kernel: { ...run.kernel, name: 'debian-6.12' } };
    const again = { ...run, file: 'again.json' };
    expect(mergeRuns([run, other], [again]).map((r) => r.file + r.kernel.name)).toEqual(['k.jsondebian-6.12', 'again.jsondebian-6.1']);
    const many = Array.from({ length: MAX_KERNEL_RUNS + 2 }, (_, i) => ({ ...run, report: { ...run.report, variant: `v${i}` } }));
    expect(mergeRuns([], many)).toHaveLength(MAX_KERNEL_RUNS);
  });

  it('puts the kernel values in the results table beside the model, with their ratio to the model of the same variant', () => {
    const model = (variant: string, pswpout: number): RunReport => ({ ...run.report, variant, measured: { ...run.report.measured, pswpout }, tasks: [{ name: 'thrash', rounds_s: [1, 2, 3], major_faults: 10, killed: false }] });
    const models = [model('classic', 8952), model('mglru', 10252)];
    const rows = resultsTable([...models, run.report]);
    const pswpout = rows.find((r) => r.label === 'pswpout')!;
    const [cell] = kernelCells(pswpout, models, [run]);
    expect(cell!.value).toBe(11583);
    expect(cell!.ratio).toBeCloseTo(11583 / 8952, 12);
    // A model value of 0 has no ratio.
    const zero = [{ ...models[0]!, measured: { ...models[0]!.measured, pswpin: 0 } }];
    const pswpin = kernelCells(resultsTable([...zero, run.report]).find((r) => r.label === 'pswpin')!, zero, [run]);
    expect(pswpin[0]!.value).toBe(21);
    expect(pswpin[0]!.ratio).toBeNaN();
    // The kernel's rounds in the per-task rows, from the same table builder.
    expect(kernelCells(rows.find((r) => r.label === 'thrash round 0 (s)')!, models, [run])[0]!.value).toBe(8.2);
    // No model of that variant: no ratio.
    expect(kernelCells(pswpout, [models[1]!], [run])[0]!.ratio).toBeNaN();
  });

  it('writes the kernel columns into the results Markdown, with their ratios', () => {
    const model = { ...run.report, measured: { ...run.report.measured, pswpout: 8952 } };
    const rows = resultsTable([model, run.report]).filter((r) => r.label === 'pswpout' || r.label === 'pswpin');
    const md = resultsMarkdown('T', [model], rows, [run]).split('\n');
    expect(md[2]).toBe('| metric (measured window) | classic (linux-6.1, swappiness 60) | real kernel classic (debian-6.1 6.1.0-56-amd64, tcg, swappiness 60) |');
    expect(md).toContain(`| pswpout | 8,952 | 11,583 (×${(11583 / 8952).toFixed(2)} of the model) |`);
    expect(md).toContain('| pswpin | 21 | 21 (×1 of the model) |');
    // Without kernel runs the table is as before.
    expect(resultsMarkdown('T', [model], resultsTable([model]).slice(0, 1)).split('\n')[2]).toBe('| metric (measured window) | classic (linux-6.1, swappiness 60) |');
  });

  it("sums the counters chart's groups from the kernel's whole-run counters", () => {
    const totals = groupTotals(run, COUNTER_GROUPS);
    const c = run.report.counters;
    expect(totals.find((t) => t.label === 'pgscan')!.total).toBe(c.pgscan_kswapd! + c.pgscan_direct!);
    expect(totals.find((t) => t.label === 'pswpout')!.total).toBe(c.pswpout);
    const none = groupTotals({ ...run, report: { ...run.report, counters: {} } }, COUNTER_GROUPS);
    expect(none.every((t) => t.total === null)).toBe(true);
  });
});
