#!/usr/bin/env node
// Compiles the `adloom` command with the engine into one JavaScript file, dist/adloom.js, run by
// plain Node (no TypeScript loader at run time). bin/adloom.js calls it when that file is missing
// or older than a source file; `npm run build -w adloom` calls it directly.
import { renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOlderThanSources } from '../../../scripts/sources.mjs';

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The compiled command. */
export const OUTFILE = path.join(cliRoot, 'dist', 'adloom.js');
/** The folders whose TypeScript the compiled command is made from. */
const SOURCES = [path.join(cliRoot, 'src'), path.resolve(cliRoot, '../../packages/engine/src')];

/** True when dist/adloom.js is missing or older than a source file. */
export function isBuildStale() {
  return isOlderThanSources(OUTFILE, SOURCES);
}

/** Bundles src/main.ts and the engine into dist/adloom.js (written beside it, then renamed). */
export async function build() {
  const { build: esbuild } = await import('esbuild');
  // Loaded here, not at the top: bin/adloom.js imports this file on every run.
  const { randomBytes } = await import('node:crypto');
  const temp = `${OUTFILE}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  await esbuild({
    entryPoints: [path.join(cliRoot, 'src', 'main.ts')],
    outfile: temp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // iconv-lite is a CommonJS package in node_modules: loaded as it is at run time.
    external: ['iconv-lite'],
    logLevel: 'warning',
  });
  // Concurrent builds each write their own file; the last rename wins with a whole file.
  renameSync(temp, OUTFILE);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await build();
}
