import { defineConfig } from 'vitest/config';

// ADLOOM_TEST_DB=pglite (default) runs the suite on embedded PGlite; =postgres on a real
// PostgreSQL server that test/global-setup.ts starts on a loopback port.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
