// Stepping an engine run to a virtual time: the worker's seeks, and reference runs in Node tests.

/** Step `sim` to virtual time `ns` (an integer), as the page's worker gets there: one `step`
 *  processes a bounded number of events (the core's STEP_EVENTS) and may stop short of the time
 *  asked, so a reference at a time the page reached after many steps must step until it is there
 *  too. Returns the time reached: `ns`, or the end of the run if that comes first. */
export function stepTo(sim: Steppable, ns: number): number {
  return stepToward(sim, ns, () => false);
}

type Steppable = { step(ns: number): void; now_ns(): number; finished(): boolean };

/** `stepTo`, stopping early once `enough()` holds after a step (each step's work is bounded):
 *  a caller with a time budget checks its clock there. Returns the time reached. */
export function stepToward(sim: Steppable, ns: number, enough: () => boolean): number {
  if (!Number.isSafeInteger(ns)) throw new Error(`stepTo: ${ns} is not a whole number of nanoseconds`);
  while (sim.now_ns() < ns && !sim.finished()) {
    const before = sim.now_ns();
    sim.step(ns - before);
    if (sim.now_ns() === before && !sim.finished()) {
      // A step that processed events at the current instant only; the next one moves on.
      sim.step(ns - before);
      if (sim.now_ns() === before && !sim.finished()) throw new Error(`stepTo: the engine stays at ${before} ns`);
    }
    if (enough()) break;
  }
  return sim.now_ns();
}
