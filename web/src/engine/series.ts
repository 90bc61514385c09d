// The engine's time series on the page: rows of SERIES_COLUMNS values (generated from
// wasm-core/src/views/series.rs, with each column's unit), read by column name, never by index.
import { SERIES_COLUMNS, type SeriesColumnName } from './generated/views';

/** One row of the series: SERIES_COLUMNS values, in pages unless the column's unit says otherwise. */
export type SeriesRow = Float64Array;
export type { SeriesColumnName };

export const SERIES_WIDTH = SERIES_COLUMNS.length;

const OFFSET = new Map<string, number>(SERIES_COLUMNS.map((c, i) => [c.name, i]));

/** Whether `name` is a column of the series (counter names come from the engine at run time). */
export function isSeriesColumn(name: string): name is SeriesColumnName {
  return OFFSET.has(name);
}

/** The value of column `name` in a row. */
export function value(values: SeriesRow, name: SeriesColumnName): number {
  return values[OFFSET.get(name)!]!;
}

/** The rows of a frame's flat series array. */
export function splitRows(flat: Float64Array): SeriesRow[] {
  const out: SeriesRow[] = [];
  for (let i = 0; i + SERIES_WIDTH <= flat.length; i += SERIES_WIDTH) out.push(flat.subarray(i, i + SERIES_WIDTH));
  return out;
}

/** Sum of several columns of a row (a counter group of the charts). */
export function sum(values: SeriesRow, names: readonly SeriesColumnName[]): number {
  let s = 0;
  for (const n of names) s += value(values, n);
  return s;
}
