// The results in parallel (issue #48): the variants run in a pool of results workers
// (hardwareConcurrency - 1, at least 1), and each column shows as soon as its variant is done.
// The pool's size follows navigator.hardwareConcurrency, made to read 2 or 3 here.
import { expect, test, type Page } from '@playwright/test';
import { encodeLink } from '../web/src/lib/link';
import { failOnPageErrors } from './support/page';

failOnPageErrors();
test.setTimeout(180_000);

const cores = (page: Page, n: number) => page.addInitScript((n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), n);

// Records, on every change of the results panel, the states it went through.
const WATCH = () => {
  const w = window as unknown as { __seen: { running: number; partial: { head1: string; col0: string; col1: string } | null } };
  w.__seen = { running: 0, partial: null };
  new MutationObserver(() => {
    const running = document.querySelector('[data-testid="results-progress"]')?.getAttribute('data-running');
    if (running) w.__seen.running = Math.max(w.__seen.running, Number(running));
    const q = (id: string) => document.querySelector(`[data-testid="${id}"]`);
    // The first moment the first column is in while the results still run.
    if (!w.__seen.partial && q('results')?.getAttribute('data-status') === 'running' && q('results-head-0')?.getAttribute('data-status') === 'done') {
      w.__seen.partial = {
        head1: q('results-head-1')?.textContent ?? '',
        col0: q('result-pgmajfault-0')?.textContent ?? '',
        col1: q('result-pgmajfault-1')?.hasAttribute('data-pending') ? 'pending' : (q('result-pgmajfault-1')?.textContent ?? ''),
      };
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
};
const seen = (page: Page) => page.evaluate(() => (window as unknown as { __seen: { running: number; partial: { head1: string; col0: string; col1: string } | null } }).__seen);

async function open(page: Page, scenario: string) {
  await page.addInitScript(WATCH);
  await page.goto(`/#${await encodeLink({ scenario, knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0 })}`);
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 150_000 });
}

test('one results worker (2 cores): the first column shows while the second waits, then both', async ({ page }) => {
  await cores(page, 2);
  await open(page, 's002-kswapd-writeback.toml');
  const s = await seen(page);
  expect(s.running).toBe(1);
  expect(s.partial, 'a moment with the first column in and the results still running').not.toBeNull();
  expect(s.partial!.col0).toMatch(/^\d[\d,]*$/);
  expect(s.partial!.col1).toBe('pending');
  expect(s.partial!.head1).toMatch(/after.*(waiting for a worker|running, \d+%)/);
  // Done: both columns and the engine's figures over both.
  await expect(page.getByTestId('results-head-1')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('result-pgmajfault-1')).toHaveText(/^\d[\d,]* \(/);
  await expect(page.getByTestId('expect-0-verdict')).toBeVisible();
});

test('two results workers (3 cores): both variants run at once, with the same figures as one worker', async ({ browser }) => {
  const figures: string[][] = [];
  for (const n of [3, 2]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    // failOnPageErrors watches the fixture's page only: this context's page is watched here.
    const errors: Error[] = [];
    page.on('pageerror', (e) => errors.push(e));
    await cores(page, n);
    await open(page, 's002-kswapd-writeback.toml');
    expect((await seen(page)).running).toBe(n - 1);
    figures.push(await page.getByTestId('results-headline').locator('td').allTextContents());
    await context.close();
    expect(errors.map(String)).toEqual([]);
  }
  expect(figures[0]!.length).toBeGreaterThan(10);
  expect(figures[0]).toEqual(figures[1]);
});
