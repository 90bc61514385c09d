// Kernel flag toggles, the note for a refused swappiness, and the time scrubber, in a real
// browser, checked against the same wasm engine run here in Node (never against numbers
// written into the test).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors, ready, shot, tools } from './support/page';
import { initSync, kernel_info, resolve_scenario, WasmSimulation } from '../web/pkg/reclaim_core.js';
import { stepTo } from '../web/src/engine/stepTo';
import { setupOf } from '../web/src/lib/knobs';
import { encodeLink } from '../web/src/lib/link';
import type { RunInfo } from '../web/src/engine/generated/views';

initSync({ module: readFileSync(new URL('../web/pkg/reclaim_core_bg.wasm', import.meta.url)) });
failOnPageErrors();
// Full-scale S000 and S004 runs in the page and again here: more than the default 30 s.
test.setTimeout(120_000);

const scenarioText = (f: string) => readFileSync(new URL(`../scenarios/${f}`, import.meta.url), 'utf8');
const titleOf = (text: string) => /^title\s*=\s*"(.*)"/m.exec(text)![1]!;
const LISTS = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file', 'free'] as const;
const LIST_INDEX = [0, 1, 2, 3, 5];

/** What the page shows for run `i`, read in one JS turn: its counters and list sizes (pages). */
async function shownRun(page: Page, i: number) {
  return page.evaluate(
    ({ i, lists }) => {
      const counters: Record<string, number> = {};
      for (const el of document.querySelectorAll(`[data-testid^="run-${i}-counter-"]`)) {
        counters[el.getAttribute('data-testid')!.slice(`run-${i}-counter-`.length)] = Number(el.getAttribute('data-pages'));
      }
      const sizes = lists.map((k) => Number(document.querySelector(`[data-testid="run-${i}-lru-size-${k}"]`)?.getAttribute('data-pages')));
      return { counters, sizes };
    },
    { i, lists: [...LISTS] },
  );
}

/** The engine's values for a fresh run stepped to `t`, in the page's shape (only the counters it shows). */
function engineAt(text: string, variant: string, flags: Record<string, boolean>, t: number, shown: string[]) {
  const sim = WasmSimulation.fromScenarioWithFlags(text, variant, JSON.stringify(flags));
  stepTo(sim, t);
  const names = sim.counter_names();
  const values = sim.counter_values();
  const lru = [...sim.lru_sizes()];
  sim.free();
  const counters: Record<string, number> = {};
  for (const n of shown) counters[n] = values[names.indexOf(n)]!;
  return { counters, sizes: LIST_INDEX.map((k) => lru[k]!) };
}

/** Wait until the page stands still (paused, no seek running) at a time `until` accepts;
 *  return that exact time (ns). */
async function settledNs(page: Page, until: (ns: number) => boolean = () => true): Promise<number> {
  let ns = NaN;
  await expect
    .poll(
      async () => {
        const state = await page.evaluate(() => ({
          ns: Number(document.querySelector('[data-testid="scrubber"]')?.getAttribute('data-now-ns')),
          busy: document.querySelector('[data-testid="scrub-progress"]') !== null,
          status: document.querySelector('[data-testid="status"]')?.textContent ?? '',
        }));
        ns = state.ns;
        return !state.busy && /paused|finished/.test(state.status) && until(ns);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return ns;
}

async function stepTimes(page: Page, n: number) {
  for (let k = 0; k < n; k++) {
    const before = await page.getByTestId('virtual-time').textContent();
    await page.getByTestId('step').click();
    await expect(page.getByTestId('virtual-time')).not.toHaveText(before!);
  }
}

test('a flag toggle makes the kernel custom, changes what the engine reports, and travels in a link', async ({ page, browser }, testInfo) => {
  const file = 's000-thrash.toml';
  const text = scenarioText(file);
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(text) });
  await ready(page);
  // The toggles are the engine's list, each with its version.
  const kernel = JSON.parse(kernel_info()) as { flags: { name: string; version: string }[] };
  await tools(page, 'setup');
  await page.getByTestId('flags-panel').locator('summary').click();
  await expect(page.getByTestId('flags-0').locator('input[type="checkbox"]')).toHaveCount(kernel.flags.length);
  await expect(page.getByTestId('flags-0-label')).toHaveText('linux-5.2');
  await expect(page.getByTestId('flags-0-custom')).toHaveCount(0);

  // linux-5.2 runs scan/rotate balancing; turn the 5.8 IO-cost balance on for this run.
  const flag = 'io_cost_balance';
  const box = page.getByTestId(`flag-0-${flag}`);
  await expect(box).not.toBeChecked();
  // Its tooltip names where the kernel has it, as the engine's flag table says.
  await expect(box.locator('xpath=..')).toHaveAttribute('title', /kernel: get_scan_count, lru_note_cost, 5\.8$/);
  await box.check();
  await expect(page.getByTestId('flags-0-label')).toHaveText(`linux-5.2 + ${flag} on`);
  await expect(page.getByTestId('flags-0-custom')).toHaveText('custom');
  await ready(page);
  await expect(page.getByTestId('run-0-kernel')).toHaveText(`(linux-5.2 + ${flag} on)custom`);
  await expect(page.getByTestId('run-0-kernel')).toHaveAttribute('data-custom', 'true');

  // Run to about a second: the page shows what the engine computes with the flag, and the
  // engine without it reports something else there.
  await page.getByTestId('speed-slider').fill('12'); // steps of 100 ms
  await stepTimes(page, 10);
  const t = await settledNs(page);
  const shown = await shownRun(page, 0);
  const names = Object.keys(shown.counters);
  expect(names.length).toBeGreaterThan(4);
  const withFlag = engineAt(text, 'before', { [flag]: true }, t, names);
  const without = engineAt(text, 'before', {}, t, names);
  expect(shown).toStrictEqual(withFlag);
  expect(names.filter((n) => withFlag.counters[n] !== without.counters[n]).length).toBeGreaterThan(0);
  await shot(page, testInfo, 'flag-custom');

  // The link carries the override: a fresh browser shows the same custom kernel and numbers.
  await tools(page, 'share');
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('link-field')).toHaveValue(/#v1=[A-Za-z0-9_-]+$/);
  const link = await page.getByTestId('link-field').inputValue();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  other.on('pageerror', (err) => {
    throw err;
  });
  await other.goto(link);
  await ready(other);
  await settledNs(other, (ns) => ns === t);
  await expect(other.getByTestId('run-0-kernel')).toHaveText(`(linux-5.2 + ${flag} on)custom`);
  expect(await shownRun(other, 0)).toStrictEqual(withFlag);
  await fresh.close();

  // Unticking it again is the variant as written; so is "Variant's flags".
  await tools(page, 'setup');
  await box.uncheck();
  await expect(page.getByTestId('flags-0-custom')).toHaveCount(0);
  await expect(page.getByTestId('run-0-kernel')).toHaveAttribute('data-custom', 'false');
  await page.getByTestId('flag-0-refault_scan_anon').check();
  await expect(page.getByTestId('run-0-kernel')).toHaveText('(linux-5.2 + refault_scan_anon on)custom');
  await page.getByTestId('theme-toggle').click();
  const panelShot = testInfo.outputPath('flags-panel-dark.png');
  await page.getByTestId('flags-panel').screenshot({ path: panelShot });
  await testInfo.attach('flags-panel-dark', { path: panelShot, contentType: 'image/png' });
  await page.getByTestId('flags-0-restore').click();
  await expect(page.getByTestId('flags-0-label')).toHaveText('linux-5.2');
  await expect(page.getByTestId('run-0-kernel')).toHaveText('(linux-5.2)');
});

test('a link naming a flag the engine does not know says so, and the rest of the link still loads', async ({ page }) => {
  const hash = await encodeLink({
    scenario: 's000-thrash.toml',
    knobs: {},
    edited: null,
    variants: ['before'],
    compare: false,
    speedStep: 10,
    view: null,
    timeNs: 0,
    flags: [{ refault_scan_anon: true, no_such_flag: true }],
  });
  await page.goto(`/#${hash}`);
  const banner = page.getByTestId('link-error');
  await expect(banner).toContainText('kernel flags this engine does not know: "no_such_flag"');
  await expect(banner).toContainText('known: refault_scan_anon');
  // The rest of the link holds: the known flag is applied and the run loads.
  await ready(page);
  await expect(page.getByTestId('engine-error')).toHaveCount(0);
  await expect(page.getByTestId('run-0-kernel')).toHaveText('(linux-5.2 + refault_scan_anon on)custom');
});

test('a capped kernel refusing swappiness 115 is explained beside the knob, per side', async ({ page }, testInfo) => {
  const file = 's004-pgbench.toml';
  const text = scenarioText(file);
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(text) });
  await ready(page);
  await page.getByTestId('compare-toggle').check();
  await ready(page);
  // S004 has four variants; compare starts with the first two, the seed's own pair.
  await expect(page.getByTestId('run-0-kernel')).toHaveText('(linux-4.7)');
  await expect(page.getByTestId('run-1-kernel')).toHaveText('(rfc-2016-lru-cost)');
  // The file asks for 115 itself; with the knob at 100 neither kernel refuses anything.
  await tools(page, 'setup');
  await page.getByTestId('knob-swappiness').fill('100');
  await page.getByTestId('knobs-apply').click();
  await ready(page);
  await expect(page.getByTestId('run-0-balance-swappiness')).toHaveText('100');
  await expect(page.getByTestId('swappiness-note-0')).toHaveCount(0);
  await expect(page.getByTestId('swappiness-note-1')).toHaveCount(0);
  await page.getByTestId('knob-swappiness').fill('115');
  await page.getByTestId('knobs-apply').click();
  await ready(page);

  // What the engine does with 115 on each kernel (the engine writes the knob in, as for the page).
  const asked = resolve_scenario(text, JSON.stringify(setupOf({ swappiness: 115 })));
  const engine = ['vanilla-4.7', 'lrucost-2016'].map((v) => {
    const sim = WasmSimulation.fromScenario(asked, v);
    const r = (JSON.parse(sim.run_info()) as RunInfo).kernel.swappiness;
    sim.free();
    return r;
  });
  expect(engine[0]!.asked).toBe(115);
  expect(engine[0]!.runs).not.toBe(115); // linux-4.7 refuses it
  expect(engine[1]!.runs).toBe(115); // the 2016 series takes it
  const note = page.getByTestId('swappiness-note-0');
  await expect(note).toHaveText(`vanilla-4.7: linux-4.7 caps swappiness at ${engine[0]!.cap}: 115 refused, runs ${engine[0]!.runs}`);
  await expect(page.getByTestId('swappiness-note-1')).toHaveCount(0);
  await expect(page.getByTestId('run-0-balance-swappiness')).toHaveText(String(engine[0]!.runs));
  await expect(page.getByTestId('run-1-balance-swappiness')).toHaveText('115');
  await note.scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'swappiness-refused');

  // Any two of the four compare: the mainline pair, picked in both menus.
  await page.getByTestId('variant-select').selectOption('mainline-5.7');
  await page.getByTestId('variant-b-select').selectOption('mainline-5.8');
  await ready(page);
  await expect(page.getByTestId('run-0-kernel')).toHaveText('(linux-5.7)');
  await expect(page.getByTestId('run-1-kernel')).toHaveText('(linux-5.8)');
  await expect(page.getByTestId('swappiness-note-0')).toHaveText(`mainline-5.7: linux-5.7 caps swappiness at ${engine[0]!.cap}: 115 refused, runs ${engine[0]!.runs}`);
  await expect(page.getByTestId('swappiness-note-1')).toHaveCount(0);

  // Only the 5.7 side: without compare, linux-5.8 alone shows no note.
  await page.getByTestId('compare-toggle').uncheck();
  await page.getByTestId('variant-select').selectOption('mainline-5.8');
  await ready(page);
  await expect(page.getByTestId('run-0-kernel')).toHaveText('(linux-5.8)');
  await expect(page.getByTestId('swappiness-note-0')).toHaveCount(0);
  await page.getByTestId('variant-select').selectOption('mainline-5.7');
  await ready(page);
  await expect(page.getByTestId('swappiness-note-0')).toHaveText(`linux-5.7 caps swappiness at ${engine[0]!.cap}: 115 refused, runs ${engine[0]!.runs}`);
});

test('scrubbing back replays both runs to the same state a fresh run has at that time', async ({ page }, testInfo) => {
  const file = 's000-thrash.toml';
  const text = scenarioText(file);
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(text) });
  await ready(page);
  await page.getByTestId('compare-toggle').check();
  await ready(page);
  await page.getByTestId('speed-slider').fill('14'); // steps of 316 ms
  await stepTimes(page, 4);
  const far = await settledNs(page);
  const scrub = page.getByTestId('scrub');
  await expect(scrub).toHaveAttribute('max', String(far));

  // Keyboard: Home goes back to 0, End forward to the furthest time reached.
  await scrub.focus();
  await page.keyboard.press('Home');
  await settledNs(page, (ns) => ns === 0);
  await page.keyboard.press('End');
  const step = Number(await scrub.getAttribute('step'));
  await settledNs(page, (ns) => ns > far - step && ns <= far); // the last slider step at or before it

  // Back to about 60% of the way (reclaim has begun there): a replay from the worker's nearest
  // checkpoint before it (or the start), which the page reports.
  const target = Math.round((far * 0.6) / step) * step; // a value the slider can take
  await scrub.fill(String(target));
  const t = await settledNs(page, (ns) => ns === target);
  const from = Number(await page.getByTestId('scrubber').getAttribute('data-seek-from-ns'));
  expect(from).toBeGreaterThanOrEqual(0);
  expect(from).toBeLessThanOrEqual(target);
  await expect(page.getByTestId('run-0-time')).toHaveText((await page.getByTestId('run-1-time').textContent())!);
  for (const [i, variant] of ['before', 'after'].entries()) {
    const shown = await shownRun(page, i);
    const engine = engineAt(text, variant, {}, t, Object.keys(shown.counters));
    expect(Object.values(engine.counters).some((v) => v > 0)).toBe(true); // a state worth comparing
    expect(shown).toStrictEqual(engine);
  }
  await shot(page, testInfo, 'scrubbed-back');

  // The arrow keys move by one slider step and land exactly there too.
  await scrub.focus();
  await page.keyboard.press('ArrowRight');
  const t2 = await settledNs(page, (ns) => ns > t);
  const shown = await shownRun(page, 1);
  expect(shown).toStrictEqual(engineAt(text, 'after', {}, t2, Object.keys(shown.counters)));
});
