#!/usr/bin/env node
// Runs every suite of the project in order and ends with one plain "N passed, N failed" line:
// lint, format, type and dead-code checks, unit tests of each workspace, the server's API suite
// on the embedded database and on a real PostgreSQL server, and the browser journeys in system
// Chromium. The unit and server suites run twice, on the Node.js that runs this script (the
// machine's, 20) and on Node.js 24 LTS; the build and the browser journeys run on Node.js 24.
// Node.js 24 comes from the npm registry's `node` package, installed once into .tmp/node24.
// Usage: node scripts/test.mjs [--only name,name] [--skip name,name] [--node24 both|only|none]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
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
const node24Mode = listArg('--node24')?.[0] ?? 'both';
if (!['both', 'only', 'none'].includes(node24Mode)) {
  console.error(`--node24 takes both, only or none, not ${node24Mode}`);
  process.exit(2);
}

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

const NODE24_VERSION = '24.21.0';
const node24Dir = join(root, '.tmp', 'node24');
const node24Bin = join(node24Dir, 'node_modules', '.bin');

/** Node.js 24 from the npm registry in .tmp/node24; false (and why) when it cannot be had. */
function ensureNode24() {
  const version = () =>
    spawnSync(join(node24Bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (version() === `v${NODE24_VERSION}`) return true;
  console.log(`Installing Node.js ${NODE24_VERSION} from the npm registry into .tmp/node24...`);
  mkdirSync(node24Dir, { recursive: true });
  // The package's install script fetches the platform's binary package; npm 11 runs it only
  // when the project allows it.
  writeFileSync(
    join(node24Dir, 'package.json'),
    JSON.stringify({ private: true, allowScripts: { node: true } }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node@${NODE24_VERSION}`], {
    cwd: node24Dir,
  });
  if (version() === `v${NODE24_VERSION}`) return true;
  console.error(`Node.js ${NODE24_VERSION} could not be installed into ${node24Dir}.`);
  return false;
}

/** The environment that makes `node` (and npx, npm's own scripts) Node.js 24. */
const node24Env = () => ({ PATH: `${node24Bin}${delimiter}${process.env.PATH}` });

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

/**
 * A suite is a name, a command, and how to read its counts; `node24` suites run with Node.js 24
 * first on PATH.
 */
const suites = [];
const check = (name, cmd, cmdArgs, node24 = false) =>
  suites.push({
    name,
    node24,
    exec: (extraEnv) => run(cmd, cmdArgs, { env: extraEnv }),
    counts: (r) => ({ passed: r.code === 0 ? 1 : 0, failed: r.code === 0 ? 0 : 1, skipped: 0 }),
  });
const vitest = (name, cwd, env = {}, node24 = false) => {
  const out = join(reportDir, `${name}.json`);
  suites.push({
    name,
    node24,
    exec: (extraEnv) =>
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
          env: { ...env, ...extraEnv },
        },
      ),
    counts: () => (existsSync(out) ? vitestCounts(out) : { passed: 0, failed: 1, skipped: 0 }),
  });
};
const playwright = (name, config, env = {}) => {
  const out = join(reportDir, `${name}.json`);
  suites.push({
    name,
    node24: true,
    needsChromium: true,
    exec: (extraEnv) =>
      run('npx', ['playwright', 'test', '-c', config, '--reporter=list,json'], {
        env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out, ...env, ...extraEnv },
      }),
    counts: () => (existsSync(out) ? playwrightCounts(out) : { passed: 0, failed: 1, skipped: 0 }),
  });
};

check('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
check('format', 'npx', ['prettier', '--check', '.']);
check('typecheck', 'npm', ['run', 'typecheck', '--silent']);
// Unused files, exports, dependencies and duplicate exports in every workspace (knip.json).
check('deadcode', 'npx', ['knip', '--no-progress']);
const unitSuites = (suffix, node24) => {
  vitest(`engine${suffix}`, 'packages/engine', {}, node24);
  vitest(`contract${suffix}`, 'packages/contract', {}, node24);
  vitest(`cli${suffix}`, 'apps/cli', {}, node24);
  vitest(`web${suffix}`, 'apps/web', {}, node24);
  vitest(`server-embedded${suffix}`, 'apps/server', { ADLOOM_TEST_DB: 'pglite' }, node24);
  vitest(`server-postgres${suffix}`, 'apps/server', { ADLOOM_TEST_DB: 'postgres' }, node24);
};
if (node24Mode !== 'only') unitSuites('', false);
if (node24Mode !== 'none') unitSuites('@24', true);
check('build', 'npm', ['run', 'build', '--silent'], true);
playwright('browser', 'e2e/playwright.config.ts');
if (existsSync(join(root, 'e2e/grid/playwright.config.ts')))
  playwright('browser-grid', 'e2e/grid/playwright.config.ts');

const selected = suites.filter((s) => (!only || only.includes(s.name)) && !skip.includes(s.name));
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
let chromiumReady = null;
let node24Ready = null;
const started = Date.now();
for (const suite of selected) {
  const onNode24 = suite.node24 && node24Mode !== 'none';
  console.log(`\n=== ${suite.name}${onNode24 ? ' (Node.js 24)' : ''} ===`);
  if (onNode24) {
    node24Ready ??= ensureNode24();
    if (!node24Ready) {
      totals.failed += 1;
      lines.push(`${suite.name.padEnd(18)} Node.js 24 missing`);
      continue;
    }
  }
  if (suite.needsChromium) {
    chromiumReady ??= ensureChromium();
    if (!chromiumReady) {
      totals.failed += 1;
      lines.push(`${suite.name.padEnd(18)} Chromium missing`);
      continue;
    }
  }
  const result = suite.exec(onNode24 ? node24Env() : {});
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
