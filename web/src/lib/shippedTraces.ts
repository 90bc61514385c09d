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

/** The manifest's path, beside index.html. */
const MANIFEST_PATH = `${TRACES_URL}index.json`;

/** `path` as the page fetches it (absolute, for messages; the path itself outside a page). */
function absolute(path: string): string {
  return typeof location === 'undefined' ? path : new URL(path, location.href).href;
}

/** Where the page fetches served trace `t`. */
export const traceUrl = (t: ShippedTrace) => absolute(`${TRACES_URL}${encodeURIComponent(t.file)}`);

/** `fetcher(path)`, or an error naming `what`, its URL and what went wrong: no answer, or not a
 *  2xx. */
async function get(fetcher: typeof fetch, path: string, what: string): Promise<Response> {
  const url = absolute(path);
  let res: Response;
  try {
    res = await fetcher(path);
  } catch (err) {
    throw new Error(`${what} (${url}) could not be fetched: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!res.ok) throw new Error(`${what} (${url}) could not be loaded: the server answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  return res;
}

/** What a static host that lacks a file answers instead: its index.html (an SPA fallback). */
const FALLBACK = "an HTML page, which a static host sends for a file it does not have (the site was deployed without dist/traces/)";

/** The shipped traces, from the manifest beside the page. */
export async function loadManifest(fetcher: typeof fetch = fetch): Promise<ShippedTrace[]> {
  const what = 'the list of shipped traces';
  const res = await get(fetcher, MANIFEST_PATH, what);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const html = /^\s*</.test(text) || /text\/html/i.test(res.headers.get('content-type') ?? '');
    throw new Error(`${what} (${absolute(MANIFEST_PATH)}) is not JSON: ${html ? `the server answered with ${FALLBACK}` : `the JSON parser says ${err instanceof Error ? err.message : String(err)}`}`);
  }
  try {
    return parseManifest(json);
  } catch (err) {
    throw new Error(`${what} (${absolute(MANIFEST_PATH)}) is not a trace manifest: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A served trace's bytes. */
export async function fetchTrace(t: ShippedTrace, fetcher: typeof fetch = fetch): Promise<Uint8Array> {
  if (!t.served) throw new Error(`${t.file} is not served by this page: ${t.reason ?? ''}`);
  const res = await get(fetcher, `${TRACES_URL}${encodeURIComponent(t.file)}`, `the trace ${t.file}`);
  if (/text\/html/i.test(res.headers.get('content-type') ?? '')) throw new Error(`the trace ${t.file} (${traceUrl(t)}) is not there: the server answered with ${FALLBACK}`);
  return new Uint8Array(await res.arrayBuffer());
}
