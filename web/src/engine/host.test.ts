// The engine host against the real wasm engine (web/pkg, built by `npm run wasm`)
// and the real scenario files, instantiated synchronously in Node.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { engine_version, WasmSimulation } from '../../pkg/reclaim_core.js';
import { CELLS, EngineHost, MOVES_PER_FRAME, type EngineModule, type HostDeps } from './host';
import { initWasm, wasmEngine as realEngine } from './nodeEngine';
import { parseFromWorker, type FromWorker } from './protocol';
import { SERIES_WIDTH } from './series';

const text = readFileSync(new URL('../../../scenarios/s000-thrash.toml', import.meta.url), 'utf8');
// A small S000 (64 pages per frame) keeps the tests fast.
const small = text.replace('[machine]', '[machine]\nframe_scale = 64');
const scenario = { name: 's000-thrash.toml', text: small };

/** A host recording (and validating) what it posts. */
function harness(load: () => Promise<EngineModule> = async () => realEngine) {
  const posted: FromWorker[] = [];
  const deps: HostDeps = { load, post: (msg) => posted.push(parseFromWorker(msg)) };
  return { host: new EngineHost(deps), posted };
}

type Of<T extends FromWorker['type']> = Extract<FromWorker, { type: T }>;
const all = <T extends FromWorker['type']>(posted: FromWorker[], type: T) => posted.filter((m): m is Of<T> => m.type === type);

beforeAll(initWasm);

describe('EngineHost with the wasm engine', () => {
  it('loads a scenario file: ready, loaded with its variants, then a first frame at t=0', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario, variants: [] });
    expect(posted[0]).toMatchObject({ type: 'ready', engineVersion: engine_version() });
    const [loaded] = all(posted, 'loaded');
    expect(loaded!.title).toMatch(/^S000/);
    expect(loaded!.variants).toEqual([
      { name: 'before', preset: 'linux-5.2' },
      { name: 'after', preset: 'linux-5.3' },
    ]);
    expect(loaded!.runs.map((r) => r.variant)).toEqual(['before']);
    expect(loaded!.runs[0]!.scale).toBe(64);
    expect(loaded!.runs[0]!.frames).toBe(524_288 / 64);
    const [first] = all(posted, 'frame');
    expect(first!.runs[0]!.nowNs).toBe(0);
    expect(first!.stepMs).toBe(0); // nothing was stepped
    expect(first!.runs[0]!.counters.length).toBe(loaded!.counterNames.length);
  });

  it('holds its share of the runs (split.ts), with that share of the checkpoint budget, and refuses a share past them', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario, variants: ['before', 'after'], runs: [1] });
    expect(all(posted, 'loaded')[0]!.runs.map((r) => r.variant)).toEqual(['after']);
    expect(host.runCount).toBe(1);
    expect(host.checkpointStats.budgetBytes).toBe(192 * 2 ** 20);
    await host.handle({ type: 'step', ns: 300_000_000 });
    const ref = WasmSimulation.fromScenario(small, 'after');
    ref.step(300_000_000);
    expect([...all(posted, 'frame').at(-1)!.runs[0]!.counters]).toEqual([...ref.counter_values()]);
    ref.free();
    await host.handle({ type: 'load', scenario, variants: [], runs: [1] });
    expect(all(posted, 'error').at(-1)!.message).toMatch(/this load names 1 run\(s\): there is no run 2 to hold/);
    expect(host.runCount).toBe(1);
  });

  it('steps every run in lockstep and reports what the engine reports', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario, variants: ['before', 'after'] });
    await host.handle({ type: 'step', ns: 300_000_000 });
    await host.handle({ type: 'step', ns: 300_000_000 });
    const last = all(posted, 'frame').at(-1)!;
    expect(last.seq).toBe(2);
    // Two 300 ms steps of two S000 runs take measurable engine time, which the frame reports.
    expect(last.stepMs).toBeGreaterThan(0);
    expect(last.runs.map((r) => r.nowNs)).toEqual([600_000_000, 600_000_000]);
    // The same steps on a fresh simulation give the same list sizes and counters.
    for (const [i, v] of ['before', 'after'].entries()) {
      const ref = WasmSimulation.fromScenario(small, v);
      ref.step(300_000_000);
      ref.step(300_000_000);
      const r = last.runs[i]!;
      const sizes = [...ref.lru_sizes()];
      expect(Object.values(r.lists)).toEqual(sizes);
      expect([...r.counters]).toEqual([...ref.counter_values()]);
      // The LRU view is the engine's (views::lru, tested natively): passed through as it is.
      expect(r.lru.strips.map((s) => s.list)).toEqual(['inactive_anon', 'active_anon', 'inactive_file', 'active_file']);
      expect(r.lru.strips.map((s) => s.frames)).toEqual([0, 1, 2, 3].map((l) => ref.list_frames(l).length));
      expect(r.lru.strips[2]!.frames * 64).toBe(r.lists.inactive_file);
      expect(r.lru.bucket).toBe(Math.ceil(524_288 / 64 / CELLS));
      expect(r.lru.strips.some((s) => s.cells.some((c) => c > 0))).toBe(true);
      ref.free();
    }
  });

  it('samples page moves and sends each time-series row once', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario, variants: ['after'] });
    await host.handle({ type: 'step', ns: 1_000_000_000 });
    await host.handle({ type: 'step', ns: 1_000_000_000 });
    const [loaded] = all(posted, 'loaded');
    const frames = all(posted, 'frame');
    const f = frames.at(-1)!.runs[0]!;
    expect(f.lru.movesSeen).toBeGreaterThan(0);
    expect(f.lru.moves.length).toBe(Math.min(MOVES_PER_FRAME, f.lru.movesSeen));
    expect(loaded!.runs[0]!.variant).toBe('after');
    const rows = frames.reduce((n, fr) => n + fr.runs[0]!.series.length / SERIES_WIDTH, 0);
    const ref = WasmSimulation.fromScenario(small, 'after');
    ref.step(2_000_000_000);
    expect(rows).toBe(ref.series_len());
    ref.free();
  });

  it('runs every variant to the end for a report', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'report', scenario });
    const [reports] = all(posted, 'reports');
    const parsed = reports!.reports.map((r) => JSON.parse(r));
    expect(parsed.map((r) => r.variant)).toEqual(['before', 'after']);
    expect(parsed[0].tasks[0].rounds_s).toHaveLength(10);
  });

  it("assesses given reports: the engine's figures for a kernel run beside the model's (issue #27 §2)", async () => {
    const memcgText = readFileSync(new URL('../../../scenarios/validation/memcg-reclaim.toml', import.meta.url), 'utf8');
    const sim = WasmSimulation.fromScenario(memcgText, 'classic');
    const model = sim.run_to_end_json();
    sim.free();
    // A kernel run of the same shape, its memcgs' pgsteal doubled (a different figure).
    const k = JSON.parse(model);
    for (const m of k.memcgs) if (m.parent !== null) m.pgsteal *= 2;
    Object.assign(k, { source: 'kernel', kernel: { name: 'debian-6.1', release: 'r', package_version: 'p' }, accelerator: 'tcg' });
    const { host, posted } = harness();
    await host.handle({ type: 'assess', id: 7, scenario: { name: 'memcg', text: memcgText }, reports: [model, JSON.stringify(k)] });
    const [answer] = all(posted, 'assessed');
    expect(answer!.id).toBe(7);
    const row = JSON.parse(answer!.assessment).headline.find((h: { metric: string }) => h.metric === 'reclaim_accuracy_pct');
    const accuracy = (r: { memcgs: { parent: string | null; pgsteal: number }[]; reclaim_requested_pages: number }) =>
      (r.memcgs.filter((m) => m.parent !== null).reduce((s, m) => s + m.pgsteal, 0) * 100) / r.reclaim_requested_pages;
    expect(row.values[0]).toBeCloseTo(accuracy(JSON.parse(model)), 9);
    expect(row.values[1]).toBeCloseTo(accuracy(k), 9);
    expect(row.values[1]).toBeCloseTo(2 * row.values[0], 9);
    // A report the engine cannot read is an engine error naming it, not a crash.
    await host.handle({ type: 'assess', id: 8, scenario: { name: 'memcg', text: memcgText }, reports: ['{"variant": 1}'] });
    const err = posted.at(-1)!;
    expect(err).toMatchObject({ type: 'error', phase: 'engine' });
    expect(err.type === 'error' && err.message).toMatch(/a report is not a RunReport/);
  });

  it('reports a bad scenario with its line, and keeps the current runs', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario, variants: [] });
    await host.handle({ type: 'load', scenario: { name: 'bad.toml', text: small.replace('ram = "2GiB"', 'ram = "lots"') }, variants: [] });
    const err = posted.at(-1)!;
    expect(err).toMatchObject({ type: 'error', phase: 'scenario' });
    expect(err.type === 'error' && err.message).toMatch(/line \d+/);
    expect(host.runCount).toBe(1);
    await host.handle({ type: 'step', ns: 1000 });
    expect(posted.at(-1)!.type).toBe('frame');
    await host.handle({ type: 'load', scenario, variants: ['nope'] });
    expect(posted.at(-1)).toMatchObject({ type: 'error', phase: 'scenario', message: 'Error: scenario s000-thrash.toml has no variant "nope"' });
  });

  it('runs each side with its own flag overrides, reports its flags and a refused swappiness', async () => {
    const { host, posted } = harness();
    const capped = { name: 's000-thrash.toml', text: small.replace('[machine]', '[sysctl]\nswappiness = 150\n\n[machine]') };
    await host.handle({ type: 'load', scenario: capped, variants: ['after', 'after'], flags: [{ refault_scan_anon: false }, { io_cost_balance: true }] });
    const ready = all(posted, 'ready')[0]!;
    expect(ready.kernel!.presets.map((p) => p.name)).toContain('linux-5.3');
    const [loaded] = all(posted, 'loaded');
    const [a, b] = loaded!.runs.map((r) => r.kernel!);
    expect(a!.baseFlags.refault_scan_anon).toBe(true); // linux-5.3 as written
    expect(a!.flags).toEqual({ ...a!.baseFlags, refault_scan_anon: false });
    expect(b!.flags).toEqual({ ...b!.baseFlags, io_cost_balance: true });
    // linux-5.3 refuses 150 and keeps the default; with io_cost_balance the cap is 200.
    expect(a!.swappiness).toEqual({ asked: 150, cap: 100, runs: 60 });
    expect(b!.swappiness).toEqual({ asked: 150, cap: 200, runs: 150 });
    // The overrides change what the engine does: side A is the "before" kernel of S000.
    await host.handle({ type: 'step', ns: 2_000_000_000 });
    const ref = WasmSimulation.fromScenario(capped.text, 'before');
    ref.step(2_000_000_000);
    const last = all(posted, 'frame').at(-1)!;
    expect([...last.runs[0]!.counters]).toEqual([...ref.counter_values()]);
    ref.free();
    // An unknown flag is a scenario error naming it.
    await host.handle({ type: 'load', scenario, variants: ['after'], flags: [{ refault_scan_anonn: true }] });
    expect(posted.at(-1)).toMatchObject({ type: 'error', phase: 'scenario' });
    expect(posted.at(-1)!.type === 'error' && (posted.at(-1) as { message: string }).message).toMatch(/unknown kernel flag "refault_scan_anonn"/);
  });

  it("answers a check with the core's problem (line, column, field) or null", async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'check', id: 1, text: small });
    expect(posted.at(-1)).toMatchObject({ type: 'checked', id: 1, problem: null, info: { title: expect.stringMatching(/^S000/) } });
    const bad = small.replace('ram = "2GiB"', 'ram = "lots"');
    await host.handle({ type: 'check', id: 2, text: bad });
    const line = bad.slice(0, bad.indexOf('ram = "lots"')).split('\n').length;
    expect(posted.at(-1)).toMatchObject({ type: 'checked', id: 2, problem: { line, column: 7, field: 'machine.ram' } });
    // With a setup (a link's knobs): the text it resolves to; a knob the engine refuses is a
    // problem without a place, named in its message.
    await host.handle({ type: 'check', id: 3, text: small, setup: { knobs: [['ram', 'lots']], pair: null } });
    expect(posted.at(-1)).toMatchObject({ type: 'checked', id: 3, problem: { line: 0, message: expect.stringContaining('with ram=lots') } });
    await host.handle({ type: 'check', id: 4, text: small, setup: { knobs: [['swap_device', 'nvme9']], pair: null } });
    expect(posted.at(-1)).toMatchObject({ type: 'checked', id: 4, problem: { line: 0, message: expect.stringContaining('nvme9') } });
    expect(host.runCount).toBe(0); // checking loads nothing
  });

  it("sends a scenario's lesson steps with loaded", async () => {
    const { host, posted } = harness();
    const lessonText = readFileSync(new URL('../../../scenarios/lesson-two-list-lru.toml', import.meta.url), 'utf8');
    await host.handle({ type: 'load', scenario: { name: 'lesson-two-list-lru.toml', text: lessonText }, variants: [] });
    const [loaded] = all(posted, 'loaded');
    expect(loaded!.lesson.map((s) => [s.atNs, s.pause, s.highlight])).toEqual([
      [50_000_000, true, 'lru'],
      [750_000_000, true, 'lru'],
      [1_250_000_000, true, 'lru'],
      [1_300_000_000, true, 'lru'],
      [2_080_000_000, true, 'charts'],
    ]);
    expect(loaded!.lesson[0]!.caption).toMatch(/^Linux keeps file pages on two lists/);
    const noLesson = small.slice(0, small.indexOf('\n[[lesson]]'));
    await host.handle({ type: 'load', scenario: { name: 's000-thrash.toml', text: noLesson }, variants: [] });
    expect(all(posted, 'loaded').at(-1)!.lesson).toEqual([]);
  });

  it('carries the MGLRU generations of a run that has them, and none for the classic LRU', async () => {
    const noreuse = readFileSync(new URL('../../../scenarios/s003b-noreuse.toml', import.meta.url), 'utf8').replace('[machine]', '[machine]\nframe_scale = 64');
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario: { name: 's003b-noreuse.toml', text: noreuse }, variants: ['before'] });
    await host.handle({ type: 'step', ns: 2_000_000_000 });
    expect(posted.filter((m) => m.type === "error")).toEqual([]);
    const gens = all(posted, "frame").at(-1)!.runs[0]!.gens;
    const ref = WasmSimulation.fromScenario(noreuse, 'before');
    ref.step(2_000_000_000);
    expect(gens).toEqual(JSON.parse(ref.lru_gen_view(0)));
    expect(gens!.rows.length).toBeGreaterThan(0);
    ref.free();
    await host.handle({ type: 'load', scenario, variants: ['before'] });
    expect(all(posted, 'frame').at(-1)!.runs[0]!.gens).toBeUndefined();
  });

  it('reports a malformed message as a protocol error and stepping before a load as an engine error', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'step', ns: -1 });
    expect(posted.at(-1)).toMatchObject({ type: 'error', phase: 'protocol' });
    await host.handle({ type: 'step', ns: 1000 });
    expect(posted.at(-1)).toEqual({ type: 'error', phase: 'engine', message: "Error: no scenario loaded: send a 'load' message first" });
  });

  it('reports a failed engine load as an init error, once', async () => {
    const { host, posted } = harness(async () => {
      throw new TypeError('WebAssembly.instantiate(): expected magic word');
    });
    await host.handle({ type: 'load', scenario, variants: [] });
    await host.handle({ type: 'step', ns: 1000 });
    expect(posted).toEqual([{ type: 'error', phase: 'init', message: 'TypeError: WebAssembly.instantiate(): expected magic word' }]);
  });
});
