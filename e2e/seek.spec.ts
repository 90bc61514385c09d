// Seeking (issue 44, item 7): the worker keeps checkpoints of the runs, so a seek back restores
// the nearest one and replays only from there; a paused lesson's next step is computed ahead;
// every seek shows its progress (in an embed too), and lands on the state a fresh run has at
// that time. The timings are measured by e2e/seek.bench.ts (`npm run bench:web`).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { initSync, WasmSimulation } from '../web/pkg/reclaim_core.js';
import { stepTo } from '../web/src/engine/stepTo';
import { formatNs } from '../web/src/format';
import { encodeLink, type LinkState } from '../web/src/lib/link';
import { failOnPageErrors, shot } from './support/page';

failOnPageErrors();

const ROOT = new URL('../', import.meta.url);
const S000 = readFileSync(new URL('scenarios/s000-thrash.toml', ROOT), 'utf8');
test.beforeAll(() => {
  initSync({ module: readFileSync(new URL('web/pkg/reclaim_core_bg.wasm', ROOT)) });
});

const link = (s: Partial<LinkState> & { scenario: string }) =>
  encodeLink({ knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0, ...s });

interface SeenSeek {
  from: number | null;
  to: number;
  done: number | null;
}

/** Record every seek progress the page shows, however briefly (a restore may be shown for one
 *  frame only): its from, to and share done (null before the worker said where it starts). */
async function watchSeeks(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { seeks: SeenSeek[] };
    w.seeks = [];
    const note = () =>
      document.querySelectorAll<HTMLElement>('[data-testid="seek-progress"], [data-testid="scrub-progress"]').forEach((el) =>
        w.seeks.push({
          from: el.dataset.fromNs === undefined ? null : Number(el.dataset.fromNs),
          to: Number(el.dataset.toNs),
          done: el.dataset.done === undefined ? null : Number(el.dataset.done),
        }),
      );
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}
const seeks = (page: Page) => page.evaluate(() => (window as unknown as { seeks: SeenSeek[] }).seeks.splice(0));
/** Where the worker said the latest seek replayed from (kept by the page after it lands). */
const from = async (page: Page) => Number(await page.locator('[data-testid="status"], [data-testid="scrubber"]').first().getAttribute('data-seek-from-ns'));

/** Wait until the embed is paused at `ns` with no seek shown. */
async function landed(page: Page, ns: number, timeout = 30_000) {
  await expect(page.getByTestId('virtual-time')).toHaveText(formatNs(ns), { timeout });
  await expect(page.getByTestId('status')).toHaveText('paused');
  await expect(page.getByTestId('seek-progress')).toHaveCount(0);
}

const LISTS = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file', 'free'] as const;
const LIST_INDEX = [0, 1, 2, 3, 5];

/** The LRU sizes the embed shows for run 0, and a fresh engine run's at `ns`. */
async function shownAndFresh(page: Page, variant: string, ns: number) {
  const shown = await page.evaluate((lists) => lists.map((k) => Number(document.querySelector(`[data-testid="run-0-lru-size-${k}"]`)?.getAttribute('data-pages'))), [...LISTS]);
  const sim = WasmSimulation.fromScenario(S000, variant);
  stepTo(sim, ns);
  const lru = [...sim.lru_sizes()];
  sim.free();
  return { shown, fresh: LIST_INDEX.map((k) => lru[k]!) };
}

test('clicker steps in the S000 embed: next is computed ahead, back restores a checkpoint, each shows progress and lands on the fresh run', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const steps = [200_000_000, 1_000_000_000, 2_500_000_000];
  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto(`/?embed&view=lru#${await link({ scenario: 's000-thrash.toml' })}`);
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 30_000 });
  await watchSeeks(page);
  await page.getByTestId('virtual-time').click();
  for (const [k, ns] of steps.entries()) {
    // Paused, the next step is computed in the background; the clicker then lands on it.
    await expect(page.getByTestId('status')).toHaveAttribute('data-ahead', `ready ${ns}`, { timeout: 60_000 });
    await page.keyboard.press('PageDown');
    await landed(page, ns);
    const shown = await seeks(page);
    expect(shown.length, `step ${k + 1}: progress shown`).toBeGreaterThan(0);
    expect(shown.every((s) => s.to === ns)).toBe(true);
    // Restored where the background computation stopped: nothing to replay.
    expect(await from(page), `step ${k + 1} restored`).toBe(ns);
    const { shown: lru, fresh } = await shownAndFresh(page, 'before', ns);
    expect(lru).toEqual(fresh);
  }
  await shot(page, testInfo, 's000-embed-step-3');
  // Back: the lesson's previous step, kept as a checkpoint when it was reached.
  await page.keyboard.press('PageUp');
  await landed(page, steps[1]!);
  const back = await seeks(page);
  expect(back.length).toBeGreaterThan(0);
  expect(await from(page)).toBe(steps[1]);
  const { shown: lru, fresh } = await shownAndFresh(page, 'before', steps[1]!);
  expect(lru).toEqual(fresh);
});

test('a seek back in the full page replays from a checkpoint, not from the start, with its progress on the time bar', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(`/#${await link({ scenario: 's000-thrash.toml' })}`);
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 30_000 });
  // Step on to 5 s of virtual time, 1 s a step (the worker keeps checkpoints on the way).
  await page.getByTestId('speed-slider').fill('16');
  for (let k = 1; k <= 5; k++) {
    await page.getByTestId('step').click();
    await expect(page.getByTestId('scrubber')).toHaveAttribute('data-now-ns', String(k * 1_000_000_000), { timeout: 60_000 });
  }
  await watchSeeks(page);
  const scrub = page.getByTestId('scrub');
  const step = Number(await scrub.getAttribute('step'));
  const target = Math.round(3_300_000_000 / step) * step;
  await scrub.fill(String(target));
  await expect(page.getByTestId('scrubber')).toHaveAttribute('data-now-ns', String(target), { timeout: 30_000 });
  await expect(page.getByTestId('scrub-progress')).toHaveCount(0);
  const shown = await seeks(page);
  expect(shown.length).toBeGreaterThan(0);
  expect(shown.every((s) => s.to === target)).toBe(true);
  // From a checkpoint after the start and at or before the target.
  const replayedFrom = Number(await page.getByTestId('scrubber').getAttribute('data-seek-from-ns'));
  expect(replayedFrom).toBeGreaterThan(0);
  expect(replayedFrom).toBeLessThanOrEqual(target);
  await shot(page, testInfo, 's000-scrubbed-back');
});

test('PageDown in the S003 memcg embed lands on the next lesson step with progress shown', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const at = 620_000_000_000;
  const next = 1_200_000_000_000;
  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto(`/?embed&view=memcg#${await link({ scenario: 's003-memcg-lru.toml', variants: ['before', 'after'], compare: true, view: 'memcg', timeNs: at })}`);
  await watchSeeks(page);
  // Opening the link is a seek from the start, with its progress.
  await expect(page.getByTestId('seek-progress')).toContainText('replaying from the start', { timeout: 60_000 });
  await shot(page, testInfo, 's003-memcg-embed-opening');
  await landed(page, at, 180_000);
  const open = await seeks(page);
  expect(open.some((s) => s.to === at && s.from === 0)).toBe(true);
  expect(open.some((s) => s.done !== null && s.done > 0 && s.done < 1)).toBe(true);
  await expect(page.getByTestId('status')).toHaveAttribute('data-ahead', `ready ${next}`, { timeout: 180_000 });
  await page.getByTestId('virtual-time').click();
  await page.keyboard.press('PageDown');
  await landed(page, next);
  const shown = await seeks(page);
  expect(shown.length).toBeGreaterThan(0);
  expect(await from(page)).toBe(next);
  await expect(page.getByTestId('run-0-memcg-view')).toBeVisible();
  await shot(page, testInfo, 's003-memcg-embed-1200s');
});
