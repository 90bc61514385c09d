// Keyboard and accessibility (issue 24, point 3): global keys leave controls that use the key
// alone, and axe-core reports no violations on any view and mode of the page and the embed.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { encodeLink } from '../web/src/lib/link';
import { failOnPageErrors, ready, tools } from './support/page';
import { openEditor } from './support/editor';
import { openScenario } from './support/views';

failOnPageErrors();

async function axe(page: Page, what: string) {
  // The embed dialog's live preview is the embed document, checked view by view on its own below.
  const result = await new AxeBuilder({ page }).exclude('[data-testid="embed-preview-frame"]').analyze();
  const found = result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
  expect(found, `axe violations on ${what}`).toStrictEqual([]);
}

test('Space on a focused checkbox ticks it and does not play; every control is reachable with Tab', async ({ page }) => {
  await openScenario(page, 's000-thrash.toml'); // two kernels, so Compare is offered
  await page.getByTestId('compare-toggle').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('compare-toggle')).toBeChecked();
  await expect(page.getByTestId('status')).toHaveText(/paused/i);
  await ready(page);
  // Space on a focused button presses that button only (Step once, not play).
  await page.getByTestId('step').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  await expect(page.getByTestId('status')).toHaveText(/paused/i);
  // Arrow keys on the speed slider move the slider, not the time.
  const time = await page.getByTestId('virtual-time').textContent();
  await page.getByTestId('speed-slider').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('speed-slider')).toHaveValue('11');
  await expect(page.getByTestId('virtual-time')).toHaveText(time!);
  // Tab reaches every enabled control of the bar, then, as a keyboard user gets there, the
  // share panel inside the tools (closed by default): Enter on Tools, Tab to its tabs, arrows
  // to "Share & export", Tab into the panel.
  const reached = new Set<string>();
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
  /** Tab round the page (it wraps to the top) until `until` is focused or every id was reached. */
  async function tabTo(ids: string[], until?: (id: string) => boolean) {
    for (let i = 0; i < 400; i++) {
      await page.keyboard.press('Tab');
      const id = await focused();
      if (id) reached.add(id);
      if (until ? until(id) : ids.every((w) => reached.has(w))) return;
    }
  }
  await page.locator('body').focus();
  const bar = ['scenario-select', 'variant-select', 'compare-toggle', 'play-toggle', 'step', 'reset', 'speed-slider', 'tools-toggle'];
  await tabTo(bar);
  for (const id of bar) expect(reached, `Tab reaches ${id}`).toContain(id);
  await expect(page.getByTestId('tools')).toBeHidden();
  await tabTo([], (id) => id === 'tools-toggle');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tools')).toBeVisible();
  await tabTo([], (id) => id.startsWith('tools-tab-'));
  expect(await focused(), 'Tab reaches the tools tabs').toMatch(/^tools-tab-/);
  for (let i = 0; i < 5 && (await focused()) !== 'tools-tab-share'; i++) await page.keyboard.press('ArrowRight');
  expect(await focused(), 'the arrow keys reach the Share tab').toBe('tools-tab-share');
  await expect(page.getByTestId('tools-share')).toBeVisible();
  const share = ['copy-link', 'embed-open', 'export-csv', 'export-svg', 'export-png'];
  await tabTo(share);
  for (const id of share) expect(reached, `Tab reaches ${id}`).toContain(id);
});

test('axe-core finds no violations on the page: one run, compare, dark theme, editor open', async ({ page }) => {
  test.setTimeout(120_000);
  await openScenario(page, 's000-thrash.toml');
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  await axe(page, 'the page, one run');
  await page.getByTestId('compare-toggle').check();
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('results')).toBeVisible();
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await axe(page, 'the page, compare mode');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: test.info().outputPath('page-1920x1080-compare.png') });
  await openEditor(page);
  await tools(page, 'setup');
  await page.getByTestId('flags-panel').locator('summary').click();
  await axe(page, 'the page, editor and flags open');
  await page.getByTestId('theme-toggle').click();
  await axe(page, 'the page, dark theme');
  await tools(page, 'share');
  await page.getByTestId('embed-open').click();
  await expect(page.getByTestId('embed-dialog')).toBeVisible();
  await axe(page, 'the embed dialog');
});

test('axe-core finds no violations in any embed view, one run and two, with a lesson', async ({ page }) => {
  test.setTimeout(240_000);
  const views = ['lru', 'gens', 'balance', 'charts', 'results', 'memcg'] as const;
  const cases = [
    { scenario: 's000-thrash.toml', variants: ['before', 'after'], compare: true },
    { scenario: 'lesson-two-list-lru.toml', variants: [], compare: false },
  ];
  for (const c of cases) {
    const hash = await encodeLink({ scenario: c.scenario, knobs: {}, edited: null, variants: c.variants, compare: c.compare, speedStep: 10, view: null, timeNs: 300_000_000 });
    for (const view of views) {
      await page.goto(`/?embed&view=${view}#${hash}`);
      await expect(page.getByTestId('virtual-time')).toHaveText('300.000 ms', { timeout: 20_000 });
      await expect(page.getByTestId('status')).toHaveText(/paused/i);
      await axe(page, `embed ${view} of ${c.scenario}`);
    }
  }
});
