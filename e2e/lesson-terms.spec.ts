// Issue #23 point 7 in the lessons: a caption's kernel terms explain themselves on hover and on
// keyboard focus (the page's glossary, lib/glossary), while the caption stays its plain text.
import { expect, test } from '@playwright/test';
import { failOnPageErrors, ready } from './support/page';
import { scenarioFile } from './support/editor';
import { shotsAtSizes, SIZES } from './support/views';

failOnPageErrors();
test.setTimeout(120_000);

const LESSON = 'lesson-two-list-lru.toml';
const captions = [...scenarioFile(LESSON).matchAll(/^caption = "(.*)"$/gm)].map((m) => m[1]!);

test('a lesson caption marks its kernel terms, explained on hover and on focus', async ({ page }, testInfo) => {
  await page.goto('/');
  await ready(page);
  await expect(page.getByTestId('scenario-select')).toHaveValue(LESSON);
  const caption = page.getByTestId('lesson-caption');
  // Step 3: the stream reaches the low watermark and kswapd reclaims.
  for (let k = 1; k <= 3; k++) {
    await page.getByTestId('lesson-next').click();
    await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', String(k));
  }
  await expect(caption).toContainText('kswapd reclaims', { useInnerText: true });
  // What a reader sees is the caption as written: the explanations stay hidden until asked for.
  expect(await caption.evaluate((el) => (el as HTMLElement).innerText)).toBe(captions[2]);
  const marked = await caption.locator('.term').evaluateAll((els) => els.map((e) => e.getAttribute('data-term')));
  expect(marked).toEqual(expect.arrayContaining(['watermark', 'kswapd', 'inactive_list', 'pgsteal', 'active_file', 'working_set']));

  const kswapd = caption.locator('.term[data-term="kswapd"]');
  await expect(kswapd.getByRole('tooltip')).toBeHidden();
  await kswapd.hover();
  await expect(kswapd.getByRole('tooltip')).toBeVisible();
  await expect(kswapd.getByRole('tooltip')).toContainText('kernel thread');
  await page.mouse.move(0, 0);
  await expect(kswapd.getByRole('tooltip')).toBeHidden();

  // Keyboard: the terms are focusable; focus opens the explanation, inside the window at every size.
  const watermark = caption.locator('.term[data-term="watermark"]');
  await watermark.focus();
  const tip = watermark.getByRole('tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('kswapd wakes');
  // At each size, as a reader there focuses it (the explanation is placed when it opens; at
  // 1280x800 the term wraps onto two lines near the right edge).
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await watermark.blur();
    await watermark.focus();
    await expect(tip).toBeInViewport({ ratio: 1 });
  }
  await shotsAtSizes(page, testInfo, 'p7-lesson-terms', '[data-testid="lesson-caption"]');
  await page.keyboard.press('Tab');
  await expect(tip).toBeHidden();
});
