// The engine's pure functions on the main thread: the results table (report::results_table,
// the rows the CLI's `compare` prints) and the traces a scenario replays (trace_names). The wasm
// module is instantiated once, lazily, from a chunk of its own, so a page or an embed that shows
// no results and opens no scenario that may replay a trace loads none of it here.
import { useEffect, useState } from 'react';
import type { ResultRow } from './generated/views';
import type { RunReport } from '../lib/report';

export interface Core {
  /** The core's results table over these runs (null: a column not in yet). */
  resultsTable(reports: (RunReport | null)[]): ResultRow[];
  /** The traces scenario `text` replays, as the engine parses it (Scenario::trace_names); none
   *  for a text it cannot parse (the load of that text says why). */
  traceNames(text: string): string[];
}

/** The core over the module's `results_table` and `trace_names` exports (the page's module, or
 *  web/pkg's in Node tests). */
export const coreOf = (resultsTable: (reports: string[]) => string, traceNames: (text: string) => string[] = () => []): Core => ({
  resultsTable: (reports) => JSON.parse(resultsTable(reports.map((r) => JSON.stringify(r)))) as ResultRow[],
  traceNames: (text) => {
    try {
      return traceNames(text);
    } catch {
      return [];
    }
  },
});

let loading: Promise<Core> | null = null;

export function loadCore(): Promise<Core> {
  loading ??= import('../../pkg/reclaim_core.js').then(async (m) => {
    await m.default();
    return coreOf(m.results_table, m.trace_names);
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

/** The traces a scenario replays when that is known without the engine: none in a text with no
 *  "replay" and no backslash (a TOML string can hold the op's tag "replay" only as those letters
 *  in a row or through an escape); null when the engine must say. */
export function tracelessText(text: string): readonly [] | null {
  return text.includes('replay') || text.includes('\\') ? null : NO_TRACES;
}

const NO_TRACES: readonly [] = [];

/** The engine's answers so far, by scenario text (a few: the texts the page opened lately). */
const traceNamesOf = new Map<string, string[]>();

/** The traces scenario `text` replays, as the engine parses it (null: not known yet, while the
 *  core loads; `text` null: none). A text that cannot name one is answered at once. */
export function useTraceNames(text: string | null): readonly string[] | null {
  const now = text === null ? NO_TRACES : (tracelessText(text) ?? traceNamesOf.get(text) ?? null);
  const [, answered] = useState(0);
  useEffect(() => {
    if (text === null || now !== null) return;
    let live = true;
    loadCore().then(
      (core) => {
        if (traceNamesOf.size >= 32) traceNamesOf.clear();
        traceNamesOf.set(text, core.traceNames(text));
        if (live) answered((n) => n + 1);
      },
      // Without the core the page cannot tell: it loads the scenario as if it named none, and
      // the engine's refusal names a trace it needs.
      () => {
        traceNamesOf.set(text, []);
        if (live) answered((n) => n + 1);
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked once per text not known yet
  }, [text, now === null]);
  return now;
}
