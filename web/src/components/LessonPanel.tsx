// A scenario's lesson: the caption of the step the run has reached (plain text,
// rendered as a text node), step n/N with previous/next (which seek the run to
// that step's time), the view the step points at put on the stage (`onView`) and
// outlined, play stopping at steps that say pause (through `onPauseAt`, which the
// play loop honours), and at the last step a pointer to the next lesson.
import { useEffect, useRef, useState } from 'react';
import './lesson.css';
import { formatNs } from '../format';
import { currentStep, nextPauseNs, type LessonStep } from '../lib/lesson';
import { markTerms } from '../lib/glossary';
import { GlossaryTerm } from './GlossaryTerm';

interface Props {
  steps: LessonStep[];
  nowNs: number;
  /** Seeking is possible (the runs are loaded and not busy). */
  ready: boolean;
  onSeek(ns: number): void;
  onPauseAt(ns: number | null): void;
  compact?: boolean;
  /** Compare mode is on: a step that compares the variants does not ask to tick it. */
  compareOn?: boolean;
  /** Knobs differ from the scenario's: the captions were written for its defaults. */
  knobsChanged?: boolean;
  /** A step pointing at a view: the stage shows it. */
  onView?(view: LessonStep['highlight'] & string): void;
  /** The lesson after this one, offered at the last step. */
  nextLesson?: { title: string; open(): void } | null;
}

const OFF_KEY = 'reclaim-lesson-off';

function storedOff(): boolean {
  try {
    return localStorage.getItem(OFF_KEY) === '1';
  } catch {
    return false;
  }
}

const VIEW_NAMES: Record<string, string> = {
  lru: 'the LRU lists',
  balance: 'the balance view',
  charts: 'the charts',
  diff: 'the side-by-side table',
  results: 'the results',
};

export function LessonPanel({ steps, nowNs, ready, onSeek, onPauseAt, compact, compareOn = false, knobsChanged = false, onView, nextLesson = null }: Props) {
  const [off, setOff] = useState(storedOff);
  const k = currentStep(steps, nowNs);
  const step = k >= 0 ? steps[k]! : null;
  // A lesson turned off neither pauses the run nor outlines views.
  const pauseNs = off ? null : nextPauseNs(steps, nowNs);
  const highlight = off ? null : (step?.highlight ?? null);
  const toggle = () => {
    setOff(!off);
    try {
      localStorage.setItem(OFF_KEY, off ? '0' : '1');
    } catch {
      // storage unavailable: the choice lasts for this page only
    }
  };

  useEffect(() => {
    onPauseAt(pauseNs);
  }, [pauseNs, onPauseAt]);
  // Each step that points at a view puts it on the stage once (the user may pick another).
  const viewOf = useRef(onView);
  viewOf.current = onView;
  useEffect(() => {
    if (highlight) viewOf.current?.(highlight);
  }, [k, highlight]);
  useEffect(() => () => onPauseAt(null), [onPauseAt]);

  // The highlighted view is outlined by a style rule keyed on this attribute (styles.css).
  useEffect(() => {
    const root = document.documentElement;
    if (highlight) root.dataset.lessonHighlight = highlight;
    else delete root.dataset.lessonHighlight;
    return () => {
      delete root.dataset.lessonHighlight;
    };
  }, [highlight]);

  const prev = k > 0 ? steps[k - 1]!.atNs : k === 0 && steps[0]!.atNs > 0 ? 0 : null;
  const next = k + 1 < steps.length ? steps[k + 1]!.atNs : null;

  const toggleButton = (
    <button type="button" className="ghost" onClick={toggle} data-testid="lesson-toggle" aria-pressed={!off}>
      {off ? 'Turn the lesson on' : 'Turn off'}
    </button>
  );
  if (off) {
    return (
      <section className="lesson lesson-off" aria-label="Lesson" data-testid="lesson" data-step={k + 1} data-off="true" data-highlight="">
        <div className="lesson-bar">
          <strong>Lesson</strong>
          <span className="muted">off: the run does not pause at its steps</span>
          {toggleButton}
        </div>
      </section>
    );
  }

  return (
    <section className={`lesson${compact ? ' compact' : ''}`} aria-label="Lesson" data-testid="lesson" data-step={k + 1} data-highlight={highlight ?? ''}>
      <div className="lesson-bar">
        <strong>Lesson</strong>
        <span className="muted" data-testid="lesson-progress">
          {step ? `step ${k + 1}/${steps.length} · ${formatNs(step.atNs)}` : `${steps.length} step${steps.length === 1 ? '' : 's'} · the first at ${formatNs(steps[0]!.atNs)}`}
        </span>
        <button type="button" className="ghost" disabled={!ready || prev === null} onClick={() => prev !== null && onSeek(prev)} data-testid="lesson-prev" aria-label="Previous lesson step">
          ‹ Previous
        </button>
        <button type="button" className="ghost" disabled={!ready || next === null} onClick={() => next !== null && onSeek(next)} data-testid="lesson-next" aria-label="Next lesson step">
          Next ›
        </button>
        {toggleButton}
      </div>
      <p className="lesson-caption" aria-live="polite" data-testid="lesson-caption">
        {step ? <Caption text={step.caption} /> : 'Press Play: the captions follow the run, and it pauses where a step asks you to look.'}
      </p>
      {step?.compare && !compareOn && (
        <p className="muted small lesson-note" data-testid="lesson-compare-hint">
          This step compares the kernels: tick Compare to watch them side by side.
        </p>
      )}
      {step && knobsChanged && (
        <p className="muted small lesson-note" data-testid="lesson-defaults">
          Written for the scenario&apos;s defaults: with the knobs you changed, the run may no longer match this caption.
        </p>
      )}
      {step && (highlight || step.pause) && (
        <p className="muted small lesson-note" data-testid="lesson-note">
          {highlight && (compact ? <>Look at {VIEW_NAMES[highlight]} (outlined). </> : <>The stage shows {VIEW_NAMES[highlight]} (outlined). </>)}
          {step.pause && nowNs === step.atNs && <>Paused here: press Play to go on.</>}
        </p>
      )}
      {next === null && step && nextLesson && (
        <p className="lesson-next-lesson" data-testid="lesson-next-lesson">
          That was the last step.{' '}
          <button type="button" className="primary" onClick={nextLesson.open} data-testid="lesson-open-next">
            Next lesson: {nextLesson.title} ›
          </button>
        </p>
      )}
      {next === null && step && !nextLesson && !compact && (
        <p className="lesson-next-lesson" data-testid="lesson-next-lesson">
          That was the last step of the last lesson: every scenario is in the Scenario menu.
        </p>
      )}
    </section>
  );
}

/** A caption as text nodes, its kernel terms explained on hover and focus (lib/glossary). */
function Caption({ text }: { text: string }) {
  return (
    <>
      {markTerms(text).map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : (
          <GlossaryTerm key={i} term={p.term}>
            {p.text}
          </GlossaryTerm>
        ),
      )}
    </>
  );
}
