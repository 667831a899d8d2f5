import { defineConfig } from 'vitest/config';

/**
 * What Node.js itself does for the command: the compiled command's launcher (its V8 flags and
 * code cache) run end to end, files read in pieces and decoded, UTF-8 written into shared
 * memory. ADLOOM_TEST_FILES=runtime keeps only these: `npm test` runs them again on the
 * machine's Node.js (docs/decisions.md, "Each suite runs once, side by side").
 */
const RUNTIME = [
  'test/cli.test.ts',
  'src/feed.test.ts',
  'src/fileTables.test.ts',
  'src/bytes.test.ts',
];

export default defineConfig({
  test: {
    include:
      process.env.ADLOOM_TEST_FILES === 'runtime'
        ? RUNTIME
        : ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
