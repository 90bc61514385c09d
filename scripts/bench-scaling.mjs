// Scaling rows of `npm run bench` (issue #28): the release CLI (`reclaim run --json --no-budget`)
// on S000 scaled to 1/2/4/8/16 GiB (RAM, anon, file and mappings together; variant "before")
// and on S003 with 16/32/64/128 memcgs (one fio task each; both variants). Each run is its own
// process: user+system CPU seconds and peak RSS (see `measure`). Prints one JSON object per line.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const cli = join(root, 'wasm-core/target/release/reclaim');
const dir = mkdtempSync(join(tmpdir(), 'reclaim-scaling-'));

// Each row runs RUNS times (RECLAIM_SCALING_RUNS, an odd number, default 3) and reports the
// median CPU time of the CLI alone, taken by bash's `time` (to the millisecond: /usr/bin/time's
// 10 ms steps made the 1 GiB row, about 55 ms, coarse), and the largest peak RSS: /usr/bin/time
// runs outside bash, so its own CPU is not counted, and its %M is that of the largest process
// it waited for, the CLI.
const runs = Number(process.env.RECLAIM_SCALING_RUNS ?? 3);
if (!Number.isInteger(runs) || runs < 1 || runs % 2 === 0) throw new Error(`RECLAIM_SCALING_RUNS must be an odd positive integer (so that the median is one run), not ${process.env.RECLAIM_SCALING_RUNS}`);

function measure(text, variant) {
  const file = join(dir, 'scenario.toml');
  writeFileSync(file, text);
  const [timeFile, rssFile, outFile] = ['time', 'rss', 'out.json'].map((f) => join(dir, f));
  const cpu = [];
  let rssKb = 0;
  let report;
  for (let i = 0; i < runs; i++) {
    // The CLI's stderr goes to ours (fd 3), so that a failure says why; `time` writes to TIMES.
    execFileSync('/usr/bin/time', ['-o', rssFile, '-f', '%M', 'bash', '-c',
      'exec 3>&2; TIMEFORMAT="%3U %3S"; { time "$@" > "$OUT" 2>&3; } 2> "$TIMES"', 'bash',
      cli, 'run', file, '--variant', variant, '--json', '--no-budget'],
    // LC_ALL=C: bash writes the locale's decimal point.
    { env: { ...process.env, LC_ALL: 'C', OUT: outFile, TIMES: timeFile }, stdio: ['ignore', 'ignore', 'inherit'] });
    const [user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    cpu.push(Math.round((user + sys) * 1000) / 1000); // bash gives each to the millisecond
    rssKb = Math.max(rssKb, Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()));
    report ??= JSON.parse(readFileSync(outFile, 'utf8'));
  }
  cpu.sort((a, b) => a - b);
  if (!cpu.every(Number.isFinite) || !(rssKb > 0)) throw new Error(`scaling: could not read the CPU time or peak RSS of a run (${cpu}, ${rssKb} kB)`);
  return { cpu_s: cpu[(runs - 1) / 2], cpu_runs_s: cpu, peak_rss_mb: rssKb / 1024, counters: report.counters };
}

try {
  const s000 = readFileSync(join(root, 'scenarios/s000-thrash.toml'), 'utf8');
  for (const gib of [1, 2, 4, 8, 16]) {
    const k = gib / 2; // S000 is written for 2 GiB
    const mib = (m) => `"${Math.round(m * k)}MiB"`;
    // Each replacement names its line's context, so that a new size is never replaced again.
    const text = s000
      .replace('ram = "2GiB"', `ram = "${gib}GiB"`)
      .replace('device = "disk", size = "4GiB"', `device = "disk", size = ${mib(4096)}`)
      .replace(/(name = "large"\s*\nsize = )"200MiB"/, `$1${mib(200)}`)
      .replace('name = "heap", size = "2048MiB"', `name = "heap", size = ${mib(2048)}`)
      .replace('offset = "0", size = "100MiB"', `offset = "0", size = ${mib(100)}`)
      .replace('offset = "100MiB", size = "100MiB"', `offset = ${mib(100)}, size = ${mib(100)}`)
      .replace('duration = "600s"', `duration = "${600 * Math.max(k, 1)}s"`);
    for (const want of [`ram = "${gib}GiB"`, `name = "heap", size = ${mib(2048)}`, `offset = ${mib(100)}, size = ${mib(100)}`, `offset = "0", size = ${mib(100)}`, `duration = "${600 * Math.max(k, 1)}s"`]) {
      if (!text.includes(want)) throw new Error(`scaling S000 to ${gib} GiB: s000-thrash.toml no longer has the line for ${want}`);
    }
    const m = measure(text, 'before');
    // Work: the pages the task touched (faults + resident hits are not split in the report; the
    // program's touches scale with k exactly).
    console.log(JSON.stringify({ bench: 'scale_s000', gib, cpu_s: m.cpu_s, cpu_runs_s: m.cpu_runs_s, peak_rss_mb: m.peak_rss_mb, pgfault: m.counters.pgfault }));
  }
  const s003 = readFileSync(join(root, 'scenarios/s003-memcg-lru.toml'), 'utf8');
  // 128 memcgs and one fio task in each: both counts change together.
  const memcgsAt = /(\[\[memcgs\]\]\s*\nname = "memcg\{i\}"\s*\nreplicas = )128/;
  const tasksAt = /(\[\[tasks\]\]\s*\nname = "fio\{i\}"\s*\nmemcg = "memcg\{i\}"\s*\nreplicas = )128/;
  if (!memcgsAt.test(s003) || !tasksAt.test(s003) || s003.split('replicas = 128').length !== 3) {
    throw new Error('scaling S003: s003-memcg-lru.toml no longer has "replicas = 128" in its [[memcgs]] memcg{i} and its [[tasks]] fio{i}, and nowhere else');
  }
  for (const variant of ['before', 'after']) {
    for (const memcgs of [16, 32, 64, 128]) {
      const m = measure(s003.replace(memcgsAt, `$1${memcgs}`).replace(tasksAt, `$1${memcgs}`), variant);
      console.log(JSON.stringify({ bench: 'scale_s003', variant, memcgs, cpu_s: m.cpu_s, cpu_runs_s: m.cpu_runs_s, peak_rss_mb: m.peak_rss_mb, pgfault: m.counters.pgfault }));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
