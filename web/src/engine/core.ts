// The engine's pure functions on the main thread: the results table (report::results_table,
// the rows the CLI's `compare` prints). The wasm module is instantiated once, lazily, from a
// chunk of its own, so a page or an embed that shows no results loads none of it here.
import { useEffect, useState } from 'react';
import type { ResultRow } from './generated/views';
import type { RunReport } from '../lib/report';

export interface Core {
  /** The core's results table over these runs (null: a column not in yet). */
  resultsTable(reports: (RunReport | null)[]): ResultRow[];
}

/** The core over a `results_table` export (the page's module, or web/pkg's in Node tests). */
export const coreOf = (resultsTable: (reports: string[]) => string): Core => ({
  resultsTable: (reports) => JSON.parse(resultsTable(reports.map((r) => JSON.stringify(r)))) as ResultRow[],
});

let loading: Promise<Core> | null = null;

export function loadCore(): Promise<Core> {
  loading ??= import('../../pkg/reclaim_core.js').then(async (m) => {
    await m.default();
    return coreOf(m.results_table);
  });
  // A failed load (a chunk or the wasm not fetched) is tried again next time.
  loading.catch(() => (loading = null));
  return loading;
}

/** The core once loaded (null until then), or the message of a failed load. */
export function useCore(): { core: Core | null; error: string | null } {
  const [state, setState] = useState<{ core: Core | null; error: string | null }>({ core: null, error: null });
  useEffect(() => {
    let live = true;
    loadCore().then(
      (core) => live && setState({ core, error: null }),
      (e: unknown) => live && setState({ core: null, error: `the engine's results table could not be loaded (${e instanceof Error ? e.message : String(e)})` }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
