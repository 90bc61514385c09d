// Embeds in a talk (issue 24, points 1 and 2): every view fits a 960x540 slide and a 1920x1080
// projector without scrolling, text is readable from the back of the room, the lesson can be
// hidden and never points at a view the embed does not show; a host page drives the embed
// through the whole postMessage protocol and hears it back; clicker keys step the lesson.
import { expect, test, type Frame, type Page } from '@playwright/test';
import { encodeLink, type LinkState } from '../web/src/lib/link';
import { baseURL } from './support/base';
import { deckServer } from './support/deck';
import { failOnPageErrors, tools } from './support/page';

failOnPageErrors();

// The host page comes from another origin, as a slide deck does (support/deck.ts).
const deck = deckServer();
const link = (s: Partial<LinkState> & { scenario: string }) =>
  encodeLink({ knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0, ...s });

/** A host page (served at deck.origin by the test) with the embed in a w x h iframe, logging every event. */
async function host(page: Page, src: string, w: number, h: number): Promise<Frame> {
  await page.setViewportSize({ width: w + 40, height: h + 80 });
  const html = `<!doctype html><html lang="en"><title>deck</title><h1>Slide</h1>
<iframe id="lab" title="Reclaim Lab" src="${src}" width="${w}" height="${h}" style="border:0;display:block"></iframe>
<script>
window.events = [];
addEventListener('message', (e) => { if (e.data && e.data.type === 'reclaimlab') events.push({ ...e.data, from: e.origin }); });
window.send = (m) => document.getElementById('lab').contentWindow.postMessage(m, '*');
</script>`;
  deck.html = html;
  await page.goto(`${deck.origin}/deck.html`);
  const find = () => page.frames().find((f) => f.url().startsWith(baseURL));
  await expect.poll(() => page.frames().map((f) => f.url()).join(' ')).toContain(baseURL);
  return find()!;
}

type Ev = { event: string; v: number; [k: string]: unknown };
const events = (page: Page) => page.evaluate(() => (window as unknown as { events: Ev[] }).events);
const last = async (page: Page, event: string) => (await events(page)).filter((e) => e.event === event).at(-1);
const send = (page: Page, m: unknown) => page.evaluate((x) => (window as unknown as { send(m: unknown): void }).send(x), m);

test('a host page drives an embed at 960x540 through the whole protocol, and hears it back', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const hash = await link({ scenario: 'lesson-swappiness.toml' });
  const lab = await host(page, `${baseURL}/?embed&view=lru#${hash}`, 960, 540);
  // ready comes unasked (version only); everything else after the host's ping.
  await expect.poll(() => last(page, 'ready'), { timeout: 20_000 }).toEqual({ type: 'reclaimlab', v: 1, event: 'ready', from: baseURL });
  expect((await events(page)).map((e) => e.event)).toEqual(['ready']);
  await send(page, { type: 'reclaimlab', v: 1, action: 'ping', id: 'deck-1' });
  await expect.poll(() => last(page, 'pong')).toMatchObject({ v: 1, id: 'deck-1' });
  await expect.poll(() => last(page, 'status')).toMatchObject({ status: 'paused' });
  await expect.poll(() => last(page, 'time')).toMatchObject({ ns: 0 });
  const steps = ((await last(page, 'lesson')) as Ev).of as number;
  expect(steps).toBeGreaterThan(2);
  expect(await last(page, 'lesson')).toMatchObject({ step: 0, caption: null });
  // A message of another protocol version is not understood. Asked here, while nothing plays,
  // so that no late frame of a play can move the lesson after it.
  // A v1 step after it answers through the worker, as a v2 `next` taken would have: by the
  // time its 10 ms arrive, the lesson would have moved.
  const before = (await events(page)).length;
  await send(page, { type: 'reclaimlab', v: 2, action: 'next' });
  await send(page, { type: 'reclaimlab', v: 1, action: 'step', ns: 10_000_000 });
  await expect.poll(() => last(page, 'time'), { timeout: 20_000 }).toMatchObject({ ns: 10_000_000 });
  const since = (await events(page)).slice(before);
  expect(since.filter((e) => e.event === 'lesson' && e.step !== 0)).toEqual([]);
  expect(since.filter((e) => e.event === 'time').map((e) => e.ns)).toEqual([10_000_000]);
  await send(page, { type: 'reclaimlab', action: 'seek', ns: 0 });
  await expect.poll(() => last(page, 'time'), { timeout: 20_000 }).toMatchObject({ ns: 0 });

  // play: the run plays, and stops at the lesson's first step (150 ms: every step pauses for
  // its caption); played on, at the second (400 ms).
  await send(page, { type: 'reclaimlab', action: 'play' });
  await expect.poll(async () => (await events(page)).some((e) => e.event === 'status' && e.status === 'playing')).toBe(true);
  await expect.poll(() => last(page, 'time'), { timeout: 20_000 }).toMatchObject({ ns: 150_000_000 });
  await expect.poll(() => last(page, 'status')).toMatchObject({ status: 'paused' });
  await send(page, { type: 'reclaimlab', action: 'play' });
  await expect.poll(() => last(page, 'time'), { timeout: 20_000 }).toMatchObject({ ns: 400_000_000 });
  await expect.poll(() => last(page, 'status')).toMatchObject({ status: 'paused' });
  expect(await last(page, 'lesson')).toMatchObject({ step: 2, of: steps });
  await expect(lab.getByTestId('lesson-progress')).toContainText(`step 2/${steps}`);

  // next / prev lesson step, step, seek, pause.
  await send(page, { type: 'reclaimlab', v: 1, action: 'next' });
  await expect.poll(() => last(page, 'lesson')).toMatchObject({ step: 3 });
  await expect.poll(() => last(page, 'time')).toMatchObject({ ns: 500_000_000 });
  await send(page, { type: 'reclaimlab', v: 1, action: 'prev' });
  await expect.poll(() => last(page, 'time'), { timeout: 20_000 }).toMatchObject({ ns: 400_000_000 });
  expect(await last(page, 'lesson')).toMatchObject({ step: 2 });
  await send(page, { type: 'reclaimlab', v: 1, action: 'step', ns: 10_000_000 });
  await expect.poll(() => last(page, 'time')).toMatchObject({ ns: 410_000_000 });
  await expect(lab.getByTestId('virtual-time')).toHaveText('410.000 ms');
  await send(page, { type: 'reclaimlab', action: 'seek', ns: 0 });
  await expect.poll(() => last(page, 'lesson'), { timeout: 20_000 }).toMatchObject({ step: 0 });
  expect(await last(page, 'time')).toMatchObject({ ns: 0 });
  await send(page, { type: 'reclaimlab', action: 'play' });
  await expect.poll(() => last(page, 'status')).toMatchObject({ status: 'playing' });
  // Paused past 0, the seek to 0 below answers with a time of 0 that can only be its own.
  await expect.poll(async () => ((await last(page, 'time')) as Ev).ns as number, { timeout: 20_000 }).toBeGreaterThan(0);
  await send(page, { type: 'reclaimlab', action: 'pause' });
  await expect.poll(() => last(page, 'status')).toMatchObject({ status: 'paused' });

  // The clicker: PageDown / PageUp (and the arrows) step the lesson.
  await send(page, { type: 'reclaimlab', action: 'seek', ns: 0 });
  await expect(lab.getByTestId('virtual-time')).toHaveText('0 ns', { timeout: 20_000 });
  await expect.poll(() => last(page, 'lesson')).toMatchObject({ step: 0 });
  await lab.getByTestId('virtual-time').click();
  await page.keyboard.press('PageDown');
  await expect.poll(() => last(page, 'lesson')).toMatchObject({ step: 1 });
  await page.keyboard.press('PageDown');
  await expect.poll(() => last(page, 'lesson'), { timeout: 20_000 }).toMatchObject({ step: 2 });
  await page.keyboard.press('PageUp');
  await expect.poll(() => last(page, 'lesson'), { timeout: 20_000 }).toMatchObject({ step: 1 });
  await page.keyboard.press('PageUp');
  await expect.poll(() => last(page, 'lesson'), { timeout: 20_000 }).toMatchObject({ step: 0 });
  // The arrows step the time (one step of the speed), not the lesson.
  await page.keyboard.press('ArrowRight');
  await expect(lab.getByTestId('virtual-time')).toHaveText('30.000 ms');
  expect(await last(page, 'lesson')).toMatchObject({ step: 0 });
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => last(page, 'time'), { timeout: 20_000 }).toMatchObject({ ns: 0 });
  await page.screenshot({ path: testInfo.outputPath('embed-protocol-960x540.png') });

  // finished: the end of the run.
  await send(page, { type: 'reclaimlab', action: 'seek', ns: 3_600_000_000_000 });
  await expect.poll(() => last(page, 'status'), { timeout: 60_000 }).toMatchObject({ status: 'finished' });
  expect((await events(page)).every((e) => e.v === 1 && e.from === baseURL)).toBe(true);
});

test('ready comes once the linked state is in place: a play posted right after it plays; commands sent while seeking wait their turn', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  // S000 at 5 s: the seek to the link's time takes a while, and the first lesson step after it
  // is at 8.5 s, so a play runs on.
  const hash = await link({ scenario: 's000-thrash.toml', timeNs: 5_000_000_000 });
  const lab = await host(page, `${baseURL}/?embed&view=lru#${hash}`, 960, 540);
  // The host posts play the moment ready arrives, as docs/embedding.md's handshake does.
  await page.evaluate(() => {
    const w = window as unknown as { events: { event: string }[]; send(m: unknown): void };
    addEventListener('message', (e) => {
      if (e.data?.type === 'reclaimlab' && e.data.event === 'ready') w.send({ type: 'reclaimlab', action: 'play' });
    });
  });
  await expect.poll(() => last(page, 'ready'), { timeout: 60_000 }).toBeTruthy();
  // At ready the link's time was reached; the play then runs on from there.
  await expect(lab.getByTestId('status')).toHaveText('running', { timeout: 20_000 });
  await expect.poll(async () => parseFloat((await lab.getByTestId('virtual-time').textContent()) ?? '0'), { timeout: 20_000 }).toBeGreaterThan(5);
  await send(page, { type: 'reclaimlab', action: 'pause' });
  await expect(lab.getByTestId('status')).toHaveText('paused');
  // A seek back replays from the start; a step and a next sent meanwhile are applied after
  // it, in order: 1 s, then +10 ms, then the next lesson step after 1.01 s (2.5 s).
  await send(page, { type: 'reclaimlab', action: 'seek', ns: 1_000_000_000 });
  await send(page, { type: 'reclaimlab', action: 'step', ns: 10_000_000 });
  await send(page, { type: 'reclaimlab', action: 'next' });
  // (The worker's checkpoints may make the seek too quick to see its progress: not asserted.)
  await expect(lab.getByTestId('virtual-time')).toHaveText('2.500 s', { timeout: 60_000 });
  await page.locator('#lab').screenshot({ path: testInfo.outputPath('embed-queued-960x540.png') });
  await expect(lab.getByTestId('status')).toHaveText('paused');
  await expect(lab.getByTestId('seek-progress')).toHaveCount(0);
});

test('clicker keys step the time when the embed shows no lesson', async ({ page }) => {
  const hash = await link({ scenario: 's000-thrash.toml' });
  await page.goto(`/?embed&view=lru&lesson=0#${hash}`);
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
  await page.getByTestId('virtual-time').click();
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('virtual-time')).toHaveText('30.000 ms');
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('virtual-time')).toHaveText('60.000 ms');
  await page.keyboard.press('PageUp');
  await expect(page.getByTestId('virtual-time')).toHaveText('30.000 ms');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('virtual-time')).toHaveText('0 ns');
});

test('with host=ORIGIN the embed obeys and answers only that origin', async ({ page }) => {
  const hash = await link({ scenario: 's000-thrash.toml' });
  const lab = await host(page, `${baseURL}/?embed&view=lru&host=${encodeURIComponent('http://elsewhere.test')}#${hash}`, 640, 360);
  await expect(lab.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
  await send(page, { type: 'reclaimlab', action: 'ping', id: 1 });
  await send(page, { type: 'reclaimlab', action: 'step', ns: 5_000_000 });
  await send(page, { type: 'reclaimlab', action: 'ping', id: 2 });
  await page.waitForFunction(() => true);
  await expect(lab.getByTestId('virtual-time')).toHaveText('0 ns');
  expect(await events(page)).toEqual([]); // ready went to elsewhere.test, not to us

  const ok = await host(page, `${baseURL}/?embed&view=lru&host=${encodeURIComponent(deck.origin)}#${hash}`, 640, 360);
  await expect.poll(() => last(page, 'ready'), { timeout: 20_000 }).toBeTruthy();
  await send(page, { type: 'reclaimlab', action: 'step', ns: 5_000_000 });
  await expect(ok.getByTestId('virtual-time')).toHaveText('5.000 ms');
  await expect.poll(() => last(page, 'time')).toMatchObject({ ns: 5_000_000 }); // events without a ping: the origin is fixed
});

const FRAMES = [
  { w: 960, h: 540 },
  { w: 1920, h: 1080 },
];

/** The embed shows all of its content inside the frame: nothing scrolls, nothing is cut off. */
async function fits(lab: Frame) {
  return lab.evaluate(() => {
    const embed = document.querySelector('[data-testid="embed"]')!;
    const inner = document.querySelector('.fit-inner') ?? embed;
    const r = inner.getBoundingClientRect();
    return {
      scrolls: embed.scrollHeight > embed.clientHeight + 1 || document.documentElement.scrollHeight > innerHeight + 1 || document.documentElement.scrollWidth > innerWidth + 1,
      inside: r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1 && r.left >= -1 && r.top >= -1,
    };
  });
}

test('every embed view fits a 960x540 slide and a 1920x1080 projector without scrolling', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const compare = await link({ scenario: 's000-thrash.toml', variants: ['before', 'after'], compare: true, timeNs: 800_000_000 });
  const memcg = await link({ scenario: 's003-memcg-lru.toml', timeNs: 300_000_000 });
  const lesson = await link({ scenario: 'lesson-swappiness.toml', timeNs: 500_000_000 });
  const cases = [
    ...(['lru', 'gens', 'balance', 'charts', 'results'] as const).map((view) => ({ view, hash: compare, time: '800.000 ms', name: `s000-compare-${view}` })),
    { view: 'memcg', hash: memcg, time: '300.000 ms', name: 's003-memcg' },
    { view: 'lru', hash: lesson, time: '500.000 ms', name: 'lesson-lru' },
    { view: 'balance', hash: lesson, time: '500.000 ms', name: 'lesson-balance' },
  ];
  for (const f of FRAMES) {
    for (const c of cases) {
      const lab = await host(page, `${baseURL}/?embed&view=${c.view}#${c.hash}`, f.w, f.h);
      await expect(lab.getByTestId('virtual-time')).toHaveText(c.time, { timeout: 30_000 });
      if (c.view === 'results') await expect(lab.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
      await expect.poll(() => fits(lab), { message: `${c.name} at ${f.w}x${f.h}` }).toEqual({ scrolls: false, inside: true });
      await page.locator('#lab').screenshot({ path: testInfo.outputPath(`embed-${c.name}-${f.w}x${f.h}.png`) });
    }
  }
});

/** Rendered size (px on screen) of an element's text: its font size times the embed's scale. */
const shownPx = (lab: Frame, testId: string) =>
  lab.getByTestId(testId).evaluate((e) => {
    const scale = Number(document.querySelector('.fit-frame')?.getAttribute('data-scale') || 1);
    return parseFloat(getComputedStyle(e).fontSize) * scale;
  });

test('at 1920x1080 body text is at least 18 px; lesson=0 hides the lesson; no caption points at a view not shown', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  // 400 ms: step 2 of the swappiness lesson, which points at the balance view.
  const hash = await link({ scenario: 'lesson-swappiness.toml', timeNs: 400_000_000 });
  let lab = await host(page, `${baseURL}/?embed&view=lru#${hash}`, 1920, 1080);
  await expect(lab.getByTestId('virtual-time')).toHaveText('400.000 ms', { timeout: 30_000 });
  await expect.poll(() => shownPx(lab, 'lesson-caption')).toBeGreaterThanOrEqual(18);
  expect(await shownPx(lab, 'status')).toBeGreaterThanOrEqual(18);
  expect(await shownPx(lab, 'run-0-lru-size-free')).toBeGreaterThanOrEqual(18);
  // Step 2 points at the balance view, which an LRU embed does not show: no "Look at" there.
  await expect(lab.getByTestId('lesson-progress')).toContainText('step 2/');
  await expect(lab.getByTestId('lesson')).toHaveAttribute('data-highlight', '');
  await expect(lab.getByText(/Look at/)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('embed-lesson-1920x1080.png') });
  // The balance embed shows it, and says so.
  lab = await host(page, `${baseURL}/?embed&view=balance#${hash}`, 960, 540);
  await expect(lab.getByTestId('virtual-time')).toHaveText('400.000 ms', { timeout: 30_000 });
  await expect(lab.getByTestId('lesson')).toHaveAttribute('data-highlight', 'balance');
  // lesson=0: no lesson panel.
  lab = await host(page, `${baseURL}/?embed&view=lru&lesson=0#${hash}`, 960, 540);
  await expect(lab.getByTestId('virtual-time')).toHaveText('400.000 ms', { timeout: 30_000 });
  await expect(lab.getByTestId('lesson')).toHaveCount(0);
  await expect(lab.getByTestId('run-0-lru-canvas')).toBeVisible();
});

test('the Embed dialog names views in words, offers only those the scenario has, previews live and copies', async ({ page, context }, testInfo) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
  await tools(page, 'share');
  await page.getByTestId('embed-open').click();
  const views = page.getByTestId('embed-view').locator('option');
  await expect(views).toHaveText(['LRU lists (pages moving between the four lists)', 'Balance: anon vs file scan decision', 'Charts over time', 'Results table (before/after)']);
  const preview = page.frameLocator('[data-testid="embed-preview-frame"]');
  await expect(preview.getByTestId('embed')).toHaveAttribute('data-view', 'lru', { timeout: 20_000 });
  await expect(preview.getByTestId('run-0-lru-canvas')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('embed-view').selectOption({ label: 'Balance: anon vs file scan decision' });
  await expect(preview.getByTestId('embed')).toHaveAttribute('data-view', 'balance');
  await page.getByTestId('embed-lesson').uncheck();
  await expect(page.getByTestId('embed-snippet')).toHaveValue(/view=balance&amp;lesson=0#v1=/);
  await expect(preview.getByTestId('run-0-balance-kind')).toBeVisible({ timeout: 20_000 });
  await expect(preview.getByTestId('lesson')).toHaveCount(0);
  await page.getByTestId('embed-copy').click();
  await expect(page.getByTestId('embed-copy-status')).toHaveText('Snippet copied to the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.getByTestId('embed-snippet').inputValue());
  await page.screenshot({ path: testInfo.outputPath('embed-dialog-1280.png') });
  await page.keyboard.press('Escape');

  // A scenario with memory cgroups and MGLRU offers those views too.
  await page.getByTestId('scenario-select').selectOption('s003-memcg-lru.toml');
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 20_000 });
  await page.getByTestId('embed-open').click();
  await expect(views).toContainText(['memcg LRU (per-cgroup reclaim order)']);
});
