// Frame times of the page while playing full-scale S000 (2 GB = 524,288 frames)
// for 10 s of wall time; writes the median and p95 into BENCHMARKS.md under
// "## Browser frame times" (only that section is replaced).
import { cpus, loadavg } from 'node:os';
import { expect, test } from '@playwright/test';
import { runInfo, writeResults, writeSection } from './support/benchDoc';
import { openScenario } from './support/views';
import { formatNs } from '../web/src/format';
import { encodeLink } from '../web/src/lib/link';

const PLAY_MS = 10_000;
const HEADING = '## Browser frame times';

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

test('frame times while playing full-scale S000', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  // S000 by name: the page opens on the first lesson.
  await openScenario(page, 's000-thrash.toml');
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 30_000 });
  const pages = Number(await page.getByTestId('run-0-lru-size-free').getAttribute('data-pages'));
  expect(pages).toBeGreaterThan(500_000); // full scale: nearly all of 2 GB free at t=0
  const speed = await page.getByTestId('speed').textContent();
  const seq0 = Number(await page.getByTestId('runs').getAttribute('data-seq'));

  await page.getByTestId('play-toggle').click();
  const measuring = page.evaluate(
    (ms) =>
      new Promise<number[]>((resolve) => {
        const out: number[] = [];
        let last = performance.now();
        const end = last + ms;
        const tick = (now: number) => {
          out.push(now - last);
          last = now;
          if (now < end) requestAnimationFrame(tick);
          else resolve(out);
        };
        requestAnimationFrame(tick);
      }),
    PLAY_MS,
  );
  // S000's lesson pauses the run at its pausing steps: play on, so the page keeps playing.
  const until = Date.now() + PLAY_MS;
  const paused = page.locator('[data-testid="status"]', { hasText: /^paused$/ });
  while (Date.now() < until) {
    // Wait for a pause (or the end of the measurement), not for a fixed time.
    const pausedNow = await paused.waitFor({ timeout: Math.max(1, until - Date.now()) }).then(
      () => true,
      () => false,
    );
    if (pausedNow) {
      await page.getByTestId('play-toggle').click();
      await expect(page.getByTestId('status')).not.toHaveText('paused');
    }
  }
  const deltas: number[] = await measuring;
  const seq1 = Number(await page.getByTestId('runs').getAttribute('data-seq'));
  const virtual = await page.getByTestId('virtual-time').textContent();
  const status = await page.getByTestId('status').textContent();

  const sorted = deltas.slice(1).sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const p95 = quantile(sorted, 0.95);
  const max = sorted.at(-1)!;
  const engineFps = (seq1 - seq0) / (PLAY_MS / 1000);
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const body = `
Measured by \`npm run bench:web\` (e2e/frames.bench.ts): full-scale S000 (2 GB, 524,288 frames,
variant "before"), played at the default speed (${speed}) for ${PLAY_MS / 1000} s of wall time in
Debian Chromium (headless, no GPU) at 1280x720, ${when}; browser ${browser.version()};
${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} when it ended (the machine is shared: expect noise).
Frame time = interval between animation frames on the page (the LRU canvas, charts and
labels update on every engine frame; the engine runs in its worker). The lesson's pausing
steps are played through.

| metric | value |
|---|---|
| animation frames | ${sorted.length} |
| frame time, median | ${median.toFixed(1)} ms |
| frame time, p95 | ${p95.toFixed(1)} ms |
| frame time, max | ${max.toFixed(1)} ms |
| engine frames received per second | ${engineFps.toFixed(1)} |
| virtual time reached | ${virtual} (${status}) |
`;
  writeSection(HEADING, body);
  writeResults('web-frames', runInfo('npm run bench:web (e2e/frames.bench.ts)', { browser: `Chromium ${browser.version()}` }), {
    s000: { frames: sorted.length, median_ms: median, p95_ms: p95, max_ms: max, engine_fps: engineFps, virtual, status, speed },
  });
  console.log(body);
  expect(sorted.length).toBeGreaterThan(10);
});

// Issue #48: the live memcg view at S003's original size (128 memcgs on 512 GiB, both variants
// side by side, the memcg embed) able to play at >= 30 fps. Plays for PLAY_MS of wall time at the
// link's default speed and counts, at each animation frame, whether the "after" run's memcg view
// shows a new time: its updates per second (the fps a viewer sees), beside the animation frames'
// own interval. Writes bench-results/web-memcg-frames.json (its own section of BENCHMARKS.md:
// "## Browser memcg view").
test('memcg view frame rate while playing S003 at its original size', async ({ browser }) => {
  test.setTimeout(600_000);
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const hash = await encodeLink({ scenario: 's003-memcg-lru.toml', knobs: {}, edited: null, variants: ['before', 'after'], compare: true, speedStep: 10, view: 'memcg', timeNs: 0 });
  await page.goto(`/?embed&view=memcg#${hash}`);
  await expect(page.getByTestId('play-toggle')).toBeEnabled({ timeout: 300_000 });
  await expect(page.getByTestId('run-1-memcg-view')).toHaveAttribute('data-nr-memcgs', '129', { timeout: 300_000 }); // the 128 and the root
  // The embed shows no speed: the link's step 10 is the page's default speed.
  const speed = 'the default speed (step 10)';
  await page.getByTestId('play-toggle').click();
  const measuring = page.evaluate(
    (ms) =>
      new Promise<{ deltas: number[]; updates: number; first: string | null; last: string | null }>((resolve) => {
        const deltas: number[] = [];
        const nowOf = () => document.querySelector('[data-testid="run-1-memcg-view"]')?.getAttribute('data-now-ns') ?? null;
        const first = nowOf();
        let shown = first;
        let updates = 0;
        let last = performance.now();
        const end = last + ms;
        const tick = (now: number) => {
          deltas.push(now - last);
          last = now;
          const n = nowOf();
          if (n !== shown) {
            updates++;
            shown = n;
          }
          if (now < end) requestAnimationFrame(tick);
          else resolve({ deltas, updates, first, last: shown });
        };
        requestAnimationFrame(tick);
      }),
    PLAY_MS,
  );
  // Play through the lesson's pausing steps, as above.
  const until = Date.now() + PLAY_MS;
  const paused = page.locator('[data-testid="status"]', { hasText: /^paused$/ });
  let pauses = 0;
  while (Date.now() < until) {
    const pausedNow = await paused.waitFor({ timeout: Math.max(1, until - Date.now()) }).then(
      () => true,
      () => false,
    );
    if (pausedNow) {
      pauses++;
      await page.getByTestId('play-toggle').click();
      await expect(page.getByTestId('status')).not.toHaveText('paused');
    }
  }
  const m = await measuring;
  await page.close();
  const sorted = m.deltas.slice(1).sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const p95 = quantile(sorted, 0.95);
  const viewFps = m.updates / (PLAY_MS / 1000);
  const fmtT = (ns: string | null) => (ns === null ? 'none' : formatNs(Number(ns)));
  const body = `
Measured by \`npm run bench:web\` (e2e/frames.bench.ts), ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: the
memcg embed of S003 at its original size (128 memcgs on 512 GiB, "before" and "after" side by
side) played at ${speed} for ${PLAY_MS / 1000} s of wall time at 1280x720
in Chromium ${browser.version()} (headless, no GPU); ${cpus().length} cores, load average
${loadavg()[0]!.toFixed(1)} when it ended. "View updates": animation frames at which the "after"
run's memcg view showed a new time (${fmtT(m.first)} to ${fmtT(m.last)}; ${pauses} lesson pause(s) played through).

| metric | value |
|---|---|
| memcg view updates per second | ${viewFps.toFixed(1)} |
| animation frames | ${sorted.length} |
| frame time, median | ${median.toFixed(1)} ms |
| frame time, p95 | ${p95.toFixed(1)} ms |
`;
  writeSection('## Browser memcg view', body);
  writeResults('web-memcg-frames', runInfo('npm run bench:web (e2e/frames.bench.ts, memcg view)', { browser: `Chromium ${browser.version()}` }), {
    s003_memcg: { view_fps: viewFps, updates: m.updates, frames: sorted.length, median_ms: median, p95_ms: p95, first_ns: m.first, last_ns: m.last, pauses, speed },
  });
  console.log(body);
  expect(m.updates).toBeGreaterThan(0);
});
