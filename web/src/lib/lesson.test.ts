import { describe, expect, it } from 'vitest';
import { countersNamed, currentStep, nextPauseNs, type LessonStep } from './lesson';
import { problemRange } from './diagnostic';

const step = (atNs: number, pause = false): LessonStep => ({ atNs, caption: `at ${atNs}`, pause, highlight: null, compare: false });

describe('lesson steps', () => {
  it('show the last step whose time has come, and stop at the next pausing one', () => {
    const steps = [step(100), step(200, true), step(300), step(400, true)];
    expect(currentStep(steps, 0)).toBe(-1);
    expect(currentStep(steps, 100)).toBe(0);
    expect(currentStep(steps, 299)).toBe(1);
    expect(currentStep(steps, 1e12)).toBe(3);
    expect(currentStep([], 5)).toBe(-1);
    expect(nextPauseNs(steps, 0)).toBe(200);
    // Standing on a pausing step, play goes on to the next one.
    expect(nextPauseNs(steps, 200)).toBe(400);
    expect(nextPauseNs(steps, 400)).toBeNull();
  });
});

describe("a problem's place in the editor", () => {
  const text = 'a = 1\nram = "lots"\n\nlast';
  it('runs from the column to the end of the line', () => {
    expect(problemRange(text, 2, 7)).toEqual({ from: 12, to: 18, line: 2 });
    expect(text.slice(12, 18)).toBe('"lots"');
  });
  it('counts columns in characters, not UTF-16 units', () => {
    const t = 'x = "😀é" y\n';
    const { from } = problemRange(t, 1, 9); // the 9th character: the space after the closing quote
    expect(t.slice(from)).toBe(' y\n');
  });
  it('covers the whole line when the column is past its end, and clamps the line', () => {
    expect(problemRange(text, 2, 40)).toEqual({ from: 6, to: 18, line: 2 });
    expect(problemRange(text, 3, 1)).toEqual({ from: 19, to: 19, line: 3 });
    expect(problemRange(text, 99, 1)).toEqual({ from: 20, to: 24, line: 4 });
  });
});

describe('countersNamed', () => {
  it('finds the engine counters a caption names, once each, not the words around them', () => {
    const names = ['pgactivate', 'pgdeactivate', 'workingset_refault_file', 'pswpout'];
    expect(countersNamed('moves it to the active list (pgactivate); pgdeactivate later, pgactivate again.', names)).toEqual(['pgactivate', 'pgdeactivate']);
    expect(countersNamed('Those refaults (workingset_refault_file) and workingset_eviction() of the kernel.', names)).toEqual(['workingset_refault_file']);
    expect(countersNamed('No counter here: activate, pswp.', names)).toEqual([]);
  });
});
