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
  .sort((a, b) => a.name.localeCompare(b.name));
