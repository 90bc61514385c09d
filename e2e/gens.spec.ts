// The generations view (MGLRU) in a real browser: its columns hold the engine's pages (the same
// totals as the LRU lists view at the same frame, and the same generations as the engine run
// here in Node to the same virtual time), max_seq advances while playing, compare and embed
// show it per MGLRU run, and a classic preset has none.
import { readFileSync } from 'node:fs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { failOnPageErrors, ready, shot, pause } from './support/page';
import { openEditor, setEditorText } from './support/editor';
import { initSync, WasmSimulation } from '../web/pkg/reclaim_core.js';
import { stepTo } from '../web/src/engine/stepTo';
import { encodeLink } from '../web/src/lib/link';
import { columnsOf } from '../web/src/lib/gens';
import type { GensView } from '../web/src/engine/generated/views';

const readGens = (json: string) => JSON.parse(json) as GensView;

const scenarioText = (f: string) => readFileSync(new URL(`../scenarios/${f}`, import.meta.url), 'utf8');
const titleOf = (text: string) => /^title\s*=\s*"(.*)"/m.exec(text)![1]!;
const MGLRU = 's003b-noreuse.toml'; // two linux-6.3-mglru variants
const CLASSIC = 's000-thrash.toml'; // linux-5.2 and 5.3

initSync({ module: readFileSync(new URL('../web/pkg/reclaim_core_bg.wasm', import.meta.url)) });
failOnPageErrors();

/** What one run's views show, read in one JS turn (so from one rendered frame). */
async function shown(page: Page, prefix = 'run-0-') {
  return page.evaluate((prefix) => {
    const root = document.querySelector(`[data-testid="${prefix}gens"]`);
    const cols = (type: string) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}gen-${type}-"]`)].map((c) => ({
        seq: Number(c.getAttribute('data-seq')),
        pages: Number(c.getAttribute('data-pages')),
        tiers: [...c.querySelectorAll('rect.tier')].map((r) => Number(r.getAttribute('data-pages'))),
      }));
    const size = (k: string) => Number(document.querySelector(`[data-testid="${prefix}lru-size-${k}"]`)?.getAttribute('data-pages'));
    return {
      nowNs: Number(root?.getAttribute('data-now-ns')),
      maxSeq: Number(root?.getAttribute('data-max-seq')),
      minSeq: [Number(root?.getAttribute('data-min-seq-anon')), Number(root?.getAttribute('data-min-seq-file'))],
      pages: [Number(root?.getAttribute('data-pages-anon')), Number(root?.getAttribute('data-pages-file'))],
      cols: [cols('anon'), cols('file')],
      lru: { anon: size('inactive_anon') + size('active_anon'), file: size('inactive_file') + size('active_file') },
      next: document.querySelector(`[data-testid="${prefix}gens-next"]`)?.textContent,
      activeSeqs: root?.querySelector('g.active-bands g.band')?.getAttribute('data-active-seqs'),
    };
  }, prefix);
}

async function openMglru(page: Page) {
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(scenarioText(MGLRU)) });
  await ready(page);
  await expect(page.getByTestId('variant-select-preset')).toHaveText('kernel linux-6.3-mglru');
}

/** The first whole virtual second (ns) at which variant `variant` of `text` has file pages in a
 *  tier above 0, by running the engine here. */
function firstSecondWithUpperFileTiers(text: string, variant: string): number {
  const sim = WasmSimulation.fromScenario(text, variant);
  try {
    for (let t = 1; t <= 600; t++) {
      stepTo(sim, t * 1_000_000_000);
      const g = readGens(sim.lru_gen_view(0));
      if (g.rows.some((r) => r.tiers[1].slice(1).some((p) => p > 0))) return sim.now_ns();
    }
  } finally {
    sim.free();
  }
  throw new Error('no file page reached a tier above 0 in 600 s');
}

/** Play fast until max_seq has moved on from where it was by `by` at least, then pause. */
/** How long playing may take to age a generation: the worker runs as fast as the CPU it
 *  gets, and with two other test suites on the same 2 cores it got a third of one (a 90 s
 *  poll ran out there). */
const AGE_TIMEOUT_MS = 240_000;

async function playUntilAged(page: Page, by: number, prefix = 'run-0-') {
  const start = (await shown(page, prefix)).maxSeq;
  await page.getByTestId('speed-slider').fill('18');
  await page.getByTestId('play-toggle').click();
  await expect
    .poll(async () => {
      const s = await shown(page, prefix);
      if (s.maxSeq >= start + by) return true;
      // A lesson step with pause = true stops the run: play on past it.
      if ((await page.getByTestId('status').textContent()) === 'paused') await page.getByTestId('play-toggle').click();
      return false;
    }, { timeout: AGE_TIMEOUT_MS, intervals: [250] })
    .toBe(true);
  await pause(page);
  // The step in flight when Pause was pressed still lands; then the state stands still (the
  // same time at two polls in a row).
  let last = -1;
  await expect
    .poll(async () => {
      const now = (await shown(page, prefix)).nowNs;
      const still = now === last;
      last = now;
      return still;
    }, { timeout: 20_000, intervals: [300] })
    .toBe(true);
  // Every frame on the way was well-formed (a malformed one stops the run with an error).
  await expect(page.getByTestId('engine-error')).toHaveCount(0);
  return start;
}

/** Every view stands still in `theme`: the generation columns have moved (their svg's
 *  data-moving; a theme change redraws them in the commit that sets the page's theme) and the
 *  LRU canvases have painted in that theme with their move dots landed. */
async function settled(page: Page, theme: string) {
  for (const svg of await page.locator('[data-testid$="-gens"] svg[data-moving]').all()) await expect(svg).toHaveAttribute('data-moving', 'false');
  for (const canvas of await page.locator('[data-testid$="-lru-canvas"]').all()) {
    await expect(canvas).toHaveAttribute('data-painted-theme', theme);
    await expect(canvas).toHaveAttribute('data-flying', '0');
  }
}

/** Screenshots of the whole page and of the view, light and dark. */
async function shots(page: Page, testInfo: TestInfo, name: string) {
  const view = page.getByTestId('run-0-gens');
  await view.scrollIntoViewIfNeeded();
  for (const theme of ['light', 'dark']) {
    if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await settled(page, theme);
    await shot(page, testInfo, `${name}-${theme}`);
    const path = testInfo.outputPath(`${name}-view-${theme}.png`);
    await view.screenshot({ path });
    await testInfo.attach(`${name}-view-${theme}`, { path, contentType: 'image/png' });
  }
}

test('MGLRU: the generations hold the engine’s pages, and max_seq advances while playing', async ({ page }, testInfo) => {
  test.setTimeout(AGE_TIMEOUT_MS + 120_000); // playUntilAged polls long on a loaded machine
  await openMglru(page);
  await expect(page.getByTestId('run-0-gens')).toBeVisible();
  const start = await playUntilAged(page, 2);
  const s = await shown(page);
  expect(s.maxSeq).toBeGreaterThanOrEqual(start + 2);

  // The columns add up to what the LRU lists view shows in the same frame (the two youngest
  // generations count as active, the rest as inactive), and to the view's own totals.
  const sum = (cols: { pages: number }[]) => cols.reduce((a, c) => a + c.pages, 0);
  expect(sum(s.cols[0]!)).toBe(s.lru.anon);
  expect(sum(s.cols[1]!)).toBe(s.lru.file);
  expect(s.pages).toEqual([s.lru.anon, s.lru.file]);
  expect(s.lru.anon + s.lru.file).toBeGreaterThan(0);
  for (const ty of [0, 1]) for (const c of s.cols[ty]!) expect(c.tiers.reduce((a, b) => a + b, 0)).toBe(c.pages);
  // One column per generation of each type, min_seq to max_seq.
  for (const ty of [0, 1]) expect(s.cols[ty]!.map((c) => c.seq)).toEqual(Array.from({ length: s.maxSeq - s.minSeq[ty]! + 1 }, (_, i) => s.minSeq[ty]! + i));

  // The same generations as the engine run here to the same virtual time.
  const ref = WasmSimulation.fromScenario(scenarioText(MGLRU), 'before');
  stepTo(ref, s.nowNs);
  expect(ref.now_ns()).toBe(s.nowNs);
  const g = readGens(ref.lru_gen_view(0));
  ref.free();
  expect(g.maxSeq).toBe(s.maxSeq);
  expect(g.minSeq).toEqual(s.minSeq);
  for (const ty of [0, 1] as const) {
    expect(s.cols[ty]).toEqual(columnsOf(g, ty).map((c) => ({ seq: c.seq, pages: c.pages, tiers: c.tiers })));
  }
  expect(s.next).toBe(g.next === 0 ? 'anon' : 'file');
  // The active band covers the generations the engine counts as active (the two youngest).
  expect(s.activeSeqs).toBe(g.rows.filter((r) => r.active).map((r) => r.seq).join(' '));
  expect(s.activeSeqs).toBe(`${s.maxSeq - 1} ${s.maxSeq}`);
  await expect(page.getByTestId('run-0-gens-explain')).toContainText(`Evicting ${s.next}`);
  await shots(page, testInfo, 'gens-s003b');
});

test('6.14 MGLRU on a used-once file scenario at 2560x1440: tiers, the 6.14 controller, and the engine’s pages', async ({ page }, testInfo) => {
  test.setTimeout(240_000); // replays tens of virtual seconds of S001 on a loaded machine
  // S001 (classic presets) switched to linux-6.14-mglru through the scenario text editor.
  const text = scenarioText('s001-used-once.toml').replace(/preset = "[^"]+"/g, 'preset = "linux-6.14-mglru"');
  await page.setViewportSize({ width: 2560, height: 1440 });
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(text) });
  await ready(page);
  await expect(page.getByTestId('run-0-gens')).toHaveCount(0);
  await openEditor(page);
  await setEditorText(page, text);
  await page.getByTestId('scenario-text-apply').click();
  await expect(page.getByTestId('run-0-gens')).toBeVisible({ timeout: 20_000 });
  await ready(page);
  // File pages read twice or more (a tier above 0) come and go within a few virtual seconds,
  // too briefly for a poll of a fast-playing page to be sure to see them. So the engine, run
  // here, finds the first whole second at which some are there, and the page opens the edited
  // text at that moment through a link (replayed exactly).
  const variant = /\[\[variants\]\]\s*\nname\s*=\s*"([^"]+)"/.exec(text)![1]!;
  const timeNs = firstSecondWithUpperFileTiers(text, variant);
  const link = await encodeLink({ scenario: 's001-used-once.toml', knobs: {}, edited: text, variants: [variant], compare: false, speedStep: 10, view: null, timeNs });
  await page.goto(`/#${link}`);
  await expect(page.getByTestId('run-0-gens')).toHaveAttribute('data-now-ns', String(timeNs), { timeout: 180_000 });
  const s = await shown(page);
  expect(s.cols[1]!.some((c) => c.tiers.slice(1).some((p) => p > 0))).toBe(true);
  expect(s.pages).toEqual([s.lru.anon, s.lru.file]);
  const ref = WasmSimulation.fromScenario(text, variant);
  stepTo(ref, s.nowNs);
  const g = readGens(ref.lru_gen_view(0));
  ref.free();
  expect(g.rework).toBe(true);
  for (const ty of [0, 1] as const) expect(s.cols[ty]).toEqual(columnsOf(g, ty).map((c) => ({ seq: c.seq, pages: c.pages, tiers: c.tiers })));
  await expect(page.getByTestId('run-0-gens')).toContainText('6.14 controller');
  await shots(page, testInfo, 'gens-s001-6.14');
});

test('a classic preset shows no generations view, only the LRU lists', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(scenarioText(CLASSIC)) });
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  await expect(page.getByTestId('run-0-lru-canvas')).toBeVisible();
  await expect(page.getByTestId('run-0-gens')).toHaveCount(0);
  // And it appears for an MGLRU scenario on the same page.
  await page.getByTestId('scenario-select').selectOption({ label: titleOf(scenarioText(MGLRU)) });
  await expect(page.getByTestId('run-0-gens')).toBeVisible({ timeout: 20_000 });
});

test('compare mode at 1280x720: each MGLRU run has its own generations view, in lockstep', async ({ page }, testInfo) => {
  // Two MGLRU runs in lockstep until they age: the test's time must hold playUntilAged's
  // poll on a loaded machine, plus loading, settling and screenshots.
  test.setTimeout(AGE_TIMEOUT_MS + 120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openMglru(page);
  await page.getByTestId('compare-toggle').check();
  await expect(page.getByTestId('run-1')).toHaveAttribute('data-variant', 'after');
  await ready(page);
  await playUntilAged(page, 1);
  const [a, b] = [await shown(page, 'run-0-'), await shown(page, 'run-1-')];
  expect(a.nowNs).toBe(b.nowNs);
  for (const s of [a, b]) {
    expect(s.pages).toEqual([s.lru.anon, s.lru.file]);
    expect(s.cols[1]!.reduce((x, c) => x + c.pages, 0)).toBe(s.lru.file);
  }
  await shots(page, testInfo, 'gens-compare-1280');
});

test('embed: the gens view is selectable; a classic run says it has no generations', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 2560, height: 1440 });
  const link = (scenario: string, variants: string[]) =>
    encodeLink({ scenario, knobs: {}, edited: null, variants, compare: variants.length > 1, speedStep: 10, view: 'gens', timeNs: 3_000_000_000 });
  await page.goto(`/?embed&view=gens#${await link(MGLRU, ['before', 'after'])}`);
  await expect(page.getByTestId('embed')).toHaveAttribute('data-view', 'gens');
  await expect(page.getByTestId('virtual-time')).toHaveText('3.000 s', { timeout: 120_000 });
  for (const p of ['run-0-', 'run-1-']) {
    await expect(page.getByTestId(`${p}gens`)).toHaveAttribute('data-now-ns', '3000000000');
    const s = await shown(page, p);
    const ref = WasmSimulation.fromScenario(scenarioText(MGLRU), p === 'run-0-' ? 'before' : 'after');
    expect(stepTo(ref, 3_000_000_000)).toBe(3_000_000_000);
    const g = readGens(ref.lru_gen_view(0));
    ref.free();
    expect(s.maxSeq).toBe(g.maxSeq);
    expect(s.pages).toEqual([0, 1].map((ty) => columnsOf(g, ty as 0 | 1).reduce((x, c) => x + c.pages, 0)));
  }
  await shot(page, testInfo, 'gens-embed-2560');
  await page.goto(`/?embed&view=gens#${await link(CLASSIC, ['before'])}`);
  await expect(page.getByTestId('run-0-no-gens')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('run-0-gens')).toHaveCount(0);
  await expect(page.getByTestId('run-0-lru-canvas')).toBeVisible();
});
