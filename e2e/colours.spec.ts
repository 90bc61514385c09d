// Issue #23 point 2, one colour language: anon is orange and file sky blue in the LRU strips as
// in the balance and generations views (owners are shades within the type's hue, named on
// hover); the move dots differ from every cell colour, also for colour-blind eyes.
import { expect, test } from '@playwright/test';
import { failOnPageErrors } from './support/page';
import { canvasPixels, deltaE, hueSat, listPages, openScenario, parseColor, shotsAtSizes, stepUntil, VISIONS } from './support/views';

failOnPageErrors();
test.setTimeout(180_000);

// LruView's layout: rows of 58 px, the strip 20 px below the row's top and 26 px high, from x = 40.
const stripMid = (row: number) => row * 58 + 20 + 13;
const ROWS = [
  { key: 'active_anon', row: 0, type: 'anon' },
  { key: 'inactive_anon', row: 1, type: 'anon' },
  { key: 'inactive_file', row: 2, type: 'file' },
  { key: 'active_file', row: 3, type: 'file' },
] as const;
/** Hue ranges of the two families: orange (#E69F00 is 41°) and sky blue (#56B4E9 is 202°). */
const HUES = { anon: [25, 55], file: [185, 220] } as const;

for (const file of ['s000-thrash.toml', 'lesson-swappiness.toml']) {
  test(`${file}: LRU cells are coloured by type, as in the other views, in both themes`, async ({ page }, testInfo) => {
    await openScenario(page, file);
    // Until both types have pages on a list whose strip reaches past the sampled head pixel
    // (the default strip scale is linear in RAM: a small list is a few pixels long; the
    // swappiness lesson's anon is never activated).
    const nonEmpty = async () => {
      const px = ((await page.getByTestId('run-0-lru-canvas').getAttribute('data-strip-px')) ?? '').split(',').map(Number);
      const out = [];
      for (const r of ROWS) if ((await listPages(page, r.key)) > 0 && px[r.row]! >= 6) out.push(r);
      return out;
    };
    await stepUntil(page, async () => new Set((await nonEmpty()).map((r) => r.type)).size === 2);
    const rows = await nonEmpty();
    for (const theme of ['light', 'dark']) {
      if (theme === 'dark') await page.getByTestId('theme-toggle').click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      // The dots of the last step have landed (they fly for 0.7 s).
      await expect(page.getByTestId('run-0-lru-canvas')).toHaveAttribute('data-flying', '0');
      for (const r of rows) {
        const [px] = await canvasPixels(page, 'run-0-lru-canvas', [[42, stripMid(r.row)]]);
        const { hue, sat } = hueSat(px!);
        expect(sat, `${r.key} head cell ${px} is coloured`).toBeGreaterThan(0.3);
        expect(hue, `${r.key} head cell ${px} (hue ${hue.toFixed(0)}°) is in the ${r.type} hue`).toBeGreaterThanOrEqual(HUES[r.type][0]);
        expect(hue).toBeLessThanOrEqual(HUES[r.type][1]);
      }
      await shotsAtSizes(page, testInfo, `p2-colours-${file.replace('.toml', '')}-${theme}`, '[data-testid="run-0-lru-canvas"]');
    }
    // A cell names its owner and type on hover.
    const canvas = page.getByTestId('run-0-lru-canvas');
    for (const r of rows) {
      await canvas.hover({ position: { x: 43, y: stripMid(r.row) } });
      await expect(page.getByTestId('run-0-lru-hover')).toContainText(`${r.key.replace('_', ' ')}: `);
      await expect(page.getByTestId('run-0-lru-hover')).toContainText(`(${r.type})`);
    }
  });
}

test('the move dots stand out against every cell colour, also with colour-blind vision', async ({ page }, testInfo) => {
  await openScenario(page, 's000-thrash.toml');
  await stepUntil(page, async () => (await listPages(page, 'inactive_file')) > 0 && (await listPages(page, 'active_anon')) > 0);
  // The legend's swatches are the cell colours in use; its dots are the move colours.
  const cells = await page.locator('[data-testid="run-0-lru-canvas"]').locator('xpath=ancestor::figure').locator('.legend .swatch').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
  const dots = await page.locator('[data-testid="run-0-lru-canvas"]').locator('xpath=ancestor::figure').locator('.legend .dot').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
  expect(cells.length).toBeGreaterThanOrEqual(2);
  expect(dots.length).toBe(7);
  for (const d of dots) {
    for (const c of cells) {
      for (const v of VISIONS) {
        const e = deltaE(parseColor(d), parseColor(c), v);
        expect(e, `dot ${d} against cell ${c} (${v}): ΔE ${e.toFixed(1)}`).toBeGreaterThan(8);
      }
    }
  }
  await shotsAtSizes(page, testInfo, 'p2-dots-legend', '[data-testid="run-0-lru-canvas"]');
});
