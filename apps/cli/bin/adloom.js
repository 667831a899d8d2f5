#!/usr/bin/env -S node --max-semi-space-size=4 --single-threaded
// The `adloom` command: runs the compiled dist/adloom.js with plain Node, compiling it first
// when it is missing or older than its TypeScript source (scripts/build.mjs).
// Young generation capped at 4 MB per semi-space (V8 sizes it once, at start; the flag cannot be
// set from here): the command's short-lived strings die young anyway, and the default 16 MB
// semi-spaces held about 23 MB more at 50k rows for no time saved. --single-threaded: V8 runs no
// background tasks (garbage collection helpers, optimising compiles); the command's own two threads
// keep two cores busy, and helpers beside them only took turns with them (50k rows: wall 0.56 ->
// 0.52 s, CPU 0.95 -> 0.81 s, median of 10 interleaved runs).
import { build, isBuildStale } from '../scripts/build.mjs';

if (isBuildStale()) await build();
await import('../dist/adloom.js');
