// What a file dropped onto the page is, told from its name and type alone (the readers of each
// kind are loaded when one comes).

/** Whether a dropped file is meant for the overlay (rather than an exported figure). */
export const isJsonFile = (f: { name: string; type: string }) => f.type === 'application/json' || /\.json$/i.test(f.name);

/** The trace format of a dropped file, told from its name: CSV (`.csv`), or libCacheSim's
 *  oracleGeneral binary (`.bin`, or "oracleGeneral" in the name); null for anything else. */
export function traceFormat(name: string): 'oracleGeneral' | 'csv' | null {
  if (/\.csv$/i.test(name)) return 'csv';
  if (/\.bin$/i.test(name) || /oracleGeneral/i.test(name)) return 'oracleGeneral';
  return null;
}
