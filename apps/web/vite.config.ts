import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The dev server forwards /api to a running Adloom server (`npx tsx apps/server/src/main.ts`).
const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3001';

/** The modules whose chunks make the signed-in app: its frame, its first page, the kit's styles. */
const SIGNED_IN_MODULES = [
  '/src/app/SignedInShell.tsx',
  '/src/pages/CampaignBuilderPage.tsx',
  '/@mantine/core/styles.layer.css',
];

/**
 * Names the signed-in app's files (its chunks, what they import and their CSS, minus what the
 * page loads anyway) in a meta tag of index.html; the sign-in pages prefetch them when idle
 * (src/app/prefetch.ts).
 */
function signedInPrefetchList(): Plugin {
  return {
    name: 'adloom-signed-in-prefetch',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const closure = (roots: string[]) => {
          const files = new Set<string>();
          const add = (fileName: string) => {
            if (files.has(fileName)) return;
            files.add(fileName);
            const output = bundle[fileName];
            if (output?.type !== 'chunk') return;
            output.imports.forEach(add);
            output.viteMetadata?.importedCss.forEach((css) => files.add(css));
          };
          roots.forEach(add);
          return files;
        };
        const isSignedIn = (id: string | null | undefined) =>
          SIGNED_IN_MODULES.some((m) => id?.endsWith(m));
        const outputs = Object.values(bundle);
        const loaded = closure(
          outputs.filter((o) => o.type === 'chunk' && o.isEntry).map((o) => o.fileName),
        );
        // A chunk by the module it stands for; a style sheet imported alone (no chunk) by its file.
        const signedIn = closure(
          outputs
            .filter((o) =>
              o.type === 'chunk'
                ? isSignedIn(o.facadeModuleId)
                : o.originalFileNames.some((name) => isSignedIn(`/${name}`)),
            )
            .map((o) => o.fileName),
        );
        const files = [...signedIn].filter((file) => !loaded.has(file));
        return [
          {
            tag: 'meta',
            attrs: { name: 'adloom-prefetch', content: files.map((f) => `/${f}`).join(' ') },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), signedInPrefetchList()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // React changes less often than the app: keep it in its own cacheable chunk. The other
        // libraries go with the chunks that use them, so the public pages load only what they use.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    setupFiles: ['./src/test-setup.ts'],
    // One module graph and one document per worker, set up once: the setup file puts back what
    // a test or a file changed of them (state/pageState.ts), so files need no isolation.
    isolate: false,
    css: false,
    // Component tests render Mantine in happy-dom: give them room on a loaded 2-core machine.
    testTimeout: 30_000,
  },
});
