#!/usr/bin/env node
// Compiles the `adloom` command with the engine into one JavaScript file, dist/adloom.cjs, run by
// plain Node (no TypeScript loader at run time) through bin/compiled.cjs. bin/adloom.js calls it
// when that file is missing or older than a source file; `npm run build -w adloom` calls it
// directly.
import { renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTFILE } from './stale.cjs';

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundles src/main.ts and the engine into dist/adloom.cjs (written beside it, then renamed).
 * CommonJS, not an ES module: bin/compiled.cjs compiles it as a script with V8's code cache,
 * and Node's ES module loader alone cost each run and its ads' thread about 10 ms. Its first line
 * names the build, so a code cache made from another build is never used (V8 checks only the
 * source's length).
 */
export async function build() {
  const { build: esbuild } = await import('esbuild');
  // Loaded here, not at the top: the import of esbuild is only paid when a build is needed.
  const { randomBytes } = await import('node:crypto');
  const temp = `${OUTFILE}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const buildId = randomBytes(8).toString('hex');
  await esbuild({
    entryPoints: [path.join(cliRoot, 'src', 'main.ts')],
    outfile: temp,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: `// adloom build ${buildId}` },
    // iconv-lite is a CommonJS package in node_modules: loaded as it is at run time, by require
    // (the file is compiled as a script, which has no ES module loader for a dynamic import).
    external: ['iconv-lite'],
    supported: { 'dynamic-import': false },
    logLevel: 'warning',
  });
  // Concurrent builds each write their own file; the last rename wins with a whole file.
  renameSync(temp, OUTFILE);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await build();
}
