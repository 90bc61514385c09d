// The sweep table: a CSV of `reclaim sweep` opened on the page shows a heatmap over two axes,
// the other axes as selectors, and a cell opens its run with that run's knobs and variant.
import { expect, test } from '@playwright/test';
import { failOnPageErrors, ready, shot, tools } from './support/page';

failOnPageErrors();

// The shape `reclaim sweep` writes (key columns, preset, error, metrics, counters); the
// values are made up for the view, which shows them as they are.
function table(): string {
  const lines = ['variant,seed,swappiness,ram,preset,error,virtual_s,pswpout'];
  for (const variant of ['before', 'after'])
    for (const ram of ['1GiB', '2GiB'])
      for (const swappiness of [0, 60, 100])
        lines.push(`${variant},1,${swappiness},${ram},linux-5.x,,${swappiness / 10 + (ram === '1GiB' ? 1 : 2)},${swappiness * 3}`);
  lines[lines.length - 1] = 'after,1,100,2GiB,linux-5.3,"machine.ram is too small, really",,';
  return `${lines.join('\n')}\n`;
}

test('a sweep CSV becomes a heatmap whose cells open their runs', async ({ page }, testInfo) => {
  await page.goto('/');
  await ready(page);
  await tools(page, 'sweeps');
  await page.getByTestId('sweep-panel').locator('summary').click();
  await page.getByTestId('sweep-file').setInputFiles({ name: 's000-thrash.csv', mimeType: 'text/csv', buffer: Buffer.from(table()) });
  await expect(page.getByTestId('sweep-scenario')).toHaveValue('s000-thrash.toml');
  await expect(page.getByTestId('sweep-x')).toHaveValue('variant');
  // swappiness across, RAM down; the variant and the seed are selectors.
  await page.getByTestId('sweep-x').selectOption('swappiness');
  await page.getByTestId('sweep-y').selectOption('ram');
  await page.getByTestId('sweep-fix-variant').selectOption('after');
  await expect(page.getByTestId('sweep-fix-seed')).toHaveValue('1');
  const cells = page.getByTestId('sweep-cell');
  await expect(cells).toHaveCount(6);
  await expect(page.getByTestId('sweep-caption')).toContainText('virtual_s: 1 (dark) to 11 (light)');
  const failed = page.locator('[data-testid="sweep-cell"][data-x="100"][data-y="2GiB"]');
  await expect(failed).toHaveAttribute('data-value', '');
  await expect(failed.locator('title')).toHaveText(/failed: machine.ram is too small, really/);
  await page.getByTestId('sweep-metric').selectOption('pswpout');
  await expect(page.locator('[data-testid="sweep-cell"][data-x="60"][data-y="1GiB"]')).toHaveAttribute('data-value', '180');
  // Every cell with a row links to its run, the failed one's too (the page then shows the error).
  await expect(page.getByTestId('sweep-cell-link')).toHaveCount(6);
  await shot(page, testInfo, 'sweep-page');
  const panel = testInfo.outputPath('sweep-panel.png');
  await page.getByTestId('sweep-panel').screenshot({ path: panel });
  await testInfo.attach('sweep-panel', { path: panel, contentType: 'image/png' });

  const cell = page.getByTestId('sweep-cell-link').filter({ has: page.locator('[data-x="60"][data-y="1GiB"]') });
  const [run] = await Promise.all([page.waitForEvent('popup'), cell.click()]);
  await ready(run);
  await expect(run.getByTestId('variant-select')).toHaveValue('after');
  await expect(run.getByTestId('knob-swappiness')).toHaveValue('60');
  await expect(run.getByTestId('knob-ram')).toHaveValue('1GiB');
});

test('a file that is no sweep table says why', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await tools(page, 'sweeps');
  await page.getByTestId('sweep-panel').locator('summary').click();
  await page.getByTestId('sweep-file').setInputFiles({ name: 'x.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') });
  await expect(page.getByTestId('sweep-error')).toHaveText(/x\.csv: not a sweep table: no column "variant"/);
  await expect(page.getByTestId('sweep-heatmap')).toHaveCount(0);
});
