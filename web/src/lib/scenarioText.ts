// Pure helpers over scenario TOML text: the picker's title/description, the
// devices it names, and the knobs (overrides) applied to the text before the
// engine parses it. The engine stays the authority: it validates the result.

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

/** Set `key = value` in table `table` (null: top level), adding the key or the table if missing. */
export function setKey(text: string, table: string | null, key: string, value: string): string {
  const lines = text.split('\n');
  const s = sections(lines).find((x) => x.name === table && !x.array);
  const entry = `${key} = ${value}`;
  if (!s) return `${text.replace(/\n*$/, '')}\n\n[${table}]\n${entry}\n`;
  const i = keyLine(lines, s, key);
  if (i >= 0) lines[i] = entry;
  else lines.splice(s.start + 1, 0, entry);
  return lines.join('\n');
}

/** Names of the `[[devices]]` of the scenario. */
export function deviceNames(text: string): string[] {
  const lines = text.split('\n');
  return sections(lines)
    .filter((s) => s.name === 'devices' && s.array)
    .map((s) => {
      const i = keyLine(lines, s, 'name');
      return i >= 0 ? quoted(lines[i]!) : null;
    })
    .filter((n): n is string => !!n);
}

export interface Overrides {
  swappiness?: number;
  /** RAM as TOML size text, e.g. "2GiB". */
  ram?: string;
  frameScale?: number;
  seed?: number;
  /** Device (of `[[devices]]`) for swap. */
  swapDevice?: string;
  /** Device for every file not on tmpfs. */
  fileDevice?: string;
}

const tomlString = (s: string) => JSON.stringify(s);

/** The scenario text with the knobs applied (absent knobs leave the text as it is). */
export function applyOverrides(text: string, o: Overrides): string {
  let t = text;
  if (o.swappiness !== undefined) {
    t = setKey(t, 'sysctl', 'swappiness', String(Math.round(o.swappiness)));
    // The knob is every variant's write: a variant's own `sysctl = { swappiness = N }` (S004's
    // vanilla 4.7) gives way.
    const lines = t.split('\n');
    const own = sections(lines)
      .filter((s) => s.name === 'variants' && s.array)
      .map((s) => keyLine(lines, s, 'sysctl'))
      .filter((i) => i >= 0);
    t = lines.filter((_, i) => !own.includes(i)).join('\n');
  }
  if (o.ram !== undefined) t = setKey(t, 'machine', 'ram', tomlString(o.ram));
  if (o.frameScale !== undefined) t = setKey(t, 'machine', 'frame_scale', String(Math.round(o.frameScale)));
  if (o.seed !== undefined) t = setKey(t, null, 'seed', String(Math.round(o.seed)));
  if (o.swapDevice !== undefined) {
    const lines = t.split('\n');
    const m = sections(lines).find((s) => s.name === 'machine' && !s.array);
    const i = m ? keyLine(lines, m, 'swap') : -1;
    if (i >= 0) {
      lines[i] = lines[i]!.replace(/device\s*=\s*"[^"]*"/, `device = ${tomlString(o.swapDevice)}`);
      t = lines.join('\n');
    }
  }
  if (o.fileDevice !== undefined) {
    const lines = t.split('\n');
    for (const s of sections(lines).filter((x) => x.name === 'files' && x.array)) {
      const i = keyLine(lines, s, 'device');
      if (i >= 0 && quoted(lines[i]!) !== 'tmpfs') lines[i] = `device = ${tomlString(o.fileDevice)}`;
    }
    t = lines.join('\n');
  }
  return t;
}

/** The `text` of every `[[expect]]` table, in file order. */
export function expectTexts(text: string): string[] {
  const lines = text.split('\n');
  return sections(lines)
    .filter((s) => s.name === 'expect' && s.array)
    .map((s) => {
      const i = keyLine(lines, s, 'text');
      return i >= 0 ? quoted(lines[i]!) : null;
    })
    .filter((t): t is string => t !== null);
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

/** vm.swappiness of `[sysctl]` (the engine's default 60 when the scenario does not set it). */
export function sysctlSwappiness(text: string): number {
  const lines = text.split('\n');
  const s = sections(lines).find((x) => x.name === 'sysctl' && !x.array);
  const i = s ? keyLine(lines, s, 'swappiness') : -1;
  const m = i >= 0 ? /=\s*(\d+)/.exec(lines[i]!) : null;
  return m ? Number(m[1]) : 60;
}

/** Name of the variant `base` run at swappiness `s` in a knob comparison. */
export const pairName = (base: string, s: number) => `${base} · swappiness ${s}`;

/** The scenario with its `[[variants]]` replaced by two copies of variant `base`, one per
 *  swappiness value (each sets its own `sysctl.swappiness`; the engine applies the kernel's cap).
 *  Null when the text has no such variant. */
export function swappinessPair(text: string, base: string, values: [number, number]): string | null {
  const lines = text.split('\n');
  const variants = sections(lines).filter((s) => s.name === 'variants' && s.array);
  const src = variants.find((s) => {
    const i = keyLine(lines, s, 'name');
    return i >= 0 && quoted(lines[i]!) === base;
  });
  if (!src) return null;
  const body = lines.slice(src.start + 1, src.end).filter((l) => !/^\s*(name|sysctl)\s*=/.test(l) && !/^\s*#/.test(l));
  while (body.length > 0 && body.at(-1)!.trim() === '') body.pop();
  const copies = values.flatMap((v) => ['[[variants]]', `name = ${tomlString(pairName(base, v))}`, ...body, `sysctl = { swappiness = ${Math.round(v)} }`, '']);
  // The scenario's expectations and the lessons' facts name the variants that are gone: the
  // engine would refuse them, so the pair keeps neither (its results compare the two runs).
  const all = sections(lines);
  const expects = all.filter((s) => s.name === 'expect' && s.array);
  const lessons = all.filter((s) => s.name === 'lesson' && s.array);
  const out: string[] = [];
  // Depth of the open brackets of a facts array being dropped (an array may span lines).
  let dropping = 0;
  const depth = (l: string) => {
    const code = l.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/#.*$/, '');
    return (code.match(/\[/g)?.length ?? 0) - (code.match(/\]/g)?.length ?? 0);
  };
  lines.forEach((l, i) => {
    const sec = variants.find((s) => i >= s.start && i < s.end);
    if (expects.some((s) => i >= s.start && i < s.end)) return;
    if (dropping > 0) {
      dropping += depth(l);
      return;
    }
    if (/^\s*(facts|facts_since|since)\s*=/.test(l) && lessons.some((s) => i > s.start && i < s.end)) {
      dropping = Math.max(0, depth(l));
      return;
    }
    if (!sec) out.push(l);
    else if (sec === variants[0] && i === sec.start) out.push(...copies);
  });
  return out.join('\n');
}

/** `[[variants]]` of the scenario: name and preset, in file order. */
export function variantPresets(text: string): { name: string; preset: string }[] {
  const lines = text.split('\n');
  return sections(lines)
    .filter((s) => s.name === 'variants' && s.array)
    .map((s) => {
      const n = keyLine(lines, s, 'name');
      const p = keyLine(lines, s, 'preset');
      return { name: (n >= 0 && quoted(lines[n]!)) || '', preset: (p >= 0 && quoted(lines[p]!)) || '' };
    })
    .filter((v) => v.name !== '');
}
