// Small pieces both the embed and the full page show.
import { useMemo } from 'react';
import { LessonPanel } from '../components/LessonPanel';
import type { KernelInfo, RunInfo } from '../engine/protocol';
import { isCustom, kernelLabel } from '../lib/flags';
import type { View } from '../lib/link';
import { SCENARIOS } from '../scenarios';
import type { AppModel } from './useApp';

/** A run's kernel as a title: "linux-5.8 + refault_scan_anon off" and a "custom" mark. */
export function RunKernel({ run, kernel, testId }: { run: RunInfo; kernel: KernelInfo | null; testId: string }) {
  const custom = isCustom(run);
  return (
    <span className="muted" data-testid={testId} data-custom={custom}>
      ({kernelLabel(kernel, run.preset, run.kernel?.flags)}){custom && <span className="custom-tag run-kernel-custom">custom</span>}
    </span>
  );
}

/** Scenario text the core refused, where the runs would be (they are not shown: nothing plays). */
export function RunError({ error }: { error: string }) {
  return (
    <section className="run-error error" role="alert" aria-label="The scenario did not load" data-testid="engine-error">
      <strong>Nothing to run: </strong>
      {error}
    </section>
  );
}

/** Why a link (or a dropped file) could not be opened, until dismissed. */
export function LinkBanner({ m }: { m: AppModel }) {
  const { linkError, setLinkError } = m.link;
  if (!linkError) return null;
  return (
    <div className="error link-error" role="alert" data-testid="link-error">
      {linkError}{' '}
      <button type="button" className="ghost" onClick={() => setLinkError(null)} aria-label="Dismiss the link message">
        Dismiss
      </button>
    </div>
  );
}

/** The lesson views (lib/lesson.ts) each embed view shows. */
const EMBED_LESSON_VIEWS: Record<View, readonly string[]> = {
  lru: ['lru'],
  gens: [],
  balance: ['balance'],
  charts: ['charts'],
  results: ['results'],
  memcg: [],
};

/** The lesson after the one shown: the next scenario in the picker's order that has one. */
function nextLessonOf(m: AppModel): { title: string; open(): void } | null {
  const i = SCENARIOS.findIndex((f) => f.name === m.setup.scenarioName);
  const next = SCENARIOS.slice(i + 1).find((f) => /^\[\[lesson\]\]/m.test(f.text));
  return next ? { title: next.title.replace(/^Lesson:\s*/, ''), open: () => m.openScenario(next.name) } : null;
}

/** The scenario's [[lesson]] steps: captions follow the run; next/previous seek. */
export function Lesson({ m, onView }: { m: AppModel; onView?(view: string): void }) {
  const { state, embed, link } = m;
  // An embed shows one view: a step pointing at a view it does not show points nowhere there.
  const embedSteps = useMemo(() => {
    const shown = EMBED_LESSON_VIEWS[link.embedView];
    return state.lesson.map((st) => (st.highlight && !shown.includes(st.highlight) ? { ...st, highlight: null } : st));
  }, [state.lesson, link.embedView]);
  if (!m.ready || state.lesson.length === 0 || (embed.embed && !embed.lesson)) return null;
  // A knob comparison runs one kernel twice: the steps were written for the scenario's own runs.
  if (m.setup.swapPair) {
    return (
      <section className={`lesson lesson-off${embed.embed ? ' compact' : ''}`} aria-label="Lesson" data-testid="lesson" data-off="true" data-pair="true" data-highlight="">
        <div className="lesson-bar">
          <strong>Lesson</strong>
        </div>
        <p className="muted lesson-note" data-testid="lesson-pair">
          Set aside: the runs are this kernel at swappiness {m.setup.swapPair[0]} and {m.setup.swapPair[1]}, and the steps were written for the scenario&apos;s own runs.
          {!embed.embed && ' Untick the swappiness comparison in Tools to follow them again.'}
        </p>
      </section>
    );
  }
  return (
    <LessonPanel
      steps={embed.embed ? embedSteps : state.lesson}
      nowNs={m.nowNs}
      ready={!m.seeking}
      onSeek={m.transport.pauseAndSeek}
      onPauseAt={m.engine.setPauseAt}
      compact={embed.embed}
      compareOn={m.setup.compare}
      knobsChanged={Object.keys(m.setup.knobs).length > 0}
      onView={onView}
      nextLesson={embed.embed ? null : nextLessonOf(m)}
    />
  );
}
