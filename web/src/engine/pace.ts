// How much virtual time one play step asks for. Playing sends `step` once per animation frame
// for speed x elapsed wall time; a heavy scenario gets smaller steps, so the worker answers
// within about STEP_BUDGET_MS and Pause or Reset act at once.
//
// The cost that sizes a step is the worker's own time in the engine for the last steps (the
// frame's `stepMs`), not the round trip: the round trip also holds fixed costs (building and
// posting the frame, React, a busy main thread) that do not shrink with the step. Sizing by the
// round trip made a loaded machine cut the step on every frame, toward 1 ns, and never grow it
// back (issue #25: 742 ms of virtual time in 240 s of playing). A fixed part of the engine's own
// time per step (stepMs = F + c x ns) still shrinks the step to 1 ns if F alone exceeds the
// budget; F is the engine's per-call overhead, microseconds. The half-step floor can make a
// sudden rise in cost take a few frames to reach the budget; each of those answers is still
// bounded by the engine's own cap on events per step (STEP_EVENTS).
import { MAX_STEP_NS } from './protocol';

/** Wall time one play step may take in the worker (ms). */
export const STEP_BUDGET_MS = 120;
/** Weight of the newest measurement in the running cost estimate. */
const NEW_WEIGHT = 0.3;

export class Pace {
  /** Worker ms per ns of virtual time (0: not measured yet). */
  private costPerNs = 0;
  /** The last step asked for (0: none yet). */
  private lastNs = 0;

  /** A new scenario (or restart): forget what the last one cost. */
  reset(): void {
    this.costPerNs = 0;
    this.lastNs = 0;
  }

  /** The step for `dtMs` of wall time at `speed` ns per wall second, at most `limitNs` (a
   *  lesson's pause time) when given. One frame cuts the step to no less than half the last,
   *  so a single slow answer (a GC pause, a burst of reclaim) cannot collapse playing. */
  next(speed: number, dtMs: number, limitNs = Infinity): number {
    let ns = Math.min(MAX_STEP_NS, Math.max(1, Math.round((speed * dtMs) / 1000)));
    if (this.costPerNs > 0) {
      const budget = Math.round(STEP_BUDGET_MS / this.costPerNs);
      ns = Math.min(ns, Math.max(budget, Math.floor(this.lastNs / 2)));
    }
    ns = Math.max(1, Math.min(ns, limitNs));
    this.lastNs = ns;
    return ns;
  }

  /** A step of `ns` took `stepMs` of worker time in the engine. */
  observe(ns: number, stepMs: number): void {
    if (ns <= 0 || !(stepMs >= 0)) return;
    const cost = stepMs / ns;
    this.costPerNs = this.costPerNs > 0 ? (1 - NEW_WEIGHT) * this.costPerNs + NEW_WEIGHT * cost : cost;
  }
}
