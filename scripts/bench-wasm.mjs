// The engine benchmarks of wasm-core/benches/engine.rs, run on the WebAssembly build (web/pkg)
// under Node. Prints one JSON object per line, like the native bench.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const root = new URL('../', import.meta.url);
// Another build of the facade can be measured with RECLAIM_WASM_PKG=dir (default web/pkg).
const pkg = new URL(`${process.env.RECLAIM_WASM_PKG ?? 'web/pkg'}/`, root);
const { initSync, scenario_info, WasmSimulation } = await import(new URL('reclaim_core.js', pkg));
initSync({ module: readFileSync(new URL('reclaim_core_bg.wasm', pkg)) });

const RUNS = 5;
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
// The variants as the engine reads them.
const variantsOf = (text) => JSON.parse(scenario_info(text)).variants.map((v) => v.name);

function bench(path, runs = RUNS, presets = []) {
  let text = readFileSync(new URL(path, root), 'utf8');
  for (const [from, to] of presets) text = text.replaceAll(`preset = "${from}"`, `preset = "${to}"`);
  const variants = variantsOf(text);
  const walls = [];
  let sum = {};
  for (let i = 0; i < runs; i++) {
    sum = {};
    const t0 = performance.now();
    for (const v of variants) {
      const sim = WasmSimulation.fromScenario(text, v);
      const r = JSON.parse(sim.run_to_end_json());
      sim.free();
      for (const [k, c] of Object.entries(r.counters)) sum[k] = (sum[k] ?? 0) + c;
    }
    walls.push((performance.now() - t0) / 1000);
  }
  return [median(walls), sum];
}

// Cold: the first run in a fresh instance (its linear memory grows from nothing).
{
  const [wall] = bench('scenarios/s000-thrash.toml', 1);
  console.log(JSON.stringify({ bench: 's000_cold', wall_s: wall }));
}
if (process.env.RECLAIM_WASM_COLD_ONLY) process.exit(0);

for (const [name, path] of [['hit_seq', 'wasm-core/benches/scenarios/hit-seq.toml'], ['hit_random', 'wasm-core/benches/scenarios/hit-random.toml']]) {
  const [wall, c] = bench(path);
  const accesses = 40_000_000 + c.pgfault;
  console.log(JSON.stringify({ bench: name, wall_s: wall, accesses, per_s: accesses / wall }));
}
{
  const [wall, c] = bench('wasm-core/benches/scenarios/reclaim-anon.toml');
  const scanned = c.pgscan_kswapd + c.pgscan_direct + c.pgrefill;
  console.log(JSON.stringify({ bench: 'reclaim_scan', wall_s: wall, scanned, per_s: scanned / wall }));
}
{
  const [wall] = bench('scenarios/s000-thrash.toml');
  console.log(JSON.stringify({ bench: 's000_both_variants', wall_s: wall }));
}
{
  const [wall, c] = bench('scenarios/s002-kswapd-writeback.toml');
  console.log(JSON.stringify({ bench: 's002_both_variants', wall_s: wall, written: c.pgpgout, per_s: c.pgpgout / wall }));
}
{
  const mglru = [['linux-6.1', 'linux-6.14-mglru']];
  {
    const [wall, c] = bench('wasm-core/benches/scenarios/hit-random.toml', RUNS, mglru);
    const accesses = 40_000_000 + c.pgfault;
    console.log(JSON.stringify({ bench: 'mglru_hit_random', wall_s: wall, accesses, per_s: accesses / wall }));
  }
  {
    const [wall, c] = bench('wasm-core/benches/scenarios/reclaim-anon.toml', RUNS, mglru);
    const scanned = c.pgscan_kswapd + c.pgscan_direct + c.pgrefill;
    console.log(JSON.stringify({ bench: 'mglru_reclaim_scan', wall_s: wall, scanned, per_s: scanned / wall }));
  }
  {
    const [wall] = bench('scenarios/s000-thrash.toml', RUNS, [['linux-5.2', 'linux-6.1-mglru'], ['linux-5.3', 'linux-6.14-mglru']]);
    console.log(JSON.stringify({ bench: 'mglru_s000_both_variants', wall_s: wall }));
  }
  // Original-size S003 (128 memcgs); one run.
  const [wall] = bench('scenarios/s003-memcg-lru.toml', 1);
  console.log(JSON.stringify({ bench: 's003_original', wall_s: wall }));
}
