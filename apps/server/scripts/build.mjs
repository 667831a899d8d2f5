#!/usr/bin/env node
// Compiles the server into plain JavaScript, dist/ (main.js, geo-load.js, data.js, save-worker.js and their shared
// chunks, with the SQL migrations and PGlite's two workers beside them), run by plain Node: no
// TypeScript loader or esbuild process at run time. The packages the server lists as
// dependencies stay outside the bundle (loaded from node_modules); the workspace's own
// TypeScript (the contract, the engine) is compiled in. scripts/run.mjs builds when dist/ is
// missing or older than a source file; `npm run build -w @adloom/server` builds directly.
import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOlderThanSources } from '../../../scripts/sources.cjs';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The compiled server. */
export const OUTDIR = path.join(serverRoot, 'dist');
/** Written last: its presence means the folder is whole. */
const STAMP = path.join(OUTDIR, 'main.js');
/** The folders whose TypeScript (and SQL) the compiled server is made from. */
const SOURCES = [
  path.join(serverRoot, 'package.json'),
  path.join(serverRoot, 'src'),
  path.resolve(serverRoot, '../../packages/contract/src'),
  path.resolve(serverRoot, '../../packages/engine/src'),
];

/** True when dist/ is missing or older than a source file. */
export function isBuildStale() {
  return isOlderThanSources(STAMP, SOURCES);
}

/** Compiles into a fresh folder beside dist/, then puts it in dist/'s place. */
export async function build() {
  const { build: esbuild } = await import('esbuild');
  const pkg = JSON.parse(readFileSync(path.join(serverRoot, 'package.json'), 'utf8'));
  const temp = `${OUTDIR}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await esbuild({
      entryPoints: {
        main: path.join(serverRoot, 'src', 'main.ts'),
        'geo-load': path.join(serverRoot, 'src', 'geo-load.ts'),
        data: path.join(serverRoot, 'src', 'data-command.ts'),
        // Started by services/save-workers.ts as `new URL('./save-worker.js', import.meta.url)`:
        // it must sit beside the chunk that code lands in, at the top of dist/ like every chunk.
        'save-worker': path.join(serverRoot, 'src', 'services', 'save-worker.ts'),
      },
      outdir: temp,
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: Object.keys(pkg.dependencies ?? {}),
      // A CommonJS package bundled into ESM may call require().
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
      sourcemap: true,
      logLevel: 'warning',
    });
    // What the code reads beside itself (import.meta.url): the migrations and the embedded
    // database's workers (initdb, and the one the server's statements run in).
    cpSync(path.join(serverRoot, 'src', 'db', 'migrations'), path.join(temp, 'migrations'), {
      recursive: true,
    });
    for (const worker of ['pglite-initdb.mjs', 'pglite-worker.mjs'])
      cpSync(path.join(serverRoot, 'src', 'db', worker), path.join(temp, worker));
    // Concurrent builds each make their own folder; the last rename wins with a whole one.
    rmSync(OUTDIR, { recursive: true, force: true });
    renameSync(temp, OUTDIR);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await build();
}
