// Types of scripts/bench-results.mjs for the TypeScript benches (e2e/*.bench.ts).
export type RunInfo = { script: string; date: string; commit: string; load_avg: number[]; cores: number; cpu: string; [k: string]: unknown };
export const RESULTS_DIR: URL;
export function runInfo(script: string, extra?: Record<string, unknown>): RunInfo;
export function writeResults(name: string, run: RunInfo, results: Record<string, unknown>): void;
