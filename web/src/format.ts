// Display formatting shared by the views.

/** Virtual time in nanoseconds as text with a unit: "0 ns", "12.5 µs", "3.000 ms", "1.234 s". */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns) || ns < 0) return '—';
  if (ns < 1e3) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(3)} ms`;
  return `${(ns / 1e9).toFixed(3)} s`;
}

const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A counter value with thousands separators: 1234567 -> "1,234,567". */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? countFormat.format(n) : '—';
}
