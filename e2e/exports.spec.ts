// Exports a speaker can put on a slide (issue 24, point 4): image exports are complete figures
// (title with scenario, kernels and virtual time; legend; axes with units; both runs), the PNG
// at 2x; both carry the link that reproduces them, and dropping one onto the page reopens it;
// the CSV header carries units.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors, ready, tools } from './support/page';
import { openScenario } from './support/views';

failOnPageErrors();

async function download(page: Page, id: string): Promise<{ name: string; body: Buffer }> {
  await tools(page, 'share');
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
  return { name: d.suggestedFilename(), body: readFileSync((await d.path())!) };
}

/** Drop a file onto the page as a user dragging it from the desktop would. */
async function dropFile(page: Page, body: Buffer, name: string, type: string) {
  await page.evaluate(
    ({ bytes, name, type }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name, { type }));
      document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { bytes: [...body], name, type },
  );
}

/** The tEXt chunks of a PNG: keyword -> text. */
function pngTexts(png: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'tEXt') {
      const data = png.subarray(at + 8, at + 8 + len);
      const nul = data.indexOf(0);
      out[data.toString('latin1', 0, nul)] = data.toString('latin1', nul + 1);
    }
    at += 12 + len;
  }
  return out;
}

test('image exports are complete figures carrying their link; dropping one reopens that state', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  await openScenario(page, 's000-thrash.toml'); // the page opens on a lesson; S000 has two kernels
  await page.getByTestId('compare-toggle').check();
  await ready(page);
  await page.getByTestId('speed-slider').fill('16');
  for (let i = 0; i < 3; i++) {
    const before = await page.getByTestId('virtual-time').textContent();
    await page.getByTestId('step').click();
    await expect(page.getByTestId('virtual-time')).not.toHaveText(before!);
  }
  const time = (await page.getByTestId('virtual-time').textContent())!;

  const svg = (await download(page, 'export-svg')).body.toString('utf8');
  const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
  expect(texts[0]).toContain('S000'); // title: the scenario
  expect(texts[1]).toContain('before: linux-5.2'); // both runs and their kernels
  expect(texts[1]).toContain('after: linux-5.3');
  expect(texts[1]).toContain(`virtual time ${time}`);
  for (const label of ['LRU list sizes (pages)', 'pages', 'virtual time (s)', 'pages or faults (cumulative)', 'pgscan', 'pswpout', 'refaults', 'inactive anon', 'active file', 'free']) expect(texts).toContain(label);
  expect(texts.some((t) => t.startsWith('before (linux-5.2'))).toBe(true); // legend of the runs
  expect(texts.some((t) => t.startsWith('after (linux-5.3'))).toBe(true);
  expect(svg.match(/class="series"/g)!.length).toBe(12); // 6 counter groups x 2 runs
  const svgLink = /<metadata id="reclaimlab-link">([^<]+)<\/metadata>/.exec(svg)![1]!;
  expect(svgLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#v1=[A-Za-z0-9_-]+$/);
  const look = await page.context().newPage();
  await look.setViewportSize({ width: 1200, height: 680 });
  await look.setContent(svg.replace(/^<\?xml[^>]*>/, ''));
  await look.screenshot({ path: testInfo.outputPath('figure-svg.png') });
  await look.close();

  const png = await download(page, 'export-png');
  expect(png.name).toMatch(/@2x\.png$/);
  expect(png.body.readUInt32BE(16)).toBe(2400);
  expect(png.body.readUInt32BE(20)).toBe(1360);
  const pngLink = pngTexts(png.body)['reclaimlab-link'];
  expect(pngLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#v1=/);

  // Drop the PNG onto a fresh page: it opens the state the figure shows.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto('/');
  await ready(other);
  await dropFile(other, png.body, png.name, 'image/png');
  await expect(other.getByTestId('virtual-time')).toHaveText(time, { timeout: 30_000 });
  await expect(other.getByTestId('compare-toggle')).toBeChecked();
  await expect(other.getByTestId('speed-slider')).toHaveValue('16');
  // And the SVG too; any other file says it carries no link.
  await other.goto('/');
  await ready(other);
  await dropFile(other, Buffer.from(svg), 'figure.svg', 'image/svg+xml');
  await expect(other.getByTestId('virtual-time')).toHaveText(time, { timeout: 30_000 });
  await dropFile(other, Buffer.from('hello'), 'notes.txt', 'text/plain');
  await expect(other.getByTestId('link-error')).toContainText('notes.txt carries no Reclaim Lab link');
  await fresh.close();
});

test('the CSV header names the unit of every column', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  const header = (await download(page, 'export-csv')).body.toString('utf8').split('\n')[0]!.split(',');
  expect(header[0]).toBe('variant');
  for (const col of header.slice(1)) expect(col).toMatch(/_(ns|pages|count|units)$/);
  expect(header).toContain('pgscan_kswapd_pages');
  expect(header).toContain('anon_cost_units');
  expect(header).toContain('allocstall_count'); // stalls, not pages
});

test('a clip of a time range records to WebM with a progress bar, and Cancel stops it', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await ready(page);
  await tools(page, 'share');
  await page.getByTestId('clip-from').fill('0.2');
  await page.getByTestId('clip-to').fill('0.6');
  const [d] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    (async () => {
      await page.getByTestId('clip-record').click();
      await expect(page.getByTestId('clip-progress')).toBeVisible();
      await expect.poll(() => page.getByTestId('clip-progress').evaluate((p) => (p as HTMLProgressElement).value)).toBeGreaterThan(2);
      await page.screenshot({ path: testInfo.outputPath('clip-progress.png') });
    })(),
  ]);
  expect(d.suggestedFilename()).toMatch(/-200-600ms\.webm$/);
  const webm = readFileSync((await d.path())!);
  expect([...webm.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]); // EBML (Matroska/WebM)
  expect(webm.includes(Buffer.from('webm'))).toBe(true);
  expect(webm.length).toBeGreaterThan(10_000);
  await expect(page.getByTestId('clip-status')).toContainText('Clip saved: 200.000 ms to 600.000 ms, 8 frames');
  await expect(page.getByTestId('virtual-time')).toHaveText('600.000 ms'); // the run stands at the end of the range

  // A long clip, cancelled: no download, the page plays on.
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByTestId('clip-from').fill('0');
  await page.getByTestId('clip-to').fill('5');
  await page.getByTestId('clip-record').click();
  await expect.poll(() => page.getByTestId('clip-progress').evaluate((p) => (p as HTMLProgressElement).value)).toBeGreaterThan(1);
  await page.getByTestId('clip-cancel').click();
  await expect(page.getByTestId('clip-status')).toHaveText('Clip cancelled.');
  await expect(page.getByTestId('clip-progress')).toHaveCount(0);
  await ready(page);
  expect(downloads).toBe(0);
});
