// Layout defects found in a QA pass as a person would use the page (laptop 1280x800, phone, the
// slide embed): labels that ran into each other or were crossed by lines, run-on wording.
import { expect, test, type Locator } from '@playwright/test';
import { encodeLink, type LinkState } from '../web/src/lib/link';
import { failOnPageErrors, stage, tools } from './support/page';

failOnPageErrors();

const link = (s: Partial<LinkState> & { scenario: string }) =>
  encodeLink({ knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0, ...s });

/** Pairs of the elements whose boxes come closer than `gap` px (or intersect), named by their text. */
async function overlaps(items: Locator, gap = 0.5) {
  const boxes = await items.evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { t: e.textContent ?? '', l: r.left, r: r.right, top: r.top, b: r.bottom };
    }),
  );
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      if (a.l < b.r + gap && b.l < a.r + gap && a.top < b.b && b.top < a.b) out.push(`${a.t}|${b.t}`);
    }
  return { count: boxes.length, out };
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`memcg ids under the pgsteal/usage bars never run into each other (S003 compare, ${viewport.width} px)`, async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    const hash = await link({ scenario: 's003-memcg-lru.toml', variants: ['before', 'after'], compare: true, timeNs: 300_000_000 });
    await page.goto(`/#${hash}`);
    await expect(page.getByTestId('run-1-time')).toHaveText('300.000 ms', { timeout: 30_000 });
    for (const run of ['run-0', 'run-1']) {
      const labels = page.getByTestId(`${run}-memcg-bars`).locator('text.memcg-id-label');
      // Several labels, each at least 3 px from the next (touching numbers read as one: "100104108").
      await expect.poll(async () => (await overlaps(labels, 3)).count).toBeGreaterThan(3);
      expect(await overlaps(labels, 3), run).toMatchObject({ out: [] });
      // On round numbers: every label a multiple of the first step.
      const ids = (await labels.allTextContents()).map(Number);
      expect(ids.every((id) => id % ids[1]! === 0), ids.join(' ')).toBe(true);
      await page.getByTestId(`${run}-memcg-bars`).screenshot({ path: testInfo.outputPath(`${run}-memcg-bars-${viewport.width}.png`) });
    }
  });
}

test('the watermark labels keep a halo where another line crosses them; the scrubber label reads as two phrases', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const hash = await link({ scenario: 's000-thrash.toml', variants: ['before', 'after'], compare: true, timeNs: 800_000_000 });
  await page.goto(`/#${hash}`);
  await expect(page.getByTestId('run-1-time')).toHaveText('800.000 ms', { timeout: 30_000 });
  const refs = page.locator('.chart text.ref');
  await expect(refs).toHaveText(['min', 'low', 'high']);
  for (const r of await refs.all()) {
    expect(await r.evaluate((e) => getComputedStyle(e).paintOrder)).toMatch(/^stroke/);
    // The halo is the panel's colour, not the line's.
    expect(await r.evaluate((e) => getComputedStyle(e).stroke)).toBe(await page.locator('.chart').first().evaluate((e) => getComputedStyle(e).backgroundColor));
  }
  expect(await overlaps(refs)).toMatchObject({ count: 3, out: [] });
  await page.getByTestId('chart-free').screenshot({ path: testInfo.outputPath('watermarks-1280.png') });
  await expect(page.getByTestId('scrubber').locator('label > span').first()).toHaveText(/^Time reached · drag back to see an earlier moment \(keys/);
});

test('results: the Expected heading is smaller than the card title; no change reads -0.0%', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const hash = await link({ scenario: 's000-thrash.toml', variants: ['before', 'after'], compare: true });
  await page.goto(`/#${hash}`);
  const results = page.getByTestId('results');
  await expect(results).toHaveAttribute('data-status', 'done', { timeout: 150_000 });
  const size = (sel: string) => results.locator(sel).first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(await size('h3')).toBeLessThan(await size('h2'));
  // thrash round 0 is 3.0339 s before and 3.0333 s after: a change that rounds to 0.0%.
  await expect(results.getByText('(0.0%)').first()).toBeVisible();
  await expect(results.getByText(/[-+]0\.0%/)).toHaveCount(0);
  await results.screenshot({ path: testInfo.outputPath('results-390.png') });
});

test('results with a kernel run: a figure the model runs do not have is a dash, not "— (—)"', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await page.getByTestId('scenario-select').selectOption('validation/thrash-small.toml');
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
  await tools(page, 'kernel');
  await page.getByTestId('kernel-file').setInputFiles(new URL('./fixtures/kernel-thrash-small-classic.shape.json', import.meta.url).pathname);
  const results = page.getByTestId('results');
  await expect(results).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
  // The model has no direct reclaim in this run (allocstall 0), the kernel file has: its row is
  // "—" in the model's columns and the kernel's figure in the kernel column.
  const row = results.getByRole('row', { name: /direct reclaim efficiency/ });
  await expect(row.getByTestId('result-direct reclaim efficiency (%)-kernel-0')).toContainText('no model ratio', { timeout: 30_000 });
  await expect(row.getByTestId('result-direct reclaim efficiency (%)-1')).toHaveText('—');
  await expect(results.getByText('(—)')).toHaveCount(0);
  await results.screenshot({ path: testInfo.outputPath('results-kernel-1280.png') });
});

test('on a phone the labels under the generations columns (seq, age) never run together', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const hash = await link({ scenario: 's003b-noreuse.toml', variants: ['before', 'after'], compare: true, timeNs: 1_000_000_000 });
  await page.goto(`/#${hash}`);
  await expect(page.getByTestId('run-0-time')).toHaveText('1.000 s', { timeout: 30_000 });
  await stage(page, 'gens');
  const gens = page.locator('[data-testid="run-0"] .gens');
  for (const cls of ['col-seq', 'col-age']) {
    const labels = gens.locator(`text.${cls}`);
    // Both types' columns (at least 4 each) are labelled, 2 px apart at least; the columns glide
    // into place, so poll until they settle.
    await expect.poll(async () => (await overlaps(labels, 2)).count).toBeGreaterThanOrEqual(8);
    await expect.poll(async () => (await overlaps(labels, 2)).out, { message: cls }).toEqual([]);
  }
  await gens.screenshot({ path: testInfo.outputPath('gens-390.png') });
});

test('on a phone the knob comparison checkbox starts the knobs tab, with no empty row above it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
  await tools(page, 'setup');
  const a = (await page.getByTestId('tools-setup').boundingBox())!;
  const b = (await page.getByTestId('compare-swappiness-toggle').boundingBox())!;
  // The panel's padding and one control row's gap at most: not an empty row (18 px and more).
  expect(b.y - a.y).toBeLessThan(24);
});

test('applying a swappiness a kernel refuses shows its note without moving the knobs or the Apply button', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // linux-4.7 (capped at 100) beside the 2016 LRU-cost series (which takes 200): the knob
  // reaches 200, and the capped side refuses 150.
  await page.goto(`/#${await link({ scenario: 's004-pgbench.toml', variants: ['vanilla-4.7', 'lrucost-2016'], compare: true })}`);
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
  await tools(page, 'setup');
  await page.getByTestId('knob-swappiness').fill('150');
  const apply = page.getByTestId('knobs-apply');
  const before = { apply: (await apply.boundingBox())!, ram: (await page.getByTestId('knob-ram').boundingBox())! };
  await apply.click();
  // linux-4.7 caps swappiness at 100: the engine refuses 150 and the page says so.
  await expect(page.getByTestId('swappiness-note-0')).toContainText('150 refused', { timeout: 20_000 });
  const after = { apply: (await apply.boundingBox())!, ram: (await page.getByTestId('knob-ram').boundingBox())! };
  expect(after).toEqual(before);
  await page.locator('.controls').screenshot({ path: testInfo.outputPath('knobs-note-1280.png') });
});

test('a glossary explanation near the right edge opens leftwards and stays on the page', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`/#${await link({ scenario: 's000-thrash.toml', variants: ['before', 'after'], compare: true, timeNs: 800_000_000 })}`);
  await expect(page.getByTestId('run-1-time')).toHaveText('800.000 ms', { timeout: 30_000 });
  // The last term of the right run's legend ("free") ends near the page's right edge.
  const term = page.getByTestId('run-1').locator('.term[data-term="free"]').last();
  await term.scrollIntoViewIfNeeded();
  await term.hover();
  const tip = term.locator('.term-tip');
  await expect(tip).toBeVisible();
  const [box, W] = await tip.evaluate((e) => [e.getBoundingClientRect().toJSON() as DOMRect, document.documentElement.clientWidth] as const);
  expect(box.left).toBeGreaterThanOrEqual(0);
  expect(box.right).toBeLessThanOrEqual(W);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1920);
  await page.screenshot({ path: testInfo.outputPath('tip-1920.png') });
});
