// The page's knobs as the engine takes them: a Setup of [name, value] settings (names as
// wasm-core/src/scenario/knobs.rs knows them). The engine writes them into the scenario and
// validates the result; the page writes nothing into scenario text itself.
import type { Setup } from '../engine/generated/views';

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
  /** Other sysctls by their knob name (e.g. dirty_ratio: "40"), as a sweep row sets them. */
  sysctls?: Record<string, string>;
}

/** The knobs as the engine's settings, in a fixed order. */
export function knobSettings(o: Overrides): [string, string][] {
  const out: [string, string][] = [];
  const add = (name: string, v: string | number | undefined) => {
    if (v !== undefined) out.push([name, String(typeof v === 'number' ? Math.round(v) : v)]);
  };
  add('swappiness', o.swappiness);
  add('ram', o.ram);
  add('frame_scale', o.frameScale);
  add('seed', o.seed);
  add('swap_device', o.swapDevice);
  add('file_device', o.fileDevice);
  for (const [name, v] of Object.entries(o.sysctls ?? {})) add(name, v);
  return out;
}

/** The setup of these knobs and an optional swappiness pair of variant `pairBase`. */
export function setupOf(o: Overrides, pair: { variant: string; swappiness: [number, number] } | null = null): Setup {
  return { knobs: knobSettings(o), pair: pair ? { variant: pair.variant, swappiness: [Math.round(pair.swappiness[0]), Math.round(pair.swappiness[1])] } : null };
}
