// Lesson steps of a scenario (the core parses and checks `[[lesson]]`; see
// wasm-core/src/scenario/lesson.rs): their shape on the page (generated from the engine's
// types) and where a run stands in its lesson at a virtual time.
import type { LessonStepInfo, LessonView } from '../engine/generated/views';

/** Views a step can point at; `data-lesson-view` on each view's root element. */
export { LESSON_VIEWS } from '../engine/generated/views';
export type { LessonView };
export type LessonStep = LessonStepInfo;

/** Index of the step showing at `nowNs` (the last one whose time has come), -1 before the first. */
export function currentStep(steps: LessonStep[], nowNs: number): number {
  let k = -1;
  for (let i = 0; i < steps.length && steps[i]!.atNs <= nowNs; i++) k = i;
  return k;
}

/** Time of the next pausing step after `nowNs`, or null: where a playing run must stop. */
export function nextPauseNs(steps: LessonStep[], nowNs: number): number | null {
  return steps.find((s) => s.pause && s.atNs > nowNs)?.atNs ?? null;
}

/** The engine's counters a caption names, in the order it names them (a word of the caption
 *  that is a counter's name, e.g. `pgactivate`, `workingset_refault_file`). */
export function countersNamed(caption: string, counterNames: readonly string[]): string[] {
  const words = caption.match(/[a-z][a-z0-9_]*/g) ?? [];
  return [...new Set(words.filter((w) => counterNames.includes(w)))];
}
