// The results pool (issue #48) against the real wasm engine in Node: each "worker" is an
// EngineHost of its own behind an asynchronous, validating message channel, as in the page.
// The pool's columns must be exactly what one worker running every variant in turn reports.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatchFromWorker, type EngineClient, type EngineClientHandlers } from './client';
import { EngineHost, type EngineModule } from './host';
import { initWasm, wasmEngine } from './nodeEngine';
import { parseToWorker, type FromWorker, type ScenarioSource } from './protocol';
import { poolSize, ReportPool, type PoolState } from './reportPool';
import { variantNames } from '../lib/scenarioText';
import { stoppedColumns, type ReportColumn } from './useReports';
import type { RunReport } from '../lib/report';

const read = (name: string) => readFileSync(new URL(`../../../scenarios/${name}`, import.meta.url), 'utf8');
// Small copies (64 pages per frame) keep the tests fast.
const small = (text: string) => (/^frame_scale = /m.test(text) ? text.replace(/^frame_scale = \d+/m, 'frame_scale = 64') : text.replace('[machine]', '[machine]\nframe_scale = 64'));
const s000: ScenarioSource = { name: 's000-thrash.toml', text: small(read('s000-thrash.toml')) };

/** Workers as the page sees them: messages cross a macrotask each way and are validated. */
function fakeWorkers(engine: () => EngineModule = () => wasmEngine) {
  const started: { disposed: boolean; jobs: number[] }[] = [];
  const start = (handlers: EngineClientHandlers): EngineClient => {
    const me = { disposed: false, jobs: [] as number[] };
    started.push(me);
    const host = new EngineHost({
      load: async () => engine(),
      post: (msg: FromWorker) => setTimeout(() => !me.disposed && dispatchFromWorker(structuredClone(msg), handlers)),
    });
    void host.start();
    return {
      send: (msg) => {
        if (msg.type === 'report' && msg.index !== undefined) me.jobs.push(msg.index);
        setTimeout(() => !me.disposed && void host.handle(parseToWorker(structuredClone(msg))));
      },
      dispose: () => (me.disposed = true),
    };
  };
  return { start, started };
}

/** Run a pool to its end; every state it reported on the way. */
function runPool(scenario: ScenarioSource, size: number, start: (h: EngineClientHandlers) => EngineClient): Promise<PoolState[]> {
  return new Promise((resolve) => {
    const seen: PoolState[] = [];
    const pool = new ReportPool(scenario, size, start, (s) => {
      seen.push(s);
      if (s.phase === 'done' || s.phase === 'error') resolve(seen);
    });
    pool.start(variantNames(scenario.text).length);
  });
}

/** What one worker running every variant in turn answers (the sequential results). */
async function sequential(scenario: ScenarioSource): Promise<{ reports: string[]; assessment?: string }> {
  const posted: FromWorker[] = [];
  const host = new EngineHost({ load: async () => wasmEngine, post: (m) => posted.push(m) });
  await host.handle({ type: 'report', scenario });
  const r = posted.find((m) => m.type === 'reports');
  if (r?.type !== 'reports') throw new Error(`no reports: ${JSON.stringify(posted.filter((m) => m.type === 'error'))}`);
  return { reports: r.reports, ...(r.assessment ? { assessment: r.assessment } : {}) };
}

beforeAll(initWasm);

describe('ReportPool', () => {
  it('sizes the pool one below the cores, at least one', () => {
    expect([poolSize(8), poolSize(2), poolSize(1), poolSize(0)]).toEqual([7, 1, 1, 1]);
  });

  it('runs the variants in two workers, shows each column as it completes, and gives the sequential results', async () => {
    const { start, started } = fakeWorkers();
    const seen = await runPool(s000, 2, start);
    const last = seen.at(-1)!;
    expect(last.phase).toBe('done');
    expect(started).toHaveLength(2);
    // Identical, byte for byte, to one worker running both in turn, and so is the assessment.
    const seq = await sequential(s000);
    expect(last.columns.map((c) => c.report)).toEqual(seq.reports);
    expect(last.columns.map((c) => c.variant)).toEqual(['before', 'after']);
    expect(last.assessment).toBe(seq.assessment);
    // One variant each; on the way, a column showed done while the other was not yet.
    expect(started.map((w) => w.jobs)).toEqual([[0], [1]]);
    expect(seen.some((s) => s.columns.some((c) => c.status === 'done') && s.columns.some((c) => c.status !== 'done'))).toBe(true);
    // Every worker is ended once the results are in (each holds an engine's memory).
    expect(started.every((w) => w.disposed)).toBe(true);
  });

  it('a knob comparison: both settings side by side, as sequential', async () => {
    const pair: ScenarioSource = { name: 'lesson-swappiness.toml', text: small(read('lesson-swappiness.toml')), setup: { knobs: [], pair: { variant: 'linux-6.1', swappiness: [0, 200] } } };
    const last = (await runPool(pair, 2, fakeWorkers().start)).at(-1)!;
    expect(last.phase).toBe('done');
    expect(last.columns.map((c) => c.report)).toEqual((await sequential(pair)).reports);
  });

  it('queues more variants than workers: four variants in one worker, then in three, same columns', async () => {
    // S000 with two more variants: four to run.
    const more = '[[variants]]\nname = "6.1"\npreset = "linux-6.1"\n\n[[variants]]\nname = "6.1-mglru"\npreset = "linux-6.1-mglru"\n\n[[tasks]]';
    const pg: ScenarioSource = { name: 's000-thrash.toml', text: s000.text.replace('[[tasks]]', more) };
    const seq = await sequential(pg);
    expect(seq.reports).toHaveLength(4);
    for (const size of [1, 3]) {
      const { start, started } = fakeWorkers();
      const seen = await runPool(pg, size, start);
      expect(started).toHaveLength(size);
      expect(started.flatMap((w) => w.jobs).sort()).toEqual([0, 1, 2, 3]);
      expect(Math.max(...seen.map((s) => s.columns.filter((c) => c.status === 'running').length))).toBeLessThanOrEqual(size);
      expect(seen.at(-1)!.columns.map((c) => c.report)).toEqual(seq.reports);
      expect(seen.at(-1)!.assessment).toBe(seq.assessment);
    }
  });

  it('a variant that fails shows its error in its column; the others are kept', async () => {
    const failing: EngineModule = {
      ...wasmEngine,
      create: (t, v, f) => {
        if (v === 'after') throw new Error('no engine for "after" today');
        return wasmEngine.create(t, v, f);
      },
    };
    const last = (await runPool(s000, 2, fakeWorkers(() => failing).start)).at(-1)!;
    expect(last.phase).toBe('error');
    expect(last.error).toBe('1 of 2 variants could not be run to the end (see its column).');
    expect(last.columns[0]!.status).toBe('done');
    expect(last.columns[0]!.report).toBe((await sequential(s000)).reports[0]);
    expect(last.columns[1]!.status).toBe('error');
    expect(last.columns[1]!.error).toMatch(/no engine for "after" today/);
  });

  it('a bad scenario is one error naming where, no columns', async () => {
    const bad: ScenarioSource = { name: 'bad.toml', text: s000.text.replace('[machine]', '[machine]\nram = "lots"') };
    const last = (await runPool(bad, 2, fakeWorkers().start)).at(-1)!;
    expect(last.phase).toBe('error');
    expect(last.columns).toEqual([]);
    expect(last.error).toMatch(/^The scenario could not be loaded: .*line \d+/);
  });

  it('an engine that fails to load is one error, not a hang', async () => {
    const { start } = fakeWorkers(() => {
      throw new Error('no WebAssembly here');
    });
    const last = (await runPool(s000, 2, start)).at(-1)!;
    expect(last.phase).toBe('error');
    expect(last.error).toMatch(/The engine failed to load: .*no WebAssembly here/);
  });
});

describe('Stop', () => {
  it('marks the columns still running or waiting as stopped; those in stand', () => {
    const report = {} as RunReport;
    const cols: ReportColumn[] = [
      { variant: 'a', status: 'done', nowNs: 5, endNs: 5, report },
      { variant: 'b', status: 'running', nowNs: 2, endNs: 5 },
      { variant: 'c', status: 'waiting', nowNs: 0, endNs: 0 },
      { variant: 'd', status: 'error', nowNs: 1, endNs: 5, error: 'engine said no' },
    ];
    const after = stoppedColumns(cols);
    expect(after.map((c) => c.status)).toEqual(['done', 'error', 'error', 'error']);
    expect(after.map((c) => c.error)).toEqual([undefined, 'stopped', 'stopped', 'engine said no']);
    expect(after[0]!.report).toBe(report);
  });
});
