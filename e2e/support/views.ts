// Helpers of the colour, list, knob and newcomer specs: pick a scenario, step until a state,
// screenshots at the three sizes the issue names, and colour arithmetic for the palette checks.
import { mkdirSync } from 'node:fs';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { scenarioFile } from './editor';
import { ready } from './page';

export const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;

/** Optional extra copy of every screenshot (RECLAIM_SHOTS_DIR), to look at outside the report. */
const extraDir = process.env.RECLAIM_SHOTS_DIR;

/** Viewport screenshots at 1280x800, 1920x1080 and 390x844 with `target` scrolled into view.
 * Returns once the page is back at its viewport and `target` at its width from before, so that
 * what the caller reads next is not from the last (phone) size's layout. */
export async function shotsAtSizes(page: Page, testInfo: TestInfo, name: string, target?: string) {
  const original = page.viewportSize();
  const widthOf = async () => (target ? (await page.locator(target).first().boundingBox())?.width : undefined);
  const widthBefore = await widthOf();
  for (const s of SIZES) {
    await page.setViewportSize(s);
    if (target) await page.locator(target).first().scrollIntoViewIfNeeded();
    else await page.evaluate(() => window.scrollTo(0, 0));
    // Let the canvas redraw at the new width (a ResizeObserver and one animation frame).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const file = `${name}-${s.width}x${s.height}.png`;
    const path = testInfo.outputPath(file);
    await page.screenshot({ path });
    await testInfo.attach(file, { path, contentType: 'image/png' });
    if (extraDir) {
      mkdirSync(extraDir, { recursive: true });
      await page.screenshot({ path: `${extraDir}/${file}` });
    }
  }
  if (original) await page.setViewportSize(original);
  if (widthBefore !== undefined) await expect.poll(widthOf).toBe(widthBefore);
}

const titleOf = (text: string) => /^title\s*=\s*"(.*)"/m.exec(text)![1]!;

/** Open the page and choose the scenario in `file` (scenarios/). */
export async function openScenario(page: Page, file: string) {
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(scenarioFile(file)) });
  await expect(page.getByTestId('scenario-select')).toHaveValue(file);
  await ready(page);
}

/** Step (button) until `cond` holds in the page, at most `max` steps. */
export async function stepUntil(page: Page, cond: () => Promise<boolean>, max = 200) {
  for (let i = 0; i < max; i++) {
    if (await cond()) return;
    const before = await page.getByTestId('virtual-time').textContent();
    await page.getByTestId('step').click();
    await expect(page.getByTestId('virtual-time')).not.toHaveText(before!, { timeout: 60_000 });
  }
  expect(await cond(), `condition not reached in ${max} steps`).toBe(true);
}

/** Pages shown for list `key` of run `prefix`. */
export async function listPages(page: Page, key: string, prefix = 'run-0-') {
  return Number(await page.getByTestId(`${prefix}lru-size-${key}`).getAttribute('data-pages'));
}

// ---- colour arithmetic (sRGB, CIELAB, colour-vision-deficiency simulation of Machado 2009)

export type Rgb = [number, number, number];

/** "#rrggbb" or "rgb(r, g, b)" as 0..255 channels. */
export function parseColor(c: string): Rgb {
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(c);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  const h = /^#([0-9a-f]{6})$/i.exec(c.trim());
  if (!h) throw new Error(`not a colour: ${c}`);
  return [0, 2, 4].map((i) => parseInt(h[1]!.slice(i, i + 2), 16)) as Rgb;
}

/** Hue in degrees (0..360) and saturation (0..1, HSL) of a colour. */
export function hueSat([r, g, b]: Rgb): { hue: number; sat: number } {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const d = max - min;
  const l = (max + min) / 2;
  const sat = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let hue = 0;
  if (d > 0) {
    if (max === R) hue = 60 * (((G - B) / d) % 6);
    else if (max === G) hue = 60 * ((B - R) / d + 2);
    else hue = 60 * ((R - G) / d + 4);
  }
  return { hue: (hue + 360) % 360, sat };
}

const CVD: Record<string, number[][]> = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};
export const VISIONS = Object.keys(CVD);

function lab(c: Rgb, vision: string): number[] {
  const lin = c.map((v) => {
    const x = v / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  });
  const [r, g, b] = CVD[vision]!.map((row) => Math.min(1, Math.max(0, row[0]! * lin[0]! + row[1]! * lin[1]! + row[2]! * lin[2]!)));
  const X = (0.4124 * r! + 0.3576 * g! + 0.1805 * b!) / 0.95047;
  const Y = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  const Z = (0.0193 * r! + 0.1192 * g! + 0.9505 * b!) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))];
}

/** CIE76 colour difference as seen with `vision` (normal or a colour-vision deficiency). */
export function deltaE(a: Rgb, b: Rgb, vision: string): number {
  const A = lab(a, vision);
  const B = lab(b, vision);
  return Math.hypot(A[0]! - B[0]!, A[1]! - B[1]!, A[2]! - B[2]!);
}

/** Pixel colours of the canvas `testId` at CSS points (x, y). */
export async function canvasPixels(page: Page, testId: string, points: [number, number][]): Promise<Rgb[]> {
  return page.evaluate(
    ({ testId, points }) => {
      const c = document.querySelector<HTMLCanvasElement>(`[data-testid="${testId}"]`)!;
      const ctx = c.getContext('2d')!;
      const k = c.width / c.getBoundingClientRect().width;
      return points.map(([x, y]) => Array.from(ctx.getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data.slice(0, 3)) as [number, number, number]);
    },
    { testId, points },
  );
}
