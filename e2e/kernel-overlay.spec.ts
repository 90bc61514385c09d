// Issue #27 §2, the page overlay: a real kernel's run (the JSON of `reclaim kernel --json`, or
// `reclaim validate --json`) opened or dropped onto the page joins the results table as a "real
// kernel" column and the charts as dashed lines, labelled with its kernel build and accelerator;
// a bad file gets a message naming what is wrong and where, and the page keeps working.
// The fixture is a shape fixture (its notes say so): the numbers checked here are read from it.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { initSync, WasmSimulation } from '../web/pkg/reclaim_core.js';
import { failOnPageErrors, ready, tools } from './support/page';
import { openScenario, shotsAtSizes } from './support/views';

failOnPageErrors();
test.setTimeout(240_000);

const SCENARIO = 'validation/thrash-small.toml';
const FIXTURE_PATH = new URL('./fixtures/kernel-thrash-small-classic.shape.json', import.meta.url);
const FIXTURE = readFileSync(FIXTURE_PATH, 'utf8');
const RUN = JSON.parse(FIXTURE) as { measured: Record<string, number>; counters: Record<string, number>; tasks: { name: string; rounds_s: number[] }[]; notes: string[] };
const KERNEL_DASH = '12 4';

initSync({ module: readFileSync(new URL('../web/pkg/reclaim_core_bg.wasm', import.meta.url)) });

const upload = (page: Page, name: string, text: string | Buffer, mimeType = 'application/json') =>
  page.getByTestId('kernel-file').setInputFiles({ name, mimeType, buffer: Buffer.isBuffer(text) ? text : Buffer.from(text) });

/** Step the live run a few times, so the counters chart has a model series to overlay. */
async function stepSome(page: Page, n: number) {
  for (let i = 0; i < n; i++) {
    const before = await page.getByTestId('virtual-time').textContent();
    await page.getByTestId('step').click();
    await expect(page.getByTestId('virtual-time')).not.toHaveText(before!, { timeout: 60_000 });
  }
}

/** axe-core on the overlay's parts: the panel, the results table with its kernel column, the charts. */
async function axe(page: Page, what: string) {
  const result = await new AxeBuilder({ page }).include('[data-testid="kernel-overlay"]').include('[data-testid="results"]').include('.charts').analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`), `axe violations, ${what}`).toStrictEqual([]);
}

const num = (s: string | null) => Number((s ?? '').replace(/,/g, '').trim().split(/\s/)[0]);

test('a kernel run opened from a file: a labelled kernel column beside the model, dashed kernel lines in the charts', async ({ page }, testInfo) => {
  await openScenario(page, SCENARIO);
  await tools(page, 'kernel');
  await page.getByTestId('kernel-file').setInputFiles(FIXTURE_PATH.pathname);
  const item = page.getByTestId('kernel-run-0');
  await expect(item).toBeVisible();
  await expect(page.getByTestId('kernel-run-0-label')).toHaveText('debian-6.1 (6.1.0-56-amd64, Debian 6.1.192-2), tcg');
  await expect(item).toContainText('classic');
  await expect(page.getByTestId('kernel-run-0-notes')).toContainText('SHAPE FIXTURE, not a measured run');
  await expect(page.getByTestId('kernel-tcg')).toContainText('TCG');
  await expect(page.getByTestId('kernel-error')).toHaveCount(0);

  // The results table: a "real kernel" column, its values the file's, its ratio to the model's classic.
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
  const head = page.getByTestId('results-headline').getByTestId('results-kernel-head-0');
  await expect(head).toContainText('real kernel');
  await expect(head).toContainText('classic');
  await expect(head).toContainText('debian-6.1 (6.1.0-56-amd64), tcg');
  for (const k of ['pswpout', 'workingset_refault_file', 'pgscan_file']) {
    const cell = page.getByTestId(`result-${k}-kernel-0`);
    await expect(cell).toHaveAttribute('data-value', String(RUN.measured[k]));
    const model = num(await page.getByTestId(`result-${k}-0`).textContent());
    const ratio = Number(/×([\d.,]+) of the model/.exec((await cell.textContent())!)![1]!.replace(/,/g, ''));
    expect(Math.abs(ratio - RUN.measured[k]! / model), `${k}: kernel ${RUN.measured[k]} / model ${model}`).toBeLessThan(0.006 * Math.max(1, ratio));
  }
  // A counter the model has at 0: the kernel's value, no ratio.
  await expect(page.getByTestId('result-pswpin-kernel-0')).toHaveAttribute('data-value', String(RUN.measured.pswpin));
  if (num(await page.getByTestId('result-pswpin-0').textContent()) === 0) await expect(page.getByTestId('result-pswpin-kernel-0')).toContainText('no model ratio');
  // Per-task rows: the kernel's first round.
  await expect(page.getByTestId('result-thrash round 0 (s)-kernel-0')).toHaveAttribute('data-value', String(RUN.tasks[0]!.rounds_s[0]));

  // The rounds chart: the kernel's rounds, dashed, one point per round.
  const rounds = page.getByTestId('chart-rounds').locator('path.series[data-series="real kernel debian-6.1 (tcg) classic thrash"]');
  await expect(rounds).toHaveAttribute('data-points', String(RUN.tasks[0]!.rounds_s.length));
  await expect(rounds).toHaveAttribute('stroke-dasharray', KERNEL_DASH);

  // The counters chart: the kernel's end-of-run totals as dashed levels (the live run is classic).
  await stepSome(page, 4);
  const swapLine = page.getByTestId('chart-counters').locator('path.series[data-series="pswpout: real kernel debian-6.1, end of run"]');
  await expect(swapLine).toHaveAttribute('stroke-dasharray', KERNEL_DASH);
  await expect(swapLine).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('chart-counters').locator('.legend-item', { hasText: 'real kernel debian-6.1, end of run' })).toHaveCount(6);
  // The level is drawn at the file's whole-run total: both ends at one height, on the y scale.
  const d = (await swapLine.getAttribute('d'))!;
  const ys = [...d.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
  expect(ys).toHaveLength(2);
  expect(ys[0]).toBeCloseTo(ys[1]!, 6);

  await axe(page, 'light theme');
  await page.getByTestId('theme-toggle').click();
  await axe(page, 'dark theme');
  await page.getByTestId('theme-toggle').click();

  // The results exported as Markdown carry the kernel column too; a validation scenario's
  // folder becomes part of the file name.
  await tools(page, 'share');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-md').click()]);
  expect(download.suggestedFilename()).toBe('validation-thrash-small-results.md');
  const md = readFileSync((await download.path())!, 'utf8');
  expect(md).toContain('| real kernel classic (debian-6.1 6.1.0-56-amd64, tcg, swappiness 60) |');
  expect(md).toMatch(new RegExp(`\\| pswpout \\| [\\d,]+ \\| [^|]+ \\| ${RUN.measured.pswpout!.toLocaleString('en-US')} \\(×[\\d.]+ of the model\\) \\|`));

  // The kernel column scrolled into view (on a phone the table scrolls sideways).
  await shotsAtSizes(page, testInfo, 'kernel-overlay-table', '[data-testid="results-headline"] th.kernel-col');
  // The live run played to its end: the model's curves end against the kernel's levels.
  await page.getByTestId('speed-slider').fill(await page.getByTestId('speed-slider').getAttribute('max') ?? '0');
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('status')).toHaveText('finished', { timeout: 180_000 });
  await expect(swapLine).toHaveAttribute('data-points', '2');
  await shotsAtSizes(page, testInfo, 'kernel-overlay-charts', '[data-testid="chart-counters"]');
  await tools(page, 'kernel');
  await shotsAtSizes(page, testInfo, 'kernel-overlay-panel', '[data-testid="kernel-overlay"]');

  // Removed, the page is the model's alone again.
  await page.getByTestId('kernel-run-0-remove').click();
  await expect(page.getByTestId('results-headline').getByTestId('results-kernel-head-0')).toHaveCount(0);
  await expect(page.getByTestId('chart-counters').locator('path.series[data-series*="real kernel"]')).toHaveCount(0);
});

test('a validate file dropped onto the page overlays both variants; a second kernel replaces nothing', async ({ page }) => {
  await openScenario(page, SCENARIO);
  const classic = JSON.parse(FIXTURE);
  const mglru = { ...JSON.parse(FIXTURE), variant: 'mglru', preset: 'linux-6.1-mglru', measured: { ...classic.measured, pswpout: 11391 } };
  const validation = JSON.stringify({ scenario: classic.scenario, kernel: 'debian-6.1', accelerator: 'tcg', rows: [], directions: [], wall_s: 90, runs: [{ model: {}, kernel: classic }, { model: {}, kernel: mglru }] });
  // A real drop: a DataTransfer holding the file, dropped on the page.
  const dt = await page.evaluateHandle((text) => {
    const t = new DataTransfer();
    t.items.add(new File([text], 'validate.json', { type: 'application/json' }));
    return t;
  }, validation);
  await page.dispatchEvent('body', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await expect(page.getByTestId('kernel-runs').locator('> li')).toHaveCount(2);
  await expect(page.getByTestId('kernel-run-1')).toHaveAttribute('data-variant', 'mglru');
  // mglru does not run live: the panel says where it shows.
  await expect(page.getByTestId('kernel-run-1-hidden')).toContainText('variant mglru');
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
  await expect(page.getByTestId('result-pswpout-kernel-1')).toHaveAttribute('data-value', '11391');
  // The 6.12 kernel's run of classic joins; the 6.1 runs stay.
  await upload(page, 'k612.json', JSON.stringify({ ...classic, kernel: { name: 'debian-6.12', release: '6.12.117+deb12-amd64', package_version: '6.12.117-1~deb12u1' } }));
  await expect(page.getByTestId('kernel-runs').locator('> li')).toHaveCount(3);
  await expect(page.getByTestId('results-headline').getByTestId('results-kernel-head-2')).toContainText('debian-6.12');
  // Compare classic with mglru: each kernel run of a shown variant draws in the counters chart.
  await page.getByTestId('compare-toggle').check();
  await expect(page.getByTestId('run-1')).toBeVisible({ timeout: 60_000 });
  await ready(page);
  await expect(page.getByTestId('kernel-run-1-hidden')).toHaveCount(0);
  await expect(page.getByTestId('chart-counters').locator('path.series[data-series="pswpout: real kernel debian-6.1 (mglru), end of run"]')).toHaveCount(1);
});

test('bad uploads get a message naming what is wrong and where; the page keeps working', async ({ page }, testInfo) => {
  await openScenario(page, SCENARIO);
  await tools(page, 'kernel');
  const error = page.getByTestId('kernel-error');
  // A good run first: a bad file afterwards does not take it away.
  await upload(page, 'good.json', FIXTURE);
  await expect(page.getByTestId('kernel-run-0')).toBeVisible();

  await upload(page, 'notes.json', 'hello, kernel');
  await expect(error).toContainText('notes.json is not JSON at line 1, column 1');

  await upload(page, 'broken.json', FIXTURE.replace('"swappiness": 60,', '"swappiness": 60'));
  await expect(error).toContainText(/broken\.json is not JSON at line 6, column 3/);

  const bad = JSON.parse(FIXTURE);
  bad.measured.pgscan_anon = 'many';
  await upload(page, 'shape.json', JSON.stringify(bad));
  await expect(error).toHaveText('shape.json: measured.pgscan_anon must be a number >= 0, found "many"');

  const model = JSON.parse(FIXTURE);
  delete model.source;
  await upload(page, 'model.json', JSON.stringify(model));
  await expect(error).toContainText('model.json: the file is a model run (reclaim run --json)');

  await upload(page, 'variant.json', JSON.stringify({ ...JSON.parse(FIXTURE), variant: 'after' }));
  await expect(error).toContainText('variant.json ran variant "after", which');
  await expect(error).toContainText('(its variants: classic, mglru)');

  // A huge file is refused by its size, before it is read.
  await upload(page, 'huge.json', Buffer.alloc(5 * 1024 * 1024, 32));
  await expect(error).toContainText("huge.json is 5.0 MB; a kernel run's JSON is at most 4.0 MB");
  await shotsAtSizes(page, testInfo, 'kernel-overlay-error', '[data-testid="kernel-overlay"]');
  await axe(page, 'an error shown');

  // Through it all the good run stayed, and the page still plays.
  await expect(page.getByTestId('kernel-runs').locator('> li')).toHaveCount(1);
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
  await expect(page.getByTestId('result-pswpout-kernel-0')).toHaveAttribute('data-value', String(RUN.measured.pswpout));
  await stepSome(page, 1);
});

test("a run of another scenario is refused with that scenario's name, and opens it on request", async ({ page }) => {
  await openScenario(page, 's000-thrash.toml');
  await tools(page, 'kernel');
  await upload(page, 'run.json', FIXTURE);
  const error = page.getByTestId('kernel-error');
  await expect(error).toContainText('run.json is a run of the scenario "Validation: thrash (256 MiB, 192 MiB cold anon, 96 MiB re-read file)", but the page shows');
  await expect(page.getByTestId('kernel-runs')).toHaveCount(0);
  await page.getByTestId('kernel-open-scenario').click();
  await expect(page.getByTestId('scenario-select')).toHaveValue(SCENARIO);
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('kernel-run-0')).toHaveAttribute('data-variant', 'classic');
  await ready(page);
  // Another scenario picked by hand: the overlay no longer fits, and goes.
  await page.getByTestId('scenario-select').selectOption('s000-thrash.toml');
  await expect(page.getByTestId('kernel-runs')).toHaveCount(0);
});

test("on a memcg scenario the engine's own figures (reclaim accuracy, spread) get a kernel value too", async ({ page }, testInfo) => {
  const file = 'validation/memcg-reclaim.toml';
  await openScenario(page, file);
  await tools(page, 'kernel');
  // A kernel run of this scenario's shape: the model's classic run, its leaf memcgs' pgsteal
  // changed (so the kernel's figure differs), dressed as `reclaim kernel --json`.
  const sim = WasmSimulation.fromScenario(readFileSync(new URL(`../scenarios/${file}`, import.meta.url), 'utf8'), 'classic');
  const run = JSON.parse(sim.run_to_end_json());
  sim.free();
  const leaves = run.memcgs.filter((m: { parent: string | null }) => m.parent !== null);
  leaves.forEach((m: { pgsteal: number }, i: number) => (m.pgsteal = 1000 + 250 * i));
  Object.assign(run, { source: 'kernel', kernel: { name: 'debian-6.1', release: '6.1.0-56-amd64', package_version: '6.1.192-2' }, accelerator: 'tcg', notes: [] });
  await upload(page, 'memcg.json', JSON.stringify(run));
  await expect(page.getByTestId('kernel-run-0')).toBeVisible();
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
  const stolen = leaves.reduce((s: number, m: { pgsteal: number }) => s + m.pgsteal, 0);
  const cell = page.getByTestId('result-sum(pgsteal)/sum(requested) (%)-kernel-0');
  await expect(cell).toHaveAttribute('data-value', /\d/, { timeout: 60_000 });
  expect(Number(await cell.getAttribute('data-value'))).toBeCloseTo((stolen * 100) / run.reclaim_requested_pages, 9);
  // The spread of pgsteal over the leaf memcgs: population stddev / mean, from the file's values.
  const mean = stolen / leaves.length;
  const sd = Math.sqrt(leaves.reduce((s: number, m: { pgsteal: number }) => s + (m.pgsteal - mean) ** 2, 0) / leaves.length);
  const spread = page.getByTestId('result-stddev/mean pgsteal, leaf memcgs (%)-kernel-0');
  expect(Number(await spread.getAttribute('data-value'))).toBeCloseTo((sd * 100) / mean, 9);
  await expect(page.getByTestId('kernel-assess-error')).toHaveCount(0);
  await shotsAtSizes(page, testInfo, 'kernel-overlay-memcg', '[data-testid="results-headline"] th.kernel-col');
});
