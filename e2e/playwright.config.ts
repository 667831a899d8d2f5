import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from './chromium.ts';

// The browser tests, in system Chromium: the journeys (the built web app served by the real
// server) and the feed grid's and the combiner's tests against their harness page (built and
// served by grid/globalSetup.ts); globalSetup.ts prepares both. One run, so the grid's files fill the cores the journeys' last
// files leave free. Build first: `npm run build -w @adloom/web`. Run: `cd e2e && npx playwright
// test` (one of them: `--project journeys` or `--project grid`).
export default defineConfig({
  testDir: '.',
  globalSetup: './globalSetup.ts',
  fullyParallel: false,
  // Files run side by side, each worker with its own server and mailbox (`npm test` sets this to
  // the machine's cores); the tests of one file run in order.
  workers: Number(process.env.ADLOOM_E2E_WORKERS ?? 1),
  // `npm test` runs a journey that fails once more (ADLOOM_E2E_RETRIES=1) and names one that
  // then passes as flaky in its table, so timing that only a busy machine loses stays visible.
  retries: Number(process.env.ADLOOM_E2E_RETRIES ?? 0),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? 'list' : [['list']],
  outputDir: process.env.ADLOOM_E2E_OUT ?? '../.tmp/e2e-results',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // The headless shell asks before a page writes the clipboard; the full browser let journeys
    // paste rows without asking.
    permissions: ['clipboard-read', 'clipboard-write'],
    viewport: { width: 1280, height: 860 },
    // A trace records every step's DOM and a screencast: about a third of the journeys' CPU.
    // ADLOOM_E2E_TRACE=retain-on-failure keeps one for each failing journey.
    trace: (process.env.ADLOOM_E2E_TRACE as 'off' | 'retain-on-failure' | undefined) ?? 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'journeys', testDir: './journeys' },
    {
      name: 'grid',
      testDir: './grid',
      testMatch: '*.spec.ts',
      // A 100,000-row paste or import takes a while beside the journeys.
      timeout: 180_000,
      expect: { timeout: 30_000 },
      use: { viewport: { width: 1440, height: 1000 } },
    },
  ],
});
