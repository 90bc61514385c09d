// The page in a real browser: page -> worker -> wasm engine -> views, checked
// against the same engine run independently here in Node.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors, ready, shot, pause, tools } from './support/page';
import { openEditor, scenarioFile, setEditorText } from './support/editor';
import { setupOf } from '../web/src/lib/knobs';
import { initSync, resolve_scenario, WasmSimulation } from '../web/pkg/reclaim_core.js';

const scenarioDir = new URL('../scenarios/', import.meta.url);
const scenarioFiles = readdirSync(scenarioDir).filter((f) => f.endsWith('.toml')).sort();
const scenarioText = (f: string) => readFileSync(new URL(f, scenarioDir), 'utf8');
const titleOf = (text: string) => /^title\s*=\s*"(.*)"/m.exec(text)![1]!;
const LISTS = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file'] as const;

initSync({ module: readFileSync(new URL('../web/pkg/reclaim_core_bg.wasm', import.meta.url)) });

/** The crate version in wasm-core/Cargo.toml's [package] section. */
function crateVersion(): string {
  const manifest = readFileSync(new URL('../wasm-core/Cargo.toml', import.meta.url), 'utf8');
  const pkg = manifest.split(/^\[/m).find((s) => s.startsWith('package]'));
  const version = pkg && /^version\s*=\s*"([^"]+)"/m.exec(pkg)?.[1];
  if (!version) throw new Error('no [package] version in wasm-core/Cargo.toml');
  return version;
}

failOnPageErrors();

/** The six list sizes the page shows (pages), read from the views' data attributes. */
async function shownSizes(page: Page, prefix = 'run-0-') {
  // One JS turn in the page, so every number comes from the same rendered frame.
  const keys = [...LISTS, 'free'];
  const values = await page.evaluate(
    ({ keys, prefix }) =>
      keys.map((k) => Number(document.querySelector(`[data-testid="${prefix}lru-size-${k}"]`)?.getAttribute('data-pages'))),
    { keys, prefix },
  );
  return { lists: values.slice(0, LISTS.length), free: values[LISTS.length]! };
}

test('the engine loads and the first scenario is shown', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Reclaim Lab' })).toBeVisible();
  await expect(page.getByTestId('engine-version')).toHaveText(crateVersion());
  await ready(page);
  await expect(page.getByTestId('virtual-time')).toHaveText('0 ns');
  const options = await page.getByTestId('scenario-select').locator('option').allTextContents();
  // The basics lessons first in teaching order (the page opens on the first), then the lesson
  // in scenarios/traces/ (it replays a trace), then the seed experiments by file name, then the
  // validation scenarios (scenarios/validation/).
  const basics = ['lesson-two-list-lru.toml', 'lesson-swappiness.toml', 'lesson-refault-distance.toml'];
  const validation = readdirSync(new URL('validation/', scenarioDir)).filter((f) => f.endsWith('.toml')).sort().map((f) => `validation/${f}`);
  const order = [...basics, 'traces/lesson-not-lru.toml', ...scenarioFiles.filter((f) => !basics.includes(f)), ...validation];
  expect(options).toEqual(order.map((f) => titleOf(scenarioText(f))));
});

for (const file of scenarioFiles) {
  test(`${file}: play, pause, and the list sizes shown equal the engine's`, async ({ page }, testInfo) => {
    test.setTimeout(180_000); // the heavy scenarios play slowly on a loaded machine
    const text = scenarioText(file);
    await page.goto('/');
    await ready(page);
    await page.getByTestId('scenario-select').selectOption({ label: titleOf(text) });
    const description = /^description\s*=\s*"(.*)"/m.exec(text)![1]!;
    await tools(page, 'scenario');
    await expect(page.getByTestId('scenario-description')).toHaveText(description);
    await ready(page);
    const variant = /\[\[variants\]\]\s*\nname\s*=\s*"([^"]+)"\s*\npreset\s*=\s*"([^"]+)"/.exec(text)!;
    await expect(page.getByTestId('variant-select-preset')).toHaveText(`kernel ${variant[2]}`);

    // Play for a while (fast), then pause: time advances and stops.
    await page.getByTestId('speed-slider').fill('18');
    await page.getByTestId('play-toggle').click();
    // A lesson step with pause = true may stop the run soon after it starts.
    const lessonPauses = /^pause\s*=\s*true/m.test(text);
    await expect(page.getByTestId('status')).toHaveText(lessonPauses ? /running|finished|paused/ : /running|finished/);
    await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
    // Play until the chart has a line (two samples or more), however loaded the machine is; a
    // lesson step that pauses is played on from, as a reader would.
    await expect(async () => {
      if ((await page.getByTestId('status').textContent()) === 'paused') await page.getByTestId('play-toggle').click();
      await expect(page.getByTestId('chart-counters').locator('path.series').first()).toHaveAttribute('d', /L/, { timeout: 2_000 });
    }).toPass({ timeout: 120_000 });
    await shot(page, testInfo, `${file}-playing`);
    await pause(page);
    // The step in flight when Pause was pressed still lands (a large step of a heavy scenario
    // can take a while); after that, virtual time stands still.
    // (the same time at two polls in a row).
    const vt = () => page.getByTestId('virtual-time').textContent();
    let last: string | null = null;
    await expect
      .poll(async () => {
        const now = await vt();
        const still = now === last;
        last = now;
        return still;
      }, { timeout: 60_000, intervals: [400] })
      .toBe(true);

    // The sizes shown are consistent: six lists add up to all of memory.
    const shown = await shownSizes(page);
    const sim = WasmSimulation.fromScenario(text, variant[1]!);
    const total = [...sim.lru_sizes()].reduce((a, b) => a + b, 0);
    sim.free();
    const unevictable = total - shown.free - shown.lists.reduce((a, b) => a + b, 0);
    expect(unevictable).toBeGreaterThanOrEqual(0);
    // The canvas draws cells exactly when there are pages on the lists (a scenario may drop its
    // caches, leaving every list empty for a moment).
    const onLists = shown.lists.reduce((a, b) => a + b, 0);
    await expect(page.locator('[data-testid="run-0-lru-canvas"]')).toHaveAttribute('data-cells', onLists > 0 ? /^[1-9]/ : /^0$/);
    await expect(page.getByTestId('chart-counters').locator('path.series').first()).toHaveAttribute('d', /L/);

    // Reset, then three single steps: exactly what the engine gives for the same steps in Node.
    await page.getByTestId('reset').click();
    await expect(page.getByTestId('virtual-time')).toHaveText('0 ns');
    await ready(page);
    await page.getByTestId('speed-slider').fill('10'); // steps of 25 ms
    const stepNs = Number(await page.getByTestId('step').getAttribute('data-step-ns'));
    const ref = WasmSimulation.fromScenario(text, variant[1]!);
    for (let i = 1; i <= 3; i++) {
      const before = await page.getByTestId('virtual-time').textContent();
      await page.getByTestId('step').click();
      await expect(page.getByTestId('virtual-time')).not.toHaveText(before!);
      ref.step(stepNs);
    }
    const engine = [...ref.lru_sizes()];
    ref.free();
    const after = await shownSizes(page);
    expect(after.lists).toEqual([engine[0], engine[1], engine[2], engine[3]]);
    expect(after.free).toBe(engine[5]);
    // The labels show the same numbers as text.
    await expect(page.getByTestId('run-0-lru-size-inactive_file')).toHaveText(engine[2]!.toLocaleString('en-US'));
  });
}

test('S000: results table, expect bands and the per-round chart of both variants', async ({ page }, testInfo) => {
  test.setTimeout(180_000); // both S000 variants run to the end in the results worker
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(scenarioText('s000-thrash.toml')) });
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('expect').locator(':scope > li')).toHaveCount(3); // one per [[expect]], its checks nested
  await expect(page.getByTestId('chart-rounds').locator('path.series')).toHaveCount(2);
  await expect(page.getByTestId('chart-rounds').locator('path.series').first()).toHaveAttribute('data-points', '10');
  // The table's values are the engine's: the same reports computed here.
  const text = scenarioText('s000-thrash.toml');
  for (const [i, v] of ['before', 'after'].entries()) {
    const sim = WasmSimulation.fromScenario(text, v);
    const report = JSON.parse(sim.run_to_end_json());
    sim.free();
    await expect(page.getByTestId(`result-pswpout-${i}`)).toContainText(report.measured.pswpout.toLocaleString('en-US'));
  }
  await page.getByTestId('chart-rounds').scrollIntoViewIfNeeded();
  await shot(page, testInfo, 's000-results');
});

test('compare mode runs two variants in lockstep and highlights differences', async ({ page }, testInfo) => {
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(scenarioText('s000-thrash.toml')) });
  await ready(page);
  await page.getByTestId('compare-toggle').check();
  await expect(page.getByTestId('run-1')).toBeVisible();
  await expect(page.getByTestId('run-0')).toHaveAttribute('data-variant', 'before');
  await expect(page.getByTestId('run-1')).toHaveAttribute('data-variant', 'after');
  await ready(page);
  // 200 ms/s: a few samples come well before S000's later lesson steps.
  await page.getByTestId('speed-slider').fill('9');
  await page.getByTestId('play-toggle').click();
  // Play until both runs have a few samples, whatever the machine's speed.
  await expect.poll(async () => (await page.getByTestId('chart-counters').locator('path.series').count()) === 12 && (await page.getByTestId('virtual-time').textContent()) !== '0 ns', { timeout: 60_000 }).toBe(true);
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('status')).toHaveText('paused');
  await expect(page.getByTestId('run-0-time')).toHaveText((await page.getByTestId('run-1-time').textContent())!);
  await expect(page.getByTestId('diff-table')).toBeVisible();
  await expect(page.getByTestId('chart-counters').locator('path.series')).toHaveCount(12);
  await shot(page, testInfo, 'compare');
  // One picture per view.
  const views = {
    'view-lru': page.locator('.lru-view').first(),
    'view-balance': page.locator('.balance').first(),
    'view-diff': page.getByTestId('diff-table'),
    'view-chart-counters': page.getByTestId('chart-counters'),
    'view-chart-free': page.getByTestId('chart-free'),
    'view-chart-cost': page.getByTestId('chart-cost'),
    'view-chart-rounds': page.getByTestId('chart-rounds'),
    'view-results': page.getByTestId('results'),
  };
  for (const [name, locator] of Object.entries(views)) {
    const path = testInfo.outputPath(`${name}.png`);
    await locator.screenshot({ path });
    await testInfo.attach(name, { path, contentType: 'image/png' });
  }
});

test('a knob change alters the result (swappiness 0 stops swapping in S000)', async ({ page }) => {
  // Three full S000 runs in the results worker and one here: sized for a loaded machine.
  test.setTimeout(240_000);
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(scenarioText('s000-thrash.toml')) });
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  const before = await page.getByTestId('result-pswpout-1').textContent();
  await tools(page, 'setup');
  await page.getByTestId('knob-swappiness').fill('0');
  await page.getByTestId('knobs-apply').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('result-pswpout-1')).not.toHaveText(before!);
  await expect(page.getByTestId('result-pswpout-1')).toHaveText(/^0\b/);
  // The live run uses the knobs too: with 4 GiB of RAM it starts with about 1 M free pages.
  await page.getByTestId('knob-ram').selectOption('4GiB');
  await page.getByTestId('knobs-apply').click();
  await expect
    .poll(async () => Number(await page.getByTestId('run-0-lru-size-free').getAttribute('data-pages')))
    .toBeGreaterThan(1_000_000);
  await expect(page.getByTestId('run-0-balance-swappiness')).toHaveText('0');
  // The results are the engine's for the scenario with both knobs (run here, in Node).
  const text = resolve_scenario(scenarioText('s000-thrash.toml'), JSON.stringify(setupOf({ swappiness: 0, ram: '4GiB' })));
  const sim = WasmSimulation.fromScenario(text, 'before');
  const majfault = (JSON.parse(sim.run_to_end_json()) as { counters: Record<string, number> }).counters.pgmajfault ?? 0;
  sim.free();
  await expect(page.getByTestId('result-pgmajfault-0')).toHaveText(majfault.toLocaleString('en-US'), { timeout: 120_000 });
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done');
});

test('keyboard: space plays and pauses, the right arrow steps, + speeds up', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  const speed = await page.getByTestId('speed').textContent();
  await page.keyboard.press('+');
  await expect(page.getByTestId('speed')).not.toHaveText(speed!);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  // The slowest speed (1 ms/s), so that the lesson's first pausing step (750 ms) is minutes
  // away: at the default speed a loaded machine reached it before the test saw 'running'.
  await page.getByTestId('speed-slider').fill('0');
  await expect(page.getByTestId('speed')).toHaveText('1 ms/s');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('status')).toHaveText('running');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('status')).toHaveText('paused');
});

test('dark theme and a large screen', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 2560, height: 1440 });
  await page.goto('/');
  await ready(page);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('speed-slider').fill('12');
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns', { timeout: 30_000 });
  await shot(page, testInfo, 'dark-2560');
});

test("bad scenario text shows the engine's line-numbered message, and the page keeps working", async ({ page }, testInfo) => {
  await page.goto('/');
  await ready(page);
  await openEditor(page);
  await setEditorText(page, scenarioFile('s000-thrash.toml').replace('ram = "2GiB"', 'ram = "lots"'));
  await page.getByTestId('scenario-text-apply').click();
  const alert = page.getByTestId('engine-error');
  await expect(alert).toContainText('The scenario could not be loaded');
  await expect(alert).toContainText(/line \d+/);
  // No runs to play (the results, which need runs, are not offered either).
  await expect(page.getByTestId('play-toggle')).toBeDisabled();
  await expect(page.getByTestId('results')).toHaveCount(0);
  await shot(page, testInfo, 'bad-scenario');
  await page.getByTestId('scenario-text-revert').click();
  await expect(alert).toHaveCount(0);
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
});

test('an engine that fails to load shows a clear message, not a blank page', async ({ page }) => {
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/');
  const alert = page.getByTestId('engine-error');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('The engine failed to load');
  await expect(page.getByTestId('play-toggle')).toBeDisabled();
  await expect(page.getByTestId('engine-version')).toHaveText('not loaded');
  await expect(page.getByRole('heading', { name: 'Reclaim Lab' })).toBeVisible();
});
