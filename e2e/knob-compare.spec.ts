// Issue #23 point 6, comparing a knob: the swappiness slider works at once; one kernel runs at
// two swappiness values in lockstep (variants that set sysctl.swappiness), with the results of
// both; in the swappiness lesson the choice shows its cost (what is read back, from where, and
// the time it takes).
import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { decodeLink } from '../web/src/lib/link';
import { failOnPageErrors, pause, tools } from './support/page';
import { openScenario, shotsAtSizes } from './support/views';

failOnPageErrors();
const SCENARIO_NAMES = readdirSync(new URL('../scenarios/', import.meta.url)).filter((f) => f.endsWith('.toml'));
test.setTimeout(240_000);

test('the swappiness slider works at once, without a checkbox', async ({ page }) => {
  await openScenario(page, 'lesson-swappiness.toml');
  await tools(page, 'setup');
  const slider = page.getByTestId('knob-swappiness');
  await expect(slider).toBeEnabled();
  await expect(slider).toHaveValue('60'); // the scenario's [sysctl] value
  await slider.fill('150');
  await expect(page.getByTestId('knob-swappiness-value')).toHaveText('150');
  await page.getByTestId('knobs-apply').click();
  await expect(page.getByTestId('run-0-kernel')).toBeVisible();
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('results-headline').locator('thead')).toContainText('swappiness 150');
});

test('swappiness lesson: one kernel at swappiness 0 and 200 in lockstep, results of both, and the cost differs', async ({ page }, testInfo) => {
  await openScenario(page, 'lesson-swappiness.toml');
  await tools(page, 'setup');
  await page.getByTestId('compare-swappiness-toggle').check();
  await expect(page.getByTestId('run-0')).toHaveAttribute('data-variant', 'linux-6.1 · swappiness 0');
  await expect(page.getByTestId('run-1')).toHaveAttribute('data-variant', 'linux-6.1 · swappiness 200');
  await expect(page.getByTestId('compare-toggle')).not.toBeChecked();

  // In lockstep to 2 s: swappiness 0 scans no anon; 200 swaps the cold anon out.
  await page.getByTestId('speed-slider').fill('12');
  await expect
    .poll(async () => {
      const t = (await page.getByTestId('virtual-time').textContent())!;
      if (/^\d+\.\d+ s$/.test(t) && parseFloat(t) >= 2) return true;
      if ((await page.getByTestId('status').textContent()) !== 'running') await page.getByTestId('play-toggle').click();
      return false;
    }, { message: 'both runs reach 2 s', timeout: 150_000 })
    .toBe(true);
  await pause(page);
  const counter = async (run: number, name: string) => Number(await page.getByTestId(`run-${run}-counter-${name}`).getAttribute('data-pages'));
  expect(await counter(0, 'pswpout')).toBe(0);
  expect(await counter(1, 'pswpout')).toBeGreaterThan(0);
  await shotsAtSizes(page, testInfo, 'p6-knob-compare-runs', '[data-testid="runs"]');

  // The results table runs both to the end: the reader's rounds and the major faults differ.
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  const head = page.getByTestId('results-headline').locator('thead');
  await expect(head).toContainText('linux-6.1 · swappiness 0');
  await expect(head).toContainText('linux-6.1 · swappiness 200');
  // A cell's value (before its change against the first column).
  const row = async (label: string) =>
    Promise.all([0, 1].map(async (i) => Number(/^[\d,.]+/.exec((await page.getByTestId(`result-${label}-${i}`).textContent())!)![0].replace(/,/g, ''))));
  const [round0, round200] = await row('reader median round (s)');
  expect(round0, 'the file thrashes from the disk at swappiness 0').toBeGreaterThan(round200! * 1.5);
  const [maj0, maj200] = await row('reader major faults');
  expect(maj0).toBeGreaterThan(maj200! * 2);
  // At 200 the cold anon is read back from swap when its task comes back: its own cost.
  const [cold0, cold200] = await row('cold major faults');
  expect(cold200).toBeGreaterThan(cold0!);
  await shotsAtSizes(page, testInfo, 'p6-knob-compare-results', '[data-testid="results"]');
});

test('the knob comparison is in the URL: a reload reopens both runs', async ({ page }) => {
  await openScenario(page, 'lesson-swappiness.toml');
  await tools(page, 'setup');
  await page.getByTestId('compare-swappiness-toggle').check();
  await expect(page.getByTestId('run-1')).toHaveAttribute('data-variant', 'linux-6.1 · swappiness 200');
  // The address bar follows the state (written a moment after it changes).
  await expect.poll(async () => decodeLink(await page.evaluate(() => location.hash), SCENARIO_NAMES).then((s) => s.swapPair)).toEqual([0, 200]);
  await page.reload();
  await expect(page.getByTestId('run-0')).toHaveAttribute('data-variant', 'linux-6.1 · swappiness 0', { timeout: 30_000 });
  await expect(page.getByTestId('run-1')).toHaveAttribute('data-variant', 'linux-6.1 · swappiness 200');
  await tools(page, 'setup');
  await expect(page.getByTestId('compare-swappiness-toggle')).toBeChecked();
});
