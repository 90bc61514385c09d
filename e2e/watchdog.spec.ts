// The page's watchdog (issue #25): when the engine worker or the results worker stops
// answering, the page says so within WATCHDOG_MS, offers Stop, terminates the stuck worker and
// goes on with a new one. A worker is made to stall by a test-only wrapper around Worker,
// installed before the page's own scripts: it holds back the messages the page sends to one
// worker, so that worker never answers, as one stuck in a long computation would not. The
// product has no switch for this (no query flag or link field reaches it).
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors, ready, shot, pause } from './support/page';

failOnPageErrors();

/** The wrapper's state, on `window.__gate`. */
interface Gate {
  /** Per worker instance id (`name#n`): message types held back, never delivered. */
  holdIds: Record<string, string[]>;
  /** Per worker name: message types held back by every instance created while it is set. */
  holdNew: Record<string, string[]>;
  /** Instance ids in creation order, and those the page terminated. */
  made: string[];
  terminated: string[];
  /** `id type` of every message held back. */
  held: string[];
}

function installGate() {
  const gate: Gate = { holdIds: {}, holdNew: {}, made: [], terminated: [], held: [] };
  (window as unknown as { __gate: Gate }).__gate = gate;
  const Real = window.Worker;
  let n = 0;
  class GatedWorker extends Real {
    readonly gateId: string;
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      const name = options?.name ?? 'worker';
      this.gateId = `${name}#${n++}`;
      gate.made.push(this.gateId);
      const hold = gate.holdNew[name];
      if (hold) gate.holdIds[this.gateId] = [...hold];
    }
    override postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
      const type = (message as { type?: unknown } | null)?.type;
      if (typeof type === 'string' && gate.holdIds[this.gateId]?.includes(type)) {
        gate.held.push(`${this.gateId} ${type}`);
        return;
      }
      super.postMessage(message, transfer as Transferable[]);
    }
    override terminate(): void {
      gate.terminated.push(this.gateId);
      super.terminate();
    }
  }
  window.Worker = GatedWorker;
}

const gate = (page: Page) => page.evaluate(() => (window as unknown as { __gate: Gate }).__gate);

/** The ids of the workers named `name` that the page made and did not terminate. */
async function live(page: Page, name: string): Promise<string[]> {
  const g = await gate(page);
  return g.made.filter((id) => id.startsWith(`${name}#`) && !g.terminated.includes(id));
}

/** The one live worker named `name`, once there is exactly one and it is not `not`. */
async function liveWorker(page: Page, name: string, not?: string): Promise<string> {
  await expect.poll(async () => (await live(page, name)).filter((id) => id !== not), { message: `one live ${name} worker` }).toHaveLength(1);
  return (await live(page, name)).filter((id) => id !== not)[0]!;
}

test('engine worker: a step that never comes back shows the watchdog, Stop restarts the engine and the page works on', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.addInitScript(installGate);
  await page.goto('/');
  await ready(page);
  await expect(page.getByTestId('status')).toHaveText('paused');
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  const before = await page.getByTestId('virtual-time').textContent();

  // The live engine worker stops answering its steps.
  const stuck = await liveWorker(page, 'reclaim-engine');
  await page.evaluate((id) => ((window as unknown as { __gate: Gate }).__gate.holdIds[id] = ['step']), stuck);
  await page.getByTestId('step').click();
  await expect.poll(async () => (await gate(page)).held).toContain(`${stuck} step`);

  const alert = page.getByTestId('engine-stalled');
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expect(alert).toHaveAttribute('role', 'alert');
  await expect(alert).toContainText('The engine has not answered for 5 s.');
  await expect(alert).toContainText('restarts the engine and reloads the scenario from its start');
  // The page itself still answers while the worker is stuck: the time shown stays, the theme
  // switches.
  await expect(page.getByTestId('virtual-time')).toHaveText(before!);
  await expect(page.getByTestId('status')).toHaveText('paused');
  const theme = await page.locator('html').getAttribute('data-theme');
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', theme!);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme!);
  await shot(page, testInfo, 'watchdog-engine-stalled');

  // Stop: the stuck worker is terminated, a new one loads the scenario from its start.
  await page.getByTestId('engine-stop').click();
  await expect(alert).toHaveCount(0);
  await expect.poll(async () => (await gate(page)).terminated).toContain(stuck);
  await ready(page);
  await liveWorker(page, 'reclaim-engine', stuck);
  await expect(page.getByTestId('virtual-time')).toHaveText('0 ns');
  await expect(page.getByTestId('engine-error')).toHaveCount(0);

  // The page works on: Step and Play advance the new engine.
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  const stepped = await page.getByTestId('virtual-time').textContent();
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText(stepped!);
  await pause(page);
  await expect(alert).toHaveCount(0);
  await shot(page, testInfo, 'watchdog-engine-restarted');
});

test('results worker: a run that never reports shows the watchdog, Stop ends it, the live view works, Run again gets the results', async ({ page }, testInfo) => {
  test.setTimeout(180_000); // the results of every variant run to the end on a loaded machine
  await page.addInitScript(installGate);
  // Every results worker the page starts holds back its `report`: it never answers.
  await page.addInitScript(() => ((window as unknown as { __gate: Gate }).__gate.holdNew['reclaim-reports'] = ['report']));
  await page.goto('/');
  await ready(page);
  const results = page.getByTestId('results');
  await expect(results).toHaveAttribute('data-status', 'running');

  const slow = page.getByTestId('results-slow');
  await expect(slow).toBeVisible({ timeout: 30_000 });
  await expect(slow).toContainText('The results worker has not reported for 5 s.');
  const stuck = await liveWorker(page, 'reclaim-reports');
  expect((await gate(page)).held).toContain(`${stuck} report`);
  // Meanwhile the live view runs on its own worker.
  await page.getByTestId('step').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText('0 ns');
  await expect(page.getByTestId('engine-stalled')).toHaveCount(0);
  await shot(page, testInfo, 'watchdog-results-slow');

  // Stop: the worker is terminated and the panel says so, with a way to run them again.
  await page.evaluate(() => delete (window as unknown as { __gate: Gate }).__gate.holdNew['reclaim-reports']);
  await page.getByTestId('results-stop').click();
  await expect(results).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('results-error')).toContainText('Stopped: the results worker was terminated.');
  await expect(slow).toHaveCount(0);
  expect((await gate(page)).terminated).toContain(stuck);
  await shot(page, testInfo, 'watchdog-results-stopped');
  const stepped = await page.getByTestId('virtual-time').textContent();
  await page.getByTestId('play-toggle').click();
  await expect(page.getByTestId('virtual-time')).not.toHaveText(stepped!);
  await pause(page);

  // Run again: a new results worker runs every variant to the end.
  await page.getByTestId('results-retry').click();
  // A new worker is made (the pool may have finished and terminated it before this looks).
  await expect
    .poll(async () => (await gate(page)).made.filter((id) => id.startsWith('reclaim-reports#') && id !== stuck).length, { message: 'a new results worker' })
    .toBeGreaterThan(0);
  await expect(results).toHaveAttribute('data-status', 'done', { timeout: 150_000 });
  await expect(page.getByTestId('results-error')).toHaveCount(0);
  await expect(page.getByTestId('results-headline')).toBeVisible();
  await shot(page, testInfo, 'watchdog-results-again');
});
