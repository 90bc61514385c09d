// Display formatting shared by the views.

/** Virtual time in nanoseconds as text with a unit: "0 ns", "12.5 µs", "3.000 ms", "1.234 s". */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns) || ns < 0) return '—';
  if (ns < 1e3) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(3)} ms`;
  return `${(ns / 1e9).toFixed(3)} s`;
}

/** A round duration without trailing zeros, for labels: "30 ms", "1 s", "2.5 s". */
export function formatShortNs(ns: number): string {
  if (!Number.isFinite(ns) || ns < 0) return '—';
  const [v, unit] = ns >= 1e9 ? [ns / 1e9, 's'] : ns >= 1e6 ? [ns / 1e6, 'ms'] : ns >= 1e3 ? [ns / 1e3, 'µs'] : [ns, 'ns'];
  return `${Number(v.toPrecision(3))} ${unit}`;
}

const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A counter value with thousands separators: 1234567 -> "1,234,567". */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? countFormat.format(n) : '—';
}

/** Virtual time per wall-clock second, e.g. "250 ms/s", "2 s/s", "100 s/s". */
export function formatSpeed(nsPerSecond: number): string {
  if (!Number.isFinite(nsPerSecond) || nsPerSecond <= 0) return '—';
  const s = nsPerSecond / 1e9;
  if (s >= 1) return `${Number(s.toPrecision(3))} s/s`;
  if (s >= 1e-3) return `${Number((s * 1e3).toPrecision(3))} ms/s`;
  return `${Number((s * 1e6).toPrecision(3))} µs/s`;
}

/** Speed slider: position 0..SPEED_STEPS goes from 1 ms/s to 1000 s/s, four nice numbers a
 *  decade (1, 2, 3, 5: about evenly spaced on a log scale), so speeds and steps read plainly. */
export const SPEED_STEPS = 24;
const NICE = [1, 2, 3, 5];
export function speedAt(step: number): number {
  const clamped = Math.min(SPEED_STEPS, Math.max(0, Math.round(step)));
  return 1e6 * NICE[clamped % 4]! * 10 ** Math.floor(clamped / 4);
}

/** Change relative to a base as text: "+12.3%", "-50.0%", "0.0%", "new" when the base is 0. */
export function formatChange(value: number, base: number): string {
  if (!Number.isFinite(value) || !Number.isFinite(base)) return '—';
  if (base === 0) return value === 0 ? '0.0%' : 'new';
  const c = ((value - base) / Math.abs(base)) * 100;
  const shown = c.toFixed(1);
  // A change that rounds to nothing is "0.0%", never "-0.0%" or "+0.0%".
  if (Number(shown) === 0) return '0.0%';
  return `${c > 0 ? '+' : ''}${shown}%`;
}

/** A rate per second, compact: "0", "950", "12.3k", "4.56M". */
export function formatRate(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 1e6) return `${Number((n / 1e3).toPrecision(3))}k`;
  return `${Number((n / 1e6).toPrecision(3))}M`;
}

/** Pages (4 KiB) as bytes with a binary unit: "512 KiB", "48.0 MiB", "2.00 GiB". */
export function formatPagesAsBytes(pages: number): string {
  const kib = pages * 4;
  if (!Number.isFinite(kib)) return '—';
  if (kib < 1024) return `${Math.round(kib)} KiB`;
  if (kib < 1024 * 1024) return `${(kib / 1024).toFixed(1)} MiB`;
  return `${(kib / 1024 / 1024).toFixed(2)} GiB`;
}
