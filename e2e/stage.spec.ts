// The stage (issue #44): the animation is the first thing a newcomer, a presenter or a phone
// user sees, the lesson's caption is docked to it, each lesson step shows what its caption
// names, the first screen does not shift, and an OOM kill is visible where it happens.
import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { initSync, resolve_scenario, scenario_info, WasmSimulation } from '../web/pkg/reclaim_core.js';
import { formatNs } from '../web/src/format';
import { encodeLink, type LinkState } from '../web/src/lib/link';
import { setupOf } from '../web/src/lib/knobs';
import { failOnPageErrors, ready } from './support/page';
import { scenarioFile } from './support/editor';

failOnPageErrors();

const link = (s: Partial<LinkState> & { scenario: string }) =>
  encodeLink({ knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0, ...s });

/** The box of an element in the viewport's coordinates. */
const box = (page: Page, sel: string) => page.locator(sel).first().evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);

/** The sum of layout shifts without recent input so far (Cumulative Layout Shift, roughly). */
const cls = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls);

for (const vp of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
]) {
  test(`first load at ${vp.width}x${vp.height}: the stage and the caption above the fold, no layout shift`, async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.__cls += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.setViewportSize(vp);
    await page.goto('/');
    await ready(page);
    // The LRU strips, the caption and Play are all on the first screen.
    const canvas = await box(page, '[data-testid="run-0-lru-canvas"]');
    expect(canvas.top, 'strips start on screen').toBeGreaterThan(0);
    expect(canvas.bottom, 'strips end on screen').toBeLessThanOrEqual(vp.height);
    const caption = await box(page, '[data-testid="lesson-caption"]');
    expect(caption.bottom).toBeLessThanOrEqual(vp.height);
    const play = await box(page, '[data-testid="play-toggle"]');
    expect(play.bottom).toBeLessThanOrEqual(vp.height / 3);
    // Play is the one primary button; knobs, the scenario text and sharing wait in the tools.
    await expect(page.locator('button.primary:visible')).toHaveCount(1);
    await expect(page.getByTestId('tools')).toBeHidden();
    await expect(page.getByTestId('knob-swappiness')).toBeHidden();
    // The results (the last thing the first screen waits for) are in: nothing has moved.
    await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    expect(await cls(page)).toBeLessThan(0.05);
    await page.screenshot({ path: testInfo.outputPath(`stage-first-${vp.width}.png`) });
  });
}

/** The caption as read, without the glossary explanations its terms carry. */
const captionText = (page: Page) =>
  page.getByTestId('lesson-caption').evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('[role="tooltip"]').forEach((t) => t.remove());
    return copy.textContent ?? '';
  });

/** A lesson's steps as its file states them: the caption, the view and the counters named. */
function lessonSteps(file: string) {
  const text = scenarioFile(file);
  return text
    .split(/^\[\[lesson\]\]$/m)
    .slice(1)
    .map((block) => block.split(/^\[/m)[0]!)
    .map((block) => ({
      caption: /^caption = "(.*)"$/m.exec(block)![1]!,
      highlight: /^highlight = "(\w+)"$/m.exec(block)?.[1] ?? null,
    }));
}

const STAGE_OF: Record<string, string> = { lru: 'lists', balance: 'balance', charts: 'charts', diff: 'diff', results: 'results' };
const ROOT_OF: Record<string, string> = { lru: '.lru-view', balance: '.balance', charts: '.charts', diff: '.diff', results: '.results' };

// Every scenario with a lesson: the lessons, and the seed experiments with their first two
// kernels side by side (as their lessons compare them).
const LESSONS = readdirSync(new URL('../scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.toml') && /^\[\[lesson\]\]$/m.test(scenarioFile(f)))
  .sort();

// The page lists the lessons first, then the seed experiments by file name: the last of those
// with a lesson has no next one.
const LAST_LESSON = LESSONS.filter((f) => !f.startsWith('lesson-')).at(-1);

test('every lesson is walked below', () => {
  expect(LESSONS).toEqual(expect.arrayContaining(['lesson-two-list-lru.toml', 's000-thrash.toml', 's003-memcg-lru.toml', 's004-pgbench.toml']));
  expect(LESSONS.length).toBeGreaterThanOrEqual(12);
});

for (const file of LESSONS) {
  const variants = [...scenarioFile(file).matchAll(/^\[\[variants\]\]\nname = "([^"]+)"/gm)].map((m) => m[1]!);
  const compare = file.startsWith('s0') && variants.length >= 2;
  test(`every step of ${file} shows, above the fold at 1280x800, what its caption names`, async ({ page }, testInfo) => {
    test.setTimeout(900_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const hash = await link({ scenario: file, compare, variants: compare ? variants.slice(0, 2) : [] });
    await page.goto(`/#${hash}`);
    await ready(page);
    const steps = lessonSteps(file);
    for (let k = 0; k < steps.length; k++) {
      const step = steps[k]!;
      await page.getByTestId('lesson-next').click();
      // Long runs (S003 at 128 memcgs, S004) take minutes to reach a late step on a loaded machine.
      await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', String(k + 1), { timeout: 600_000 });
      await expect(page.getByTestId('status')).toHaveText('paused', { timeout: 600_000 });
      // The caption is the step's, on screen, and says the run is paused for it.
      await expect.poll(() => captionText(page)).toContain(step.caption.slice(0, 60));
      await expect(page.getByTestId('lesson-caption')).toBeInViewport();
      await expect(page.getByTestId('lesson-note')).toContainText('Paused here');
      // The view it names is on the stage, outlined and in sight.
      if (step.highlight) {
        await expect(page.getByTestId('stage')).toHaveAttribute('data-view', STAGE_OF[step.highlight]!);
        const root = page.getByTestId('stage-view').locator(ROOT_OF[step.highlight]!).first();
        await expect(root).toHaveCSS('outline-style', 'solid');
        await expect(root).toBeInViewport();
      }
      // Every counter it names is shown on the stage: as a counter, or, on a step that points at
      // the results, as a row of them built from it (S003's "spread of pgsteal across memcgs").
      // (A word followed by '(' is a kernel function, not a counter.)
      // (A task's name such as S004's pgbench is not a counter either.)
      const tasks = new Set([...scenarioFile(file).matchAll(/^name = "([^"]+)"/gm)].map((m) => m[1]!));
      for (const name of (step.caption.match(/\b(pg|pswp|workingset_|allocstall|oom_)[a-z_]+\b(?!\()/g) ?? []).filter((w) => !tasks.has(w))) {
        const asRow = step.highlight === 'results' ? `, [data-testid^="result-"][data-testid*="${name}"]` : '';
        const shown = page.getByTestId('stage-view').locator(`[data-testid$="-counter-${name}"]${asRow}`);
        await expect(shown.first(), `${file} step ${k + 1} names ${name}`).toBeVisible();
      }
      await page.screenshot({ path: testInfo.outputPath(`${file}-step${k + 1}.png`) });
    }
    // The last step offers the next lesson (the seed experiments have one after them too), or
    // says the last lesson is done.
    if (file === LAST_LESSON) await expect(page.getByTestId('lesson-next-lesson')).toContainText('last step of the last lesson');
    else await expect(page.getByTestId('lesson-open-next')).toBeVisible();
  });
}

test('an OOM kill shows a banner in its run, and a mark on the time bar', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  // S000 on 5.2 at swappiness 0: the OOM killer ends the reader at about 0.52 s.
  const hash = await link({ scenario: 's000-thrash.toml', variants: ['before'], knobs: { swappiness: 0 }, timeNs: 700_000_000 });
  await page.goto(`/#${hash}`);
  // The killed run ends there: Play stays disabled, the banner says why.
  const banner = page.getByTestId('run-0-oom');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toBeInViewport();
  await expect(banner).toContainText('Out of memory');
  // The report of the same text names who was killed and when; the time bar marks it.
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 150_000 });
  await expect(banner).toContainText(/\w+ at \d+\.\d+ ms \([\d,]+ pages freed\)/);
  await expect(page.getByTestId('scrub-event-oom')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('oom-1280.png') });
});

test('a run the OOM killer ended beside one that goes on: no live rates on it, and the side-by-side table shows each side at its own time', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  // 5.2 ("before") at swappiness 0 and 100: at 0 it is OOM-killed at about 0.52 s and its run
  // ends; at 100 it runs on.
  const hash = await link({ scenario: 's000-thrash.toml', variants: ['before'], swapPair: [0, 100], timeNs: 700_000_000 });
  await page.goto(`/#${hash}`);
  await expect(page.getByTestId('run-1-time')).toHaveText('700.000 ms', { timeout: 90_000 });
  await expect(page.getByTestId('run-0-oom')).toBeVisible();
  // The top bar's time is the runs' common time, the side that goes on, not the killed run's end.
  await expect(page.getByTestId('virtual-time')).toHaveText('700.000 ms');
  // The lesson's steps are about the scenario's own runs: set aside in a swappiness pair.
  await expect(page.getByTestId('lesson-pair')).toContainText('swappiness 0 and 100');
  await expect(page.getByTestId('lesson-caption')).toHaveCount(0);
  const [t0, t1] = [await page.getByTestId('run-0-time').textContent(), await page.getByTestId('run-1-time').textContent()];
  expect(t1).toContain('700.000 ms');
  expect(t0).not.toContain('700.000 ms');
  // The ended run states no scan or refill rate; the run that goes on does.
  await expect(page.getByTestId('run-1').locator('.term[data-term="refilled"], .term[data-term="scanned"]').first()).toBeVisible();
  await expect(page.getByTestId('run-0').locator('.term[data-term="refilled"], .term[data-term="scanned"]')).toHaveCount(0);
  // The banner's kill time is the one the engine reports for this text (run here in Node), and
  // the time bar's mark says the same.
  initSync({ module: readFileSync(new URL('../web/pkg/reclaim_core_bg.wasm', import.meta.url)) });
  const pairText = resolve_scenario(scenarioFile('s000-thrash.toml'), JSON.stringify(setupOf({}, { variant: 'before', swappiness: [0, 100] })));
  const sim = WasmSimulation.fromScenario(pairText, (JSON.parse(scenario_info(pairText)) as { variants: { name: string }[] }).variants[0]!.name);
  const killed = (JSON.parse(sim.run_to_end_json()) as { oom_kills: { task: string; time_s: number }[] }).oom_kills;
  sim.free();
  expect(killed.length).toBeGreaterThan(0);
  const kill = `${killed[0]!.task} at ${formatNs(Math.round(killed[0]!.time_s * 1e9))}`;
  await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 150_000 });
  await expect(page.getByTestId('run-0-oom')).toContainText(kill);
  await expect(page.getByTestId('scrub-event-oom')).toHaveAttribute('title', new RegExp(`OOM kill of ${kill}$`));
  await page.getByTestId('stage-tab-diff').click();
  const diff = page.getByTestId('diff-table');
  await expect(diff).toHaveAttribute('data-same-time', 'false');
  await expect(diff.getByTestId('diff-time')).toContainText('700.000 ms');
  await expect(page.getByTestId('diff-ended')).toContainText(/^before · swappiness 0 ended at \d/);
  // The killed run ends at its kill, not at an earlier event (the engine stamps both).
  const killedAt = formatNs(Math.round(killed[0]!.time_s * 1e9));
  await expect(page.getByTestId('diff-ended')).toContainText(`ended at ${killedAt}`);
  await expect(page.getByTestId('run-0-time')).toHaveText(killedAt);
  await expect(diff.locator('tr[data-differs="true"]')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('oom-compare-diff-1280.png') });
});
