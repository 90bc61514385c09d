// A small copy of scenarios/s003-memcg-lru.toml for tests of the memcg LRU view (the original,
// 128 memcgs on 512 GiB, is heavy in a browser). Like wasm-core/tests/repro_s003.rs `scaled()`,
// it only replaces sizes and times, never the mechanisms: 16 memcgs of 256 MiB each touched at
// 4096 pages/s, 16 GiB of RAM (still no global pressure), frame_scale 16, and 64 MiB written
// to the root's memory.reclaim every 6 s from 10 s on, 40 times.
const REPLACE: [string, string][] = [
  ['replicas = 128', 'replicas = 16'],
  ['ram = "512GiB"', 'ram = "16GiB"'],
  ['frame_scale = 512', 'frame_scale = 16'],
  ['size = "1920MiB"', 'size = "256MiB"'],
  ['rate = 32768.0', 'rate = 4096.0'],
  ['size = "256GiB"', 'size = "8GiB"'],
  ['start = "600s"', 'start = "10s"'],
  ['amount = "256MiB"', 'amount = "64MiB"'],
  ['count = 600', 'count = 40'],
  ['duration = "7200s"', 'duration = "250s"'],
];

/** The small S003 text; throws if the file no longer holds what is replaced. */
export function smallS003(text: string): string {
  // The lesson's steps lie past the shortened run: drop them (they come last in the file).
  const lesson = text.indexOf('\n[[lesson]]');
  let out = lesson >= 0 ? text.slice(0, lesson + 1) : text;
  for (const [from, to] of REPLACE) {
    if (!out.includes(from)) throw new Error(`s003-memcg-lru.toml no longer contains ${JSON.stringify(from)}`);
    out = out.replaceAll(from, to);
  }
  return out;
}

/** Memcgs in the small copy besides the root. */
export const SMALL_S003_MEMCGS = 16;
