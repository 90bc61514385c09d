// Every scenario file in scenarios/ (and the lessons in scenarios/traces/, which replay a
// trace), bundled as text at build time.
import { scenarioMeta, type ScenarioMeta } from './lib/scenarioText';

export interface ScenarioFile extends ScenarioMeta {
  /** File name, e.g. "s000-thrash.toml". */
  name: string;
  text: string;
}

/** The basics lessons in the order they build on each other; other lessons follow them. */
export const BASICS_ORDER = ['lesson-two-list-lru.toml', 'lesson-swappiness.toml', 'lesson-refault-distance.toml'];

const files = import.meta.glob(['../../scenarios/*.toml', '../../scenarios/validation/*.toml', '../../scenarios/traces/lesson-*.toml'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export const SCENARIOS: ScenarioFile[] = Object.entries(files)
  .map(([path, text]) => {
    // Validation scenarios keep their folder ("validation/thrash-small.toml"): the files a real
    // kernel's run (`reclaim kernel`) is made of, to overlay here.
    const name = path.replace(/^.*\/scenarios\//, '');
    return { name, text, ...scenarioMeta(text, name) };
  })
  // The basics lessons first, in teaching order (the page opens on the first), then the seed
  // experiments by file name, then the validation scenarios.
  .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));

function rank(name: string): number {
  const i = BASICS_ORDER.indexOf(name);
  if (i >= 0) return i;
  if (isValidation(name)) return BASICS_ORDER.length + 2;
  return isLesson(name) ? BASICS_ORDER.length : BASICS_ORDER.length + 1;
}

export function isValidation(name: string): boolean {
  return name.startsWith('validation/');
}

export function isLesson(name: string): boolean {
  return name.replace(/^traces\//, '').startsWith('lesson-');
}

/** Whether a bundled scenario replays a trace (the page must hold the trace's file to run it):
 *  the bundled ones that do live in scenarios/traces/ (shippedTraces.test checks this against
 *  the engine's own reading of every bundled file). */
export const replaysTrace = (s: ScenarioFile) => s.name.startsWith('traces/');

/** The lessons that replay a trace (the trace panel offers them). */
export const TRACE_LESSONS = SCENARIOS.filter((s) => isLesson(s.name) && replaysTrace(s));
