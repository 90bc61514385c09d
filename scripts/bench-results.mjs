// Machine-readable results of the bench scripts (`npm run bench`, `bench:compare`, `bench:web`):
// each writes bench-results/<name>.json (its latest run only, committed) with the run it comes
// from, then BENCHMARKS.md's goals table is rebuilt from every such file (scripts/bench-goals.mjs).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { writeGoals } from './bench-goals.mjs';

const ROOT = new URL('../', import.meta.url);
export const RESULTS_DIR = new URL('bench-results/', ROOT);

const git = (...args) => {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
};

/** Where and when a run happened: the UTC time, the commit (with "+changes" when the engine,
 *  page or bench code differ from it), the load average (1, 5, 15 min) now and the machine.
 *  `extra` (e.g. the load at the start, the browser's version) is merged in. */
export function runInfo(script, extra = {}) {
  const head = git('rev-parse', '--short', 'HEAD');
  const changed = git('status', '--porcelain', '--', 'wasm-core', 'web/src', 'scripts', 'e2e', 'scenarios');
  return {
    script,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    commit: head === null ? 'unknown' : head + (changed ? '+changes' : ''),
    load_avg: loadavg().map((x) => Math.round(x * 100) / 100),
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    ...extra,
  };
}

/** Write bench-results/<name>.json ({ run, ...results }) and rebuild the goals table. */
export function writeResults(name, run, results) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(new URL(`${name}.json`, RESULTS_DIR), JSON.stringify({ run, ...results }, null, 1) + '\n');
  writeGoals();
}
