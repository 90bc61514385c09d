// Every scenario file in scenarios/, bundled as text at build time.
import { scenarioMeta, type ScenarioMeta } from './lib/scenarioText';

export interface ScenarioFile extends ScenarioMeta {
  /** File name, e.g. "s000-thrash.toml". */
  name: string;
  text: string;
}

const files = import.meta.glob('../../scenarios/*.toml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export const SCENARIOS: ScenarioFile[] = Object.entries(files)
  .map(([path, text]) => {
    const name = path.split('/').pop()!;
    return { name, text, ...scenarioMeta(text, name) };
  })
  // The seed experiments first (the page opens on the first, S000), then the basics lessons.
  .sort((a, b) => Number(isLesson(a.name)) - Number(isLesson(b.name)) || a.name.localeCompare(b.name));

function isLesson(name: string): boolean {
  return name.startsWith('lesson-');
}
