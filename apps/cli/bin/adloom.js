#!/usr/bin/env -S node --max-semi-space-size=4 --single-threaded --max-inlined-bytecode-size=230 --max-inlined-bytecode-size-cumulative=460
// The `adloom` command: runs the compiled dist/adloom.cjs with plain Node (compiled.cjs), compiling
// it first when it is missing or older than its TypeScript source (scripts/build.mjs).
// CommonJS (bin/package.json): a command that starts as an ES module loads Node's ES module loader
// first, about 10 ms of every run.
// Young generation capped at 4 MB per semi-space (V8 sizes it once, at start; the flag cannot be
// set from here): the command's short-lived strings die young anyway, and the default 16 MB
// semi-spaces held about 23 MB more at 50k rows for no time saved. --single-threaded: V8 runs no
// background tasks (garbage collection helpers, optimising compiles); the command's own two threads
// keep two cores busy, and helpers beside them only took turns with them (50k rows: wall 0.56 ->
// 0.52 s, CPU 0.95 -> 0.81 s, median of 10 interleaved runs). Inlining limits at half V8's
// (460 and 920 bytes of bytecode): with --single-threaded the optimising compiler runs on the
// command's own threads, and a run of seconds gains more from its shorter compiles than it loses
// in code (50k rows: wall 0.395 -> 0.375 s, median of 12 interleaved runs; 1M rows no different).
'use strict';
const { isBuildStale } = require('../scripts/stale.cjs');

// `adloom plan` holds the last build's baseline (millions of items in typed arrays) after the
// build is made: without V8's background threads, what the build left behind is given back too
// late (1M rows: peak 867 MB with --single-threaded, 594 MB without; the same CPU). A plan
// started with the flag runs again without it.
const singleThreaded = process.execArgv.indexOf('--single-threaded');
if (process.argv[2] === 'plan' && singleThreaded >= 0) {
  const { spawnSync } = require('node:child_process');
  const flags = process.execArgv.filter((_, i) => i !== singleThreaded);
  const r = spawnSync(process.execPath, [...flags, __filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  if (r.signal) process.kill(process.pid, r.signal);
  process.exitCode = r.status ?? 1;
} else if (isBuildStale()) {
  import('../scripts/build.mjs').then(({ build }) => build()).then(() => require('./compiled.cjs'));
} else {
  require('./compiled.cjs');
}
