// Embed parameters, the postMessage API's validation, and the export formats.
import { describe, expect, it } from 'vitest';
import type { RunInfo } from '../engine/protocol';
import { applySet, embedUrl, iframeSnippet, parseControlMessage, parseEmbedParams } from './embed';
import { resultsMarkdown, seriesCsv } from './exports';
import { SERIES_COLUMNS } from '../engine/generated/views';

describe('embed', () => {
  it('reads the query parameters', () => {
    expect(parseEmbedParams('?embed&view=charts&autoplay=1')).toEqual({ embed: true, view: 'charts', autoplay: true, lesson: true, host: null, chart: null });
    expect(parseEmbedParams('?view=nope')).toEqual({ embed: false, view: null, autoplay: false, lesson: true, host: null, chart: null });
    expect(parseEmbedParams('?embed&view=charts&chart=rounds').chart).toBe('rounds');
    expect(parseEmbedParams('?embed&view=charts&chart=nope').chart).toBeNull();
    expect(parseEmbedParams('?embed&lesson=0&host=https://slides.example:8443/deck')).toMatchObject({ lesson: false, host: 'https://slides.example:8443' });
    expect(parseEmbedParams('?embed&host=javascript:alert(1)').host).toBeNull();
  });

  it('writes an escaped iframe snippet', () => {
    const src = embedUrl('http://h/', 'v1=abc', 'balance', true);
    expect(src).toBe('http://h/?embed&view=balance&autoplay=1#v1=abc');
    expect(iframeSnippet(src, 640, 360)).toBe('<iframe src="http://h/?embed&amp;view=balance&amp;autoplay=1#v1=abc" width="640" height="360" title="Reclaim Lab" style="border:0" loading="lazy"></iframe>');
  });

  it('accepts exactly the API shapes', () => {
    expect(parseControlMessage({ type: 'reclaimlab', action: 'play' })).toEqual({ action: 'play' });
    expect(parseControlMessage({ type: 'reclaimlab', action: 'pause' })).toEqual({ action: 'pause' });
    expect(parseControlMessage({ type: 'reclaimlab', action: 'seek', ns: 5 })).toEqual({ action: 'seek', ns: 5 });
    expect(parseControlMessage({ type: 'reclaimlab', action: 'set', knob: 'swappiness', value: 100 })).toEqual({ action: 'set', knob: 'swappiness', value: 100 });
    expect(parseControlMessage({ type: 'reclaimlab', action: 'set', knob: 'ram', value: '2GiB' })).toEqual({ action: 'set', knob: 'ram', value: '2GiB' });
    expect(parseControlMessage({ type: 'reclaimlab', v: 1, action: 'next' })).toEqual({ action: 'next' });
    expect(parseControlMessage({ type: 'reclaimlab', action: 'prev' })).toEqual({ action: 'prev' });
    expect(parseControlMessage({ type: 'reclaimlab', v: 1, action: 'step' })).toEqual({ action: 'step', ns: null });
    expect(parseControlMessage({ type: 'reclaimlab', action: 'step', ns: 1000 })).toEqual({ action: 'step', ns: 1000 });
    expect(parseControlMessage({ type: 'reclaimlab', v: 1, action: 'ping', id: 'h1' })).toEqual({ action: 'ping', id: 'h1' });
    expect(parseControlMessage({ type: 'reclaimlab', action: 'ping' })).toEqual({ action: 'ping', id: null });
  });

  it('ignores everything else', () => {
    for (const m of [
      null,
      'play',
      [],
      { type: 'reclaimlab' },
      { type: 'other', action: 'play' },
      { type: 'reclaimlab', action: 'play', extra: true },
      { type: 'reclaimlab', action: 'seek' },
      { type: 'reclaimlab', action: 'seek', ns: -1 },
      { type: 'reclaimlab', action: 'seek', ns: 1.5 },
      { type: 'reclaimlab', action: 'seek', ns: '5' },
      { type: 'reclaimlab', action: 'set', knob: 'swappiness', value: 201 },
      { type: 'reclaimlab', action: 'set', knob: 'ram', value: 'lots' },
      { type: 'reclaimlab', action: 'set', knob: '__proto__', value: 1 },
      { type: 'reclaimlab', action: 'stop' },
      { type: 'reclaimlab', v: 2, action: 'play' },
      { type: 'reclaimlab', v: '1', action: 'play' },
      { type: 'reclaimlab', action: 'step', ns: 0 },
      { type: 'reclaimlab', action: 'next', ns: 5 },
      { type: 'reclaimlab', action: 'ping', id: { x: 1 } },
    ]) {
      expect(parseControlMessage(m)).toBeNull();
    }
  });

  it('applies a set to the knobs', () => {
    expect(applySet({ seed: 3 }, { action: 'set', knob: 'swappiness', value: 10 })).toEqual({ seed: 3, swappiness: 10 });
  });
});

describe('exports', () => {
  const run = { variant: 'a,b', preset: 'linux-5.2', scale: 2, frames: 10, endNs: 1e9 } as RunInfo;
  it('writes the series as CSV, each column named with its unit (pages, counts, cost units)', () => {
    const row = Float64Array.from(SERIES_COLUMNS, (_, i) => i);
    const [head, line, end] = seriesCsv([run], [[row]]).split('\n');
    const cols = head!.split(',');
    expect(cols.slice(0, 10)).toEqual(['variant', 't_ns', 'inactive_anon_pages', 'active_anon_pages', 'inactive_file_pages', 'active_file_pages', 'unevictable_pages', 'free_pages', 'anon_cost_units', 'file_cost_units']);
    expect(cols).toContain('pgscan_kswapd_pages');
    expect(cols).toContain('allocstall_count'); // a number of stalls, not of pages
    expect(cols).toContain('pgmajfault_count');
    expect(cols).toHaveLength(SERIES_COLUMNS.length + 1);
    expect(line).toBe(['"a,b"', ...SERIES_COLUMNS.map((_, i) => i)].join(','));
    expect(end).toBe('');
  });

  it('writes the results table as Markdown', () => {
    const md = resultsMarkdown('T | x', [{ variant: 'before', preset: 'p', swappiness: 60 } as never, { variant: 'after', preset: 'q', swappiness: 60 } as never], [
      { label: 'pswpout', values: [10, 20], changes: ['0.0%', '+100.0%'], digits: 0 },
    ]);
    expect(md.split('\n')).toEqual([
      '### T \\| x',
      '',
      '| metric (measured window) | before (p, swappiness 60) | after (q, swappiness 60) |',
      '| --- | ---: | ---: |',
      '| pswpout | 10 | 20 (+100.0%) |',
      '',
    ]);
  });
});
