// Issue #48's cold S000 as a user meets it: the app's page loaded (its first scenario's results
// in) and idle, then the user starts a run of S000 by choosing it in the scenario list; timed in
// the page from that choice (the select's change event) to the results panel saying done (both
// variants' columns and the engine's figures). The live view loads S000 in its own worker at the
// same time, as it does for a user. Writes the section "## Browser cold run" of BENCHMARKS.md and
// bench-results/web-cold-run.json.
//
// Each round is a fresh browser context (nothing compiled or cached). Before and after in one
// run: with RECLAIM_BENCH_BEFORE=<url> (a server of another build), every round measures that
// build too, the order alternating by round.
import { cpus, loadavg } from 'node:os';
import { expect, test, type Browser } from '@playwright/test';
import { baseURL } from './support/base';
import { runInfo, writeResults, writeSection } from './support/benchDoc';
import { scenarioFile } from './support/editor';

const ROUNDS = Number(process.env.RECLAIM_BENCH_ROUNDS ?? 5);
const BEFORE = process.env.RECLAIM_BENCH_BEFORE?.replace(/\/$/, '') ?? null;
// What the before build is, for the text (e.g. "915bbc2, the commit before the results pool").
const BEFORE_NAME = process.env.RECLAIM_BENCH_BEFORE_NAME ?? null;
const FILE = 's000-thrash.toml';
const TITLE = /^title\s*=\s*"(.*)"/m.exec(scenarioFile(FILE))![1]!;
// The page is idle once its main thread has had SETTLE_IDLE idle callbacks in a row, each with
// (nearly) the whole 50 ms an idle period may have (as e2e/run-to-end.bench.ts).
const SETTLE_IDLE = 5;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

// In the page: the time of the scenario choice, and of the results panel's first "done" after it
// has shown another status (the previous scenario's results say done until the choice lands).
// Also when each variant's column first says done (`__cols`, by column).
const WATCH = () => {
  const w = window as unknown as { __runAt?: number; __runDone?: number; __cols?: Record<string, number> };
  let left = false;
  document.addEventListener(
    'change',
    (e) => {
      if ((e.target as Element).matches('[data-testid="scenario-select"]')) [w.__runAt, w.__runDone, w.__cols, left] = [performance.now(), undefined, {}, false];
    },
    true,
  );
  new MutationObserver(() => {
    if (w.__runAt === undefined || w.__runDone !== undefined) return;
    const status = document.querySelector('[data-testid="results"]')?.getAttribute('data-status');
    if (status !== 'done') left = true;
    if (!left) return;
    for (const th of document.querySelectorAll('[data-testid^="results-head-"][data-status="done"]')) w.__cols![th.getAttribute('data-testid')!] ??= performance.now();
    if (status === 'done') w.__runDone = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
};

const SETTLE = (n: number) =>
  new Promise<number>((resolve) => {
    const t0 = performance.now();
    let idle = 0;
    const tick = (d: IdleDeadline) => {
      idle = !d.didTimeout && d.timeRemaining() >= 49 ? idle + 1 : 0;
      if (idle >= n) resolve(performance.now() - t0);
      else requestIdleCallback(tick, { timeout: 20_000 });
    };
    requestIdleCallback(tick, { timeout: 20_000 });
  });

/** One fresh context on `origin`: the page's first results in and the page idle, then S000
 *  chosen; the ms from the choice to S000's results and to each column's (in the order they
 *  came), the figures shown, and the idle wait. */
async function coldRun(browser: Browser, origin: string): Promise<{ ms: number; cols: number[]; values: string[]; settleMs: number; load: number }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(WATCH);
    await page.goto(`${origin}/`);
    await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    const settleMs = await page.evaluate(SETTLE, SETTLE_IDLE);
    const load = loadavg()[0]!;
    await page.getByTestId('scenario-select').selectOption({ label: TITLE });
    await page.waitForFunction(() => (window as unknown as { __runDone?: number }).__runDone !== undefined, null, { timeout: 120_000, polling: 100 });
    await expect(page.getByTestId('scenario-select')).toHaveValue(FILE);
    const [ms, cols] = await page.evaluate(() => {
      const w = window as unknown as { __runAt: number; __runDone: number; __cols: Record<string, number> };
      return [w.__runDone - w.__runAt, Object.values(w.__cols).map((t) => t - w.__runAt).sort((a, b) => a - b)] as const;
    });
    const values = await page.locator('[data-testid="results-headline"] td').allTextContents();
    return { ms, cols: [...cols], values, settleMs, load };
  } finally {
    await context.close();
  }
}

test('cold S000 on the app: page loaded and idle, then S000 chosen, to its full results', async ({ browser }) => {
  test.setTimeout(1_800_000);
  const loadStart = loadavg()[0]!;
  const builds = BEFORE ? ([['before', BEFORE], ['after', baseURL]] as const) : ([['after', baseURL]] as const);
  const times = new Map<string, number[]>();
  const settles = new Map<string, number[]>();
  const columns = new Map<string, number[][]>();
  const loads: number[] = [];
  const seen = new Map<string, string[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [b, origin] of round % 2 ? [...builds].reverse() : builds) {
      const r = await coldRun(browser, origin);
      times.set(b, [...(times.get(b) ?? []), r.ms]);
      settles.set(b, [...(settles.get(b) ?? []), r.settleMs]);
      columns.set(b, [...(columns.get(b) ?? []), r.cols]);
      loads.push(r.load);
      expect(r.values.length).toBeGreaterThan(0);
      // One build shows the same figures in every round (determinism).
      const first = seen.get(b);
      if (first) expect(r.values, `${b}, round ${round}`).toEqual(first);
      else seen.set(b, r.values);
    }
  }
  const before = times.get('before');
  const after = times.get('after')!;
  const list = (v: number[]) => v.map(Math.round).join(', ');
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  // The median over the rounds of the time to the first and to the second column done.
  const col = (b: string, i: number) => Math.round(median(columns.get(b)!.map((c) => c[i] ?? NaN)));
  const row = (b: string, v: number[]) => `| ${b} | ${Math.round(median(v))} ms | ${col(b, 0)} ms | ${col(b, 1)} ms | ${list(v)} | ${list(settles.get(b)!)} |`;
  const body = `
Measured by \`npm run bench:web\` (e2e/cold-run.bench.ts), ${when}, in Debian Chromium
${browser.version()} (headless) on ${cpus().length} cores; load average ${loadStart.toFixed(1)} at the
start, ${loadavg()[0]!.toFixed(1)} at the end, ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} as each run started: the machine
is shared, so the ratio of medians taken in alternating rounds holds better than the times.
${BEFORE ? `"before" is ${BEFORE_NAME ? `${BEFORE_NAME} (served at ${BEFORE})` : `the build served at ${BEFORE}`}, measured in turn with this one ("after").` : 'No "before" build was given (RECLAIM_BENCH_BEFORE): this build only.'}

Cold S000 as a user starts it: a fresh context opens the page, its first scenario's results come
in, the page's main thread is idle (${SETTLE_IDLE} idle callbacks in a row of at least 49 ms each; the
wait after the results is in the last column), then S000 is chosen in the scenario list. Timed in
the page from that choice to the results panel saying done for S000 (both variants and the
engine's figures; the live view loads S000 beside it). Medians of ${ROUNDS} rounds; beside them
the medians of the time to the first variant's column done and to the second's (the rest, to
"done", is the assessment of the expectations).

| build | median | first column | second column | rounds (ms) | idle wait (ms) |
|---|---:|---:|---:|---|---|
${before ? `${row('before', before)}\n` : ''}${row('after', after)}
${before ? `\nafter / before: ${(median(after) / median(before)).toFixed(2)}.\n` : ''}`;
  writeSection('## Browser cold run', body);
  writeResults('web-cold-run', runInfo('npm run bench:web (e2e/cold-run.bench.ts)', { load_avg_start: loadStart, browser: `Chromium ${browser.version()}` }), {
    rounds: ROUNDS,
    before: BEFORE,
    before_name: BEFORE_NAME,
    method: 'app: page loaded and idle, then S000 chosen in the scenario list; choice to results done',
    load_at_runs: loads,
    s000: {
      before_ms: before ?? null,
      after_ms: after,
      columns_before_ms: columns.get('before') ?? null,
      columns_after_ms: columns.get('after'),
      settle_before_ms: settles.get('before') ?? null,
      settle_after_ms: settles.get('after'),
    },
  });
  console.log(body);
});
