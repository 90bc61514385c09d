// The figure's link travels in the PNG text chunk and the SVG metadata, escaped.
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { RunFrame, RunInfo } from '../engine/protocol';
import { figureSvg, LINK_KEY, pngText, withPngText } from './figure';

/** The smallest PNG skeleton: signature, IHDR (13 bytes), IEND (CRCs not checked here). */
function png(): Uint8Array {
  const b = new Uint8Array(8 + 25 + 12);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const dv = new DataView(b.buffer);
  dv.setUint32(8, 13);
  b.set([...'IHDR'].map((c) => c.charCodeAt(0)), 12);
  dv.setUint32(16, 2);
  dv.setUint32(20, 1);
  dv.setUint32(33, 0);
  b.set([...'IEND'].map((c) => c.charCodeAt(0)), 37);
  return b;
}

describe('figure', () => {
  it('puts the link in a tEXt chunk after IHDR, with a correct CRC, and reads it back', () => {
    const link = 'http://h/#v1=abc_-';
    const out = withPngText(png(), LINK_KEY, link);
    expect(pngText(out, LINK_KEY)).toBe(link);
    expect(pngText(png(), LINK_KEY)).toBeNull();
    expect(pngText(new TextEncoder().encode('not a png'), LINK_KEY)).toBeNull();
    const type = String.fromCharCode(...out.subarray(37, 41));
    expect(type).toBe('tEXt');
    // The chunk's CRC-32 covers type and data, as zlib computes it.
    const c = withPngText(png(), 'k', '123456789');
    expect(c.length).toBe(png().length + 12 + 1 + 1 + 9);
    const body = c.subarray(37, 37 + 4 + 11);
    expect(new DataView(c.buffer).getUint32(37 + 4 + 11)).toBe(crc32(body));
  });

  it('writes a standalone SVG with title, units, both runs, and the link in metadata, escaped', () => {
    const run = (variant: string): RunInfo => ({ variant, preset: 'linux-5.2', scale: 1, frames: 10, endNs: 1e9 }) as RunInfo;
    const frame = { nowNs: 5e8, lists: { inactive_anon: 1, active_anon: 2, inactive_file: 3, active_file: 4, unevictable: 0, free: 5 } } as unknown as RunFrame;
    const svg = figureSvg({ title: 'T <&>', runs: [run('a'), run('b')], kernels: ['linux-5.2', 'linux-5.3'], frames: [frame, frame], series: [[], []], link: 'http://h/#v1=x&y' });
    expect(svg).toContain('<title>T &lt;&amp;&gt; — a: linux-5.2  vs  b: linux-5.3 — 500.000 ms</title>');
    expect(svg).toContain(`<metadata id="${LINK_KEY}">http://h/#v1=x&amp;y</metadata>`);
    for (const s of ['LRU list sizes (pages)', 'virtual time (s)', 'pages or faults (cumulative)', 'a (linux-5.2)', 'b (linux-5.3)']) expect(svg).toContain(s);
  });
});
