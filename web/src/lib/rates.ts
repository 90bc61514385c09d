// Scan rates per LRU list from the engine's time series (engine/series.ts: columns by name).
import { value, type SeriesColumnName, type SeriesRow } from '../engine/series';
import type { LruList } from '../engine/generated/views';

const rates = (anon: number, refill: number, file: number): ListRates => ({
  scan: { inactive_anon: anon, active_anon: refill, inactive_file: file, active_file: refill },
});

export interface ListRates {
  /** Pages per virtual second per list: pgscan_anon, pgrefill, pgscan_file, pgrefill (the
   *  engine counts refill for both active lists together). NaN: unknown yet. */
  scan: Record<LruList, number>;
}

/** Rates over the last sample interval (the last two rows). */
export function ratesOf(rows: SeriesRow[]): ListRates {
  const a = rows.at(-2);
  const b = rows.at(-1);
  if (!a || !b || !(value(b, 't_ns') > value(a, 't_ns'))) return rates(NaN, NaN, NaN);
  const dt = (value(b, 't_ns') - value(a, 't_ns')) / 1e9;
  const rate = (name: SeriesColumnName) => (value(b, name) - value(a, name)) / dt;
  return rates(rate('pgscan_anon'), rate('pgrefill'), rate('pgscan_file'));
}
