// The shipped-trace manifest as the page reads it, the manifest in the repository, and the size
// check that refuses a dropped trace before it is read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_TRACE_FILE_BYTES, sizeRefusal } from '../app/useTrace';
import { fetchTrace, parseManifest } from './shippedTraces';

const manifest = JSON.parse(readFileSync(new URL('../../../scenarios/traces/index.json', import.meta.url), 'utf8')) as unknown;

describe('the shipped traces', () => {
  it('lists each trace in scenarios/traces/ with its licence; the GPL-3.0 one is not served, with the reason', () => {
    const traces = parseManifest(manifest);
    const cp = traces.find((t) => t.file === 'cloudPhysicsIO.oracleGeneral.bin');
    expect(cp).toMatchObject({ format: 'oracleGeneral', licence: 'GPL-3.0', served: false });
    expect(cp!.reason).toMatch(/GPL-3\.0/);
    for (const t of traces) expect(() => readFileSync(new URL(`../../../scenarios/traces/${t.file}`, import.meta.url))).not.toThrow();
  });

  it('refuses a malformed entry by its number, and will not fetch one that is not served', async () => {
    expect(() => parseManifest({ traces: [{ file: '../x.bin', format: 'oracleGeneral', title: 't', source: 's', licence: 'MIT', served: true }] })).toThrow('entry 1 is malformed');
    expect(() => parseManifest({ traces: [{ file: 'x.bin', format: 'oracleGeneral', title: 't', source: 's', licence: 'GPL-3.0', served: false }] })).toThrow('a reason when not served');
    expect(() => parseManifest({})).toThrow('no "traces" list');
    let fetched = false;
    const fetcher = (() => {
      fetched = true;
      return Promise.reject(new Error('no'));
    }) as unknown as typeof fetch;
    const gpl = parseManifest(manifest).find((t) => t.file === 'cloudPhysicsIO.oracleGeneral.bin')!;
    expect(gpl.served).toBe(false);
    await expect(fetchTrace(gpl, fetcher)).rejects.toThrow('is not served by this page');
    expect(fetched).toBe(false);
  });
});

describe('a dropped trace file', () => {
  it('over the engine budget is refused by its size alone', () => {
    // A stand-in for a File: only its name and size are looked at, never its bytes.
    const file = (size: number) => ({ name: 'big.bin', size, arrayBuffer: () => Promise.reject(new Error('read')) });
    expect(sizeRefusal(file(MAX_TRACE_FILE_BYTES))).toBeNull();
    expect(sizeRefusal(file(MAX_TRACE_FILE_BYTES + 1))).toBe(`big.bin is ${MAX_TRACE_FILE_BYTES + 1} bytes; a trace may be at most ${MAX_TRACE_FILE_BYTES} bytes (256 MiB, the engine's MAX_TRACE_BYTES).`);
  });
});

describe('the traces a bundled scenario names', () => {
  it('are the ones the engine says it replays', async () => {
    const { initWasm } = await import('../engine/nodeEngine');
    const { trace_names } = await import('../../pkg/reclaim_core.js');
    initWasm();
    const { traceNames } = await import('./scenarioText');
    const dir = new URL('../../../scenarios/', import.meta.url);
    for (const f of ['traces/lesson-not-lru.toml', 'traces/cloudphysics.toml', 's000-thrash.toml', 'lesson-two-list-lru.toml']) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      expect(traceNames(text), f).toEqual(trace_names(text));
    }
    expect(traceNames(readFileSync(new URL('traces/lesson-not-lru.toml', dir), 'utf8'))).toEqual(['cloudPhysicsIO.oracleGeneral.bin']);
  });
});
