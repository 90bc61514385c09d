// State that survives (issue 24, point 5): the URL follows the page state, so a reload and
// going back to the page keep it; unsaved scenario text survives a reload; broken scenario
// text shows its error where the runs were, with Play disabled.
import { expect, test } from '@playwright/test';
import { decodeLink } from '../web/src/lib/link';
import { openScenario } from './support/views';
import { openEditor, scenarioFile, setEditorText } from './support/editor';
import { failOnPageErrors, ready, tools } from './support/page';

failOnPageErrors();

test('the URL follows the page state: a reload and back/forward keep scenario, knobs, compare, speed and time', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption('s001-used-once.toml');
  await ready(page);
  await page.getByTestId('compare-toggle').check();
  await ready(page);
  await page.getByTestId('speed-slider').fill('13');
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  const first = await page.getByTestId('virtual-time').textContent();
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText(first!);
  const time = await page.getByTestId('virtual-time').textContent();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#v1=/);
  // The hash settles on the state shown (it is written at most every 400 ms): it decodes to
  // the scenario, compare, speed and time on the page.
  const shownNs = Number(await page.getByTestId('scrubber').getAttribute('data-now-ns'));
  expect(shownNs).toBeGreaterThan(0);
  await expect
    .poll(async () => {
      const s = await decodeLink(await page.evaluate(() => location.hash), ['s001-used-once.toml']);
      return { scenario: s.scenario, compare: s.compare, speedStep: s.speedStep, timeNs: s.timeNs };
    })
    .toEqual({ scenario: 's001-used-once.toml', compare: true, speedStep: 13, timeNs: shownNs });

  await page.reload();
  await ready(page);
  await expect(page.getByTestId('scenario-select')).toHaveValue('s001-used-once.toml');
  await expect(page.getByTestId('compare-toggle')).toBeChecked();
  await expect(page.getByTestId('speed-slider')).toHaveValue('13');
  await expect(page.getByTestId('virtual-time')).toHaveText(time!);
  await expect(page.getByTestId('link-error')).toHaveCount(0);

  await page.goto('about:blank');
  await page.goBack();
  await ready(page);
  await expect(page.getByTestId('scenario-select')).toHaveValue('s001-used-once.toml');
  await expect(page.getByTestId('virtual-time')).toHaveText(time!);
  // replaceState: no history entry per change.
  expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(3);
});

test('unsaved scenario text survives a reload', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await openEditor(page);
  const text = scenarioFile('s000-thrash.toml').replace(/^title = "(.*)"$/m, 'title = "$1 (typed, not run)"');
  await setEditorText(page, text);
  await expect(page.getByTestId('scenario-draft')).toBeVisible();
  await page.reload();
  await ready(page);
  // The restored draft reopens the editor: the Scenario tab shows it.
  await tools(page, 'scenario');
  await expect(page.getByTestId('scenario-text')).toBeVisible();
  await expect(page.getByTestId('scenario-text')).toContainText('(typed, not run)');
  await expect(page.getByTestId('scenario-draft')).toBeVisible();
  // Reverting forgets it.
  await page.getByTestId('scenario-text-revert').click();
  await page.reload();
  await ready(page);
  await openEditor(page);
  await expect(page.getByTestId('scenario-text')).not.toContainText('(typed, not run)');
});

test('running broken scenario text shows the error where the runs were and disables Play', async ({ page }, testInfo) => {
  await openScenario(page, 's000-thrash.toml'); // the text below is S000's
  await page.getByTestId('step').click();
  await openEditor(page);
  await setEditorText(page, scenarioFile('s000-thrash.toml').replace('ram = "2GiB"', 'ram = "lots"'));
  await page.getByTestId('scenario-text-apply').click();
  const alert = page.getByTestId('engine-error');
  await expect(alert).toContainText(/line \d+/);
  await expect(page.getByTestId('play-toggle')).toBeDisabled();
  await expect(page.getByTestId('step')).toBeDisabled();
  await expect(page.getByTestId('status')).toHaveText(/error/i);
  await expect(page.getByTestId('runs')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(' ');
  await expect(page.getByTestId('status')).toHaveText(/error/i);
  await alert.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('broken-text-1280.png') });
  // The URL carries the broken text: a reload checks the link's text with the engine first and
  // says in the banner what is wrong with it (not LOADING for good), over a page that works.
  await expect.poll(async () => (await decodeLink(await page.evaluate(() => location.hash), ['s000-thrash.toml'])).edited?.includes('ram = "lots"')).toBe(true);
  await page.reload();
  await expect(page.getByTestId('link-error')).toContainText(/line \d+.*machine\.ram/, { timeout: 20_000 });
  await ready(page);
  await expect(page.getByTestId('play-toggle')).toBeEnabled();
  await expect(page.getByTestId('runs')).toBeVisible();
});
