// memcg LRU view: the worker host carries the memcg names once and the memcg LRU in every
// frame (a transferred Float64Array) for scenarios with memcgs, and nothing for the others.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, engine_version, resolve_scenario, scenario_check, scenario_info, WasmSimulation } from '../../pkg/reclaim_core.js';
import { EngineHost, type EngineModule } from './host';
import { encodeFrame, parseFromWorker, type FromWorker } from './protocol';
import { smallS003 } from '../lib/s003Small';
import { stepTo } from './stepTo';

const file = (name: string) => readFileSync(new URL(`../../../scenarios/${name}`, import.meta.url), 'utf8');
const engine: EngineModule = {
  engineVersion: () => engine_version(),
  scenarioInfo: (t) => scenario_info(t),
  resolve: (t, s) => resolve_scenario(t, s),
  create: (t, v, f) => WasmSimulation.fromScenarioWithFlags(t, v, JSON.stringify(f ?? {})),
  scenarioCheck: (t) => scenario_check(t),
};

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
});

async function run(name: string, text: string, variants: string[], ns: number) {
  const posted: FromWorker[] = [];
  const host = new EngineHost({ load: async () => engine, post: (m) => posted.push(parseFromWorker(m)) });
  await host.handle({ type: 'load', scenario: { name, text }, variants });
  await host.handle({ type: 'step', ns });
  const loaded = posted.find((m) => m.type === 'loaded')!;
  const frames = posted.filter((m): m is Extract<FromWorker, { type: 'frame' }> => m.type === 'frame');
  if (loaded.type !== 'loaded') throw new Error('no loaded message');
  return { loaded, frame: frames[frames.length - 1]! };
}

describe('memcg LRU in the frames', () => {
  it('S003 (small): names in the run info, the engine’s memcg_lru_view at the same time in each frame', async () => {
    const text = smallS003(file('s003-memcg-lru.toml'));
    const { loaded, frame } = await run('s003-memcg-lru.toml', text, ['before', 'after'], 25e9);
    const ref = WasmSimulation.fromScenario(text, 'after');
    expect(stepTo(ref, 25e9)).toBe(25e9);
    expect(loaded.runs[1]!.memcgNames).toEqual(ref.memcg_names());
    expect(frame.runs[1]!.memcg).toEqual(JSON.parse(ref.memcg_lru_view()));
    // The generations view shows the largest memcg's lruvec, as the memcg view names it.
    expect(frame.runs[1]!.gensMemcg).toBe(frame.runs[1]!.memcg!.largest);
    expect(frame.runs[1]!.gens).toEqual(JSON.parse(ref.lru_gen_view(frame.runs[1]!.memcg!.largest)));
    ref.free();
    expect(frame.runs[0]!.memcg!.active).toBe(false); // classic: the structure is not walked
    // The views are plain objects: the frame still encodes (only typed arrays are transferred).
    expect(encodeFrame(0, frame.stepMs, frame.runs).transfer.length).toBeGreaterThan(0);
  });

  it('S003 (small) under MGLRU: every frame’s LRU cells match its list lengths while generations are walked', async () => {
    // The page-table walk moves a folio's generation in its flags before sort_folio relinks it,
    // so MGLRU's generation counters can differ from the lists for a while (seen at 11 s).
    const text = smallS003(file('s003-memcg-lru.toml'));
    const posted: FromWorker[] = [];
    const host = new EngineHost({ load: async () => engine, post: (m) => posted.push(parseFromWorker(m)) });
    await host.handle({ type: 'load', scenario: { name: 's003-memcg-lru.toml', text }, variants: ['after'] });
    for (let s = 0; s < 20; s++) await host.handle({ type: 'step', ns: 1e9 });
    expect(posted.filter((m) => m.type === 'error')).toEqual([]);
    expect(posted.filter((m) => m.type === 'frame')).toHaveLength(21);
  });

  it('S000 (no memcgs): neither names nor a memcg view', async () => {
    const text = file('s000-thrash.toml').replace('[machine]', '[machine]\nframe_scale = 64');
    const { loaded, frame } = await run('s000-thrash.toml', text, [], 1e6);
    expect(loaded.runs[0]!.memcgNames).toBeUndefined();
    expect(frame.runs[0]!.memcg).toBeUndefined();
  });
});
