// Seek times in Chromium (issue 44, item 7: any seek or clicker step in S000 < 300 ms, in the
// S003 memcg embed < 2 s, with progress shown meanwhile). Writes the section "## Seeking" of
// BENCHMARKS.md (only that section is replaced).
//
// Each time is taken in the page, from the key press (or the slider's input event) to the
// first animation frame at which the page shows the target time, paused, with no seek
// progress left on screen. Rounds run in fresh pages; medians are quoted with min-max.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { initSync, WasmSimulation } from '../web/pkg/reclaim_core.js';
import { stepTo } from '../web/src/engine/stepTo';
import { formatNs } from '../web/src/format';
import { encodeLink, type LinkState } from '../web/src/lib/link';
import { runInfo, writeResults, writeSection } from './support/benchDoc';

const ROUNDS = 3;
/** S003 rounds: the even ones press PageDown at once on landing, the odd ones wait until the
 *  next step is computed ahead. */
const S003_ROUNDS = 3;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const cell = (v: number[]) => (v.length ? `${Math.round(median(v))} ms (${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}, n=${v.length})` : '—');

const link = (s: Partial<LinkState> & { scenario: string }) =>
  encodeLink({ knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0, ...s });

/** Start timing at the next `event` (keydown, or the slider's input): once this resolves, the
 *  listener is in place. `landed(page)` then gives the wall ms until the page shows `text` in
 *  `timeId`, paused, with no seek progress, and whether progress was shown meanwhile. */
async function arm(page: Page, event: 'keydown' | 'input', timeId: string, text: string) {
  await page.evaluate(
    ([event, timeId, text]) => {
      const w = window as unknown as { landed: Promise<{ ms: number; progress: boolean }> };
      w.landed = new Promise((resolve) => {
        let t0: number | null = null;
        let progress = false;
        addEventListener(event, () => (t0 ??= performance.now()), { capture: true, once: true });
        const q = (id: string) => document.querySelector(`[data-testid="${id}"]`);
        // A restore from a checkpoint may show its progress for less than a frame: watch the DOM.
        const seen = new MutationObserver(() => (progress ||= !!(q('seek-progress') ?? q('scrub-progress'))));
        seen.observe(document.body, { subtree: true, childList: true, attributes: true });
        const tick = () => {
          progress ||= !!(q('seek-progress') ?? q('scrub-progress'));
          const shown = timeId === 'scrubber' ? (q('scrubber') as HTMLElement | null)?.dataset.nowNs : q(timeId)?.textContent;
          const busy = q('seek-progress') ?? q('scrub-progress');
          if (t0 !== null && shown === text && !busy && /paused|finished/.test(q('status')?.textContent ?? '')) {
            seen.disconnect();
            resolve({ ms: performance.now() - t0, progress });
          } else requestAnimationFrame(tick);
        };
        tick();
      });
    },
    [event, timeId, text] as const,
  );
}
/** The armed seek's landing; a seek that never lands fails after `limitMs` instead of holding
 *  the run until the test's timeout. */
const landed = (page: Page, limitMs = 300_000) =>
  page.evaluate(
    (limitMs) =>
      Promise.race([
        (window as unknown as { landed: Promise<{ ms: number; progress: boolean }> }).landed,
        new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`the seek did not land within ${limitMs} ms`)), limitMs)),
      ]),
    limitMs,
  );

/** Press `key` and time it to landing at `ns` (embed). */
async function press(page: Page, key: string, ns: number) {
  await arm(page, 'keydown', 'virtual-time', formatNs(ns));
  await page.keyboard.press(key);
  const r = await landed(page);
  expect(r.progress, `progress shown for ${key} to ${formatNs(ns)}`).toBe(true);
  return r.ms;
}

const aheadReady = (page: Page, ns: number, timeout = 60_000) => expect(page.getByTestId('status')).toHaveAttribute('data-ahead', `ready ${ns}`, { timeout });

// Each part can run alone (`-g S003`): the section is written only when both ran.
const s000 = { nextAhead: [] as number[], nextCold: [] as number[], back: [] as number[], arrowBack: [] as number[], scrubBack: [] as number[] };
/** The engine's own CPU time (ms, wasm in Node) for S003's 620 s -> 1,200 s, per variant: what
 *  a replay costs on an idle core, whatever the load. */
const s003Cpu: Record<string, number> = {};
const s003 = { open: [] as number[], ahead: [] as number[], nextAhead: [] as number[], back: [] as number[], nextAgain: [] as number[], nextCold: [] as number[] };
test.describe.configure({ mode: 'serial' });
/** The 1-minute load average when each part started. */
const loads: string[] = [];
test.beforeEach(() => {
  loads.push(loadavg()[0]!.toFixed(1));
});

test('seek times: S000 embed and full page', async ({ browser }) => {
  test.setTimeout(1_800_000);
  const steps = [200_000_000, 1_000_000_000, 2_500_000_000, 8_500_000_000, 10_500_000_000];
  const s000Link = await link({ scenario: 's000-thrash.toml' });
  for (let round = 0; round < ROUNDS; round++) {
    const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
    await page.goto(`/?embed&view=lru#${s000Link}`);
    await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 60_000 });
    await page.getByTestId('virtual-time').click();
    // Next, as soon as the page is paused (the background computation may not be done).
    s000.nextCold.push(await press(page, 'PageDown', steps[0]!));
    for (const ns of steps.slice(1)) {
      await aheadReady(page, ns);
      s000.nextAhead.push(await press(page, 'PageDown', ns));
    }
    for (const ns of steps.slice(0, -1).reverse()) s000.back.push(await press(page, 'PageUp', ns));
    // One time step back (the Step button's, at the default speed): a checkpoint before it, then a replay.
    const stepNs = Number(await page.getByTestId('step').getAttribute('data-step-ns'));
    expect(stepNs).toBeGreaterThan(0);
    s000.arrowBack.push(await press(page, 'ArrowLeft', steps[0]! - stepNs));
    await page.close();
  }
  // The full page's time slider: back to times between checkpoints.
  for (let round = 0; round < ROUNDS; round++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`/#${s000Link}`);
    await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 60_000 });
    await page.getByTestId('speed-slider').fill('16');
    for (let k = 1; k <= 8; k++) {
      await page.getByTestId('step').click();
      await expect(page.getByTestId('scrubber')).toHaveAttribute('data-now-ns', String(k * 1_000_000_000), { timeout: 60_000 });
    }
    const scrub = page.getByTestId('scrub');
    const step = Number(await scrub.getAttribute('step'));
    for (const f of [0.73, 0.31, 0.55]) {
      const target = Math.round((8_000_000_000 * f) / step) * step;
      await arm(page, 'input', 'scrubber', String(target));
      await scrub.fill(String(target));
      const r = await landed(page);
      expect(r.progress).toBe(true);
      s000.scrubBack.push(r.ms);
    }
    await page.close();
  }
});

test('seek times: S003 memcg embed', async ({ browser }) => {
  test.setTimeout(1_800_000);
  // S003 at its original size, both variants, the memcg embed, opened at the lesson's 620 s.
  const at = 620_000_000_000;
  const next = 1_200_000_000_000;
  const s003Link = await link({ scenario: 's003-memcg-lru.toml', variants: ['before', 'after'], compare: true, view: 'memcg', timeNs: at });
  for (let round = 0; round < S003_ROUNDS; round++) {
    const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
    await page.goto(`/?embed&view=memcg#${s003Link}`);
    await expect(page.getByTestId('virtual-time')).toHaveText(formatNs(at), { timeout: 300_000 });
    await expect(page.getByTestId('status')).toHaveText('paused');
    s003.open.push(await page.evaluate(() => performance.now()));
    const t0 = Date.now();
    if (round % 2 === 0) {
      // The presenter presses at once: the background computation has only begun.
      await page.getByTestId('virtual-time').click();
      s003.nextCold.push(await press(page, 'PageDown', next));
      await page.close();
      continue;
    }
    await aheadReady(page, next, 300_000);
    s003.ahead.push(Date.now() - t0);
    await page.getByTestId('virtual-time').click();
    s003.nextAhead.push(await press(page, 'PageDown', next));
    s003.back.push(await press(page, 'PageUp', at));
    s003.nextAgain.push(await press(page, 'PageDown', next));
    await page.close();
  }
});

test('S003: the engine CPU time of the replay 620 s -> 1,200 s (wasm in Node)', () => {
  test.setTimeout(600_000);
  const root = new URL('../', import.meta.url);
  initSync({ module: readFileSync(new URL('web/pkg/reclaim_core_bg.wasm', root)) });
  const text = readFileSync(new URL('scenarios/s003-memcg-lru.toml', root), 'utf8');
  for (const variant of ['before', 'after']) {
    const sim = WasmSimulation.fromScenario(text, variant);
    stepTo(sim, 620_000_000_000);
    const c = process.cpuUsage();
    stepTo(sim, 1_200_000_000_000);
    const d = process.cpuUsage(c);
    s003Cpu[variant] = (d.user + d.system) / 1000;
    sim.free();
  }
});

test.afterAll(() => {
  const body = `Written by \`npm run bench:web\` (e2e/seek.bench.ts), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores, load average ${loads.join(', ')} when the S000, S003 and engine CPU parts started, ${loadavg()[0]!.toFixed(1)} at the end. In the page, from the key press (or the slider's input) to the first frame showing the target time, paused, with the seek's progress gone; progress was shown during every one. Median (min–max, n).

| seek | S000 embed (lru view, one run) |
|---|---|
| PageDown to the next lesson step, pressed as soon as paused at t=0 | ${cell(s000.nextCold)} |
| PageDown, the next step computed ahead while paused | ${cell(s000.nextAhead)} |
| PageUp to the previous lesson step (a checkpoint there) | ${cell(s000.back)} |
| ← one time step back (one Step of virtual time at the default speed) | ${cell(s000.arrowBack)} |
| full page, time slider back to a time between checkpoints (of 8 s reached) | ${cell(s000.scrubBack)} |

| seek | S003 memcg embed (128 memcgs, before and after) |
|---|---|
| opening the link at 620 s (page load to landed) | ${cell(s003.open)} |
| wait until 1,200 s is computed ahead (from landing at 620 s) | ${cell(s003.ahead)} |
| PageDown 620 s → 1,200 s, computed ahead | ${cell(s003.nextAhead)} |
| PageUp 1,200 s → 620 s (a checkpoint there) | ${cell(s003.back)} |
| PageDown again (a checkpoint there) | ${cell(s003.nextAgain)} |
| PageDown pressed at once on landing (replays the 580 s) | ${cell(s003.nextCold)} |

The page runs a comparison's two runs in two engine workers (engine/split.ts; one with a single core), so a replay takes the slower variant's time. The engine's CPU time for that replay, 620 s → 1,200 s, one run in Node (wasm), process CPU time, so the load does not count: ${Object.entries(s003Cpu).map(([v, ms]) => `${v} ${Math.round(ms)} ms`).join(', ') || '—'}. A seek's wall time above that is the machine's load (two cores shared), the checkpoint copies and the frames.
`;
  console.log(body);
  if (s000.nextCold.length > 0 && s003.open.length > 0) {
    writeSection('## Seeking', body);
    // Every seek above waited for its progress to show (press() fails otherwise).
    writeResults('web-seek', runInfo('npm run bench:web (e2e/seek.bench.ts)'), { progress_shown: true, s000, s003, s003_replay_cpu_ms: s003Cpu });
  } else console.log('(one part only: BENCHMARKS.md and bench-results/ left as they are)');
});
