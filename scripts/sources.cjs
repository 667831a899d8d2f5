// Whether a build is older than what it is made from: shared by `npm start`'s web build step
// (build-web.mjs), the server's build script and the `adloom` command (which checks on every run,
// from CommonJS: apps/cli/scripts/stale.cjs).
'use strict';
const { existsSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const TEST_FILE = /\.test\.tsx?$/;

/** Newest modification time (ms) of the files at or below `paths` (tests left out; 0 if none). */
function newestSourceTime(paths) {
  let newest = 0;
  const visit = (file) => {
    if (!existsSync(file)) return;
    const info = statSync(file);
    if (info.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!TEST_FILE.test(file)) {
      newest = Math.max(newest, info.mtimeMs);
    }
  };
  for (const file of paths) visit(file);
  return newest;
}

/** True when `built` is missing or older than a file at or below `sources`. */
function isOlderThanSources(built, sources) {
  return !existsSync(built) || statSync(built).mtimeMs < newestSourceTime(sources);
}

exports.isOlderThanSources = isOlderThanSources;
