// Share, embed, export: links restore the exact state in a fresh browser, an embed in an
// iframe answers keys and postMessage, every export downloads a well-formed file, and a
// bad link explains itself over a working default page.
import { readFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { failOnPageErrors, ready, shot, tools } from './support/page';
import { openEditor, scenarioFile, setEditorText } from './support/editor';
import { baseURL } from './support/base';
import { encodeLink } from '../web/src/lib/link';

failOnPageErrors();

const KEYS = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file', 'free'];

/** What the page shows, read in one JS turn: virtual time, list sizes of each run, the diff table. */
async function shown(page: Page) {
  return page.evaluate((keys) => {
    // The runs' panels (run-0, run-1), not the same runs' other views below the stage (run-0-more).
    const runs = [...document.querySelectorAll('[data-testid^="run-"][data-variant]')].filter((e) => /^run-\d+$/.test(e.getAttribute('data-testid')!)).map((run, i) => ({
      variant: run.getAttribute('data-variant'),
      sizes: keys.map((k) => document.querySelector(`[data-testid="run-${i}-lru-size-${k}"]`)?.getAttribute('data-pages')),
    }));
    return {
      time: document.querySelector('[data-testid="virtual-time"]')?.textContent,
      runs,
      diff: document.querySelector('[data-testid="diff-table"]')?.textContent ?? null,
    };
  }, KEYS);
}

test('a shared link opened in a fresh browser context reproduces the same state', async ({ page, browser }, testInfo) => {
  await page.goto('/');
  await ready(page);
  await tools(page, 'setup');
  await page.getByTestId('knob-swappiness').fill('120');
  await page.getByTestId('knobs-apply').click();
  await page.getByTestId('compare-toggle').check();
  await ready(page);
  await page.getByTestId('speed-slider').fill('14');
  for (let i = 0; i < 4; i++) {
    const before = await page.getByTestId('virtual-time').textContent();
    await page.getByTestId('step').click();
    await expect(page.getByTestId('virtual-time')).not.toHaveText(before!);
  }
  await tools(page, 'share');
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('link-field')).toHaveValue(/#v1=[A-Za-z0-9_-]+$/);
  const link = await page.getByTestId('link-field').inputValue();
  const original = await shown(page);
  expect(original.runs).toHaveLength(2);
  expect(original.time).not.toBe('0 ns');

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  other.on('pageerror', (err) => {
    throw err;
  });
  await other.goto(link);
  await ready(other);
  await expect(other.getByTestId('virtual-time')).toHaveText(original.time!);
  await expect(other.getByTestId('status')).toHaveText('paused');
  expect(await shown(other)).toStrictEqual(original);
  await expect(other.getByTestId('speed-slider')).toHaveValue('14');
  await expect(other.getByTestId('compare-toggle')).toBeChecked();
  await expect(other.getByTestId('knob-swappiness')).toHaveValue('120');
  await expect(other.getByTestId('link-error')).toHaveCount(0);
  await shot(other, testInfo, 'restored-link');
  await fresh.close();
});

test('an embed inside an iframe answers a key and postMessage play, pause and seek', async ({ page }, testInfo) => {
  const hash = await encodeLink({ scenario: 's000-thrash.toml', knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0 });
  await page.setContent(
    `<!doctype html><title>host</title><h1>Host page</h1><iframe id="lab" src="${baseURL}/?embed&view=lru#${hash}" width="640" height="420"></iframe>`,
  );
  const lab = page.frameLocator('#lab');
  await expect(lab.getByTestId('embed')).toBeVisible();
  await expect(lab.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
  await expect(lab.getByTestId('status')).toHaveText('paused');
  await expect(lab.getByTestId('virtual-time')).toHaveText('0 ns');

  // A key: focus the embed (click on the time, not a control), then step with the arrow key.
  await lab.getByTestId('virtual-time').click();
  await page.keyboard.press('ArrowRight');
  await expect(lab.getByTestId('virtual-time')).toHaveText('30.000 ms'); // one step at speed step 10 (300 ms/s): a tenth of it
  await page.keyboard.press(' ');
  await expect(lab.getByTestId('status')).toHaveText('running');
  await page.keyboard.press(' ');
  await expect(lab.getByTestId('status')).toHaveText('paused');

  const post = (msg: unknown) =>
    page.evaluate((m) => (document.getElementById('lab') as HTMLIFrameElement).contentWindow!.postMessage(m, '*'), msg);
  // Malformed messages are ignored. Messages arrive in order: once a sentinel posted after
  // them has reached the embed, they have all been handled (no fixed wait).
  const frame = page.frames().find((f) => f.url().includes('embed'))!;
  type Waiting = Window & { sentinel?: Promise<void> };
  await frame.evaluate(() => {
    (window as Waiting).sentinel = new Promise<void>((resolve) =>
      addEventListener('message', (e) => (e.data as { sentinel?: boolean } | null)?.sentinel && resolve()),
    );
  });
  await post({ type: 'reclaimlab', action: 'play', extra: 1 });
  await post({ type: 'other', action: 'play' });
  await post({ type: 'reclaimlab', action: 'seek', ns: -5 });
  await post({ sentinel: true });
  await frame.evaluate(() => (window as Waiting).sentinel);
  await expect(lab.getByTestId('status')).toHaveText('paused');

  await post({ type: 'reclaimlab', action: 'play' });
  await expect(lab.getByTestId('status')).toHaveText('running');
  await post({ type: 'reclaimlab', action: 'pause' });
  await expect(lab.getByTestId('status')).toHaveText('paused');
  await post({ type: 'reclaimlab', action: 'seek', ns: 400_000_000 });
  await expect(lab.getByTestId('virtual-time')).toHaveText('400.000 ms');
  await expect(lab.getByTestId('status')).toHaveText('paused');
  await post({ type: 'reclaimlab', action: 'seek', ns: 100_000_000 }); // backwards: replayed from 0
  await expect(lab.getByTestId('virtual-time')).toHaveText('100.000 ms');
  await expect(lab.getByTestId('run-0-lru-canvas')).toBeVisible();
  await shot(page, testInfo, 'embed-in-iframe');
});

async function saved(d: Download): Promise<Buffer> {
  const path = await d.path();
  return readFileSync(path!);
}

test('every export downloads a non-empty, well-formed file', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption('s000-thrash.toml'); // the page opens on a lesson
  await ready(page);
  await page.getByTestId('speed-slider').fill('16');
  for (let i = 0; i < 3; i++) {
    const before = await page.getByTestId('virtual-time').textContent();
    await page.getByTestId('step').click();
    await expect(page.getByTestId('virtual-time')).not.toHaveText(before!);
  }
  await tools(page, 'share');
  const get = async (id: string) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
    const body = await saved(d);
    expect(body.length).toBeGreaterThan(0);
    return { name: d.suggestedFilename(), body };
  };

  const csv = await get('export-csv');
  expect(csv.name).toMatch(/\.csv$/);
  const lines = csv.body.toString('utf8').trim().split('\n').map((l) => l.split(','));
  expect(lines[0]!.slice(0, 3)).toEqual(['variant', 't_ns', 'inactive_anon_pages']);
  expect(lines.length).toBeGreaterThan(2);
  for (const l of lines.slice(1)) {
    expect(l).toHaveLength(lines[0]!.length);
    for (const v of l.slice(1)) expect(Number.isFinite(Number(v))).toBe(true);
  }

  const json = JSON.parse((await get('export-json')).body.toString('utf8'));
  expect(json.scenario).toBe('s000-thrash.toml');
  expect(json.runs[0].now_ns).toBeGreaterThan(0);
  expect(typeof json.runs[0].counters.pgscan_kswapd).toBe('number');
  expect(json.runs[0].series.rows.length).toBeGreaterThan(0);

  const toml = (await get('export-toml')).body.toString('utf8');
  expect(toml).toMatch(/^title = /m);
  expect(toml).toContain('[[variants]]');

  const png = (await get('export-png')).body;
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.readUInt32BE(16)).toBe(2400); // the 1200 x 680 figure at 2x
  expect(png.readUInt32BE(20)).toBe(1360);

  const svg = (await get('export-svg')).body.toString('utf8');
  expect(svg).toMatch(/^<\?xml[^>]*>\s*<svg[\s>]/);
  expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
  expect(svg).toContain('class="series"');

  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  const md = (await get('export-md')).body.toString('utf8');
  const rows = md.split('\n').filter((l) => l.startsWith('|'));
  expect(rows[1]).toMatch(/^\|( ---:? \|)+$/);
  expect(rows.length).toBeGreaterThan(5);
  expect(rows.find((r) => r.startsWith('| pgscan_anon |'))).toBeTruthy();
});

for (const [what, hash, message] of [
  ['damaged', '#v1=AAAA!!!!', /not base64url/],
  ['truncated', '#v1=HcjBCoJQEEDRf7nrSZ5BBPMr0eKVI0qWj5lnL', /truncated|damaged/],
  ['future version', '#v9=HcjBCoJQ', /format version 9/],
] as const) {
  test(`a ${what} link shows a message and a working default page`, async ({ page }, testInfo) => {
    await page.goto(`/${hash}`);
    await expect(page.getByTestId('link-error')).toContainText(message);
    await expect(page.getByTestId('link-error')).toContainText('Showing the default page');
    await ready(page);
    await page.getByTestId('step').click();
    await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
    if (what === 'damaged') await shot(page, testInfo, 'bad-link');
  });
}

test('a link naming an unknown variant says so and shows the default page', async ({ page }) => {
  const hash = await encodeLink({ scenario: 's000-thrash.toml', knobs: {}, edited: null, variants: ['sideways'], compare: false, speedStep: 10, view: null, timeNs: 5 });
  await page.goto(`/#${hash}`);
  await expect(page.getByTestId('link-error')).toContainText('unknown variant "sideways"');
  await ready(page);
  await expect(page.getByTestId('virtual-time')).toHaveText('0 ns');
});

test('embedded views fit a small iframe, one run or two', async ({ page }, testInfo) => {
  const hash = await encodeLink({ scenario: 's000-thrash.toml', knobs: {}, edited: null, variants: ['before', 'after'], compare: true, speedStep: 10, view: null, timeNs: 800_000_000 });
  for (const view of ['lru', 'balance', 'charts', 'results'] as const) {
    await page.setContent(`<!doctype html><iframe id="lab" src="${baseURL}/?embed&view=${view}#${hash}" width="560" height="340"></iframe>`);
    const lab = page.frameLocator('#lab');
    await expect(lab.getByTestId('embed')).toHaveAttribute('data-view', view);
    await expect(lab.getByTestId('virtual-time')).toHaveText('800.000 ms', { timeout: 20_000 });
    await expect(lab.getByTestId('status')).toHaveText('paused');
    if (view === 'lru' || view === 'balance') await expect(lab.locator('[data-variant]')).toHaveCount(2);
    if (view === 'charts') await expect(lab.getByTestId('chart-counters')).toBeVisible();
    if (view === 'results') await expect(lab.getByTestId('results')).toBeVisible();
    // The embed fills the iframe without a horizontal scrollbar on the page itself.
    const box = await lab.getByTestId('embed').evaluate((e) => [e.clientWidth, e.clientHeight, document.documentElement.scrollWidth]);
    expect(box[0]).toBeLessThanOrEqual(560);
    expect(box[2]).toBeLessThanOrEqual(560);
    await shot(page, testInfo, `embed-${view}`);
  }
});

test("an embed takes the link's view when the URL names none, and autoplay=1 plays", async ({ page }) => {
  const hash = await encodeLink({ scenario: 's001b-worst-case.toml', knobs: {}, edited: null, variants: [], compare: false, speedStep: 8, view: 'balance', timeNs: 0 });
  await page.goto(`/?embed#${hash}`);
  await expect(page.getByTestId('embed')).toHaveAttribute('data-view', 'balance');
  await expect(page.getByTestId('run-0-balance-kind')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('status')).toHaveText('paused');
  await page.goto(`/?embed&view=lru&autoplay=1#${hash}`);
  await expect(page.getByTestId('embed')).toHaveAttribute('data-view', 'lru');
  await expect(page.getByTestId('status')).toHaveText(/running|finished/, { timeout: 20_000 });
});

test('a link carries hand-edited scenario text, and the embed dialog writes an iframe snippet', async ({ page, browser }, testInfo) => {
  await page.goto('/');
  await ready(page);
  await openEditor(page);
  const original = scenarioFile('s000-thrash.toml');
  const edited = original.replace(/^title = "(.*)"$/m, 'title = "$1 (edited in a test)"');
  expect(edited).not.toBe(original);
  await setEditorText(page, edited);
  await page.getByTestId('scenario-text-apply').click();
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  await tools(page, 'share');
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('link-field').inputValue();
  const time = await page.getByTestId('virtual-time').textContent();

  await page.getByTestId('embed-open').click();
  await expect(page.getByTestId('embed-dialog')).toBeVisible();
  await page.getByTestId('embed-view').selectOption('charts');
  const snippet = await page.getByTestId('embed-snippet').inputValue();
  expect(snippet).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed&amp;view=charts#v1=[A-Za-z0-9_-]+" width="960" height="540" title="Reclaim Lab"/);
  await shot(page, testInfo, 'embed-dialog');

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await ready(other);
  await expect(other.getByTestId('virtual-time')).toHaveText(time!);
  await openEditor(other);
  await expect(other.getByTestId('scenario-text')).toContainText('(edited in a test)');
  await expect(other.getByText('(edited)')).toBeVisible();
  await fresh.close();
});
