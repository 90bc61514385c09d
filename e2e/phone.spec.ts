// Phone and small screens (issue 24, point 6): at 390 px nothing overflows horizontally in any
// mode, compare stacks the runs, the charts and the scenario picker fit the width.
import { expect, test, type Page } from '@playwright/test';
import { openEditor } from './support/editor';
import { failOnPageErrors, ready, tools } from './support/page';

failOnPageErrors();
test.use({ viewport: { width: 390, height: 844 } });

/** Elements wider than the page or sticking out of it on the right (with a few of their names). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const W = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= W + 1) continue;
      // Inside a scroll box of its own (a wide table) is not page overflow.
      let p = el.parentElement;
      let boxed = false;
      while (p && !boxed) {
        const o = getComputedStyle(p).overflowX;
        boxed = (o === 'auto' || o === 'scroll' || o === 'hidden') && p.getBoundingClientRect().right <= W + 1;
        p = p.parentElement;
      }
      if (!boxed) out.push(`${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').split(' ')[0]}[${el.getAttribute('data-testid') ?? ''}] right=${Math.round(r.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, out: out.slice(0, 8) };
  });
}

test('at 390 px: no horizontal overflow in one run, compare, flags and editor; compare stacks the runs', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('chart-counters')).toBeVisible();
  expect(await overflow(page)).toEqual({ scrollWidth: 390, out: [] });
  await page.screenshot({ path: testInfo.outputPath('phone-390-one-run.png'), fullPage: true });

  await page.getByTestId('compare-toggle').check();
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('run-1')).toBeVisible();
  const [a, b] = [await page.getByTestId('run-0').boundingBox(), await page.getByTestId('run-1').boundingBox()];
  expect(b!.y).toBeGreaterThanOrEqual(a!.y + a!.height - 1); // stacked, not side by side
  await expect(page.getByTestId('run-0-balance-kind')).toBeVisible();
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  expect(await overflow(page)).toEqual({ scrollWidth: 390, out: [] });
  await page.screenshot({ path: testInfo.outputPath('phone-390-compare.png'), fullPage: true });
  await page.getByTestId('run-0').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('phone-390x844-compare-runs.png') });
  await page.locator('.charts').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('phone-390x844-charts.png') });
  await page.evaluate(() => scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath('phone-390x844-top.png') });

  await tools(page, 'setup');
  await page.getByTestId('flags-panel').locator('summary').click();
  await openEditor(page);
  expect(await overflow(page)).toEqual({ scrollWidth: 390, out: [] });
  await tools(page, 'share');
  await page.getByTestId('embed-open').click();
  await expect(page.getByTestId('embed-dialog')).toBeVisible();
  expect(await overflow(page)).toEqual({ scrollWidth: 390, out: [] });
});

test('at 390 px the gens and memcg views fit too', async ({ page }) => {
  for (const scenario of ['s003-memcg-lru.toml', 's003b-recency.toml']) {
    await page.goto('/');
    await ready(page);
    await page.getByTestId('scenario-select').selectOption(scenario);
    await ready(page);
    await page.getByTestId('step').click();
    await expect(page.getByTestId('run-0')).toBeVisible();
    expect(await overflow(page), scenario).toEqual({ scrollWidth: 390, out: [] });
  }
});
