import { defineConfig } from '@playwright/test';
import { common } from './e2e/support/base';

// End-to-end tests run by `npm test`. The benchmarks (e2e/*.bench.ts) have their
// own config, playwright.bench.config.ts, and npm script, `npm run bench:web`.
export default defineConfig({
  ...common,
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  // Sized for a loaded machine (issue #25): several tests take 35-40 s of wall time when
  // two other test suites share the 2 cores; a passing test is not slowed by a larger limit.
  timeout: 120_000,
  expect: { timeout: 10_000 },
});
