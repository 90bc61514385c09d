// Full-scale S000 (2 GB = 524,288 frames, both variants) run to the end in Chromium, cold and
// warm, beside the native engine in the same invocation (issue #28, Wanted 4). Writes the
// section "## Browser run to end" of BENCHMARKS.md (only that section is replaced).
//
// The wasm build the page uses (web/pkg) is loaded as a module into a page of the app's origin
// and driven as scripts/bench-wasm.mjs drives it in Node: one `fromScenario` and
// `run_to_end_json` per variant, on the page's main thread (the app runs the same calls in its
// results worker). Native: `cargo bench --bench engine` with only its S000 row, before and after
// the browser's runs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, homedir, loadavg } from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { baseURL } from './support/base';
import { writeSection } from './support/benchDoc';

const ROOT = new URL('../', import.meta.url);
const COLD_PAGES = 3;
const WARM_RUNS = 5;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** The native engine's median wall time for S000, both variants (5 runs). */
function nativeS000(): number {
  const out = execFileSync('cargo', ['bench', '--quiet', '--manifest-path', 'wasm-core/Cargo.toml', '--bench', 'engine'], {
    cwd: ROOT,
    env: { ...process.env, RECLAIM_BENCH_ONLY: 's000_both_variants', PATH: `${process.env.CARGO_HOME ?? `${homedir()}/.cargo`}/bin:${process.env.PATH}` },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const row = out.split('\n').find((l) => l.startsWith('{"bench":"s000_both_variants"'));
  if (!row) throw new Error(`cargo bench printed no s000_both_variants row:\n${out}`);
  return JSON.parse(row).wall_s as number;
}

// The module is imported by the page itself (a module script), not inside page.evaluate, whose
// function Playwright may transpile. `instantiate` fetches, compiles and instantiates the wasm.
const PAGE = `<!doctype html><title>bench</title><script type="module">
import init, * as engine from '/__bench/pkg/reclaim_core.js';
window.engine = engine;
window.instantiate = async () => { const t0 = performance.now(); await init({ module_or_path: '/__bench/pkg/reclaim_core_bg.wasm' }); return performance.now() - t0; };
</script>`;

/** A page of the app's origin that serves web/pkg and the scenario under /__bench/. */
async function benchPage(page: Page): Promise<void> {
  await page.route(`${baseURL}/__bench/**`, (route) => {
    const path = new URL(route.request().url()).pathname.replace('/__bench/', '');
    if (path === '') return route.fulfill({ contentType: 'text/html', body: PAGE });
    const file = path.startsWith('pkg/') ? new URL(`web/${path}`, ROOT) : new URL(`scenarios/${path}`, ROOT);
    const type = path.endsWith('.js') ? 'text/javascript' : path.endsWith('.wasm') ? 'application/wasm' : 'text/plain';
    return route.fulfill({ contentType: type, body: readFileSync(file) });
  });
  await page.goto(`${baseURL}/__bench/`);
  await page.waitForFunction(() => 'instantiate' in window);
}

type Timing = { instantiate_ms: number; runs_ms: number[]; faults: number };

/** In the page: instantiate the module, then run S000's variants to the end `runs` times. */
const runInPage = (page: Page, runs: number) =>
  page.evaluate(async (runs): Promise<Timing> => {
    type Sim = { run_to_end_json(): string; free(): void };
    const w = window as unknown as { instantiate(): Promise<number>; engine: { WasmSimulation: { fromScenario(t: string, v: string): Sim } } };
    const instantiate_ms = await w.instantiate();
    const text = await (await fetch('/__bench/s000-thrash.toml')).text();
    const variants = [...text.matchAll(/^\s*name\s*=\s*"([^"]+)"\s*\n\s*preset/gm)].map((v) => v[1]!);
    const runs_ms: number[] = [];
    let faults = 0;
    for (let i = 0; i < runs; i++) {
      faults = 0;
      const t = performance.now();
      for (const v of variants) {
        const sim = w.engine.WasmSimulation.fromScenario(text, v);
        faults += JSON.parse(sim.run_to_end_json()).counters.pgfault as number;
        sim.free();
      }
      runs_ms.push(performance.now() - t);
    }
    return { instantiate_ms, runs_ms, faults };
  }, runs);

test('full-scale S000 run to the end in Chromium, cold and warm, beside native', async ({ browser }) => {
  test.setTimeout(900_000);
  const nativeBefore = nativeS000();
  const cold: Timing[] = [];
  let warm: Timing | null = null;
  for (let i = 0; i < COLD_PAGES; i++) {
    // A fresh context each time: nothing compiled or cached from the page before.
    const context = await browser.newContext();
    const page = await context.newPage();
    await benchPage(page);
    if (i < COLD_PAGES - 1) cold.push(await runInPage(page, 1));
    else {
      warm = await runInPage(page, 1 + WARM_RUNS);
      cold.push({ ...warm, runs_ms: warm.runs_ms.slice(0, 1) });
    }
    await context.close();
  }
  const nativeAfter = nativeS000();
  // Both variants fault pages in: a run that did nothing would show here.
  expect(warm!.faults).toBeGreaterThan(500_000);

  const native = (nativeBefore + nativeAfter) / 2;
  const coldMs = median(cold.map((c) => c.runs_ms[0]!));
  const warmMs = median(warm!.runs_ms.slice(1));
  const instMs = median(cold.map((c) => c.instantiate_ms));
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const body = `
Measured by \`npm run bench:web\` (e2e/run-to-end.bench.ts), ${when}: full-scale S000 (2 GB,
524,288 frames), both variants run to the end, in Debian Chromium ${browser.version()} (headless)
and natively (\`cargo bench --bench engine\`, its S000 row alone, run before and after the
browser; the mean of the two medians). In the browser the web build (web/pkg) runs on a page's
main thread, as scripts/bench-wasm.mjs runs it in Node. Cold: the first run in a fresh
browser context, after the module is instantiated (median of ${COLD_PAGES} contexts). Warm:
runs 2-${1 + WARM_RUNS} in the last context (median). ${cpus().length} cores, load average
${loadavg()[0]!.toFixed(1)} when it ended (the machine is shared: expect noise).

| measurement | time | wasm/native speed |
|---|---|---|
| native, median (before / after the browser) | ${(native * 1000).toFixed(0)} ms (${(nativeBefore * 1000).toFixed(0)} / ${(nativeAfter * 1000).toFixed(0)}) | 1 |
| Chromium, cold (first run) | ${coldMs.toFixed(0)} ms | ${((native * 1000) / coldMs).toFixed(2)} |
| Chromium, warm | ${warmMs.toFixed(0)} ms | ${((native * 1000) / warmMs).toFixed(2)} |
| Chromium, fetch + compile + instantiate of the module | ${instMs.toFixed(0)} ms | |
`;
  writeSection('## Browser run to end', body);
  console.log(body);
});
