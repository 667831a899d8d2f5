#!/usr/bin/env node
// Prints the set of test names the test command runs, one a line (`file > describe > test`,
// sorted, each once; a server test with the database it runs on: `file [pglite] > ...`), so that
// two trees can be compared: nothing lost. The checks (lint, format,
// types, dead code, build) count as one test each and print as `check: NAME`.
// Usage: node scripts/test-names.mjs [--repo DIR] [--out FILE] [--compare BEFORE]
//   --compare lists the names of BEFORE (an earlier --out) that this tree does not run; a server
//   test that moved from both databases to the database-free run counts as kept.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { root as thisRoot } from './test-suites.mjs';

const args = process.argv.slice(2);
const argOf = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const repo = resolve(argOf('--repo') ?? thisRoot);
const out = argOf('--out');
const compare = argOf('--compare');

/**
 * Every run that lists tests, old layouts included: each vitest workspace (the server's once per
 * ADLOOM_TEST_DB value it takes) and each Playwright configuration.
 */
const LISTINGS = [
  { cwd: 'packages/engine' },
  { cwd: 'packages/contract' },
  { cwd: 'apps/cli' },
  { cwd: 'apps/web' },
  { cwd: 'apps/server', env: { ADLOOM_TEST_DB: 'none' }, optional: true },
  { cwd: 'apps/server', env: { ADLOOM_TEST_DB: 'pglite' } },
  { cwd: 'apps/server', env: { ADLOOM_TEST_DB: 'postgres' } },
  { config: 'e2e/playwright.config.ts' },
  // Before the grid's tests joined the journeys' configuration.
  { config: 'e2e/grid/playwright.config.ts', optional: true },
];
const CHECKS = ['lint', 'format', 'typecheck', 'deadcode', 'build'];

const scratch = mkdtempSync(join(tmpdir(), 'adloom-test-names-'));
const names = new Set(CHECKS.map((name) => `check: ${name}`));
/** A name on one line: line breaks in a title are written `\\n`. */
const oneLine = (name) => name.replaceAll('\r', '\\r').replaceAll('\n', '\\n');
let failed = false;

for (const [i, listing] of LISTINGS.entries()) {
  const file = join(scratch, `${i}.json`);
  if (listing.config) {
    if (!existsSync(join(repo, listing.config))) continue;
    const result = spawnSync(
      'npx',
      ['playwright', 'test', '-c', listing.config, '--list', '--reporter=json'],
      { cwd: repo, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    let report;
    try {
      report = JSON.parse(result.stdout);
    } catch {
      console.error(`${listing.config}: no list (${result.stderr.slice(0, 500)})`);
      failed = true;
      continue;
    }
    // Spec files are named relative to the configuration's test folder.
    const testDir = report.config?.rootDir ?? join(repo, listing.config, '..');
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        names.add(
          oneLine(
            `${relative(repo, join(testDir, spec.file))} > ${[...titles, spec.title].join(' > ')}`,
          ),
        );
      for (const child of suite.suites ?? [])
        walk(child, child.title && child.title !== child.file ? [...titles, child.title] : titles);
    };
    for (const suite of report.suites ?? []) walk(suite, []);
    continue;
  }
  const result = spawnSync('npx', ['vitest', 'list', `--json=${file}`], {
    cwd: join(repo, listing.cwd),
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', ...listing.env },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!existsSync(file)) {
    if (!listing.optional) {
      console.error(`${listing.cwd} ${JSON.stringify(listing.env ?? {})}: no list`);
      console.error(result.stdout.slice(-2000), result.stderr.slice(-2000));
      failed = true;
    }
    continue;
  }
  // A server test is named with the database it runs on (none: the database-free run).
  const database = listing.env?.ADLOOM_TEST_DB ? ` [${listing.env.ADLOOM_TEST_DB}]` : '';
  for (const test of JSON.parse(readFileSync(file, 'utf8')))
    names.add(oneLine(`${relative(repo, test.file)}${database} > ${test.name}`));
}
rmSync(scratch, { recursive: true, force: true });

const text = `${[...names].sort().join('\n')}\n`;
if (out) writeFileSync(out, text);
else if (!compare) process.stdout.write(text);
console.error(`${names.size} test names in ${repo}`);
if (compare) {
  const before = readFileSync(compare, 'utf8').split('\n').filter(Boolean);
  const asDatabaseFree = (name) => name.replace(/ \[(pglite|postgres)\] > /, ' [none] > ');
  const moved = before.filter((name) => !names.has(name) && names.has(asDatabaseFree(name)));
  const lost = before.filter((name) => !names.has(name) && !names.has(asDatabaseFree(name)));
  const added = [...names].filter((name) => !before.includes(name) && !name.includes(' [none] > '));
  console.log(`${before.length} names before, ${names.size} now`);
  console.log(`${moved.length} moved from a database run to the database-free run`);
  console.log(`${lost.length} not run now:`);
  for (const name of lost) console.log(`  - ${name}`);
  console.log(`${added.length} new (not counting the database-free run):`);
  for (const name of added) console.log(`  + ${name}`);
}
process.exit(failed ? 1 : 0);
