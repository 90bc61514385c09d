import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CAPTION_PHRASES, GLOSSARY, markTerms, type CaptionPart } from './glossary';

const joined = (parts: CaptionPart[]) => parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');
const terms = (parts: CaptionPart[]) => parts.filter((p) => typeof p !== 'string') as { term: string; text: string }[];

/** The captions of every shipped lesson, by file (single-line TOML strings, as the files write them). */
function shippedCaptions(): [string, string[]][] {
  const dir = new URL('../../../scenarios/', import.meta.url);
  // The lessons in traces/ (which replay a trace) are bundled and shown as the others are.
  const traceLessons = readdirSync(new URL('traces/', dir))
    .filter((f) => f.startsWith('lesson-') && f.endsWith('.toml'))
    .map((f) => `traces/${f}`);
  return [...readdirSync(dir), ...traceLessons]
    .filter((f) => f.endsWith('.toml'))
    .map((f) => {
      const text = readFileSync(new URL(f, dir), 'utf8');
      const captions = [...text.matchAll(/^caption = "((?:[^"\\]|\\.)*)"$/gm)].map((m) => JSON.parse(`"${m[1]}"`) as string);
      return [f, captions] as [string, string[]];
    })
    .filter(([, c]) => c.length > 0);
}

describe('glossary terms in captions', () => {
  it('mark the first mention of each term, whole words only, losing no text', () => {
    const text = 'kswapd evicts from the inactive file list; kswapd again, then SCAN_FRACT (pgscan_anon).';
    const parts = markTerms(text);
    expect(joined(parts)).toBe(text);
    expect(terms(parts)).toEqual([
      { term: 'kswapd', text: 'kswapd' },
      { term: 'inactive_file', text: 'inactive file list' },
      { term: 'scan_fract', text: 'SCAN_FRACT' },
      { term: 'pgscan', text: 'pgscan_anon' },
    ]);
  });

  it('read the longest phrase, never a term inside another word', () => {
    expect(terms(markTerms('the inactive list and the active list'))).toEqual([
      { term: 'inactive_list', text: 'inactive list' },
      { term: 'active_list', text: 'active list' },
    ]);
    // 'refault' inside a counter name, 'swappiness' inside an identifier: not terms.
    expect(terms(markTerms('workingset_refault_file and vm_swappiness_x'))).toEqual([{ term: 'workingset_refault', text: 'workingset_refault_file' }]);
    // A second 'refault distance' stays whole and plain, not half a 'refault'.
    const t = terms(markTerms('Refault distance, then a refault distance and a refault.'));
    expect(t).toEqual([
      { term: 'refault_distance', text: 'Refault distance' },
      { term: 'refault', text: 'refault' },
    ]);
    expect(markTerms('')).toEqual([]);
    expect(markTerms('nothing to explain')).toEqual(['nothing to explain']);
  });

  it('name only terms the glossary explains', () => {
    for (const [phrase, term] of Object.entries(CAPTION_PHRASES)) expect(GLOSSARY[term], phrase).toBeTruthy();
  });

  it('every step of every shipped lesson names at least one term, and keeps its text', () => {
    const lessons = shippedCaptions();
    expect(lessons.length).toBeGreaterThanOrEqual(11);
    const bare: string[] = [];
    for (const [file, captions] of lessons) {
      captions.forEach((c, i) => {
        const parts = markTerms(c);
        expect(joined(parts), `${file} step ${i + 1}`).toBe(c);
        if (terms(parts).length === 0) bare.push(`${file} step ${i + 1}: ${c}`);
      });
    }
    expect(bare).toEqual([]);
  });
});
