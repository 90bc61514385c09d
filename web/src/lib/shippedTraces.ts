// The shipped traces (scenarios/traces/index.json, copied to dist/traces/ by the build with the
// traces that may be served): what the trace picker lists, and where a lesson that replays one
// gets its bytes. A trace that is not served is listed with the reason; the user gives the file.

export interface ShippedTrace {
  file: string;
  format: 'oracleGeneral' | 'csv';
  title: string;
  source: string;
  licence: string;
  served: boolean;
  /** Why it is not served (shown instead of a Replay button). */
  reason?: string;
}

/** Where the build puts the manifest and the served traces, beside index.html. */
export const TRACES_URL = 'traces/';

/** The entries of a manifest, checked: one that is malformed is an error naming the entry. */
export function parseManifest(json: unknown): ShippedTrace[] {
  const list = (json as { traces?: unknown } | null)?.traces;
  if (!Array.isArray(list)) throw new Error('the trace manifest has no "traces" list');
  return list.map((t: unknown, i) => {
    const e = t as Partial<ShippedTrace> | null;
    const ok =
      e !== null &&
      typeof e === 'object' &&
      typeof e.file === 'string' &&
      /^[\w.-]+$/.test(e.file) &&
      (e.format === 'oracleGeneral' || e.format === 'csv') &&
      typeof e.title === 'string' &&
      typeof e.source === 'string' &&
      typeof e.licence === 'string' &&
      typeof e.served === 'boolean' &&
      (e.served || typeof e.reason === 'string');
    if (!ok) throw new Error(`trace manifest entry ${i + 1} is malformed (file, format, title, source, licence, served; a reason when not served)`);
    return e as ShippedTrace;
  });
}

/** The shipped traces, from the manifest beside the page. */
export async function loadManifest(fetcher: typeof fetch = fetch): Promise<ShippedTrace[]> {
  const res = await fetcher(`${TRACES_URL}index.json`);
  if (!res.ok) throw new Error(`the trace manifest could not be loaded (HTTP ${res.status})`);
  return parseManifest(await res.json());
}

/** A served trace's bytes. */
export async function fetchTrace(t: ShippedTrace, fetcher: typeof fetch = fetch): Promise<Uint8Array> {
  if (!t.served) throw new Error(`${t.file} is not served by this page: ${t.reason ?? ''}`);
  const res = await fetcher(`${TRACES_URL}${encodeURIComponent(t.file)}`);
  if (!res.ok) throw new Error(`${t.file} could not be loaded (HTTP ${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}
