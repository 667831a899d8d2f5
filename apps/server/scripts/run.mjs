#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072 node --max-semi-space-size=4
// Runs the compiled server (or `geo-load`, or `data`) with plain Node, compiling it first when dist/ is
// missing or older than its source (scripts/build.mjs):
//   ./scripts/run.mjs main       (`npm start`: with the first line's memory settings)
//   node scripts/run.mjs geo-load FILE
//   node scripts/run.mjs data backup|restore|export|import ... (src/data-command.ts)
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { OUTDIR, build, isBuildStale } from './build.mjs';

// The first line's settings, which only a process's start can make (so `npm start` runs this file
// itself, not `node scripts/run.mjs`), keep an idle server small after a large save:
// - glibc's malloc thresholds fixed at its defaults: otherwise, once a buffer of a few megabytes
//   (a 100k-row save's query, its answer) is freed, malloc raises them to that size and keeps up
//   to twice as much freed memory: about 100 MB of RSS that never went back after a 100k-row save.
// - V8's young generation capped at 4 MB per semi-space (16 by default; sized at start only).

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
