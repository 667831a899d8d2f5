// Runs the compiled command (dist/adloom.cjs, scripts/build.mjs) on this thread: the main thread
// (bin/adloom.js requires this file) or the ads' thread (started from this file, see
// src/adsThread.ts).
//
// The file is compiled with V8's code cache: the bytecode of the functions a run compiled, kept in
// dist/ beside it, one file per thread (each compiles its own functions). A run that found no
// usable cache (none yet, another build, other V8 flags or version) keeps its own once its work is
// done; later runs skip most of the compiling. A folder that cannot be written only costs the
// compiling. V8 checks a cache against the source's length only, so the cache starts with the
// build's first line (which names the build) and is used only with that build.
'use strict';
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire, wrap } = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');
const { isMainThread, threadId } = require('node:worker_threads');
const { OUTFILE } = require('../scripts/stale.cjs');

// V8 takes a cache only from a run with the same flags: a run without --single-threaded (a plan,
// bin/adloom.js) keeps its own.
const CACHE = path.join(
  path.dirname(OUTFILE),
  `${isMainThread ? 'adloom' : 'adloom-ads'}${process.execArgv.includes('--single-threaded') ? '-st' : ''}.cache`,
);

const source = readFileSync(OUTFILE, 'utf8');
const header = Buffer.from(`${source.slice(0, source.indexOf('\n'))}\n`);

/** The cache of this build, or undefined. */
function readCache() {
  let cache;
  try {
    cache = readFileSync(CACHE);
  } catch {
    return undefined;
  }
  return cache.subarray(0, header.length).equals(header)
    ? cache.subarray(header.length)
    : undefined;
}

const cachedData = readCache();
const script = new vm.Script(wrap(source), {
  filename: OUTFILE,
  cachedData,
});

/** Keeps the functions this thread compiled for the next runs (written beside, then renamed). */
function keepCompiled() {
  const temp = `${CACHE}.${process.pid}-${threadId}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([header, script.createCachedData()]));
    renameSync(temp, CACHE);
  } catch {
    rmSync(temp, { force: true });
  }
}

const compiled = { exports: {} };
script
  .runInThisContext()
  .call(
    compiled.exports,
    compiled.exports,
    createRequire(OUTFILE),
    compiled,
    OUTFILE,
    path.dirname(OUTFILE),
  );
compiled.exports.main(
  pathToFileURL(__filename),
  cachedData === undefined || script.cachedDataRejected ? keepCompiled : undefined,
);
