// Issue #23 point 3, lists you can read: in S000 (524k pages of RAM) the 200 MB file lists are
// a few pixels when strips are proportional to RAM. A log scale (the default: a longer strip
// always holds more pages) and per-list scaling make them legible, head and tail zooms show the
// ends, and the scale is stated beside the strips, with an axis of page counts.
import { expect, test } from '@playwright/test';
import { failOnPageErrors } from './support/page';
import { canvasPixels, hueSat, listPages, openScenario, shotsAtSizes, SIZES, stepUntil } from './support/views';

failOnPageErrors();
test.setTimeout(180_000);

const INACTIVE_FILE_ROW = 2;
const stripMid = (row: number) => row * 58 + 20 + 13;

test('S000: the small file lists fill a readable strip; log and RAM scales, head and tail zooms are stated', async ({ page }, testInfo) => {
  await openScenario(page, 's000-thrash.toml');
  // One-second steps until the inactive file list holds the thousands of pages the issue names.
  await page.getByTestId('speed-slider').fill('16');
  await stepUntil(page, async () => (await listPages(page, 'inactive_file')) >= 5000, 30);
  const canvas = page.getByTestId('run-0-lru-canvas');
  const width = (await canvas.boundingBox())!.width;
  await expect(canvas).toHaveAttribute('data-flying', '0'); // the dots of the last step have landed

  // The default is linear in RAM, as the exported figures draw the lists (#44 item 8).
  await expect(page.getByTestId('run-0-lru-scale-select')).toHaveValue('ram');
  await expect(page.getByTestId('run-0-lru-scale')).toContainText('linear in RAM');
  // On the log scale half-way across the strip the inactive file list still has cells (not the
  // empty strip).
  await page.getByTestId('run-0-lru-scale-select').selectOption('log');
  await expect(canvas).toHaveAttribute('data-painted-scale', 'log all'); // drawn at the next frame
  const [mid] = await canvasPixels(page, 'run-0-lru-canvas', [[width / 2, stripMid(INACTIVE_FILE_ROW)]]);
  expect(hueSat(mid!).sat, `pixel ${mid} half-way along inactive file`).toBeGreaterThan(0.3);
  await expect(page.getByTestId('run-0-lru-scale')).toContainText('log');

  const stripPx = async () => (await canvas.getAttribute('data-strip-px'))!.split(',').map(Number);
  const log = (await stripPx())[INACTIVE_FILE_ROW]!;

  await page.getByTestId('run-0-lru-scale-select').selectOption('list');
  await expect(page.getByTestId('run-0-lru-scale')).toContainText('per list');
  await expect(page.getByTestId('run-0-lru-scale')).toContainText('lengths do not compare');
  await shotsAtSizes(page, testInfo, 'p3-lists-per-list', '[data-testid="run-0-lru-canvas"]');
  const perList = (await stripPx())[INACTIVE_FILE_ROW]!;
  // 7k-13k pages of 524k: more than half the width on a log scale.
  expect(log).toBeGreaterThan(perList * 0.5);
  expect(log).toBeLessThanOrEqual(perList);
  await page.getByTestId('run-0-lru-scale-select').selectOption('ram');
  await expect(page.getByTestId('run-0-lru-scale')).toContainText('linear in RAM');
  const ram = (await stripPx())[INACTIVE_FILE_ROW]!;
  expect(ram).toBeLessThan(log / 4);

  await page.getByTestId('run-0-lru-scale-select').selectOption('list');
  await page.getByTestId('run-0-lru-zoom-tail').click();
  await expect(page.getByTestId('run-0-lru-scale')).toContainText('tail 10%');
  await expect(page.locator('figure.lru-view').first()).toHaveAttribute('data-zoom', 'tail');
  await shotsAtSizes(page, testInfo, 'p3-lists-tail', '[data-testid="run-0-lru-canvas"]');
  await page.getByTestId('run-0-lru-zoom-head').click();
  await expect(page.getByTestId('run-0-lru-scale')).toContainText('head 10%');
  // Hovering the zoomed strip names a page near the head: within the first tenth of the list.
  await canvas.hover({ position: { x: width - 60, y: stripMid(INACTIVE_FILE_ROW) } });
  const hover = (await page.getByTestId('run-0-lru-hover').textContent())!;
  const [, at, of] = /page ([\d,]+) of ([\d,]+)/.exec(hover)!.map((s) => Number(s.replace(/,/g, '')));
  expect(at).toBeLessThanOrEqual(of! * 0.1 + 1);
  await page.getByTestId('run-0-lru-zoom-all').click();
  await expect(page.getByTestId('run-0-lru-scale')).toContainText('whole lists');
});

test('S000: the default scale tells the truth: a longer strip holds more pages, and the scale is in view beside the strips', async ({ page }, testInfo) => {
  await openScenario(page, 's000-thrash.toml');
  // Until the file lists hold thousands of pages beside hundreds of thousands of anon pages.
  await page.getByTestId('speed-slider').fill('16');
  await stepUntil(page, async () => (await listPages(page, 'inactive_file')) >= 5000, 30);
  const canvas = page.getByTestId('run-0-lru-canvas');
  // The default is linear in RAM (as the exported figures draw the lists).
  await expect(page.getByTestId('run-0-lru-scale-select')).toHaveValue('ram');
  // Rows in drawing order (lib/palette LISTS).
  const keys = ['active_anon', 'inactive_anon', 'inactive_file', 'active_file'];
  const pages = await Promise.all(keys.map((k) => listPages(page, k)));
  const px = (await canvas.getAttribute('data-strip-px'))!.split(',').map(Number);
  expect(Math.max(...pages) / Math.max(1, Math.min(...pages.filter((p) => p > 0)))).toBeGreaterThan(10); // sizes far apart
  for (let a = 0; a < 4; a++) {
    for (let b = 0; b < 4; b++) {
      if (pages[a]! > 0 && pages[a]! * 2 <= pages[b]!) {
        expect(px[a], `${keys[a]} (${pages[a]} pages) drawn shorter than ${keys[b]} (${pages[b]})`).toBeLessThan(px[b]!);
      }
      // Linear: lengths compare as the page counts do (to a pixel's rounding).
      if (px[a]! >= 20 && px[b]! >= 20) expect(px[a]! / px[b]!, `${keys[a]} / ${keys[b]}`).toBeCloseTo(pages[a]! / pages[b]!, 1);
    }
  }
  // The axis marks quarters of RAM (524,288 pages of 4 KiB in 2 GiB).
  const axis = (await canvas.getAttribute('data-axis'))!.split(',').map(Number);
  expect(axis).toEqual([131072, 262144, 393216, 524288]);
  // The scale is stated where the strips are: in sight whenever the strips are, at every size.
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await canvas.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('run-0-lru-scale')).toBeInViewport();
    const scaleBox = (await page.getByTestId('run-0-lru-scale').boundingBox())!;
    const canvasBox = (await canvas.boundingBox())!;
    expect(canvasBox.y - (scaleBox.y + scaleBox.height)).toBeLessThan(60); // just above the strips
  }
  await shotsAtSizes(page, testInfo, 'p3-lists-default-ram', '[data-testid="run-0-lru-canvas"]');
});
