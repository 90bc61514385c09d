import { describe, expect, it } from 'vitest';
import { MAX_STEP_NS } from './protocol';
import { Pace, STEP_BUDGET_MS } from './pace';

const SPEED = 250_000_000; // ns of virtual time per wall second
const DT = 16; // ms between animation frames

/** Play `frames` frames against an engine that costs `msPerNs` of worker time per ns; the
 *  round trip (what the page waits for) is never given to the pace. Returns the steps asked. */
function play(pace: Pace, frames: number, msPerNs: (i: number) => number, dt = DT): number[] {
  const steps: number[] = [];
  for (let i = 0; i < frames; i++) {
    const ns = pace.next(SPEED, dt);
    steps.push(ns);
    pace.observe(ns, ns * msPerNs(i));
  }
  return steps;
}

describe('Pace', () => {
  it('asks speed x elapsed wall time while the engine keeps up', () => {
    const steps = play(new Pace(), 50, () => 1e-8); // 4 ms of engine work per 16 ms frame
    expect(new Set(steps)).toEqual(new Set([(SPEED * DT) / 1000]));
  });

  it('holds a loaded machine at full step: fixed round-trip costs do not shrink the step', () => {
    // Issue #25: the old pace divided the whole round trip (here 250 ms of a busy page, capped
    // dt) by the step, cut the step on every frame and played at 129 µs/s. The engine's own
    // time is what it budgets: 1 ms per 62.5 ms of virtual time, far inside the budget.
    const steps = play(new Pace(), 200, () => 1.6e-8, 250);
    expect(steps.at(-1)).toBe(SPEED / 4);
    expect(Math.min(...steps)).toBe(SPEED / 4);
  });

  it('shrinks a heavy scenario to the budget and grows back', () => {
    const pace = new Pace();
    const heavy = 1e-4; // 0.1 ms per µs: the budget is 1.2 ms of virtual time (a frame asks 4 ms)
    const steps = play(pace, 40, () => heavy);
    const budget = STEP_BUDGET_MS / heavy;
    expect(steps.at(-1)).toBeGreaterThan(budget * 0.9);
    expect(steps.at(-1)).toBeLessThanOrEqual(budget * 1.1);
    // The scenario gets light again (its reclaim burst ended): the steps return to full size.
    const after = play(pace, 60, () => 1e-9);
    expect(after.at(-1)).toBe((SPEED * DT) / 1000);
  });

  it('a scenario that turns heavy is cut by at most half a step per frame, down to the budget', () => {
    const pace = new Pace();
    const full = (SPEED * DT) / 1000;
    play(pace, 10, () => 1e-9);
    const heavy = 1e-3; // the budget is 120 µs of virtual time, 1/33 of a frame's 4 ms
    const steps = play(pace, 30, () => heavy);
    expect(steps[0]).toBe(full); // sized before the first heavy answer came back
    for (let i = 1; i < steps.length; i++) expect(steps[i]).toBeGreaterThanOrEqual(Math.floor(steps[i - 1]! / 2));
    expect(steps[1]).toBe(full / 2); // the floor, not the budget, sets the first cut
    expect(steps.at(-1)).toBeLessThanOrEqual((STEP_BUDGET_MS / heavy) * 1.1);
  });

  it('a fixed part of the engine time well under the budget does not shrink the step', () => {
    const pace = new Pace();
    const steps: number[] = [];
    for (let i = 0; i < 100; i++) {
      const ns = pace.next(SPEED, DT);
      steps.push(ns);
      pace.observe(ns, 10 + ns * 1e-9); // 10 ms per call whatever the step, plus 1 ms per ms
    }
    expect(Math.min(...steps)).toBe((SPEED * DT) / 1000);
  });

  it('one slow answer cuts the step at most in half', () => {
    const pace = new Pace();
    play(pace, 10, () => 1e-9);
    const full = (SPEED * DT) / 1000;
    pace.observe(full, 30_000); // a 30 s stall (GC, swapped-out tab)
    const next = pace.next(SPEED, DT);
    expect(next).toBe(full / 2);
  });

  it('stays within 1 ns and the largest step, and lands on a limit', () => {
    const pace = new Pace();
    expect(pace.next(1e15, 250)).toBe(MAX_STEP_NS);
    expect(pace.next(1, 1)).toBe(1);
    expect(pace.next(SPEED, DT, 1234)).toBe(1234);
    pace.reset();
    pace.observe(10, 1e9); // absurdly slow: the smallest step, 1 ns
    expect(pace.next(SPEED, DT)).toBe(1);
    pace.observe(10, Number.NaN); // ignored: a NaN estimate would read as "not measured", a full step
    expect(pace.next(SPEED, DT)).toBe(1);
  });
});
