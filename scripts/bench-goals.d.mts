// Types of scripts/bench-goals.mjs (its test, scripts/bench-goals.test.ts).
export type Judged = { value: string; met: string; from?: string[] };
export type Goal = { id: string; goal: string; needs: string[]; judge(results: Record<string, any>): Judged };
export const HEADING: string;
export const GOALS: Goal[];
export function runCell(name: string, run: { date: string; commit: string; load_avg: number[]; load_avg_start?: number; transcribed?: string }): string;
export function goalsTable(results: Record<string, any>, notes: Record<string, string>): string;
export function readResults(dir?: URL): { results: Record<string, any>; notes: Record<string, string> };
export function replaceGoals(doc: string, table: string): string;
export function writeGoals(): void;
