// Kernel flags as the page shows them: a run's kernel named as its preset plus what differs
// ("linux-5.8 + refault_scan_anon off"), per-side overrides of the variant's flags, and the
// note for a swappiness a capped kernel refused. Everything comes from the engine's own
// description (KernelInfo, RunKernel); no flag is named here.
import type { FlagOverrides, KernelInfo, RunInfo } from '../engine/protocol';

/** Flags of `flags` whose value differs from `base`, in the engine's flag order. */
export function differing(kernel: KernelInfo, flags: FlagOverrides, base: FlagOverrides): [string, boolean][] {
  return kernel.flags.filter((f) => f.name in flags && flags[f.name] !== base[f.name]).map((f) => [f.name, flags[f.name]!]);
}

/** "linux-5.8" or "linux-5.8 + refault_scan_anon off, rotation_cost on". */
export function kernelLabel(kernel: KernelInfo | null, preset: string, flags: FlagOverrides | undefined): string {
  const p = kernel?.presets.find((x) => x.name === preset);
  if (!kernel || !p || !flags) return preset;
  const diff = differing(kernel, flags, p.flags);
  return diff.length === 0 ? preset : `${preset} + ${diff.map(([n, on]) => `${n} ${on ? 'on' : 'off'}`).join(', ')}`;
}

/** A run is custom when the page's overrides changed its flags from the variant as written. */
export function isCustom(run: RunInfo): boolean {
  const k = run.kernel;
  return !!k && Object.keys(k.flags).some((n) => k.flags[n] !== k.baseFlags[n]);
}

/** Overrides after setting `name` to `on`: an override equal to the variant's own value is dropped. */
export function setFlag(overrides: FlagOverrides, base: FlagOverrides, name: string, on: boolean): FlagOverrides {
  const out = { ...overrides };
  if (base[name] === on) delete out[name];
  else out[name] = on;
  return out;
}

/** Per side (A, B): flag overrides; {} when none. */
export type SideFlags = [FlagOverrides, FlagOverrides];
export const NO_FLAGS: SideFlags = [{}, {}];

/** Whether any side has an override. */
export function anyFlags(f: readonly FlagOverrides[]): boolean {
  return f.some((x) => Object.keys(x).length > 0);
}

/** "linux-5.7 caps swappiness at 100: 115 refused, runs 60", or null when nothing was refused. */
export function swappinessNote(label: string, run: RunInfo): string | null {
  const s = run.kernel?.swappiness;
  if (!s || s.asked <= s.cap) return null;
  return `${label} caps swappiness at ${s.cap}: ${s.asked} refused, runs ${s.runs}`;
}

/** A mainline version ("5.8"); anything else names a posted series that was never merged. */
const MAINLINE = /^\d+(\.\d+)*$/;

/** Kernel versions in numeric order ("2.6.34" < "3.2" < "4.11" < "5.10"); posted series that were
 * never merged ("RFC 2016 07/10") come after every mainline version, in text order. */
export function compareVersions(a: string, b: string): number {
  const ma = MAINLINE.test(a);
  const mb = MAINLINE.test(b);
  if (!ma || !mb) return ma === mb ? a.localeCompare(b) : ma ? -1 : 1;
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Number.isNaN(d) ? 0 : d;
  }
  return 0;
}

/** The engine's flags in the order the kernel gained them (stable for equal versions). */
export function flagsByVersion(kernel: KernelInfo): KernelInfo['flags'] {
  return [...kernel.flags].sort((x, y) => compareVersions(x.version, y.version));
}

/** A flag's tooltip: its one-line doc, then where in the kernel it lives ("kernel: get_scan_count,
 * commit e9868505987a, 3.8"), as the engine's flag table states it. */
export function flagTitle(f: KernelInfo['flags'][number]): string {
  const where = [f.function, f.commit ? `commit ${f.commit}` : '', f.version].filter((x) => x !== '');
  return `${f.doc}\nkernel: ${where.join(', ')}`;
}
