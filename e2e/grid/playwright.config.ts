import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './harnessServer.ts';

// Browser tests of the feed grid and the combiner against their harness page.
// Run: npx playwright test --config e2e/grid/playwright.config.ts
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './globalSetup.ts',
  outputDir: '../../.tmp/grid-test-results',
  fullyParallel: false,
  workers: 1,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: CHROMIUM,
    viewport: { width: 1440, height: 1000 },
    permissions: ['clipboard-read', 'clipboard-write'],
  },
});
