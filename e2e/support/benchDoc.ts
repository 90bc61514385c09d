// BENCHMARKS.md sections written by the browser benchmarks (`npm run bench:web`): each bench
// replaces its own section and leaves the others as they are, and writes its measurements to
// bench-results/<name>.json (writeResults), from which the goals table is rebuilt.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export { runInfo, writeResults } from '../../scripts/bench-results.mjs';

const FILE = new URL('../../BENCHMARKS.md', import.meta.url);

/** Replace (or append) the section under `heading`, up to the next "## " heading. */
export function replaceSection(doc: string, heading: string, body: string): string {
  const section = `${heading}\n\n${body.trim()}\n`;
  const start = doc.indexOf(`${heading}\n`);
  if (start < 0) return `${doc.trimEnd()}${doc.trim() ? '\n\n' : ''}${section}`;
  const next = doc.indexOf('\n## ', start + heading.length);
  return doc.slice(0, start) + section + (next < 0 ? '' : `\n${doc.slice(next + 1)}`);
}

/** Write `body` under `heading` in BENCHMARKS.md. */
export function writeSection(heading: string, body: string): void {
  const doc = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '# Benchmarks\n';
  writeFileSync(FILE, replaceSection(doc, heading, body));
}
