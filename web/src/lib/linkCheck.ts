// A link's scenario through the core's own check before anything is loaded: the carried text
// (or the bundled file) with the carried knobs, which the engine writes in, against its
// validator and its resource budget (the page never lifts it). A link is untrusted input; what
// it would run must pass the same check as a file, and a failure is shown in the banner with
// the core's message. The variants a link names must be the text's own.
import { startChecker, type ScenarioChecker } from '../engine/checker';
import { setupOf } from './knobs';
import { LinkError, type LinkState } from './link';

/** How long the check may take before the link is refused (a hostile text must not hang the page). */
export const LINK_CHECK_MS = 10_000;

export async function checkLinkedScenario(s: LinkState, bundledText: string, start: () => ScenarioChecker = startChecker, timeoutMs = LINK_CHECK_MS): Promise<void> {
  const text = s.edited ?? bundledText;
  const checker = start();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LinkError(`the engine did not finish checking the link's scenario within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const { problem, info } = await Promise.race([checker.check(text, setupOf(s.knobs)), timeout]);
    if (problem) {
      const where = problem.line > 0 ? `line ${problem.line}, column ${problem.column}: ${problem.field ? `${problem.field}: ` : ''}` : '';
      throw new LinkError(`its scenario is not valid (${where}${problem.message})`);
    }
    const known = info?.variants.map((v) => v.name) ?? [];
    const unknown = s.variants.find((v) => !known.includes(v));
    if (unknown !== undefined) throw new LinkError(`the link names an unknown variant ${JSON.stringify(unknown)} of ${s.scenario} (known: ${known.join(', ')})`);
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError(`its scenario could not be checked (${e instanceof Error ? e.message : String(e)})`);
  } finally {
    clearTimeout(timer);
    checker.dispose(); // terminates the worker, also when it is stuck
  }
}
