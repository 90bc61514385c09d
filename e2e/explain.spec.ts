// Issue #23, sections 1, 4 and 5: the balance view shows what the run's kernel decided (the
// engine's branch, reason and era inputs); lessons keep their caption in sight, can be turned
// off, and do not ask for what is done; results show each expectation's verdict.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors, ready, shot } from './support/page';
import { encodeLink } from '../web/src/lib/link';
import { setupOf } from '../web/src/lib/knobs';
import { assess, initSync, resolve_scenario, WasmSimulation } from '../web/pkg/reclaim_core.js';
import { stepTo } from '../web/src/engine/stepTo';

initSync({ module: readFileSync(new URL('../web/pkg/reclaim_core_bg.wasm', import.meta.url)) });
const text = (f: string) => readFileSync(new URL(`../scenarios/${f}`, import.meta.url), 'utf8');

failOnPageErrors();
// Engine runs and screenshots at three sizes on a shared, loaded machine.
test.describe.configure({ timeout: 180_000 });

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
];

async function open(page: Page, scenario: string, timeNs: number, opts: { variants?: string[]; compare?: boolean; knobs?: Record<string, unknown>; view?: 'balance' | 'results' | 'lru' | null } = {}) {
  const hash = await encodeLink({
    scenario,
    knobs: opts.knobs ?? {},
    edited: null,
    variants: opts.variants ?? [],
    compare: opts.compare ?? false,
    speedStep: 10,
    view: opts.view ?? null,
    timeNs,
  });
  await page.goto(`/#${hash}`);
  await ready(page);
}

/** The engine's balance view at `ns`, computed here in Node from the same wasm. */
function engineBalance(scenarioText: string, variant: string, ns: number) {
  const sim = WasmSimulation.fromScenarioWithFlags(scenarioText, variant, '{}');
  stepTo(sim, ns);
  const v = JSON.parse(sim.balance_view()) as { era: string; last: { balance: string; reason: string; shares: number[] } | null };
  sim.free();
  return v;
}

test('§1 S000: both pre-5.8 kernels show their scanned/rotated inputs and the branch the engine took', async ({ page }, testInfo) => {
  const t = 3_000_000_000;
  await open(page, 's000-thrash.toml', t, { variants: ['before', 'after'], compare: true });
  await expect(page.getByTestId('virtual-time')).toHaveText('3.000 s', { timeout: 30_000 });
  for (const [i, variant] of ['before', 'after'].entries()) {
    const p = `run-${i}-`;
    const want = engineBalance(text('s000-thrash.toml'), variant, t);
    expect(want.era).toBe('rotation');
    expect(want.last).not.toBeNull();
    await expect(page.getByTestId(`${p}balance-inputs`)).toHaveAttribute('data-era', 'rotation');
    await expect(page.getByTestId(`${p}balance-kind`)).toHaveText(want.last!.balance);
    await expect(page.getByTestId(`${p}balance-reason`)).toHaveText(want.last!.reason.replace(/_/g, ' '));
    const scanned = async (k: string) => Number((await page.getByTestId(`${p}${k}`).textContent())!.replace(/,/g, ''));
    expect((await scanned('anon-scanned')) + (await scanned('file-scanned'))).toBeGreaterThan(0);
    await expect(page.getByTestId(`${p}balance-explain`)).not.toContainText('cost the same');
    await expect(page.getByTestId(`${p}balance-source`)).toContainText('up to v5.7');
  }
  await expect(page.getByTestId('chart-cost')).toContainText('scanned and rotated');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.locator('.balance').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`balance-s000-${size.width}x${size.height}.png`) });
  }
});

for (const swappiness of [0, 200]) {
  test(`§1 swappiness ${swappiness}: the words match the shares, and swappiness is named when it zeroes a side`, async ({ page }, testInfo) => {
    const file = 'lesson-swappiness.toml';
    const scenarioText = resolve_scenario(text(file), JSON.stringify(setupOf({ swappiness })));
    // The first time the engine's last decision is the fraction, found in Node.
    let t = 0;
    let want = engineBalance(scenarioText, 'linux-6.1', t);
    while (t < 3e9 && want.last?.balance !== 'SCAN_FRACT') {
      t += 50_000_000;
      want = engineBalance(scenarioText, 'linux-6.1', t);
    }
    expect(want.last?.reason).toBe(swappiness === 0 ? 'swappiness_zero' : 'swappiness_max');
    await open(page, file, t, { knobs: { swappiness } });
    const p = 'run-0-';
    await expect(page.getByTestId(`${p}balance-kind`)).toHaveText('SCAN_FRACT', { timeout: 30_000 });
    const explain = page.getByTestId(`${p}balance-explain`);
    await expect(explain).toContainText(`swappiness is ${swappiness}`);
    await expect(explain).not.toContainText('cheaper');
    const words = /anon gets (\d+)% of the scan and file (\d+)%/.exec((await explain.textContent())!)!;
    await expect(page.getByTestId(`${p}anon-share`)).toHaveText(words[1]!);
    await expect(page.getByTestId(`${p}file-share`)).toHaveText(words[2]!);
    expect(swappiness === 0 ? words[1] : words[2]).toBe('0');
    await shot(page, testInfo, `balance-swappiness-${swappiness}`);
  });
}

test('§1 S001b: forced scans are not called "no reclaim yet"', async ({ page }) => {
  await open(page, 's001b-worst-case.toml', 5_000_000_000);
  const explain = page.getByTestId('run-0-balance-explain');
  await expect(explain).toContainText('forced scans', { timeout: 30_000 });
  await expect(explain).not.toContainText('No reclaim yet');
});

test('§5 results: each expectation shows the engine’s verdict and figure; headline rows first, per-task rows grouped', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const file = 's001b-worst-case.toml';
  const scenarioText = text(file);
  // The core's verdicts for the same scenario, computed in Node.
  const reports = ['before', 'after'].map((v) => {
    const sim = WasmSimulation.fromScenarioWithFlags(scenarioText, v, '{}');
    const r = sim.run_to_end_json();
    sim.free();
    return r;
  });
  const want = JSON.parse(assess(scenarioText, reports)) as { verdicts: { met: boolean | null; checks: { figure: number | null }[] }[] };
  await open(page, file, 0);
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  for (const [i, v] of want.verdicts.entries()) {
    await expect(page.getByTestId(`expect-${i}`)).toHaveAttribute('data-met', v.met === null ? 'none' : v.met ? 'met' : 'not-met');
    await expect(page.getByTestId(`expect-${i}-verdict`)).toHaveText(v.met ? '✓ met' : '✗ not met');
    const figure = v.checks[0]!.figure!;
    await expect(page.getByTestId(`expect-${i}-figure-0`)).toContainText(`after / before = `);
    await expect(page.getByTestId(`expect-${i}-figure-0`)).toContainText(figure.toLocaleString('en-US', { maximumFractionDigits: 3 }));
  }
  // Headline table before the per-task rows, which are grouped by task.
  const order = await page.evaluate(() => {
    const h = document.querySelector('[data-testid="results-headline"]');
    const t = document.querySelector('[data-testid="results-tasks"]');
    return h && t ? h.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
  });
  expect(order).toBeTruthy();
  await expect(page.locator('[data-testid="results-tasks"] tbody[data-task="worst"]')).toHaveCount(1);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.getByTestId('results').scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`results-s001b-${size.width}x${size.height}.png`) });
  }
});

test('§4 lessons: the caption and the view it names are on the first screen, Compare is not asked for when ticked, knob changes are flagged, lessons can be turned off', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // Two-list lesson, step 2 points at the LRU lists.
  await open(page, 'lesson-two-list-lru.toml', 750_000_000);
  const caption = page.getByTestId('lesson-caption');
  await expect(caption).toContainText('Second read of the same file', { timeout: 30_000 });
  // The step names the LRU lists: the stage shows them, with the caption docked to it, on the
  // first screen at every size (no Show button to find, nothing to scroll to).
  await expect(page.getByTestId('stage')).toHaveAttribute('data-view', 'lists');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expect(caption).toBeInViewport();
    await expect(page.locator('.lru-view').first()).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`lesson-stage-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Turned off: the run no longer pauses at the next pausing step (1.25 s).
  await page.getByTestId('lesson-toggle').click();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-off', 'true');
  await page.getByTestId('play-toggle').click();
  await expect
    .poll(async () => (await page.getByTestId('virtual-time').textContent()) ?? '', { timeout: 30_000 })
    .toMatch(/^(1\.[3-9]\d*|[2-9][\d.]*) s$/);
  await page.keyboard.press(' '); // pause
  await page.getByTestId('lesson-toggle').click(); // on again (stored per browser)
  await expect(page.getByTestId('lesson')).not.toHaveAttribute('data-off', 'true');

  // S000's first step compares the kernels: the hint shows only while Compare is not ticked.
  await open(page, 's000-thrash.toml', 200_000_000);
  await expect(page.getByTestId('lesson-compare-hint')).toBeVisible();
  await expect(page.getByTestId('lesson-caption')).not.toContainText('Tick Compare');
  await open(page, 's000-thrash.toml', 200_000_000, { variants: ['before', 'after'], compare: true });
  await expect(page.getByTestId('lesson-caption')).toContainText('cold memory');
  await expect(page.getByTestId('lesson-compare-hint')).toHaveCount(0);
  await expect(page.getByTestId('lesson-defaults')).toHaveCount(0);
  // After a knob change the captions are marked as written for the defaults.
  await open(page, 's000-thrash.toml', 200_000_000, { knobs: { ram: '4GiB' } });
  await expect(page.getByTestId('lesson-defaults')).toBeVisible();
  await shot(page, testInfo, 'lesson-knobs-changed');
});

test('§4 the refault-distance lesson draws the last refault: its page, eviction timestamp, distance and workingset', async ({ page }, testInfo) => {
  const file = 'lesson-refault-distance.toml';
  const t = 900_000_000;
  const sim = WasmSimulation.fromScenarioWithFlags(text(file), 'linux-6.1', '{}');
  stepTo(sim, t);
  const want = JSON.parse(sim.refault_view()) as { last: { distance: number; workingsetSize: number; evictionAge: number; activated: boolean }; shadowEntries: number };
  sim.free();
  expect(want.last).toBeTruthy();
  await open(page, file, t);
  const view = page.getByTestId('run-0-refault');
  await expect(view).toBeVisible({ timeout: 30_000 });
  await expect(view).toHaveAttribute('data-activated', String(want.last.activated));
  const n = (x: number) => x.toLocaleString('en-US');
  await expect(page.getByTestId('run-0-refault-verdict')).toContainText(`Distance ${n(want.last.distance)} pages vs workingset ${n(want.last.workingsetSize)} pages`);
  await expect(page.getByTestId('run-0-refault-page')).toContainText(`at eviction: ${n(want.last.evictionAge)}`);
  await expect(page.getByTestId('run-0-refault-shadows')).toHaveText(n(want.shadowEntries));
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await view.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`refault-${size.width}x${size.height}.png`) });
  }
});
