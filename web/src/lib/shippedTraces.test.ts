// The shipped-trace manifest as the page reads it, the manifest in the repository, and the size
// check that refuses a dropped trace before it is read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_TRACE_FILE_BYTES, sizeRefusal } from '../app/useTrace';
import { fetchTrace, loadManifest, parseManifest } from './shippedTraces';

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
  /** The page's reading of a text's trace names: the engine's (trace_names through the core). */
  async function pageNames() {
    const { initWasm } = await import('../engine/nodeEngine');
    const { results_table, trace_names } = await import('../../pkg/reclaim_core.js');
    initWasm();
    const { coreOf, tracelessText } = await import('../engine/core');
    const core = coreOf(results_table, trace_names);
    return { names: (text: string) => tracelessText(text) ?? core.traceNames(text), engine: trace_names };
  }

  it('are the engine\'s for every bundled scenario, and the bundled ones that replay a trace are those in traces/', async () => {
    const { names, engine } = await pageNames();
    const { replaysTrace, SCENARIOS } = await import('../scenarios');
    expect(SCENARIOS.length).toBeGreaterThan(10);
    for (const s of SCENARIOS) {
      expect(names(s.text), s.name).toEqual(engine(s.text));
      expect(replaysTrace(s), s.name).toBe(engine(s.text).length > 0);
    }
    expect(names(SCENARIOS.find((s) => s.name === 'traces/lesson-not-lru.toml')!.text)).toEqual(['cloudPhysicsIO.oracleGeneral.bin']);
  });

  it('are not misread from comments, other strings or escapes', async () => {
    const { names } = await pageNames();
    const dir = new URL('../../../scenarios/', import.meta.url);
    const lesson = readFileSync(new URL('traces/lesson-not-lru.toml', dir), 'utf8');
    // A replay op commented out, one spelled inside the description's string, and the real one with
    // its tag written through an escape and its trace name in a literal string.
    const text = lesson
      .replace('[[tasks]]', '# { op = "replay", trace = "commented.bin" }\n[[tasks]]')
      .replace(/^description = .*$/m, 'description = \'not { op = "replay", trace = "quoted.bin" }\'')
      .replace('{ op = "replay", trace = "cloudPhysicsIO.oracleGeneral.bin"', '{ trace = \'real "one".bin\', op = "re\\u0070lay"');
    expect(text).toContain('re\\u0070lay');
    expect(names(text)).toEqual(['real "one".bin']);
    // A text without the word and without a backslash is answered without the engine: none.
    expect(names(readFileSync(new URL('s000-thrash.toml', dir), 'utf8'))).toEqual([]);
  });
});

describe('the manifest and a served trace, when the server does not have them', () => {
  const answer = (body: string, type: string, status = 200) => (() => Promise.resolve(new Response(body, { status, headers: { 'content-type': type } }))) as unknown as typeof fetch;
  const served = { file: 'x.csv', format: 'csv', title: 't', source: 's', licence: 'CC0-1.0', served: true } as const;

  it('names the URL and says an HTML page is not JSON (a static host\'s fallback)', async () => {
    const html = answer('<!doctype html><html><body>app</body></html>', 'text/html; charset=utf-8');
    await expect(loadManifest(html)).rejects.toThrow('the list of shipped traces (traces/index.json) is not JSON: the server answered with an HTML page, which a static host sends for a file it does not have');
    await expect(loadManifest(answer('{"traces": [', 'application/json'))).rejects.toThrow(/^the list of shipped traces \(traces\/index\.json\) is not JSON: the JSON parser says /);
    await expect(fetchTrace(served, html)).rejects.toThrow('the trace x.csv (traces/x.csv) is not there: the server answered with an HTML page');
  });

  it('says what failed and where: no answer, an HTTP error, not a manifest', async () => {
    const down = (() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    await expect(loadManifest(down)).rejects.toThrow('the list of shipped traces (traces/index.json) could not be fetched: Failed to fetch');
    await expect(loadManifest(answer('gone', 'text/plain', 404))).rejects.toThrow('the list of shipped traces (traces/index.json) could not be loaded: the server answered HTTP 404');
    await expect(fetchTrace(served, answer('', 'text/plain', 500))).rejects.toThrow('the trace x.csv (traces/x.csv) could not be loaded: the server answered HTTP 500');
    await expect(loadManifest(answer('{}', 'application/json'))).rejects.toThrow('the list of shipped traces (traces/index.json) is not a trace manifest: the trace manifest has no "traces" list');
  });
});
