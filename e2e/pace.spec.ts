// Playing on a slow or loaded machine (issue #25): the page sizes each play step by the engine
// worker's own time for the steps before (pace.ts). It used to size them by the whole round
// trip, whose fixed part (a busy main thread drawing each frame) does not shrink with the step:
// on a loaded machine every frame cut the step, toward 1 ns, and playing stood still ("reaching
// 0.001 µs/s"). Here the page's main thread is slowed 12x (Chromium's CPU throttling, as a
// loaded laptop would be); the run must still get on. No timing is asserted: the test waits for
// a state (a virtual time the old pace never reached within minutes).
import { expect, test } from '@playwright/test';
import { failOnPageErrors } from './support/page';
import { openScenario } from './support/views';

failOnPageErrors();

/** Virtual time shown, in seconds ("392.617 ms", "3.510 s"). */
function seconds(text: string | null): number {
  const m = /^([\d.]+) (ns|µs|ms|s)$/.exec(text ?? '');
  if (!m) return NaN;
  return Number(m[1]) / { ns: 1e9, µs: 1e6, ms: 1e3, s: 1 }[m[2] as 'ns' | 'µs' | 'ms' | 's'];
}

test('a heavy scenario keeps playing on a page whose main thread is slowed 12x', async ({ page }) => {
  test.setTimeout(240_000);
  await openScenario(page, 's003b-noreuse.toml'); // MGLRU, memcgs: heavy frames to draw
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 12 });
  await page.getByTestId('speed-slider').fill('12'); // 1 s of virtual time per wall second
  await expect(page.getByTestId('speed')).toHaveText('1 s/s');
  await page.getByTestId('play-toggle').click();
  // Its lesson pauses at its first step (1 s), as every step does: Play goes on from there, as a
  // reader would. The old pace stood still below 0.4 s.
  await expect(async () => {
    if ((await page.getByTestId('status').textContent()) === 'paused') await page.getByTestId('play-toggle').click();
    expect(seconds(await page.getByTestId('virtual-time').textContent())).toBeGreaterThanOrEqual(3);
  }).toPass({ timeout: 180_000, intervals: [1000] });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
});
