// The engine run here in Node as a reference for what the page shows.

/** Step `sim` to virtual time `ns`, as the page's worker gets there: one `step` processes a
 *  bounded number of events (the core's STEP_EVENTS) and may stop short of the time asked, so a
 *  reference at a time the page reached after many steps must step until it is there too. */
export function stepTo(sim: { step(ns: number): void; now_ns(): number; finished(): boolean }, ns: number): void {
  while (sim.now_ns() < ns && !sim.finished()) sim.step(ns - sim.now_ns());
}
