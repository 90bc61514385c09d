// Your own workload (issue #47): an oracleGeneral trace dropped onto the page becomes a scenario
// the engine builds, plays in the usual views, and gets its miss-ratio curve (plain LRU, OPT,
// Linux classic and MGLRU), the kernel points filling in from the results workers; a point
// opens that run. A bad trace is refused with its record number and the page keeps what it had.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { decodeLink, encodeLink, traceScenarioName } from '../web/src/lib/link';
import { failOnPageErrors, ready, shot, stage, tools } from './support/page';

failOnPageErrors();
test.setTimeout(180_000);

/** A small trace in libCacheSim's oracleGeneral format (24-byte records: u32 time, u64 id,
 *  u32 size, i64 next access, counted from 1 as libCacheSim writes it): a hot set of 100
 *  objects taking 3 requests in 5, and a scan over 1,000 others taking the rest. */
function oracleGeneral(n = 4000): number[] {
  const ids: number[] = [];
  let scan = 0;
  for (let i = 0; i < n; i++) ids.push(i % 5 < 3 ? (i * 37) % 100 : 1000 + (scan++ % 1000));
  const b = Buffer.alloc(n * 24);
  const next = new Map<number, number>();
  const nextOf: number[] = new Array(n);
  for (let i = n - 1; i >= 0; i--) {
    nextOf[i] = next.get(ids[i]!) ?? -1;
    next.set(ids[i]!, i + 1);
  }
  ids.forEach((id, i) => {
    b.writeUInt32LE(i, i * 24);
    b.writeBigUInt64LE(BigInt(id), i * 24 + 4);
    b.writeUInt32LE(4096, i * 24 + 12);
    b.writeBigInt64LE(BigInt(nextOf[i]!), i * 24 + 16);
  });
  return [...b];
}

/** Drop a file of `bytes` named `name` onto the page, as a user's drag and drop does. */
async function drop(page: Page, name: string, bytes: number[]) {
  const data = await page.evaluateHandle(
    ([name, bytes]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes as number[])], name as string, { type: 'application/octet-stream' }));
      return dt;
    },
    [name, bytes] as const,
  );
  await page.dispatchEvent('main', 'dragover', { dataTransfer: data });
  await page.dispatchEvent('main', 'drop', { dataTransfer: data });
}

const NAME = 'hot-and-scan.oracleGeneral.bin';

async function dropAndWaitForCurves(page: Page) {
  await page.goto('/');
  await ready(page);
  await drop(page, NAME, oracleGeneral());
  await expect(page.getByTestId('scenario-select')).toHaveValue(`trace:${NAME}`);
  await ready(page);
  // Every kernel point in: the four curves drawn, the kernel ones through every size.
  const progress = page.getByTestId('mrc-progress');
  await expect(progress).toHaveAttribute('data-total', /^[1-9]\d*$/, { timeout: 60_000 });
  const total = Number(await progress.getAttribute('data-total'));
  await expect(progress).toHaveAttribute('data-settled', String(total), { timeout: 150_000 });
  return total / 2;
}

test('a dropped oracleGeneral trace replays and draws the four curves; a kernel point opens its run (1280x800)', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const sizes = await dropAndWaitForCurves(page);
  expect(sizes).toBeGreaterThan(4);
  for (const c of ['lru', 'opt', 'classic', 'mglru']) {
    await expect(page.getByTestId(`mrc-line-${c}`)).toHaveAttribute('data-points', String(sizes));
    await expect(page.getByTestId(`mrc-line-${c}`)).toHaveAttribute('d', /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+)+$/);
  }
  await expect(page.getByTestId('mrc-point-errors')).toHaveCount(0);
  await expect(page.getByTestId('mrc-progress')).toContainText(`All ${sizes * 2} kernel runs done.`);
  // Every line stays visible where lines meet (at the largest sizes all miss only first
  // requests): the references are drawn over the kernel lines, each with a mark of its own at
  // every size (LRU's ring wider than a kernel's mark), the kernel points over them.
  await expect(page.locator('[data-testid^="mrc-mark-lru-"]')).toHaveCount(sizes);
  await expect(page.locator('[data-testid^="mrc-mark-opt-"]')).toHaveCount(sizes);
  const drawnAfter = await page.evaluate(() => {
    const el = (id: string) => document.querySelector(`[data-testid="${id}"]`)!;
    const after = (a: string, b: string) => (el(a).compareDocumentPosition(el(b)) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    return [after('mrc-line-classic', 'mrc-line-lru'), after('mrc-line-mglru', 'mrc-line-lru'), after('mrc-line-opt', 'mrc-line-lru'), after('mrc-line-lru', 'mrc-kernel-classic')];
  });
  expect(drawnAfter).toEqual([true, true, true, true]);
  await expect(page.getByTestId('mrc-gap-note')).toContainText('the height from OPT');
  // It plays in the usual views: the replay's reads move the clock and fill the file LRU.
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('run-0-time')).not.toHaveText('0 s', { timeout: 20_000 });
  await stage(page, 'mrc');
  await shot(page, testInfo, 'trace-1280x800');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await shot(page, testInfo, 'trace-1920x1080');
  await page.getByTestId('mrc-chart').screenshot({ path: testInfo.outputPath('trace-chart-1920x1080.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  // The curve's points are buttons a keyboard and a screen reader reach.
  const axe = await new AxeBuilder({ page }).include('[data-testid="mrc-view"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  // A kernel point opens that run: the live view runs it, the point is marked.
  const point = page.getByTestId('mrc-kernel-mglru').locator('[role="button"]').first();
  const id = (await point.getAttribute('data-testid'))!;
  await point.click();
  await expect(page.getByTestId('mrc-whole')).toBeVisible();
  await ready(page);
  await expect(page.getByTestId('variant-select')).toHaveValue('mglru');
  await expect(page.getByTestId(id)).toHaveAttribute('aria-pressed', 'true');
  await shot(page, testInfo, 'trace-point-1280x800');

  // The address bar carries the trace (small) and the point: a new page opens the same.
  const pages = Number(id.replace(/^mrc-point-mglru-/, ''));
  await expect
    .poll(async () => (await decodeLink(await page.evaluate(() => location.hash), [])).trace, { timeout: 15_000 })
    .toMatchObject({ name: NAME, format: 'oracleGeneral', mrcPages: pages, data: expect.any(String) });
  const url = page.url();
  const again = await page.context().newPage();
  again.on('pageerror', (err) => {
    throw err;
  });
  await again.goto(url);
  await expect(again.getByTestId('scenario-select')).toHaveValue(`trace:${NAME}`);
  await expect(again.getByTestId('variant-select')).toHaveValue('mglru');
  await expect(again.getByTestId('mrc-whole')).toBeVisible();
  await expect(again.getByTestId('link-error')).toHaveCount(0);
  await ready(again);
});

test('a link that names a trace it does not carry asks for the file, then opens it', async ({ page }) => {
  const hash = await encodeLink({
    scenario: traceScenarioName(NAME),
    knobs: {},
    edited: null,
    variants: ['mglru'],
    compare: false,
    speedStep: 10,
    view: null,
    timeNs: 0,
    trace: { name: NAME, format: 'oracleGeneral' },
  });
  await page.goto(`/#${hash}`);
  await expect(page.getByTestId('link-error')).toContainText(`This link replays the trace ${NAME}, too large to travel in a link: drop that file`);
  await ready(page); // the default page meanwhile
  await drop(page, NAME, oracleGeneral());
  await expect(page.getByTestId('scenario-select')).toHaveValue(`trace:${NAME}`);
  await expect(page.getByTestId('variant-select')).toHaveValue('mglru');
  await expect(page.getByTestId('link-error')).toHaveCount(0);
  await ready(page);
});

test('a bad trace is refused with its record number; the page keeps what it shows', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await ready(page);
  const before = await page.getByTestId('scenario-select').inputValue();
  // Record 7 is cut short (a file that is not a whole number of 24-byte records).
  await drop(page, 'cut.bin', oracleGeneral(10).slice(0, 24 * 6 + 11));
  await expect(page.getByTestId('trace-error')).toContainText(/cut\.bin was not loaded: .*record 7/);
  await expect(page.getByTestId('scenario-select')).toHaveValue(before);
  await expect(page.getByTestId('stage')).toBeVisible();
  await expect(page.getByTestId('play-toggle')).toBeEnabled();
  await shot(page, testInfo, 'trace-bad-1280x800');
  // The tools' trace tab says it too, and a good file chosen there replaces the error.
  await tools(page, 'trace');
  await expect(page.getByTestId('trace-panel-error')).toContainText('record 7');
});

test('the curve on a phone (390x844)', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await dropAndWaitForCurves(page);
  await stage(page, 'mrc');
  await page.getByTestId('mrc-chart').scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'trace-390x844');
  await page.getByTestId('mrc-chart').screenshot({ path: testInfo.outputPath('trace-chart-390x844.png') });
  // No text below 14 px in the curve's view.
  const small = await page.getByTestId('mrc-view').evaluate((el) =>
    [...el.querySelectorAll('text, p, span, strong')].filter((e) => (e.textContent ?? '').trim() && parseFloat(getComputedStyle(e).fontSize) < 14).map((e) => e.textContent),
  );
  expect(small).toEqual([]);
});
