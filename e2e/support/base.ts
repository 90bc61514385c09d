// Shared Playwright settings: the Debian Chromium project and the preview web
// server. playwright.config.ts (the e2e tests run by `npm test`) uses them, and
// so does playwright.bench.config.ts (the opt-in benchmarks of `npm run
// bench:web`, which are not part of `npm test`).
import { devices, type PlaywrightTestConfig } from '@playwright/test';

export const previewPort = Number(process.env.RECLAIM_PREVIEW_PORT ?? 4173);
export const baseURL = `http://127.0.0.1:${previewPort}`;

// Playwright's own browser download does not work on these machines: drive
// Debian's chromium (apt package `chromium`, installed by scripts/bootstrap).
// Playwright adds --headless itself. The network flags stop Chromium from
// calling out, which this machine's closed network refuses.
export const chromiumProject = {
  name: 'debian-chromium',
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: process.env.RECLAIM_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
};

// Serves the production build (`npm run build` must have run; scripts/test-all
// does it). A server already on the port is never reused, so a run cannot test
// another checkout's build by accident.
export const webServer: PlaywrightTestConfig['webServer'] = {
  command: 'npm run --silent preview',
  url: baseURL,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore',
  stderr: 'pipe',
};

export const common: PlaywrightTestConfig = {
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    video: process.env.PW_VIDEO ? 'on' : 'off',
  },
  projects: [chromiumProject],
  webServer,
};
