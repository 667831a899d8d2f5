import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Files share a worker's modules: the engine keeps no state between calls (its module-level
    // tables are constant), and importing it again for each file was half the suite's CPU.
    isolate: false,
  },
});
