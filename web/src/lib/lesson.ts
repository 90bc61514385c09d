// Lesson steps of a scenario (the core parses and checks `[[lesson]]`; see
// wasm-core/src/scenario/lesson.rs): their shape on the page, a strict check of
// what the worker sends, and where a run stands in its lesson at a virtual time.

/** Views a step can point at; `data-lesson-view` on each view's root element. */
export const LESSON_VIEWS = ['lru', 'balance', 'charts', 'diff', 'results'] as const;
export type LessonView = (typeof LESSON_VIEWS)[number];

export interface LessonStep {
  /** Virtual time at which the caption appears (ns). */
  atNs: number;
  /** Plain text: rendered as a text node, never as markup. */
  caption: string;
  /** The run pauses when it reaches `atNs`. */
  pause: boolean;
  highlight: LessonView | null;
  /** The step compares the variants: the page asks to tick Compare only while it is not ticked. */
  compare?: boolean;
}

/** Validate lesson steps as the engine describes them; throws an Error naming what is wrong. */
export function parseLessonSteps(v: unknown): LessonStep[] {
  if (!Array.isArray(v)) throw new Error("'lesson' must be an array of steps");
  let prev = -1;
  return v.map((s: unknown, i) => {
    const at = `lesson step ${i + 1}`;
    if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new Error(`${at} must be an object`);
    const o = s as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (!['atNs', 'caption', 'pause', 'highlight', 'compare'].includes(k)) throw new Error(`${at} has unknown field '${k}'`);
    }
    const { atNs, caption, pause, highlight, compare } = o;
    if (typeof atNs !== 'number' || !Number.isFinite(atNs) || atNs < 0) throw new Error(`${at}: 'atNs' must be a number >= 0`);
    if (atNs <= prev) throw new Error(`${at}: steps must be in time order`);
    prev = atNs;
    if (typeof caption !== 'string' || caption.trim() === '') throw new Error(`${at}: 'caption' must be a non-empty string`);
    if (typeof pause !== 'boolean') throw new Error(`${at}: 'pause' must be true or false`);
    if (highlight !== null && !LESSON_VIEWS.includes(highlight as LessonView)) {
      throw new Error(`${at}: 'highlight' must be null or one of ${LESSON_VIEWS.join(', ')}`);
    }
    if (compare !== undefined && typeof compare !== 'boolean') throw new Error(`${at}: 'compare' must be true or false`);
    return { atNs, caption, pause, highlight: highlight as LessonView | null, ...(compare ? { compare: true } : {}) };
  });
}

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
