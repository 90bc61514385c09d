// Lessons (a scenario's [[lesson]] steps) and the scenario editor's inline errors.
import { expect, test } from '@playwright/test';
import { failOnPageErrors, ready, shot, tools } from './support/page';
import { lineOf, openEditor, scenarioFile, setEditorText } from './support/editor';

failOnPageErrors();

const LESSON = 'lesson-two-list-lru.toml';

test('a lesson advances its captions while playing, pauses where a step says so, and outlines the view', async ({ page }, testInfo) => {
  // Plays to two pausing steps: on a loaded machine that takes more than the default 30 s.
  test.setTimeout(120_000);
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption(LESSON);
  await ready(page);
  const lesson = page.getByTestId('lesson');
  const caption = page.getByTestId('lesson-caption');
  await expect(lesson).toHaveAttribute('data-step', '0');
  await expect(page.getByTestId('lesson-progress')).toHaveText(/^5 steps/);

  await page.getByTestId('play-toggle').click();
  // Step 1 (50 ms): every step pauses for its caption to be read; the LRU view is on the stage,
  // outlined.
  await expect(lesson).toHaveAttribute('data-step', '1', { timeout: 20_000 });
  await expect(page.getByTestId('status')).toHaveText('paused');
  await expect(page.getByTestId('virtual-time')).toHaveText('50.000 ms');
  await expect(caption).toContainText('Linux keeps file pages on two lists');
  await expect(page.locator('html')).toHaveAttribute('data-lesson-highlight', 'lru');
  await expect(page.getByTestId('stage')).toHaveAttribute('data-view', 'lists');
  await expect(page.locator('.lru-view').first()).toHaveCSS('outline-style', 'solid');
  await expect(page.locator('.balance').first()).toHaveCSS('outline-style', 'none');

  // Step 2 (750 ms) pauses the run exactly at its time.
  await page.getByTestId('speed-slider').fill('12');
  await page.getByTestId('play-toggle').click();
  await expect(lesson).toHaveAttribute('data-step', '2', { timeout: 20_000 });
  await expect(page.getByTestId('status')).toHaveText('paused');
  await expect(page.getByTestId('virtual-time')).toHaveText('750.000 ms');
  await expect(caption).toContainText('Second read of the same file');
  await expect(page.getByTestId('lesson-progress')).toHaveText('step 2/5 · 750.000 ms');
  // Captions are text: nothing in them is parsed as markup; the only elements are the glossary
  // terms the page marks in that text.
  expect(await caption.evaluate((el) => [...el.children].every((c) => c.classList.contains('term')))).toBe(true);
  await shot(page, testInfo, 'lesson-caption');

  // Play on: the next step (1250 ms) stops it again.
  await page.getByTestId('play-toggle').click();
  await expect(lesson).toHaveAttribute('data-step', '3', { timeout: 20_000 });
  await expect(page.getByTestId('status')).toHaveText('paused');
  await expect(page.getByTestId('virtual-time')).toHaveText('1.250 s');
  await expect(caption).toContainText('streamed once');

  // Next and previous seek to the steps' times.
  await page.getByTestId('lesson-next').click();
  await expect(lesson).toHaveAttribute('data-step', '4');
  await expect(page.getByTestId('virtual-time')).toHaveText('1.300 s');
  await expect(caption).toContainText('Deactivation');
  await page.getByTestId('lesson-next').click();
  await expect(lesson).toHaveAttribute('data-step', '5');
  // Step 5 points at the charts: they take the stage, outlined and in sight, beside the caption.
  await expect(page.locator('html')).toHaveAttribute('data-lesson-highlight', 'charts');
  await expect(page.getByTestId('stage')).toHaveAttribute('data-view', 'charts');
  await expect(page.locator('.charts').first()).toHaveCSS('outline-style', 'solid');
  await expect(page.locator('.charts').first()).toBeInViewport();
  await expect(caption).toBeInViewport();
  await expect(page.getByTestId('lesson-next')).toBeDisabled();
  // The last step points to the next lesson.
  await expect(page.getByTestId('lesson-open-next')).toContainText('swappiness');
  await page.getByTestId('lesson-prev').click();
  await expect(lesson).toHaveAttribute('data-step', '4');
  await expect(page.getByTestId('virtual-time')).toHaveText('1.300 s');
  await expect(page.getByTestId('stage')).toHaveAttribute('data-view', 'lists');
});

test('a lesson shows in embed mode, and its next button works there', async ({ page }, testInfo) => {
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption(LESSON);
  await ready(page);
  await tools(page, 'share');
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('link-field').inputValue();
  await page.goto(`/?embed&view=lru${new URL(link).hash}`);
  await expect(page.getByTestId('embed')).toBeVisible();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '0', { timeout: 20_000 });
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('lesson-caption')).toContainText('two lists');
  await expect(page.getByTestId('virtual-time')).toHaveText('50.000 ms');
  await expect(page.locator('.lru-view').first()).toHaveCSS('outline-style', 'solid');
  await shot(page, testInfo, 'lesson-embed');
});

/** The line number shown in the gutter row of the editor's lint marker. The marker and the
 *  gutter rows are read in one pass inside the page: CodeMirror re-renders the rows in view as
 *  it settles, so row-by-row reads from the test could wait on a row that no longer exists. */
async function markerLine(page: import('@playwright/test').Page): Promise<number> {
  await expect(page.locator('.cm-lint-marker-error')).toHaveCount(1);
  const best = await page.evaluate(() => {
    const marker = document.querySelector('.cm-lint-marker-error')!.getBoundingClientRect().y;
    let out = { line: -1, dy: Infinity };
    for (const row of document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')) {
      const text = row.textContent?.trim() ?? '';
      if (!/^\d+$/.test(text)) continue;
      const dy = Math.abs(row.getBoundingClientRect().y - marker);
      if (dy < out.dy) out = { line: Number(text), dy };
    }
    return out;
  });
  expect(best.dy).toBeLessThan(4);
  return best.line;
}

test('an invalid scenario in the editor shows its error inline at the right line', async ({ page }, testInfo) => {
  await page.goto('/');
  await ready(page);
  await page.getByTestId('scenario-select').selectOption('s000-thrash.toml'); // the page opens on a lesson
  await ready(page);
  // Loads, validates and lints S000 twice over: more than 30 s on a loaded machine.
  test.slow();
  await openEditor(page);
  const file = scenarioFile('s000-thrash.toml');
  await expect(page.getByTestId('scenario-problem')).toHaveText('The scenario is valid.');

  // A bad size: the engine's error names machine.ram at its line.
  const bad = file.replace('ram = "2GiB"', 'ram = "lots"');
  const line = lineOf(bad, 'ram = "lots"');
  await setEditorText(page, bad);
  const problem = page.getByTestId('scenario-problem');
  await expect(problem).toHaveAttribute('data-line', String(line));
  await expect(problem).toContainText(`Line ${line}, column`);
  await expect(problem).toContainText('machine.ram');
  await page.getByTestId('scenario-problem-go').click(); // scrolls the editor to the error
  expect(await markerLine(page)).toBe(line);
  await expect(page.locator('.cm-lintRange-error')).toContainText('"lots"');
  await page.locator('.cm-lintRange-error').hover(); // the diagnostic's tooltip
  await expect(page.locator('.cm-tooltip-lint')).toContainText(`line ${line}, column`);
  await shot(page, testInfo, 'editor-inline-error');

  // A lesson step naming a view that does not exist, at the end of the file.
  // (S000 has six steps; this seventh one comes after them.)
  const lessonBad = `${file}\n[[lesson]]\nat = "15s"\ncaption = "Look here."\nhighlight = "lruview"\n`;
  const lessonLine = lineOf(lessonBad, 'highlight = "lruview"');
  await setEditorText(page, lessonBad);
  await expect(problem).toHaveAttribute('data-line', String(lessonLine));
  await expect(problem).toContainText('lesson[6].highlight');
  expect(await markerLine(page)).toBe(lessonLine);

  // The dark theme colours the editor too.
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('scenario-problem-go').click();
  await shot(page, testInfo, 'editor-inline-error-dark');
  // Keyboard: a space typed in the editor is text, not play/pause; Tab leaves the editor.
  await page.getByTestId('scenario-text').press('End');
  await page.keyboard.type(' ');
  await expect(page.getByTestId('status')).toHaveText('paused');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('.cm-editor'))).toBe(false);

  // Fixed text: no marker; Ctrl+Enter runs it, and its lesson appears.
  await setEditorText(page, lessonBad.replace('"lruview"', '"balance"'));
  await expect(problem).toHaveText('The scenario is valid.');
  await expect(page.locator('.cm-lint-marker-error')).toHaveCount(0);
  await page.getByTestId('scenario-text').press('Control+Enter');
  await expect(page.getByTestId('lesson-progress')).toHaveText(/^7 steps ·/, { timeout: 20_000 });
  await expect(page.getByText('(edited)')).toBeVisible();
});
