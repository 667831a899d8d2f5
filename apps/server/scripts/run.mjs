#!/usr/bin/env node
// Runs the compiled server (or `geo-load`, or `data`) with plain Node, compiling it first when dist/ is
// missing or older than its source (scripts/build.mjs):
//   node scripts/run.mjs main
//   node scripts/run.mjs geo-load FILE
//   node scripts/run.mjs data backup|restore|export|import ... (src/data-command.ts)
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { OUTDIR, build, isBuildStale } from './build.mjs';

const ENTRIES = new Set(['main', 'geo-load', 'data']);
/** A build older than this is taken for one that died: its lock is broken. */
const STALE_LOCK_MS = 120_000;

/** Builds unless another process is building (several servers start at once): then waits for it. */
async function buildOnce() {
  const lock = `${OUTDIR}.lock`;
  for (;;) {
    let fd;
    try {
      fd = openSync(lock, 'wx');
    } catch {
      let age;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age > STALE_LOCK_MS) rmSync(lock, { force: true });
      else await sleep(100);
      continue;
    }
    try {
      if (isBuildStale()) await build();
    } finally {
      closeSync(fd);
      rmSync(lock, { force: true });
    }
    return;
  }
}

const entry = process.argv[2] ?? '';
if (!ENTRIES.has(entry)) {
  process.stderr.write(`usage: node scripts/run.mjs main | geo-load FILE | data COMMAND ...\n`);
  process.exit(2);
}
if (isBuildStale()) await buildOnce();
// The entry reads its own arguments from process.argv[2] on.
process.argv.splice(2, 1);
await import(`../dist/${entry}.js`);
