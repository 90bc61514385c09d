// The scenario editor (CodeMirror) from a test: open it, replace its text, and
// read the scenario files the page bundles.
import { tools } from './page';
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

/** The text of `scenarios/<name>` as the page bundles it. */
export function scenarioFile(name: string): string {
  return readFileSync(new URL(`../../scenarios/${name}`, import.meta.url), 'utf8');
}

/** 1-based line of the only occurrence of `snippet` in `text`. */
export function lineOf(text: string, snippet: string): number {
  expect(text.split(snippet).length, `${snippet} must occur once`).toBe(2);
  return text.slice(0, text.indexOf(snippet)).split('\n').length;
}

/** Open the "Scenario text" panel and wait for the editor. */
export async function openEditor(page: Page) {
  await tools(page, 'scenario');
  await page.getByText('Scenario text').click();
  await expect(page.getByTestId('scenario-text')).toBeVisible();
}

/** Replace the editor's whole text as a person does: select all (the editor's own Ctrl+A,
 *  which selects the whole document), then paste. Playwright's `fill` selects the DOM contents
 *  and inserts in two steps; on a loaded machine the editor re-rendered in between, put its
 *  cursor back at the start, and the text went in before the old one (a fresh-clone run under
 *  load: "line 136: duplicate key" in a 121-line file). */
export async function setEditorText(page: Page, text: string) {
  const editor = page.getByTestId('scenario-text');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}
