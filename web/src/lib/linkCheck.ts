// A link's scenario through the core's own check before anything is loaded: the carried text
// (or the bundled file) with the carried knobs, against the engine's validator and its resource
// budget (the page never lifts it). A link is untrusted input; what it would run must pass the
// same check as a file, and a failure is shown in the banner with the core's message.
import { startChecker, type ScenarioChecker } from '../engine/checker';
import { applyOverrides } from './scenarioText';
import { LinkError, type LinkState } from './link';

/** How long the check may take before the link is refused (a hostile text must not hang the page). */
export const LINK_CHECK_MS = 10_000;

export async function checkLinkedScenario(s: LinkState, bundledText: string, start: () => ScenarioChecker = startChecker, timeoutMs = LINK_CHECK_MS): Promise<void> {
  const text = applyOverrides(s.edited ?? bundledText, s.knobs);
  const checker = start();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LinkError(`the engine did not finish checking the link's scenario within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const problem = await Promise.race([checker.check(text), timeout]);
    if (problem) {
      const where = `line ${problem.line}, column ${problem.column}: ${problem.field ? `${problem.field}: ` : ''}`;
      throw new LinkError(`its scenario is not valid (${where}${problem.message})`);
    }
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError(`its scenario could not be checked (${e instanceof Error ? e.message : String(e)})`);
  } finally {
    clearTimeout(timer);
    checker.dispose(); // terminates the worker, also when it is stuck
  }
}
