import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Unit tests of the feed grid and the combiner, runnable on their own:
// npx vitest run --config apps/web/src/features/feed-grid/harness/vitest.config.ts
const webRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  test: {
    environment: 'happy-dom',
    include: [
      'src/features/feed-grid/**/*.test.{ts,tsx}',
      'src/features/combiner/**/*.test.{ts,tsx}',
    ],
    css: false,
  },
});
