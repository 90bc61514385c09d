// Helpers every spec uses: fail on uncaught page errors, full-page screenshots attached to the
// report, and waiting until the engine is loaded and the page can play.
import { expect, test, type Page, type TestInfo } from '@playwright/test';

/** Make any uncaught exception in the page fail the test. */
export function failOnPageErrors() {
  test.beforeEach(async ({ page }) => {
    page.on('pageerror', (err) => {
      throw err;
    });
  });
}

/** A full-page screenshot in the test's output folder, attached to the report. */
export async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Wait until a scenario is loaded and Play is enabled. */
export async function ready(page: Page) {
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
}

/** Pause if playing, and wait until the page says paused or finished. The run may stop by
 *  itself at the moment Pause is pressed (a lesson's pausing step, the end of the run), and the
 *  button toggles: a press that landed on Play starts the run again, so look and press again. */
export async function pause(page: Page) {
  await expect(async () => {
    if ((await page.getByTestId('status').textContent()) === 'running') await page.getByTestId('play-toggle').click();
    await expect(page.getByTestId('status')).toHaveText(/paused|finished/, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

/** Open the tools panel (closed by default) on one of its tabs: knobs and flags (`setup`),
 *  the scenario text, share and export, real kernel runs, sweeps. */
export async function tools(page: Page, tab: 'setup' | 'scenario' | 'share' | 'kernel' | 'trace' | 'sweeps') {
  const toggle = page.getByTestId('tools-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.getByTestId(`tools-tab-${tab}`).click();
  await expect(page.getByTestId(`tools-${tab}`)).toBeVisible();
}

/** Put a view on the stage (its tab): `lists`, `balance`, `refaults`, `gens`, `memcg`,
 *  `charts`, `diff` or `results`. Every other view is below the stage. */
export async function stage(page: Page, view: string) {
  await page.getByTestId(`stage-tab-${view}`).click();
  await expect(page.getByTestId('stage')).toHaveAttribute('data-view', view);
}
