import { describe, expect, it } from 'vitest';
import type { RunFrame, RunInfo } from '../engine/protocol';
import { figureSvg } from './figure';

// An exported figure at time 0 (as a user exports right after opening a scenario).
const run = { variant: 'classic', preset: 'linux-6.1', scale: 1, frames: 10, endNs: 1e9 } as unknown as RunInfo;
const frame = { nowNs: 0, lists: { inactive_anon: 0, active_anon: 0, inactive_file: 0, active_file: 0, unevictable: 0, free: 65536 } } as unknown as RunFrame;
const svg = figureSvg({ title: 'T', runs: [run], kernels: ['linux-6.1'], frames: [frame], series: [[]], link: 'http://h/#v1=x' });
const texts = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), t: m[3]! }));

describe('exported figure at time 0', () => {
  it('labels its axes without 2e-10 time ticks or repeated count ticks', () => {
    expect(svg).not.toMatch(/>\d(\.\d+)?e-\d+</);
    // The counter axis's labels (right-aligned left of the plot): each value once.
    const yLabels = texts.filter((t) => t.x === 632).map((t) => t.t);
    expect(yLabels.length).toBeGreaterThan(1);
    expect(new Set(yLabels).size).toBe(yLabels.length);
  });

  it('puts each list size on the row of its list name', () => {
    const name = texts.find((t) => t.t === 'free')!;
    const value = texts.find((t) => t.t === '65,536')!;
    expect(Math.abs(value.y - name.y)).toBeLessThan(3);
  });
});
