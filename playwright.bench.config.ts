import { defineConfig } from '@playwright/test';
import { common } from './e2e/support/base';

// Opt-in browser benchmarks (`npm run bench:web`), not part of `npm test`.
export default defineConfig({
  ...common,
  testDir: './e2e',
  testMatch: '**/*.bench.ts',
  outputDir: './test-results/bench',
  timeout: 120_000,
});
