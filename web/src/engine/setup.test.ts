// The page's setup (knobs, a swappiness pair) is applied by the engine: the host resolves it,
// loads what it resolves to, and reports the file as it is beside it.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineHost } from './host';
import { initWasm, wasmEngine } from './nodeEngine';
import type { FromWorker, ScenarioSource } from './protocol';
import { setupOf } from '../lib/knobs';

const read = (name: string) => readFileSync(new URL(`../../../scenarios/${name}`, import.meta.url), 'utf8');

async function load(scenario: ScenarioSource, variants: string[] = []) {
  const posted: FromWorker[] = [];
  const host = new EngineHost({ load: async () => wasmEngine, post: (m) => posted.push(m) });
  await host.handle({ type: 'load', scenario, variants });
  return posted;
}

beforeAll(initWasm);

describe('the setup, applied by the engine', () => {
  it('a swappiness pair runs two copies of one variant, named and capped by the engine', async () => {
    const text = read('lesson-swappiness.toml');
    const posted = await load({ name: 'lesson-swappiness.toml', text, setup: setupOf({}, { variant: 'linux-6.1', swappiness: [0, 200] }) });
    const loaded = posted.find((m) => m.type === 'loaded');
    if (loaded?.type !== 'loaded') throw new Error(JSON.stringify(posted));
    expect(loaded.runs.map((r) => r.variant)).toEqual(['linux-6.1 · swappiness 0', 'linux-6.1 · swappiness 200']);
    expect(loaded.runs.map((r) => r.preset)).toEqual(['linux-6.1', 'linux-6.1']);
    expect(loaded.runs.map((r) => r.kernel.swappiness.asked)).toEqual([0, 200]);
    // The file as it is: its own variants, its own swappiness.
    expect(loaded.file.variants.map((v) => v.name)).not.toContain('linux-6.1 · swappiness 0');
    expect(loaded.file.variants.map((v) => v.name)).toContain('linux-6.1');
    expect(loaded.text).toContain('sysctl = { swappiness = 200 }');
  });

  it('the knobs land in the runs, and the file info keeps the scenario values the knobs replace', async () => {
    const text = read('s004-pgbench.toml');
    const posted = await load({ name: 's004-pgbench.toml', text, setup: setupOf({ swappiness: 30, swapDevice: 'ssd', sysctls: { dirty_ratio: '40' } }) });
    const loaded = posted.find((m) => m.type === 'loaded');
    if (loaded?.type !== 'loaded') throw new Error(JSON.stringify(posted));
    // S004's vanilla 4.7 asks for 100 by itself: the knob replaces it too.
    expect(loaded.runs[0]!.kernel.swappiness.asked).toBe(30);
    expect(loaded.file.devices).toEqual(['hdd', 'ssd']);
    expect(loaded.file.swappiness).not.toBe(30);
    expect(loaded.file.expect.length).toBeGreaterThan(0);
    expect(loaded.text).toMatch(/^dirty_ratio = 40$/m);
    expect(loaded.text).toMatch(/swap = \{ device = "ssd"/);
  });

  it('a knob the engine refuses is a scenario error naming it, and nothing loads', async () => {
    const text = read('s000-thrash.toml');
    for (const [setup, words] of [
      [setupOf({ swapDevice: 'nvme9' }), 'nvme9'],
      [setupOf({ sysctls: { swapiness: '1' } }), '"swapiness"'],
      [setupOf({}, { variant: 'sideways', swappiness: [0, 200] }), '"sideways"'],
    ] as const) {
      const posted = await load({ name: 's000-thrash.toml', text, setup });
      expect(posted.some((m) => m.type === 'loaded')).toBe(false);
      const err = posted.find((m) => m.type === 'error');
      expect(err?.type === 'error' && err.phase === 'scenario' && err.message).toContain(words);
    }
  });
});
