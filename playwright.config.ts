import { defineConfig } from '@playwright/test';
import { common } from './e2e/support/base';

// End-to-end tests run by `npm test`. Benchmarks, when they come, get their own
// config (reusing ./e2e/support/base) and their own npm script.
export default defineConfig({
  ...common,
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  timeout: 30_000,
  expect: { timeout: 10_000 },
});
