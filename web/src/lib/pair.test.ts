import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initSync, scenario_check } from '../../pkg/reclaim_core.js';
import { pairName, swappinessPair, sysctlSwappiness, variantNames, variantPresets } from './scenarioText';

const TEXT = `title = "t"

[sysctl]
swappiness = 30

[[variants]]
name = "before"
preset = "linux-5.7"

[[variants]]
name = "after"
preset = "linux-6.1"
flags = { lru_gen = true }

[[tasks]]
name = "x"
`;

describe('knob comparison text', () => {
  it('reads [sysctl] swappiness, 60 when absent', () => {
    expect(sysctlSwappiness(TEXT)).toBe(30);
    expect(sysctlSwappiness('title = "t"\n')).toBe(60);
  });
  it('replaces the variants with two copies of one, each with its own swappiness', () => {
    const t = swappinessPair(TEXT, 'after', [0, 200])!;
    expect(variantNames(t)).toEqual([pairName('after', 0), pairName('after', 200)]);
    expect(variantPresets(t).map((v) => v.preset)).toEqual(['linux-6.1', 'linux-6.1']);
    expect(t.match(/flags = \{ lru_gen = true \}/g)).toHaveLength(2);
    expect(t).toContain('sysctl = { swappiness = 0 }');
    expect(t).toContain('sysctl = { swappiness = 200 }');
    expect(t).toContain('[[tasks]]\nname = "x"');
    expect(t).not.toContain('"before"');
  });
  it('is null for a variant the text does not have', () => {
    expect(swappinessPair(TEXT, 'sideways', [0, 200])).toBeNull();
  });
  it('gives text the engine accepts for every scenario: expectations and facts name the old variants, so they go', () => {
    initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
    const dir = new URL('../../../scenarios/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.toml'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      const base = variantNames(text).at(-1)!;
      const pair = swappinessPair(text, base, [0, 200])!;
      expect(scenario_check(pair), f).toBe('null');
      expect(pair, f).not.toMatch(/^\[\[expect\]\]/m);
    }
  });
});
