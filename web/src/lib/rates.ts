// Scan rates per LRU list from the engine's time series (rows: t_ns, six list
// sizes, anon_cost, file_cost, then every counter, in frames).

export interface ListRates {
  /** Pages per virtual second for engine lists 0..3: pgscan_anon, pgrefill, pgscan_file,
   *  pgrefill (the engine counts refill for both active lists together). NaN: unknown yet. */
  scan: number[];
}

const COUNTERS_AT = 9;

/** Rates over the last sample interval (the last two rows). */
export function ratesOf(rows: ArrayLike<number>[], counterNames: string[], scale: number): ListRates {
  const a = rows.at(-2);
  const b = rows.at(-1);
  if (!a || !b || !(b[0]! > a[0]!)) return { scan: [NaN, NaN, NaN, NaN] };
  const dt = (b[0]! - a[0]!) / 1e9;
  const rate = (name: string) => {
    const i = counterNames.indexOf(name);
    return i < 0 ? NaN : ((b[COUNTERS_AT + i]! - a[COUNTERS_AT + i]!) * scale) / dt;
  };
  const refill = rate('pgrefill');
  return { scan: [rate('pgscan_anon'), refill, rate('pgscan_file'), refill] };
}
