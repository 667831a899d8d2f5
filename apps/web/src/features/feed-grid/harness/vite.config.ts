import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Builds the feed grid harness (a page with only the grid and the combiner) for browser tests
// and the benchmark: npx vite build --config apps/web/src/features/feed-grid/harness/vite.config.ts
const harnessRoot = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../../../../../../.tmp/grid-harness', import.meta.url));

export default defineConfig({
  root: harnessRoot,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  worker: { format: 'es' },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    reportCompressedSize: false,
    minify: process.env.GRID_HARNESS_MINIFY !== '0',
  },
});
