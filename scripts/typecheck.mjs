#!/usr/bin/env node
// Type-checks every TypeScript project of the workspace, and fails when a test file (or a file a
// test suite needs: its helpers, reference implementations, benches) is in none of them.
// Usage: node scripts/typecheck.mjs
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { root } from './test-suites.mjs';

/** Every tsconfig the check runs: each workspace's, and the engine's tests'. */
const PROJECTS = [
  'packages/engine/tsconfig.json',
  'packages/engine/tsconfig.test.json',
  'packages/contract/tsconfig.json',
  'apps/server/tsconfig.json',
  'apps/web/tsconfig.json',
  'apps/cli/tsconfig.json',
  'e2e/tsconfig.json',
];

/** Folders whose TypeScript files must each be checked by one of the projects. */
const CHECKED_DIRS = ['packages', 'apps', 'e2e'];

/** The .ts and .tsx files below `dir`, skipping dependencies and build output. */
function typeScriptFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.'))
      continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...typeScriptFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/**
 * TypeScript 7 (the native compiler, `typescript-native`): the same errors as the 5.9 that
 * typescript-eslint's typed rules need, in about a third of the CPU time (docs/decisions.md).
 */
const TSC = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');

let failed = false;
const checked = new Set();
for (const project of PROJECTS) {
  const result = spawnSync(process.execPath, [TSC, '-p', project, '--listFiles'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = result.stdout.split('\n');
  for (const line of lines) if (line.startsWith('/')) checked.add(resolve(line.trim()));
  const errors = lines.filter((line) => line !== '' && !line.startsWith('/'));
  if (result.status !== 0) {
    failed = true;
    console.log(`${project}: type errors`);
    console.log(errors.join('\n'));
    if (result.stderr) console.log(result.stderr);
  } else console.log(`${project}: no type errors`);
}

const unchecked = CHECKED_DIRS.flatMap((dir) => typeScriptFiles(join(root, dir))).filter(
  (file) => !checked.has(file),
);
if (unchecked.length > 0) {
  failed = true;
  console.log(`${unchecked.length} TypeScript files are in no project the check runs:`);
  for (const file of unchecked) console.log(`  ${relative(root, file)}`);
}
process.exit(failed ? 1 : 0);
