// The vertical slice in a real browser: page -> worker -> wasm engine -> page.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

/** The version in wasm-core/Cargo.toml's [package] section. */
function crateVersion(): string {
  const manifest = readFileSync(new URL('../wasm-core/Cargo.toml', import.meta.url), 'utf8');
  const pkg = manifest.split(/^\[/m).find((s) => s.startsWith('package]'));
  const version = pkg && /^version\s*=\s*"([^"]+)"/m.exec(pkg)?.[1];
  if (!version) throw new Error('no [package] version in wasm-core/Cargo.toml');
  return version;
}

test.beforeEach(async ({ page }) => {
  // Any uncaught page error fails the test.
  page.on('pageerror', (err) => {
    throw err;
  });
});

test('runs the demo in the wasm engine and shows counters changing', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Reclaim Lab' })).toBeVisible();

  // The engine loaded in the worker and reports the crate's version.
  await expect(page.getByTestId('engine-version')).toHaveText(crateVersion());
  await expect(page.getByTestId('scenario')).toHaveText('demo');

  const button = page.getByTestId('run-toggle');
  await expect(button).toHaveText('Start');
  await expect(button).toBeEnabled();
  await expect(page.getByTestId('virtual-time')).toHaveText('0 ns');
  const cells = page.locator('[data-testid^="counter-"]');
  await expect(cells.first()).not.toHaveText('—'); // the first snapshot arrived
  const before = await cells.allTextContents();
  expect(before.length).toBeGreaterThan(0);

  await button.click();
  await expect(button).toHaveText('Pause');
  await expect(page.getByTestId('status')).toHaveText('running');
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  await expect.poll(() => cells.allTextContents(), { message: 'some counter changes' }).not.toEqual(before);
  await expect(page.locator('path.series').first()).toHaveAttribute('d', /L/); // the chart has a line
  await page.waitForTimeout(250); // let the chart grow a little for the screenshot
  expect(await page.getByTestId('engine-error').count()).toBe(0);

  const shot = testInfo.outputPath('slice-running.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('slice-running', { path: shot, contentType: 'image/png' });
});

test('pause stops virtual time', async ({ page }) => {
  await page.goto('/');
  const button = page.getByTestId('run-toggle');
  await expect(button).toBeEnabled();
  await button.click();
  const time = page.getByTestId('virtual-time');
  await expect(time).not.toHaveText('0 ns');

  await button.click();
  await expect(button).toHaveText('Start');
  await expect(page.getByTestId('status')).toHaveText('paused');
  const paused = await time.textContent();
  const cells = page.locator('[data-testid^="counter-"]');
  const counters = await cells.allTextContents();
  await page.waitForTimeout(300); // ~18 ticks' worth, were it still running
  await expect(time).toHaveText(paused!);
  expect(await cells.allTextContents()).toEqual(counters);
});

test('an engine that fails to load shows a clear message, not a blank page', async ({ page }) => {
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/');
  const alert = page.getByTestId('engine-error');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('The engine failed to load');
  await expect(page.getByTestId('run-toggle')).toBeDisabled();
  await expect(page.getByTestId('engine-version')).toHaveText('not loaded');
  await expect(page.getByRole('heading', { name: 'Reclaim Lab' })).toBeVisible();
});
