// Shipped traces (issue #47): the trace picker lists scenarios/traces/index.json, a served trace
// picked replays like a dropped one, a trace the page may not serve (the GPL-3.0 CloudPhysics
// sample) is listed with its reason and never served; the lesson that replays it says which
// file it needs and why, and plays once the file is given. A file over the engine's budget is
// refused by its size before it is read.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { encodeLink } from '../web/src/lib/link';
import { failOnPageErrors, ready, shot, tools } from './support/page';

failOnPageErrors();
test.setTimeout(180_000);

const GPL = 'cloudPhysicsIO.oracleGeneral.bin';
const GPL_PATH = new URL(`../scenarios/traces/${GPL}`, import.meta.url).pathname;
const LESSON = 'traces/lesson-not-lru.toml';

/** The full page at 1280x800 with the trace lesson chosen (its notice shows while it waits). */
async function openLesson(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption(LESSON);
}
/** Laptop, projector and phone. */
const SIZES = [
  [1280, 800],
  [1920, 1080],
  [390, 844],
] as const;

test('the lesson that replays a trace the page may not serve says so, then plays once the file is given', async ({ page, request }, testInfo) => {
  // The build never copies the GPL-3.0 trace (the manifest is there): the page cannot fetch it.
  expect(existsSync(new URL('../dist/traces/index.json', import.meta.url))).toBe(true);
  expect(existsSync(new URL(`../dist/traces/${GPL}`, import.meta.url))).toBe(false);
  const res = await request.get(`/traces/${GPL}`);
  expect(res.headers()['content-type']).toContain('text/html'); // the app's fallback page
  expect((await res.body()).length).not.toBe(statSync(GPL_PATH).size);
  await openLesson(page);
  const needed = page.getByTestId('trace-needed');
  await expect(needed).toBeVisible();
  await expect(page.getByTestId('trace-needed-reason')).toContainText(`This scenario replays the trace ${GPL}, which this page cannot load by itself: it is GPL-3.0`);
  await expect(page.getByTestId('stage')).toHaveCount(0);
  // The runs the engine still holds are the previous scenario's: nothing to play, it waits.
  await expect(page.getByTestId('status')).toHaveText('waiting for the trace');
  await expect(page.getByTestId('play-toggle')).toBeDisabled();
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await shot(page, testInfo, `lesson-trace-needed-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // A file of any name chosen here is that trace: first one that is not a trace at all. The
  // engine refuses it by its record; the page says which file is in use and takes another.
  await page.getByTestId('trace-needed-input').setInputFiles({ name: 'broken.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(30, 1) });
  await expect(needed).toHaveCount(0);
  const inUse = page.getByTestId('trace-in-use');
  await expect(inUse).toHaveAttribute('data-from', 'broken.bin');
  await expect(page.getByTestId('engine-error')).toContainText('30 bytes is not a whole number of 24-byte oracleGeneral records: record 2 is cut short after 6 bytes');
  await expect(page.getByTestId('play-toggle')).toBeDisabled();
  // Then a wrong trace (another, small one) in its place.
  const wrong = smallTrace();
  await page.getByTestId('trace-replace-input').setInputFiles({ name: 'wrong.bin', mimeType: 'application/octet-stream', buffer: wrong });
  await expect(inUse).toHaveAttribute('data-from', 'wrong.bin');
  await ready(page);
  await expect(page.getByTestId('engine-error')).toHaveCount(0);
  await expect(inUse).toContainText(`Replays ${GPL} from your file wrong.bin (${wrong.length.toLocaleString('en')} bytes).`);
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await shot(page, testInfo, `lesson-trace-wrong-file-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // It plays the wrong trace: its 600 requests at most.
  await playToFirstStop(page);
  expect(count(await page.getByTestId('run-0-replay-requests').textContent())).toBeLessThanOrEqual(600);
  // Another file, of yet another name, replaces it: the lesson loads again from its start.
  await page.getByTestId('trace-replace-input').setInputFiles({ name: 'my-copy.bin', mimeType: 'application/octet-stream', buffer: readFileSync(GPL_PATH) });
  await expect(inUse).toHaveAttribute('data-from', 'my-copy.bin');
  await expect(inUse).toContainText(`from your file my-copy.bin (${statSync(GPL_PATH).size.toLocaleString('en')} bytes)`);
  await expect(page.getByTestId('virtual-time')).toHaveText('0 ns');
  await ready(page);
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await shot(page, testInfo, `lesson-trace-replaced-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // Play to the lesson's first pausing step (2 s): its caption compares the kernel with LRU and OPT.
  await playToFirstStop(page);
  await expect(page.getByTestId('lesson-caption')).toContainText('no policy can avoid');
  await expect(page.getByTestId('status')).toHaveText('paused');
  expect(count(await page.getByTestId('run-0-replay-requests').textContent())).toBeGreaterThan(20_000);
  // The figures the caption speaks of, as the engine reports them: so far all three miss alike.
  const misses = await page.getByTestId('run-0-replay-misses').textContent();
  expect(Number(misses!.replace(/,/g, ''))).toBeGreaterThan(0);
  await expect(page.getByTestId('run-0-replay-lru')).toHaveText(misses!);
  await expect(page.getByTestId('run-0-replay-opt')).toHaveText(misses!);
  await shot(page, testInfo, 'lesson-not-lru-1280x800');
  await page.getByTestId('run-0').screenshot({ path: testInfo.outputPath('lesson-not-lru-run-1280x800.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, 'lesson-not-lru-390x844');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await shot(page, testInfo, 'lesson-not-lru-1920x1080');
});

/** A figure as the page prints it ("12,345"). */
const count = (text: string | null) => Number((text ?? '').replace(/,/g, ''));

/** Play until the run stops by itself: the lesson's first pausing step, or its end. */
async function playToFirstStop(page: Page) {
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('status')).toHaveText(/paused|finished/, { timeout: 120_000 });
}

/** A small oracleGeneral trace: 600 requests over 200 objects, next-access fields counted from 1. */
function smallTrace(): Buffer {
  const n = 600;
  const ids = Array.from({ length: n }, (_, i) => (i * 7) % 200);
  const b = Buffer.alloc(n * 24);
  const next = new Map<number, number>();
  for (let i = n - 1; i >= 0; i--) {
    b.writeUInt32LE(i, i * 24);
    b.writeBigUInt64LE(BigInt(ids[i]!), i * 24 + 4);
    b.writeUInt32LE(4096, i * 24 + 12);
    b.writeBigInt64LE(BigInt(next.get(ids[i]!) ?? -1), i * 24 + 16);
    next.set(ids[i]!, i + 1);
  }
  return b;
}

/** Serve the built manifest with one more served trace, a small one whose curve is quick to draw. */
async function withServedTrace(page: Page, file: string, bytes: Buffer) {
  await page.route('**/traces/index.json', async (route) => {
    const built = (await (await route.fetch()).json()) as { traces: object[] };
    const extra = { file, format: 'oracleGeneral', title: 'A served test trace', source: 'this test', licence: 'CC0-1.0', served: true };
    await route.fulfill({ json: { ...built, traces: [...built.traces, extra] } });
  });
  await page.route(`**/traces/${file}`, (route) => route.fulfill({ body: bytes, contentType: 'application/octet-stream' }));
}

test('the picker lists the shipped traces: the GPL one with its reason, a served one replays like a drop', async ({ page }, testInfo) => {
  const served = 'served-test.oracleGeneral.bin';
  await withServedTrace(page, served, smallTrace());
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await ready(page);
  await tools(page, 'trace');
  await expect(page.getByTestId(`trace-shipped-${GPL}`)).toHaveAttribute('data-served', 'false');
  await expect(page.getByTestId(`trace-not-served-${GPL}`)).toContainText('Not served here: it is GPL-3.0');
  await expect(page.getByTestId(`trace-pick-${GPL}`)).toHaveCount(0);
  await expect(page.getByTestId(`trace-lesson-${LESSON}`)).toHaveText('Lesson: why Linux is not LRU');
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await page.getByTestId('trace-shipped').scrollIntoViewIfNeeded();
    await shot(page, testInfo, `trace-picker-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId(`trace-pick-${served}`).click();
  await expect(page.getByTestId('scenario-select')).toHaveValue(`trace:${served}`);
  await ready(page);
  await expect(page.getByTestId('trace-ready')).toContainText(`${served} is open`);
  // Its curve is computed as for a drop.
  await expect(page.getByTestId('mrc-progress')).toHaveAttribute('data-total', /^[1-9]\d*$/, { timeout: 60_000 });
  // The lesson link of the panel opens the lesson (which asks for its trace).
  await page.getByTestId(`trace-lesson-${LESSON}`).click();
  await expect(page.getByTestId('scenario-select')).toHaveValue(LESSON);
  await expect(page.getByTestId('trace-needed')).toBeVisible();
});

test('a trace file over 256 MiB is refused by its size, never read', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  const before = await page.getByTestId('scenario-select').inputValue();
  // A file that says it is 300 MiB and records whether anything read it.
  const read = await page.evaluate(() => {
    const f = new File([new Uint8Array(24)], 'huge.oracleGeneral.bin');
    Object.defineProperty(f, 'size', { value: 300 * 2 ** 20 });
    const w = window as unknown as { traceRead: number };
    w.traceRead = 0;
    for (const m of ['arrayBuffer', 'stream', 'text', 'slice'] as const) {
      const orig = f[m].bind(f) as (...a: unknown[]) => unknown;
      Object.defineProperty(f, m, { value: (...a: unknown[]) => (w.traceRead++, orig(...a)) });
    }
    const drop = new Event('drop', { cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [f], types: ['Files'] } });
    window.dispatchEvent(drop);
    return w.traceRead;
  });
  expect(read).toBe(0);
  await expect(page.getByTestId('trace-error')).toContainText(`huge.oracleGeneral.bin is ${300 * 2 ** 20} bytes; a trace may be at most ${256 * 2 ** 20} bytes`);
  expect(await page.evaluate(() => (window as unknown as { traceRead: number }).traceRead)).toBe(0);
  await expect(page.getByTestId('scenario-select')).toHaveValue(before);
});

/** Text in `scope` under 14 px (the slide embed's floor), and the input boxes too. */
async function smallText(scope: ReturnType<Page['getByTestId']>) {
  return scope.evaluate((el) =>
    [...el.querySelectorAll('p, span, code, strong, label, button, input')]
      .filter((e) => ((e.textContent ?? '').trim() || e.tagName === 'INPUT') && parseFloat(getComputedStyle(e).fontSize) < 14)
      .map((e) => `${e.tagName} ${e.textContent} ${getComputedStyle(e).fontSize}`),
  );
}

test('the trace lesson in a 960x540 slide embed says which file it needs and that it waits for it, takes a file, another in its place, then plays', async ({ page }, testInfo) => {
  const hash = await encodeLink({ scenario: LESSON, knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0 });
  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto(`/?embed&view=lru#${hash}`);
  const needed = page.getByTestId('trace-needed');
  await expect(page.getByTestId('trace-needed-reason')).toContainText(`replays the trace ${GPL}`);
  await expect(needed).toContainText('Give the file:'); // no drop in an embed
  // The bar says what the page waits for: the user's file, not the engine.
  await expect(page.getByTestId('status')).toHaveText('waiting for the trace');
  expect(await smallText(needed)).toEqual([]);
  // The reason and the file box below it are apart.
  const reason = await page.getByTestId('trace-needed-reason').boundingBox();
  const box = await needed.locator('.trace-drop').boundingBox();
  expect(box!.y - (reason!.y + reason!.height)).toBeGreaterThanOrEqual(8);
  await shot(page, testInfo, 'lesson-trace-needed-embed-960x540');
  // A wrong file first: the embed says which file is in use and takes another in its place.
  await page.getByTestId('trace-needed-input').setInputFiles({ name: 'wrong.bin', mimeType: 'application/octet-stream', buffer: smallTrace() });
  await expect(needed).toHaveCount(0);
  const inUse = page.getByTestId('trace-in-use');
  await expect(inUse).toHaveAttribute('data-from', 'wrong.bin');
  await ready(page);
  expect(await smallText(page.getByTestId('traces-in-use'))).toEqual([]);
  await shot(page, testInfo, 'lesson-trace-wrong-file-embed-960x540');
  await page.getByTestId('trace-replace-input').setInputFiles({ name: 'lesson-trace.bin', mimeType: 'application/octet-stream', buffer: readFileSync(GPL_PATH) });
  await expect(inUse).toHaveAttribute('data-from', 'lesson-trace.bin');
  await ready(page);
  await shot(page, testInfo, 'lesson-trace-replaced-embed-960x540');
  // Play to the first step: the replay's figures show under the lists, in slide type too.
  await playToFirstStop(page);
  await expect(page.getByTestId('lesson-caption')).toContainText('no policy can avoid');
  expect(count(await page.getByTestId('run-0-replay-requests').textContent())).toBeGreaterThan(20_000);
  await expect(page.getByTestId('run-0-replay-lru')).toBeVisible();
  expect(await page.getByTestId('run-0-replay').evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(14);
  await shot(page, testInfo, 'lesson-embed-960x540');
});

test('a manifest answered with the app\'s index.html: the notice and the picker name its URL and say it is not JSON', async ({ page, baseURL }, testInfo) => {
  const html = await (await page.request.get('/')).text();
  await page.route('**/traces/index.json', (route) => route.fulfill({ body: html, contentType: 'text/html' }));
  const url = new URL('traces/index.json', baseURL).href;
  const why = `the list of shipped traces (${url}) is not JSON: the server answered with an HTML page, which a static host sends for a file it does not have`;
  await openLesson(page);
  const reason = page.getByTestId('trace-needed-reason');
  await expect(reason).toHaveAttribute('data-why', 'list-error');
  await expect(reason).toContainText(`This scenario replays the trace ${GPL}, and the page cannot tell whether it serves it: ${why}`);
  await expect(reason).toContainText('Give the file below');
  await expect(reason).not.toContainText('Unexpected token');
  for (const [w, h] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await shot(page, testInfo, `lesson-trace-manifest-failed-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await tools(page, 'trace');
  await expect(page.getByTestId('trace-shipped-error')).toContainText(`The list of shipped traces is not available: ${why}`);
  // The embed says the same.
  const hash = await encodeLink({ scenario: LESSON, knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0 });
  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto(`/?embed&view=lru#${hash}`);
  await expect(reason).toContainText(why);
  expect(await smallText(page.getByTestId('trace-needed'))).toEqual([]);
  await shot(page, testInfo, 'lesson-trace-manifest-failed-embed-960x540');
});

test('a served trace whose fetch fails: the notice says which URL failed and how, and tries again when asked', async ({ page, baseURL }, testInfo) => {
  // The lesson's trace served (as a site that may serve it would), its first fetch failing.
  await page.route('**/traces/index.json', async (route) => {
    const built = (await (await route.fetch()).json()) as { traces: { file: string; served: boolean }[] };
    await route.fulfill({ json: { ...built, traces: built.traces.map((t) => (t.file === GPL ? { ...t, served: true } : t)) } });
  });
  let fail = true;
  await page.route(`**/traces/${GPL}`, (route) =>
    fail ? route.fulfill({ status: 503, body: 'busy' }) : route.fulfill({ body: readFileSync(GPL_PATH), contentType: 'application/octet-stream' }),
  );
  await openLesson(page);
  const reason = page.getByTestId('trace-needed-reason');
  await expect(reason).toHaveAttribute('data-why', 'fetch');
  await expect(reason).toContainText(
    `This scenario replays the trace ${GPL}, which this page serves, but the trace ${GPL} (${new URL(`traces/${GPL}`, baseURL).href}) could not be loaded: the server answered HTTP 503`,
  );
  await shot(page, testInfo, 'lesson-trace-fetch-failed-1280x800');
  fail = false;
  await page.getByTestId('trace-needed-retry').click();
  await expect(page.getByTestId('trace-needed')).toHaveCount(0);
  await expect(page.getByTestId('trace-in-use')).toContainText(`Replays ${GPL} as served at ${new URL(`traces/${GPL}`, baseURL).href}`);
  await ready(page);
});
