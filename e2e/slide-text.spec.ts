// Slide-ready text (issue #44, wanted 5): in a 960x540 iframe every embed view's smallest
// visible text is at least 14 px on screen, and at 1920x1080 (the embed and the page's stage)
// the body text is at least 24 px. Every visible text node counts, HTML and SVG, and so does
// the text a canvas draws (the LRU strips report the font they drew with in data-font-px).
import { expect, test, type Frame, type Page } from '@playwright/test';
import { encodeLink, type LinkState } from '../web/src/lib/link';
import { baseURL } from './support/base';
import { deckServer } from './support/deck';
import { failOnPageErrors, stage } from './support/page';

failOnPageErrors();

// The host page comes from another origin, as a slide deck does (support/deck.ts).
const deck = deckServer();

const link = (s: Partial<LinkState> & { scenario: string }) =>
  encodeLink({ knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0, ...s });

/** A deck page with the embed in a w x h iframe; returns the embed's frame. */
async function host(page: Page, src: string, w: number, h: number): Promise<Frame> {
  await page.setViewportSize({ width: w + 40, height: h + 80 });
  deck.html = `<!doctype html><html lang="en"><title>deck</title><h1>Slide</h1><iframe id="lab" title="Reclaim Lab" src="${src}" width="${w}" height="${h}" style="border:0;display:block"></iframe>`;
  await page.goto(`${deck.origin}/deck.html`);
  await expect.poll(() => page.frames().map((f) => f.url()).join(' ')).toContain(baseURL);
  return page.frames().find((f) => f.url().startsWith(baseURL))!;
}

export interface TextSize {
  /** Smallest text on screen, px, and what it says (and where). */
  min: number;
  minText: string;
  /** Body text: the size at or above which half of the visible characters are set, px. */
  body: number;
  /** Visible text items measured (text nodes and canvases). */
  count: number;
}

/** The on-screen size of every visible text under `root` (the document's body if null): a text
 *  node's computed font size times its element's scale on screen (the embed's fit transform, an
 *  SVG's viewBox), and each canvas's reported font size times the canvas's own scale. */
function measureText(rootSel: string | null): TextSize {
  const root = (rootSel ? document.querySelector(rootSel) : document.body) as Element;
  const vw = innerWidth;
  const vh = innerHeight;
  const items: { px: number; text: string; chars: number }[] = [];
  const onScreen = (r: DOMRect) => r.width > 1 && r.height > 1 && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh;
  /** Screen px per CSS px of the element's font: an SVG's user unit on screen (its viewBox
   *  into its box, which is on screen with every transform and zoom above it), else the CSS
   *  zoom in effect (computed font sizes are before zoom) times the transforms' scales above. */
  const scaleOf = (el: Element): number => {
    if (el instanceof SVGElement) {
      const svg = el instanceof SVGSVGElement ? el : el.ownerSVGElement;
      if (!svg) return 1;
      const vb = svg.viewBox.baseVal;
      const r = svg.getBoundingClientRect();
      return vb && vb.width > 0 ? Math.min(r.width / vb.width, r.height / vb.height) : r.width / (svg.width.baseVal.value || r.width);
    }
    let k = (el as Element & { currentCSSZoom?: number }).currentCSSZoom ?? 1;
    for (let a: Element | null = el; a; a = a.parentElement) {
      const t = getComputedStyle(a).transform;
      const m = t && t !== 'none' ? new DOMMatrixReadOnly(t) : null;
      if (m) k *= Math.hypot(m.a, m.b);
    }
    return k;
  };
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    const el = n.parentElement;
    if (!text || !el) continue;
    if (el.closest('title, desc, script, style, option, .sr-only')) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter(onScreen);
    if (rects.length === 0) continue;
    // clipped away by an ancestor that hides its overflow (a 1 px sr-only box, a closed panel)
    let clipped = false;
    for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflow !== 'visible' && a instanceof HTMLElement) {
        const ar = a.getBoundingClientRect();
        if (!rects.some((r) => r.right > ar.left && r.left < ar.right && r.bottom > ar.top && r.top < ar.bottom)) clipped = true;
      }
    }
    if (clipped) continue;
    const px = parseFloat(getComputedStyle(el).fontSize) * scaleOf(el);
    items.push({ px, text: `${text.slice(0, 40)} <${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''}>`, chars: text.length });
  }
  for (const c of root.querySelectorAll('canvas')) {
    const r = c.getBoundingClientRect();
    if (!onScreen(r) || !c.checkVisibility()) continue;
    const font = Number(c.dataset.fontPx);
    // a canvas that draws text must say its font; one that draws none says data-font-px="none"
    if (c.dataset.fontPx === 'none') continue;
    items.push({ px: (Number.isFinite(font) ? font : 0) * (r.width / c.offsetWidth), text: `canvas ${c.dataset.testid ?? ''} font ${c.dataset.fontPx}`, chars: 20 });
  }
  items.sort((a, b) => a.px - b.px);
  const total = items.reduce((s, i) => s + i.chars, 0);
  let acc = 0;
  let body = 0;
  for (const i of items) {
    acc += i.chars;
    if (acc >= total / 2) {
      body = i.px;
      break;
    }
  }
  return { min: items[0]?.px ?? 0, minText: items[0]?.text ?? '', body, count: items.length };
}

const r1 = (x: number) => Math.round(x * 100) / 100;

// The views an embed's `view=` takes, each with a state that has something to show in it.
async function embedCases() {
  const compare = await link({ scenario: 's000-thrash.toml', variants: ['before', 'after'], compare: true, timeNs: 800_000_000 });
  const gens = await link({ scenario: 's003b-noreuse.toml', variants: ['before', 'after'], compare: true, timeNs: 3_000_000_000 });
  const memcg = await link({ scenario: 's003-memcg-lru.toml', timeNs: 300_000_000 });
  const memcgLru = await link({ scenario: 's003-memcg-lru.toml', variants: ['after'], timeNs: 300_000_000 });
  const lesson = await link({ scenario: 'lesson-swappiness.toml', timeNs: 400_000_000 });
  // lesson steps whose captions sit over the tallest views: S003's first step over both runs'
  // memcg views, S003b's second (three lines) over two runs' generations
  const memcgLesson = await link({ scenario: 's003-memcg-lru.toml', variants: ['before', 'after'], compare: true, timeNs: 300_000_000_000 });
  const gensLesson = await link({ scenario: 's003b-noreuse.toml', variants: ['before', 'after'], compare: true, timeNs: 5_000_000_000 });
  return [
    { name: 'lru', q: 'view=lru', hash: compare, time: '800.000 ms' },
    { name: 'lru-lesson', q: 'view=lru', hash: lesson, time: '400.000 ms' },
    { name: 'balance', q: 'view=balance', hash: compare, time: '800.000 ms' },
    { name: 'balance-lesson', q: 'view=balance', hash: lesson, time: '400.000 ms' },
    { name: 'gens', q: 'view=gens', hash: gens, time: '3.000 s' },
    { name: 'charts', q: 'view=charts', hash: compare, time: '800.000 ms' },
    ...(['counters', 'free', 'cost', 'rounds'] as const).map((c) => ({ name: `charts-${c}`, q: `view=charts&chart=${c}`, hash: compare, time: '800.000 ms' })),
    { name: 'results', q: 'view=results', hash: compare, time: '800.000 ms' },
    // the swappiness lesson's step 2: a four-line caption over the tallest view
    { name: 'results-lesson', q: 'view=results', hash: lesson, time: '400.000 ms' },
    { name: 'memcg', q: 'view=memcg', hash: memcg, time: '300.000 ms' },
    { name: 'memcg-mglru', q: 'view=memcg', hash: memcgLru, time: '300.000 ms' },
    { name: 'memcg-lesson', q: 'view=memcg', hash: memcgLesson, time: '300.000 s', lesson: true },
    { name: 'gens-lesson', q: 'view=gens', hash: gensLesson, time: '5.000 s', lesson: true },
  ];
}

/** The embed has drawn the case's state: its time, and what the view waits on (reports). */
async function settled(lab: Frame, c: { name: string; time: string; lesson?: boolean }) {
  await expect(lab.getByTestId('virtual-time')).toHaveText(c.time, { timeout: 150_000 });
  if (c.name.startsWith('results')) await expect(lab.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 150_000 });
  if (c.name === 'charts-rounds') await expect(lab.getByTestId('chart-rounds')).toBeVisible({ timeout: 150_000 });
  if (c.name.startsWith('gens')) await expect(lab.getByTestId('run-1-gens')).toHaveAttribute('data-now-ns', c.name === 'gens' ? '3000000000' : '5000000000');
  if (c.lesson) await expect(lab.getByTestId('lesson-caption')).toBeVisible();
  // the fit has settled and the canvases have drawn at it
  await expect(lab.getByTestId('embed-fit')).not.toHaveAttribute('data-scale', '');
  await lab.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

for (const f of [
  { w: 960, h: 540 },
  { w: 1920, h: 1080 },
]) {
  test(`every embed view at ${f.w}x${f.h}: ${f.w === 960 ? 'smallest text >= 14 px' : 'body text >= 24 px'}`, async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    const seen: string[] = [];
    const failures: string[] = [];
    for (const c of await embedCases()) {
      const lab = await host(page, `${baseURL}/?embed&${c.q}#${c.hash}`, f.w, f.h);
      await settled(lab, c);
      const s = await lab.evaluate(measureText, null);
      const line = `${c.name}: smallest ${r1(s.min)} px ("${s.minText}"), body ${r1(s.body)} px, ${s.count} texts`;
      seen.push(line);
      await page.locator('#lab').screenshot({ path: testInfo.outputPath(`slide-${c.name}-${f.w}x${f.h}.png`) });
      expect(s.count, `${c.name}: some text measured`).toBeGreaterThan(3);
      if (f.w === 960 ? s.min < 14 : s.body < 24) failures.push(line);
      // Without chart=, the embed shows one chart at a time and its tabs switch it.
      if (c.name === 'charts') {
        await expect(lab.getByTestId('chart-counters')).toBeVisible();
        await lab.getByTestId('embed-chart-tab-free').click();
        await expect(lab.getByTestId('chart-free')).toBeVisible();
        await expect(lab.locator('figure.chart')).toHaveCount(1);
      }
    }
    console.log(`embed ${f.w}x${f.h}\n  ${seen.join('\n  ')}`);
    await testInfo.attach(`text-${f.w}x${f.h}`, { body: seen.join('\n'), contentType: 'text/plain' });
    expect(failures, `views under ${f.w === 960 ? '14 px smallest' : '24 px body'} text`).toEqual([]);
  });
}

test('the page at 1920x1080: every stage view has body text >= 24 px', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const seen: string[] = [];
  const failures: string[] = [];
  const states = [
    { hash: await link({ scenario: 's000-thrash.toml', variants: ['before', 'after'], compare: true, timeNs: 800_000_000 }), time: '800.000 ms', views: ['lists', 'balance', 'charts', 'diff', 'results'] },
    { hash: await link({ scenario: 's003-memcg-lru.toml', variants: ['after'], timeNs: 300_000_000 }), time: '300.000 ms', views: ['gens', 'memcg'] },
    { hash: await link({ scenario: 'lesson-refault-distance.toml', timeNs: 1_500_000_000 }), time: '1.500 s', views: ['refaults'] },
  ];
  for (const st of states) {
    await page.goto(`/#${st.hash}`);
    await expect(page.getByTestId('virtual-time')).toHaveText(st.time, { timeout: 90_000 });
    for (const v of st.views) {
      if ((await page.getByTestId(`stage-tab-${v}`).count()) === 0) {
        failures.push(`${v}: no such stage tab in this state`);
        continue;
      }
      await stage(page, v);
      if (v === 'results') await expect(page.getByTestId('results')).toHaveAttribute('data-status', 'done', { timeout: 150_000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const s = await page.evaluate(measureText, '[data-testid="stage-view"]');
      const line = `${v}: body ${r1(s.body)} px, smallest ${r1(s.min)} px ("${s.minText}"), ${s.count} texts`;
      seen.push(line);
      await page.screenshot({ path: testInfo.outputPath(`page-${v}-1920x1080.png`) });
      if (s.body < 24) failures.push(line);
    }
  }
  console.log(`page 1920x1080\n  ${seen.join('\n  ')}`);
  await testInfo.attach('text-page-1920x1080', { body: seen.join('\n'), contentType: 'text/plain' });
  expect(failures, 'stage views under 24 px body text').toEqual([]);
});
