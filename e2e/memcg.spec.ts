// The memcg LRU view in a real browser, checked against the same engine run here in Node, on a
// small copy of S003 (web/src/lib/s003Small.ts: 16 memcgs, root memory.reclaim from 10 s on).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors, shot, pause } from './support/page';
import { scenarioFile } from './support/editor';
import { encodeLink, type LinkState } from '../web/src/lib/link';
import type { MemcgLruView } from '../web/src/engine/generated/views';
import { smallS003 } from '../web/src/lib/s003Small';
import { initSync, WasmSimulation } from '../web/pkg/reclaim_core.js';
import { stepTo } from '../web/src/engine/stepTo';

initSync({ module: readFileSync(new URL('../web/pkg/reclaim_core_bg.wasm', import.meta.url)) });
failOnPageErrors();

const SCENARIO = 's003-memcg-lru.toml';
const small = smallS003(scenarioFile(SCENARIO));

const link = (s: Partial<LinkState>) =>
  encodeLink({ scenario: SCENARIO, knobs: {}, edited: small, variants: ['after'], compare: false, speedStep: 10, view: null, timeNs: 0, ...s });

/** The engine in Node at `ns`: its memcg LRU and names. */
function engineAt(variant: string, ns: number) {
  const sim = WasmSimulation.fromScenario(small, variant);
  stepTo(sim, ns);
  const lru = JSON.parse(sim.memcg_lru_view()) as MemcgLruView;
  const names = sim.memcg_names();
  sim.free();
  return { lru, names, nrMemcgs: names.length };
}

/** What the view shows: its marks (memcg, gen, bin, pos, seg) and bars, read in one JS turn. */
async function shown(page: Page, prefix: string) {
  return page.evaluate((prefix) => {
    const view = document.querySelector(`[data-testid="${prefix}memcg-view"]`)!;
    const marks = [...view.querySelectorAll<SVGGElement>('g.memcg-mark')].map((m) => {
      const r = m.getBoundingClientRect();
      return { id: Number(m.dataset.memcg), gen: Number(m.dataset.gen), bin: Number(m.dataset.bin), pos: Number(m.dataset.pos), seg: m.dataset.seg!, x: r.x, y: r.y };
    });
    const bars = [...view.querySelectorAll<SVGGElement>('g.memcg-bar')].map((b) => ({ id: Number(b.dataset.memcg), pgsteal: Number(b.dataset.pgsteal), usage: Number(b.dataset.usage) }));
    return {
      nowNs: Number(view.getAttribute('data-now-ns')),
      nrMemcgs: Number(view.getAttribute('data-nr-memcgs')),
      marks: marks.sort((a, b) => a.id - b.id),
      bars,
      grid: view.querySelector(`[data-testid="${prefix}memcg-grid"]`) !== null,
      moves: Number(view.querySelector(`[data-testid="${prefix}memcg-grid"]`)?.getAttribute('data-moves') ?? -1),
      fairness: view.querySelector(`[data-testid="${prefix}memcg-fairness"]`)!.textContent,
    };
  }, prefix);
}

test('compare embed at 40 s: the grid and bars equal the engine for "after", bars without a grid for classic "before"', async ({ page }, testInfo) => {
  const at = 40e9; // five memory.reclaim writes in (10 s, 16 s, ...)
  const hash = await link({ variants: ['before', 'after'], compare: true, view: 'memcg', timeNs: at });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/?embed&view=memcg#${hash}`);
  await expect(page.getByTestId('embed')).toHaveAttribute('data-view', 'memcg');
  for (const i of [0, 1]) await expect(page.getByTestId(`run-${i}-memcg-view`)).toHaveAttribute('data-now-ns', String(at), { timeout: 30_000 });

  // "after" (linux-6.3-mglru): every memcg is a mark, in the engine's bin, position and segment.
  const after = engineAt('after', at);
  const a = await shown(page, 'run-1-');
  expect(a.nrMemcgs).toBe(after.nrMemcgs);
  expect(a.marks).toHaveLength(after.nrMemcgs);
  const want = after.lru.places.map((p) => ({ id: p.id, gen: p.gen, bin: p.bin, pos: p.pos, seg: p.seg })).sort((x, y) => x.id - y.id);
  expect(a.marks.map(({ id, gen, bin, pos, seg }) => ({ id, gen, bin, pos, seg }))).toEqual(want);
  await expect(page.getByTestId('run-1-memcg-gen-old')).toHaveAttribute('data-gen-seq', String(after.lru.seq));
  await expect(page.getByTestId('run-1-memcg-gen-old')).toHaveAttribute('data-slot', String(after.lru.oldGen));
  await expect(page.getByTestId('run-1-memcg-gen-young')).toHaveAttribute('data-slot', String(after.lru.youngGen));
  // The bars: one per memcg by id; their pgsteal adds up to the engine's, and reclaim has run.
  const stealAfter = [...after.lru.pgsteal].reduce((s, x) => s + x, 0);
  expect(stealAfter).toBeGreaterThan(0);
  expect(a.bars.map((b) => b.id)).toEqual([...Array(after.nrMemcgs).keys()]);
  expect(a.bars.reduce((s, b) => s + b.pgsteal, 0)).toBe(stealAfter);
  expect(a.bars.map((b) => b.usage)).toEqual([...after.lru.usage]);
  // S003's fairness and accuracy as the engine reports them at that time (views.rs computes them
  // as the report does; tests/repro_s003.rs and lib/memcgLru.test.ts check the figures).
  expect(after.lru.pgstealSpreadPct).not.toBeNull();
  expect(a.fairness).toBe(`${after.lru.pgstealSpreadPct!.toFixed(1)}%`);
  expect(after.lru.reclaimRequestedPages).toBeGreaterThan(0);
  await expect(page.getByTestId('run-1-memcg-accuracy')).toHaveText(`${after.lru.reclaimAccuracyPct!.toFixed(1)}%`);
  await expect(page.getByTestId('run-1-memcg-accuracy')).toHaveAttribute('data-requested', String(after.lru.reclaimRequestedPages));

  // "before" (linux-6.3, classic): bars only, with the line saying why.
  const before = engineAt('before', at);
  const b = await shown(page, 'run-0-');
  expect(b.grid).toBe(false);
  expect(b.marks).toHaveLength(0);
  expect(b.bars).toHaveLength(before.nrMemcgs);
  const stealBefore = [...before.lru.pgsteal].reduce((s, x) => s + x, 0);
  expect(stealBefore).toBeGreaterThan(0);
  expect(b.bars.reduce((s, x) => s + x.pgsteal, 0)).toBe(stealBefore);
  await expect(page.getByTestId('run-0-memcg-note')).toContainText('used by MGLRU root reclaim only');
  await shot(page, testInfo, 'memcg-embed-compare-1280x720');
});

test('playing "after": marks move between bins and generations while root reclaim runs; light and dark', async ({ page }, testInfo) => {
  test.setTimeout(180_000); // sized for a loaded machine
  await page.setViewportSize({ width: 1600, height: 1000 });
  const hash = await link({ timeNs: 9e9, speedStep: 16 }); // paused just before the first write
  await page.goto(`/#${hash}`);
  const view = page.getByTestId('run-0-memcg-view');
  await expect(view).toHaveAttribute('data-now-ns', String(9e9), { timeout: 30_000 });
  await expect(view).toHaveAttribute('data-active', '1');
  const first = await shown(page, 'run-0-');
  expect(first.marks).toHaveLength(first.nrMemcgs);
  expect(first.moves).toBe(0);

  await page.getByTestId('play-toggle').click();
  // Sample the view while reclaim runs: some memcg changes bin or generation, and the mark's
  // drawn position changes with it.
  const place = (m: { gen: number; bin: number }) => `${m.gen}/${m.bin}`;
  type Mark = (typeof first.marks)[number];
  let change = null as { before: Mark; after: Mark } | null;
  let prev = first;
  // Poll until one sample differs from the one before it, however slowly the machine plays.
  await expect
    .poll(async () => {
      const cur = await shown(page, 'run-0-');
      expect(cur.marks).toHaveLength(cur.nrMemcgs);
      for (const m of cur.marks) {
        const p = prev.marks.find((x) => x.id === m.id)!;
        if (place(p) !== place(m)) change = { before: p, after: m };
      }
      prev = cur;
      return change !== null;
    }, { message: 'a memcg changed bin or generation while playing', timeout: 120_000, intervals: [250] })
    .toBe(true);
  const { before, after } = change!;
  // The move is animated: wait until the mark stands still (the same place at two polls).
  let at = '';
  await expect
    .poll(async () => {
      const mk = (await shown(page, 'run-0-')).marks.find((x) => x.id === after.id)!;
      const here = `${mk.x},${mk.y}`;
      const still = here === at;
      at = here;
      return still;
    }, { timeout: 10_000, intervals: [150] })
    .toBe(true);
  const done = (await shown(page, 'run-0-')).marks.find((x) => x.id === after.id)!;
  expect(Math.abs(done.x - before.x) + Math.abs(done.y - before.y)).toBeGreaterThan(3);
  expect((await shown(page, 'run-0-')).moves).toBeGreaterThan(0);
  await pause(page);
  // The step in flight when Pause was pressed still lands: wait until the time stands still.
  let last = -1;
  await expect
    .poll(async () => {
      const t = (await shown(page, 'run-0-')).nowNs;
      const still = t === last;
      last = t;
      return still;
    }, { timeout: 20_000, intervals: [300] })
    .toBe(true);

  // Paused: the view equals the engine at the time it shows.
  const now = await shown(page, 'run-0-');
  const ref = engineAt('after', now.nowNs);
  expect(now.marks).toHaveLength(ref.nrMemcgs);
  expect(now.bars.reduce((s, b) => s + b.pgsteal, 0)).toBe([...ref.lru.pgsteal].reduce((s, x) => s + x, 0));

  if ((await page.locator('html').getAttribute('data-theme')) === 'dark') await page.getByTestId('theme-toggle').click();
  await view.scrollIntoViewIfNeeded();
  await view.screenshot({ path: testInfo.outputPath('memcg-view-light.png') });
  await testInfo.attach('memcg-view-light', { path: testInfo.outputPath('memcg-view-light.png'), contentType: 'image/png' });
  await page.setViewportSize({ width: 1280, height: 720 });
  await view.scrollIntoViewIfNeeded();
  await view.screenshot({ path: testInfo.outputPath('memcg-view-light-1280.png') });
  await testInfo.attach('memcg-view-light-1280', { path: testInfo.outputPath('memcg-view-light-1280.png'), contentType: 'image/png' });
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await view.screenshot({ path: testInfo.outputPath('memcg-view-dark.png') });
  await testInfo.attach('memcg-view-dark', { path: testInfo.outputPath('memcg-view-dark.png'), contentType: 'image/png' });
  await page.setViewportSize({ width: 2560, height: 1440 });
  await shot(page, testInfo, 'memcg-page-dark-2560x1440');
});

test('the memcg embed view says so for a scenario without memcgs', async ({ page }) => {
  const hash = await encodeLink({ scenario: 's000-thrash.toml', knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: 'memcg', timeNs: 0 });
  await page.goto(`/?embed#${hash}`);
  await expect(page.getByTestId('embed')).toHaveAttribute('data-view', 'memcg');
  await expect(page.getByTestId('run-0-memcg-none')).toContainText('no memory cgroups');
  await expect(page.getByTestId('run-0-memcg-view')).toHaveCount(0);
});
