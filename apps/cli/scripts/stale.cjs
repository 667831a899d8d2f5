// Where the compiled command is and whether it must be built again: CommonJS, as bin/adloom.js
// checks it on every run (an ES module would load Node's ES module loader first).
'use strict';
const path = require('node:path');
const { isOlderThanSources } = require('../../../scripts/sources.cjs');

const cliRoot = path.resolve(__dirname, '..');
/** The compiled command (scripts/build.mjs). */
const OUTFILE = path.join(cliRoot, 'dist', 'adloom.cjs');
/** The folders whose TypeScript the compiled command is made from. */
const SOURCES = [path.join(cliRoot, 'src'), path.resolve(cliRoot, '../../packages/engine/src')];

/** True when dist/adloom.cjs is missing or older than a source file. */
function isBuildStale() {
  return isOlderThanSources(OUTFILE, SOURCES);
}

exports.OUTFILE = OUTFILE;
exports.isBuildStale = isBuildStale;
