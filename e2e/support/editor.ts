// The scenario editor (CodeMirror) from a test: open it, replace its text, and
// read the scenario files the page bundles.
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
  await page.getByText('Scenario text').click();
  await expect(page.getByTestId('scenario-text')).toBeVisible();
}

/** Replace the editor's whole text, as typing or pasting would. */
export async function setEditorText(page: Page, text: string) {
  const editor = page.getByTestId('scenario-text');
  await editor.fill(text);
}
