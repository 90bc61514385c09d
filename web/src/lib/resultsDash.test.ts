import { describe, expect, it } from 'vitest';
import { resultsMarkdown } from './exports';

describe('results Markdown', () => {
  it('a value a run does not have is a dash alone, not "— (—)"', () => {
    const md = resultsMarkdown('T', [{ variant: 'classic', preset: 'p', swappiness: 60 } as never, { variant: 'mglru', preset: 'q', swappiness: 60 } as never], [
      { label: 'direct reclaim efficiency (%)', values: [NaN, NaN], changes: ['—', '—'], digits: 2 },
      { label: 'pswpout', values: [10, 20], changes: ['0.0%', '+100.0%'], digits: 0 },
    ]);
    expect(md.split('\n').slice(4, 6)).toEqual(['| direct reclaim efficiency (%) | — | — |', '| pswpout | 10 | 20 (+100.0%) |']);
  });
});
