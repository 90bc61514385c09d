// Hostile links (issue #25): a link carrying a scenario over the resource budget, or knobs
// that would be, is refused with the engine's own message in the banner, and the default page
// works; before, such a link stayed on "loading" (or ran out of memory).
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { failOnPageErrors, ready, shot } from './support/page';
import { encodeLink, type LinkState } from '../web/src/lib/link';

failOnPageErrors();

const hostile = (name: string) => readFileSync(new URL(`../wasm-core/tests/hostile/${name}`, import.meta.url), 'utf8');
const base: LinkState = { scenario: 's000-thrash.toml', knobs: {}, edited: null, variants: [], compare: false, speedStep: 10, view: null, timeNs: 0 };

const cases: [string, Partial<LinkState>, RegExp][] = [
  ['65,536 memcgs in the carried text', { edited: hostile('memcg-replicas-65536.toml') }, /memcgs\[0\]\.replicas.*MAX_MEMCGS/],
  ['a zero-cost loop in the carried text', { edited: hostile('zero-cost-loop.toml') }, /virtual time/],
  ['4 TiB of RAM at frame scale 1 in the knobs', { knobs: { ram: '4TiB', frameScale: 1 } }, /machine\.ram.*MAX_FRAMES/],
];

for (const [what, change, message] of cases) {
  test(`a link with ${what} shows the engine's message and a working page`, async ({ page }, testInfo) => {
    const hash = await encodeLink({ ...base, ...change });
    const started = Date.now();
    await page.goto(`/#${hash}`);
    await expect(page.getByTestId('link-error')).toContainText(message, { timeout: 20_000 });
    testInfo.annotations.push({ type: 'banner after', description: `${Date.now() - started} ms` });
    await ready(page);
    await expect(page.getByTestId('status')).toHaveText('paused');
    await page.getByTestId('step').click();
    await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
    await shot(page, testInfo, 'hostile-link');
  });
}

// A valid scenario the engine's progress guard stops (issue #49): five tasks each run a
// counted loop that takes no virtual time, past MAX_STALLED_EVENTS at one instant. A step ends
// with the engine's message, naming the task and the op, in the error banner.
test('a run the progress guard stops shows the engine\'s message naming the task and the op', async ({ page }, testInfo) => {
  const hash = await encodeLink({ ...base, edited: hostile('stall-tasks.toml') });
  await page.goto(`/#${hash}`);
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('engine-error')).toContainText(
    /The engine failed: (Error: )?virtual time stopped advancing.*MAX_STALLED_EVENTS.*task "t\d", op tasks\[\d\]\.program\[2\] \(loop\)/,
    { timeout: 60_000 },
  );
  await shot(page, testInfo, 'hostile-stall');
});
