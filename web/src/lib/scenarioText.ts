// What the page reads from scenario TOML text before the engine has: the picker's
// title and description of each bundled file, and the variant names a link or the
// results columns name while the engine loads. Everything else (the knobs, a
// swappiness pair, devices, defaults, expectations) is the engine's: it applies
// the setup (lib/knobs.ts) and reports the file (ScenarioInfo).

export interface ScenarioMeta {
  title: string;
  description: string;
}

const HEADER = /^\[\[?([A-Za-z0-9_.-]+)\]\]?\s*(#.*)?$/;

function quoted(line: string): string | null {
  const m = /=\s*"((?:[^"\\]|\\.)*)"/.exec(line);
  return m ? m[1]!.replace(/\\"/g, '"').replace(/\\\\/g, '\\') : null;
}

/** Top-level `title` and `description` (before the first table); the file name as a fallback. */
export function scenarioMeta(text: string, fallback: string): ScenarioMeta {
  let title = fallback;
  let description = '';
  for (const line of text.split('\n')) {
    if (HEADER.test(line)) break;
    if (/^title\s*=/.test(line)) title = quoted(line) ?? title;
    if (/^description\s*=/.test(line)) description = quoted(line) ?? description;
  }
  return { title, description };
}

interface Section {
  /** Table name ("machine", "files"); null for the top level. */
  name: string | null;
  array: boolean;
  /** Line index of the header (-1 for the top level) and one past the last line. */
  start: number;
  end: number;
}

function sections(lines: string[]): Section[] {
  const out: Section[] = [{ name: null, array: false, start: -1, end: lines.length }];
  lines.forEach((line, i) => {
    const m = HEADER.exec(line);
    if (!m) return;
    out.at(-1)!.end = i;
    out.push({ name: m[1]!, array: line.startsWith('[['), start: i, end: lines.length });
  });
  return out;
}

function keyLine(lines: string[], s: Section, key: string): number {
  const re = new RegExp(`^\\s*${key}\\s*=`);
  for (let i = s.start + 1; i < s.end; i++) if (re.test(lines[i]!)) return i;
  return -1;
}

/** Names of the `[[variants]]` of the scenario, in file order. */
export function variantNames(text: string): string[] {
  const lines = text.split('\n');
  return sections(lines)
    .filter((s) => s.name === 'variants' && s.array)
    .map((s) => {
      const i = keyLine(lines, s, 'name');
      return i >= 0 ? quoted(lines[i]!) : null;
    })
    .filter((n): n is string => !!n);
}
