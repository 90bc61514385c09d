// Flag labels, overrides and the refused-swappiness note, against the real engine's KernelInfo.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, kernel_info } from '../../pkg/reclaim_core.js';
import type { KernelInfo, RunInfo } from '../engine/protocol';
import { compareVersions, flagTitle, flagsByVersion, isCustom, kernelLabel, setFlag, swappinessNote } from './flags';

let kernel: KernelInfo;
beforeAll(() => {
  initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
  kernel = JSON.parse(kernel_info()) as KernelInfo;
});

const run = (kernelPart: RunInfo['kernel']): RunInfo => ({ variant: 'a', preset: 'linux-5.7', scale: 1, frames: 64, endNs: 1, kernel: kernelPart });

describe('kernel flags in the page', () => {
  it('the engine lists each flag with a version and a one-line doc, and each preset with every flag', () => {
    expect(kernel.flags.length).toBeGreaterThanOrEqual(10);
    for (const f of kernel.flags) {
      // A mainline version, or a posted series that was never merged (the 2016 LRU cost RFC).
      expect(f.version).toMatch(/^(\d+\.\d+|RFC \d{4} \d+\/10$)/);
      expect(f.doc.length).toBeGreaterThan(10);
      // Every flag names its kernel function; a commit, where given, is an abbreviated hash.
      expect(f.function).toMatch(/^[\w .,()/]+$/);
      expect(f.commit).toMatch(/^([0-9a-f]{8,12})?$/);
    }
    // The tooltip words the table's entry: the 3.8 rule names get_scan_count and its commit.
    const plenty = kernel.flags.find((f) => f.version === '3.8' && f.commit !== '')!;
    expect(flagTitle(plenty)).toBe(`${plenty.doc}\nkernel: ${plenty.function}, commit ${plenty.commit}, 3.8`);
    expect(flagTitle(plenty)).toContain('get_scan_count');
    for (const p of kernel.presets) expect(Object.keys(p.flags).sort()).toEqual(kernel.flags.map((f) => f.name).sort());
  });

  it('labels a preset plus what differs from it', () => {
    const p58 = kernel.presets.find((p) => p.name === 'linux-5.8')!;
    const first = kernel.flags.find((f) => p58.flags[f.name])!.name;
    expect(kernelLabel(kernel, 'linux-5.8', p58.flags)).toBe('linux-5.8');
    expect(kernelLabel(kernel, 'linux-5.8', { ...p58.flags, [first]: false })).toBe(`linux-5.8 + ${first} off`);
    expect(kernelLabel(null, 'linux-5.8', p58.flags)).toBe('linux-5.8');
  });

  it('an override equal to the variant drops out; custom means the flags differ from the variant', () => {
    const base = { x: true, y: false };
    expect(setFlag({}, base, 'x', false)).toEqual({ x: false });
    expect(setFlag({ x: false }, base, 'x', true)).toEqual({});
    expect(isCustom(run({ flags: base, baseFlags: base, swappiness: { asked: 60, cap: 100, runs: 60 } }))).toBe(false);
    expect(isCustom(run({ flags: { x: false, y: false }, baseFlags: base, swappiness: { asked: 60, cap: 100, runs: 60 } }))).toBe(true);
  });

  it('orders flags by the kernel version that brought them', () => {
    expect(['5.10', '2.6.34', '4.11', '3.2', '5.8'].sort(compareVersions)).toEqual(['2.6.34', '3.2', '4.11', '5.8', '5.10']);
    expect(['RFC 2016 07/10', '5.8', 'RFC 2016 01/10', '2.6.34'].sort(compareVersions)).toEqual(['2.6.34', '5.8', 'RFC 2016 01/10', 'RFC 2016 07/10']);
    const sorted = flagsByVersion(kernel);
    expect(sorted.map((f) => f.name).sort()).toEqual(kernel.flags.map((f) => f.name).sort());
    for (let i = 1; i < sorted.length; i++) expect(compareVersions(sorted[i - 1]!.version, sorted[i]!.version)).toBeLessThanOrEqual(0);
  });

  it('notes a refused swappiness, and only then', () => {
    const k = (asked: number, cap: number, runs: number) => run({ flags: {}, baseFlags: {}, swappiness: { asked, cap, runs } });
    expect(swappinessNote('linux-5.7', k(115, 100, 60))).toBe('linux-5.7 caps swappiness at 100: 115 refused, runs 60');
    expect(swappinessNote('linux-5.8', k(115, 200, 115))).toBeNull();
    expect(swappinessNote('linux-5.7', k(100, 100, 100))).toBeNull();
  });
});
