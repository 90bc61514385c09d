// Hostile input in the WebAssembly build (issue #25): every reproducer of
// wasm-core/tests/hostile gets the same bounded outcome as natively (a validation error naming
// the field and the limit, or a run to the end), memory stays bounded, and a panic would be
// reported by message rather than as `unreachable`. Hostile links are refused, with the core's
// message, within 2 s of CPU time each (process CPU time, not the wall clock, which a busy
// machine stretches; vitest runs this file alone in its process).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, last_panic, scenario_check, WasmSimulation } from '../../pkg/reclaim_core.js';
import { decodeLink, LinkError, toBase64Url, type LinkState } from '../lib/link';
import { checkLinkedScenario } from '../lib/linkCheck';
import type { ScenarioChecker } from './checker';
import { hostChecker } from './nodeEngine';
import type { ScenarioProblem } from './protocol';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = root + 'wasm-core/tests/hostile/';
const corpus = readdirSync(dir)
  .filter((f) => f.endsWith('.toml'))
  .sort()
  .map((f) => ({ name: f, text: readFileSync(dir + f, 'utf8') }));
/** Memory may grow to this much over the whole corpus (the budget keeps every case small). */
const MAX_MEMORY_BYTES = 512 << 20;

/** This process's CPU time (user + system), in ms. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

let memory: WebAssembly.Memory;
beforeAll(() => {
  memory = initSync({ module: readFileSync(root + 'web/pkg/reclaim_core_bg.wasm') }).memory;
});

function expectation(text: string): { field: string; words: string } | { stall: string } | 'run' {
  const line = /^# expect: (.*)$/m.exec(text)![1]!;
  if (line === 'run') return 'run';
  if (line.startsWith('stall ')) return { stall: line.slice('stall '.length) };
  const m = /^error (\S+) (.*)$/.exec(line)!;
  return { field: m[1]!, words: m[2]! };
}

describe('hostile scenarios in wasm', () => {
  it('has the corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
  });
  for (const { name, text } of corpus) {
    it(name, () => {
      const want = expectation(text);
      const problem = JSON.parse(scenario_check(text)) as ScenarioProblem | null;
      if (want === 'run') {
        expect(problem).toBeNull();
        const sim = WasmSimulation.fromScenario(text, 'v');
        try {
          const report = JSON.parse(sim.run_to_end_json()) as { virtual_s: number };
          expect(sim.finished()).toBe(true);
          expect(report.virtual_s).toBeGreaterThan(0);
        } finally {
          sim.free();
        }
      } else if ('stall' in want) {
        // Valid, but the engine's progress guard ends the run: the Error names it, the task
        // and the op.
        expect(problem).toBeNull();
        const sim = WasmSimulation.fromScenario(text, 'v');
        try {
          expect(() => sim.run_to_end_json()).toThrow(new RegExp(`${want.stall}.*task "t\\d", op tasks\\[\\d\\]\\.program\\[2\\] \\(loop\\)`));
          expect(sim.finished()).toBe(true);
        } finally {
          sim.free();
        }
      } else {
        expect(problem).not.toBeNull();
        expect(problem!.field).toBe(want.field);
        expect(problem!.message).toContain(want.words);
        expect(() => WasmSimulation.fromScenario(text, 'v')).toThrow(want.words);
      }
      expect(last_panic()).toBe('');
      expect(memory.buffer.byteLength).toBeLessThan(MAX_MEMORY_BYTES);
    }, 30_000);
  }
});

/** The link checker against the real wasm engine, in-process (the page runs it in a worker). */
const inProcess = (): ScenarioChecker => hostChecker();

async function linkOf(v: unknown): Promise<string> {
  const cs = new CompressionStream('deflate-raw');
  const w = cs.writable.getWriter();
  void w.write(new TextEncoder().encode(JSON.stringify(v)));
  void w.close();
  return `#v1=${toBase64Url(new Uint8Array(await new Response(cs.readable).arrayBuffer()))}`;
}

const BUNDLED = { 's000-thrash.toml': readFileSync(root + 'scenarios/s000-thrash.toml', 'utf8') };

/** Decode and check a link as the page does; the message the banner would show. */
async function open(hash: string): Promise<string | null> {
  try {
    const s: LinkState = await decodeLink(hash, Object.keys(BUNDLED));
    await checkLinkedScenario(s, BUNDLED[s.scenario as keyof typeof BUNDLED], inProcess);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(LinkError);
    return (e as Error).message;
  }
}

describe('hostile links', () => {
  const base = { s: 's000-thrash.toml', v: [], c: false, sp: 0, t: 0 };
  it('a plain link opens', async () => {
    expect(await open(await linkOf(base))).toBeNull();
  });
  for (const { name, text } of corpus.filter((c) => { const e = expectation(c.text); return e !== 'run' && !('stall' in e); })) {
    it(`carrying ${name}: refused with the core's message within 2 s of CPU`, async () => {
      const started = cpuMs();
      const want = expectation(text) as { field: string; words: string };
      const message = await open(await linkOf({ ...base, x: text }));
      expect(message).toContain(want.field);
      expect(message).toContain(want.words);
      expect(cpuMs() - started).toBeLessThan(2000);
    });
  }
  const knobs: [string, Record<string, unknown>, string][] = [
    ['4 TiB of RAM at frame scale 1', { ram: '4TiB', frameScale: 1 }, 'MAX_FRAMES'],
    ['RAM below the minimum', { ram: '1MiB' }, 'machine.ram'],
  ];
  for (const [what, k, words] of knobs) {
    it(`knobs with ${what}: refused within 2 s of CPU`, async () => {
      const started = cpuMs();
      expect(await open(await linkOf({ ...base, k }))).toContain(words);
      expect(cpuMs() - started).toBeLessThan(2000);
    });
  }
  it('malformed links are refused within 2 s of CPU each', async () => {
    const good = await linkOf(base);
    const proto = await linkOfRaw('{"s":"s000-thrash.toml","v":[],"c":false,"sp":0,"t":0,"f":[{"__proto__":true}]}');
    for (const hash of [good.replace('#v1=', '#v000001='), good + 'AAAA', proto]) {
      const started = cpuMs();
      expect(await open(hash)).toBeTruthy();
      expect(cpuMs() - started).toBeLessThan(2000);
    }
  });
});

async function linkOfRaw(json: string): Promise<string> {
  const cs = new CompressionStream('deflate-raw');
  const w = cs.writable.getWriter();
  void w.write(new TextEncoder().encode(json));
  void w.close();
  return `#v1=${toBase64Url(new Uint8Array(await new Response(cs.readable).arrayBuffer()))}`;
}

describe('a panic in the engine', () => {
  it('is reported by its message, not as unreachable, and the runs are dropped', async () => {
    const { EngineHost } = await import('./host');
    const { parseFromWorker } = await import('./protocol');
    const posted: ReturnType<typeof parseFromWorker>[] = [];
    let panicked = '';
    // The real engine, with a simulation whose step aborts as a wasm panic does.
    const host = new EngineHost({
      load: async () => ({
        engineVersion: () => 'test',
        scenarioInfo: () => JSON.stringify({ title: 't', description: '', variants: [{ name: 'v', preset: 'linux-6.1' }], lesson: [], devices: [], swappiness: 60, expect: [] }),
        resolve: () => {
          throw new Error('no setup in this test');
        },
        create: (t, v) => {
          const sim = WasmSimulation.fromScenario(t, v);
          sim.step = () => {
            panicked = 'lruvec 0 onlined twice at src/mm/vmscan/memcg_lru.rs:1';
            throw new WebAssembly.RuntimeError('unreachable');
          };
          return sim;
        },
        scenarioCheck: (t) => scenario_check(t),
        lastPanic: () => {
          const p = panicked;
          panicked = '';
          return p;
        },
      }),
      post: (m) => posted.push(parseFromWorker(m)),
    });
    const text = corpus.find((c) => c.name === 'cpu-max.toml')!.text;
    await host.handle({ type: 'load', scenario: { name: 'x.toml', text }, variants: ['v'] });
    await host.handle({ type: 'step', ns: 1000 });
    const error = posted.find((m) => m.type === 'error');
    expect(error).toMatchObject({ phase: 'engine' });
    expect((error as { message: string }).message).toContain('lruvec 0 onlined twice');
    expect((error as { message: string }).message).not.toContain('unreachable');
    expect(host.runCount).toBe(0);
  });

  it('leaves nothing in last_panic when nothing panicked', () => {
    expect(last_panic()).toBe('');
  });
});
