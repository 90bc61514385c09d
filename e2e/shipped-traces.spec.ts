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
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption(LESSON);
  const needed = page.getByTestId('trace-needed');
  await expect(needed).toBeVisible();
  await expect(page.getByTestId('trace-needed-reason')).toContainText(`This scenario replays the trace ${GPL}, which this page cannot load by itself: it is GPL-3.0`);
  await expect(page.getByTestId('stage')).toHaveCount(0);
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await shot(page, testInfo, `lesson-trace-needed-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // A file of any name chosen here is that trace.
  await page.getByTestId('trace-needed-input').setInputFiles({ name: 'my-copy.bin', mimeType: 'application/octet-stream', buffer: readFileSync(GPL_PATH) });
  await expect(needed).toHaveCount(0);
  await ready(page);
  // Play to the lesson's first pausing step (2 s): its caption compares the kernel with LRU and OPT.
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('lesson-caption')).toContainText('no policy can avoid', { timeout: 90_000 });
  await expect(page.getByTestId('status')).toHaveText('paused', { timeout: 30_000 });
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

test('the trace lesson in a 960x540 slide embed says which file it needs, in type of 14 px or more, then plays', async ({ page }, testInfo) => {
  const hash = await encodeLink({ scenario: LESSON, knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0 });
  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto(`/?embed&view=lru#${hash}`);
  const needed = page.getByTestId('trace-needed');
  await expect(page.getByTestId('trace-needed-reason')).toContainText(`replays the trace ${GPL}`);
  await expect(needed).toContainText('Give the file:'); // no drop in an embed
  const small = await needed.evaluate((el) =>
    [...el.querySelectorAll('p, span, code, label')].filter((e) => (e.textContent ?? '').trim() && parseFloat(getComputedStyle(e).fontSize) < 14).map((e) => e.textContent),
  );
  expect(small).toEqual([]);
  await shot(page, testInfo, 'lesson-trace-needed-embed-960x540');
  await page.getByTestId('trace-needed-input').setInputFiles({ name: GPL, mimeType: 'application/octet-stream', buffer: readFileSync(GPL_PATH) });
  await expect(needed).toHaveCount(0);
  await ready(page);
  // Play to the first step: the replay's figures show under the lists, in slide type too.
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('lesson-caption')).toContainText('no policy can avoid', { timeout: 90_000 });
  await expect(page.getByTestId('run-0-replay-lru')).toBeVisible();
  expect(await page.getByTestId('run-0-replay').evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(14);
  await shot(page, testInfo, 'lesson-embed-960x540');
});
