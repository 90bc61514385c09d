// The engine host against the real wasm engine (web/pkg, built by `npm run wasm`),
// instantiated synchronously in Node.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, engine_version, WasmSimulation } from '../../pkg/reclaim_core.js';
import { EngineHost, type EngineModule, type HostDeps } from './host';
import { parseFromWorker, type FromWorker } from './protocol';

const crateVersion = /^version\s*=\s*"([^"]+)"/m.exec(
  readFileSync(new URL('../../../wasm-core/Cargo.toml', import.meta.url), 'utf8'),
)?.[1];

const realEngine: EngineModule = {
  engineVersion: () => engine_version(),
  create: () => new WasmSimulation(),
};

/** A host whose timer is driven by hand, recording (and validating) what it posts. */
function harness(load: () => Promise<EngineModule> = async () => realEngine) {
  const posted: FromWorker[] = [];
  let pending: (() => void) | null = null;
  const deps: HostDeps = {
    load,
    post: (msg) => posted.push(parseFromWorker(msg)),
    schedule(fn) {
      pending = fn;
      return () => {
        if (pending === fn) pending = null;
      };
    },
  };
  const fire = () => {
    const fn = pending;
    pending = null;
    fn?.();
    return fn !== null;
  };
  return { host: new EngineHost(deps), posted, fire, ticking: () => pending !== null };
}

const snapshots = (posted: FromWorker[]) =>
  posted.filter((m): m is Extract<FromWorker, { type: 'snapshot' }> => m.type === 'snapshot');

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
});

describe('EngineHost with the wasm engine', () => {
  it('reports ready with the crate version, then the demo counters', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario: { kind: 'builtin', name: 'demo' } });
    expect(crateVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(posted[0]).toEqual({ type: 'ready', protocol: 1, engineVersion: crateVersion });
    const loaded = posted[1];
    expect(loaded?.type).toBe('loaded');
    if (loaded?.type !== 'loaded') return;
    expect(loaded.counterNames.length).toBeGreaterThan(0);
    const [first] = snapshots(posted);
    expect(first?.nowNs).toBe(0);
    expect(first?.counters.length).toBe(loaded.counterNames.length);
  });

  it('advances virtual time and counters on step', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'load', scenario: { kind: 'builtin', name: 'demo' } });
    await host.handle({ type: 'step', ns: 5_000_000 });
    const [before, after] = snapshots(posted);
    expect(after!.nowNs).toBeGreaterThanOrEqual(5_000_000);
    expect(after!.seq).toBe(before!.seq + 1);
    expect(after!.counters.length).toBe(before!.counters.length);
    expect([...after!.counters]).not.toEqual([...before!.counters]);
  });

  it('runs on its timer until paused', async () => {
    const { host, posted, fire, ticking } = harness();
    await host.handle({ type: 'load', scenario: { kind: 'builtin', name: 'demo' } });
    await host.handle({ type: 'run', sliceNs: 1_000_000 });
    expect(host.running).toBe(true);
    expect(fire()).toBe(true);
    expect(fire()).toBe(true);
    const running = snapshots(posted).at(-1)!;
    expect(running.running).toBe(true);
    expect(running.nowNs).toBeGreaterThanOrEqual(2_000_000);
    await host.handle({ type: 'pause' });
    expect(ticking()).toBe(false);
    const paused = snapshots(posted).at(-1)!;
    expect(paused).toMatchObject({ running: false, nowNs: running.nowNs });
  });

  it('reports a malformed message as a protocol error and keeps working', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'step', ns: -1 });
    expect(posted.at(-1)).toMatchObject({ type: 'error', phase: 'protocol' });
    await host.handle({ type: 'load', scenario: { kind: 'builtin', name: 'demo' } });
    expect(posted.at(-1)?.type).toBe('snapshot');
  });

  it('reports stepping before a scenario is loaded as an engine error', async () => {
    const { host, posted } = harness();
    await host.handle({ type: 'step', ns: 1000 });
    expect(posted.at(-1)).toEqual({
      type: 'error',
      phase: 'engine',
      message: "Error: no scenario loaded: send a 'load' message first",
    });
  });

  it('reports a failed engine load as an init error, once', async () => {
    const { host, posted } = harness(async () => {
      throw new TypeError('WebAssembly.instantiate(): expected magic word');
    });
    await host.handle({ type: 'load', scenario: { kind: 'builtin', name: 'demo' } });
    await host.handle({ type: 'step', ns: 1000 });
    expect(posted).toEqual([
      { type: 'error', phase: 'init', message: 'TypeError: WebAssembly.instantiate(): expected magic word' },
    ]);
  });

  it('stops running and reports when the engine throws mid-run', async () => {
    const { host, posted, fire } = harness(async () => ({
      engineVersion: () => 'test',
      create: () => {
        const sim = new WasmSimulation();
        let calls = 0;
        return {
          step: (ns: number) => {
            if (++calls === 2) throw new WebAssembly.RuntimeError('unreachable');
            sim.step(ns);
          },
          now_ns: () => sim.now_ns(),
          counter_names: () => sim.counter_names(),
          counter_values: () => sim.counter_values(),
          free: () => sim.free(),
        };
      },
    }));
    await host.handle({ type: 'load', scenario: { kind: 'builtin', name: 'demo' } });
    await host.handle({ type: 'run', sliceNs: 1000 });
    fire();
    fire();
    expect(posted.at(-1)).toEqual({ type: 'error', phase: 'engine', message: 'RuntimeError: unreachable' });
    expect(host.running).toBe(false);
    expect(fire()).toBe(false);
  });
});
