#!/usr/bin/env node
// Runs every suite of the project in order and ends with one plain "N passed, N failed" line:
// lint, format, type and dead-code checks, unit tests of each workspace, the server's API suite
// on the embedded database and on a real PostgreSQL server, and the browser journeys in system
// Chromium.
// Usage: node scripts/test.mjs [--only name,name] [--skip name,name]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const reportDir = join(root, '.tmp', 'test-reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

const args = process.argv.slice(2);
const listArg = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 && args[i + 1] ? args[i + 1].split(',') : null;
};
const only = listArg('--only');
const skip = listArg('--skip') ?? [];

const CHROMIUM = '/usr/bin/chromium';

function run(cmd, cmdArgs, options = {}) {
  const started = Date.now();
  const result = spawnSync(cmd, cmdArgs, {
    cwd: options.cwd ?? root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0', ...options.env },
  });
  return { code: result.status ?? 1, seconds: (Date.now() - started) / 1000 };
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium is missing at ${CHROMIUM}. Install it: sudo apt-get install -y chromium`,
    );
    return false;
  }
  console.log(
    'Installing Chromium from Debian (apt-get install -y chromium) for the browser tests...',
  );
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', 'chromium'], { env });
  return existsSync(CHROMIUM);
}

function vitestCounts(file) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: report.numPassedTests ?? 0,
    failed:
      (report.numFailedTests ?? 0) +
      (report.numRuntimeErrorTestSuites ?? 0) +
      (report.success === false && !report.numFailedTests ? 1 : 0),
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

function playwrightCounts(file) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const s = report.stats ?? {};
  const errors = Array.isArray(report.errors) ? report.errors.length : 0;
  return {
    passed: (s.expected ?? 0) + (s.flaky ?? 0),
    failed: (s.unexpected ?? 0) + errors,
    skipped: s.skipped ?? 0,
  };
}

/** A suite is a name, a command, and how to read its counts. */
const suites = [];
const check = (name, cmd, cmdArgs, options) =>
  suites.push({
    name,
    exec: () => run(cmd, cmdArgs, options),
    counts: (r) => ({ passed: r.code === 0 ? 1 : 0, failed: r.code === 0 ? 0 : 1, skipped: 0 }),
  });
const vitest = (name, cwd, env = {}) => {
  const out = join(reportDir, `${name}.json`);
  suites.push({
    name,
    exec: () =>
      run(
        'npx',
        [
          'vitest',
          'run',
          '--passWithNoTests',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${out}`,
        ],
        {
          cwd: join(root, cwd),
          env,
        },
      ),
    counts: () => (existsSync(out) ? vitestCounts(out) : { passed: 0, failed: 1, skipped: 0 }),
  });
};
const playwright = (name, config, env = {}) => {
  const out = join(reportDir, `${name}.json`);
  suites.push({
    name,
    needsChromium: true,
    exec: () =>
      run('npx', ['playwright', 'test', '-c', config, '--reporter=list,json'], {
        env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out, ...env },
      }),
    counts: () => (existsSync(out) ? playwrightCounts(out) : { passed: 0, failed: 1, skipped: 0 }),
  });
};

check('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
check('format', 'npx', ['prettier', '--check', '.']);
check('typecheck', 'npm', ['run', 'typecheck', '--silent']);
// Unused files, exports, dependencies and duplicate exports in every workspace (knip.json).
check('deadcode', 'npx', ['knip', '--no-progress']);
vitest('engine', 'packages/engine');
vitest('contract', 'packages/contract');
vitest('cli', 'apps/cli');
vitest('web', 'apps/web');
vitest('server-embedded', 'apps/server', { ADLOOM_TEST_DB: 'pglite' });
vitest('server-postgres', 'apps/server', { ADLOOM_TEST_DB: 'postgres' });
check('build', 'npm', ['run', 'build', '--silent']);
playwright('browser', 'e2e/playwright.config.ts');
if (existsSync(join(root, 'e2e/grid/playwright.config.ts')))
  playwright('browser-grid', 'e2e/grid/playwright.config.ts');

const selected = suites.filter((s) => (!only || only.includes(s.name)) && !skip.includes(s.name));
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
let chromiumReady = null;
const started = Date.now();
for (const suite of selected) {
  console.log(`\n=== ${suite.name} ===`);
  if (suite.needsChromium) {
    chromiumReady ??= ensureChromium();
    if (!chromiumReady) {
      totals.failed += 1;
      lines.push(`${suite.name.padEnd(18)} Chromium missing`);
      continue;
    }
  }
  const result = suite.exec();
  const c = suite.counts(result);
  if (result.code !== 0 && c.failed === 0) c.failed = 1; // a runner that died still fails the run
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped;
  lines.push(
    `${suite.name.padEnd(18)} ${String(c.passed).padStart(5)} passed ${String(c.failed).padStart(4)} failed ${String(c.skipped).padStart(4)} skipped  ${result.seconds.toFixed(1)} s`,
  );
}
console.log('\n=== summary ===');
for (const l of lines) console.log(l);
console.log(`total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
