// A small copy of scenarios/s003-memcg-lru.toml for tests of the memcg LRU view (the original,
// 128 memcgs on 512 GiB, is heavy in a browser). The knobs and the default small values live
// in one fixture shared with the Rust tests (wasm-core/tests/common/s003-small.json, which says
// what the copy keeps); they only replace sizes and times, never the mechanisms.
import fixture from '../../../wasm-core/tests/common/s003-small.json' with { type: 'json' };

type Knob = keyof typeof fixture.small;

/** The small S003 text, with `knobs` written over the fixture's small values; throws if the
 * file no longer holds a text a knob replaces. */
export function smallS003(text: string, knobs: Partial<Record<Knob, string>> = {}): string {
  // The lesson's steps lie past the shortened run: drop them (they come last in the file).
  const lesson = text.indexOf('\n[[lesson]]');
  const out = lesson >= 0 ? text.slice(0, lesson + 1) : text;
  const values: Record<string, string> = { ...fixture.small, ...knobs };
  const to = new Map<string, string>();
  for (const [name, knob] of Object.entries(fixture.knobs)) {
    if (!out.includes(knob.from)) throw new Error(`s003-memcg-lru.toml no longer contains ${JSON.stringify(knob.from)}`);
    to.set(knob.from, knob.to.replace('{}', values[name]!));
  }
  // One pass, so that a value written by one knob is never read as another knob's text.
  const escaped = [...to.keys()].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return out.replace(new RegExp(escaped.join('|'), 'g'), (m) => to.get(m)!);
}

/** Memcgs in the small copy besides the root. */
export const SMALL_S003_MEMCGS = Number(fixture.small.memcgs);
