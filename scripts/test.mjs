#!/usr/bin/env node
// Runs every suite of the project (test-suites.mjs) side by side within the machine's cores and
// ends with one plain "N passed, N failed, N skipped" line: lint, format, type and dead-code
// checks, the unit suites, the server's suites (database-free files once, the others on the
// embedded database and on a real PostgreSQL server), the build, and the browser journeys last.
// Each suite's output goes to .tmp/test-reports/NAME.log and is printed when the suite ends; a
// table of each suite's start, time and CPU seconds closes the run (also in .tmp/test-times.json).
// Usage: node scripts/test.mjs [--only name,name] [--skip name,name] [--jobs N] [--prepare]
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import { NODE24_VERSION, reportDir, root, suites } from './test-suites.mjs';

const args = process.argv.slice(2);
const argOf = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = argOf('--only')?.split(',');
const skip = argOf('--skip')?.split(',') ?? [];
const cores = Number(argOf('--jobs') ?? availableParallelism());
if (!Number.isInteger(cores) || cores < 1) {
  console.error('--jobs takes a whole number of 1 or more');
  process.exit(2);
}

// `--prepare`: only install what the suites run on (Node.js 24), e.g. while `npm ci` runs.
const isPrepareOnly = args.includes('--prepare');
if (!isPrepareOnly) {
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
}

/** The browser tests' Chromium (TEST_CHROMIUM_PATH in e2e/chromium.ts): Debian's headless shell. */
const CHROMIUM = process.env.TEST_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
const CHROMIUM_PACKAGE = 'chromium-headless-shell';

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium's headless shell is missing at ${CHROMIUM}. Install it: sudo apt-get install -y ${CHROMIUM_PACKAGE}`,
    );
    return false;
  }
  console.log(`Installing ${CHROMIUM_PACKAGE} from Debian for the browser tests...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', CHROMIUM_PACKAGE], { stdio: 'inherit', env });
  return existsSync(CHROMIUM);
}

const node24Dir = join(root, '.tmp', 'node24');
const node24Bin = join(node24Dir, 'node_modules', '.bin');
const machineIs24 = process.version === `v${NODE24_VERSION}`;

/** Node.js 24 from the npm registry in .tmp/node24; false (and why) when it cannot be had. */
function ensureNode24() {
  if (machineIs24) return true;
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
  spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node@${NODE24_VERSION}`], {
    cwd: node24Dir,
    stdio: 'inherit',
  });
  if (version() === `v${NODE24_VERSION}`) return true;
  console.error(`Node.js ${NODE24_VERSION} could not be installed into ${node24Dir}.`);
  return false;
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
    ...(s.flaky ? { note: `${s.flaky} flaky (passed when run again)` } : {}),
  };
}

/** The command, arguments and environment that run `suite`, and how to read its counts. */
function commandOf(suite) {
  const report = join(reportDir, `${suite.name}.json`);
  const counts = (code) => {
    if (suite.kind === 'check')
      return { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 };
    if (!existsSync(report)) return { passed: 0, failed: 1, skipped: 0 };
    return suite.kind === 'vitest' ? vitestCounts(report) : playwrightCounts(report);
  };
  if (suite.kind === 'vitest')
    return {
      cmd: 'npx',
      args: [
        'vitest',
        'run',
        '--passWithNoTests',
        `--maxWorkers=${suite.cores}`,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ],
      cwd: join(root, suite.cwd),
      env: suite.env ?? {},
      counts,
    };
  if (suite.kind === 'playwright')
    return {
      cmd: 'npx',
      args: ['playwright', 'test', '-c', suite.config, '--reporter=list,json'],
      cwd: root,
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report, ...suite.env },
      counts,
    };
  return { cmd: suite.cmd, args: suite.args, cwd: root, env: suite.env ?? {}, counts };
}

if (isPrepareOnly) process.exit(ensureNode24() ? 0 : 1);

const all = suites({ cores });
const selected = all.filter((s) => (!only || only.includes(s.name)) && !skip.includes(s.name));
const selectedNames = new Set(selected.map((s) => s.name));
const node24Ready = selected.some((s) => s.node === '24') ? ensureNode24() : true;
const chromiumReady = selected.some((s) => s.kind === 'playwright') ? ensureChromium() : true;
const node24Path = machineIs24 ? process.env.PATH : `${node24Bin}${delimiter}${process.env.PATH}`;

/** @type {Map<string, { passed: number, failed: number, skipped: number, seconds: number, cpu?: number, startedAt: number, note?: string, node: string }>} */
const results = new Map();
/** `endedChildrenCpu()` when the last suite ended. */
let cpuSeen = endedChildrenCpu() ?? 0;
const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;

/**
 * CPU seconds of this process's ended children so far (Linux: `cutime` + `cstime` of
 * /proc/self/stat, which count a child and every descendant it waited for), or undefined.
 * Read as a suite's process ends, its growth is that suite's CPU time: a figure a busy machine
 * moves far less than the wall-clock time.
 */
function endedChildrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5), counted from the state (field 3) here.
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** `getconf CLK_TCK`: 100 on Linux. */
const CLOCK_TICKS = 100;

/** Runs one suite with its output in its log; resolves when it ends. */
function runSuite(suite) {
  const nodeName = suite.node === '24' ? '24' : process.version.slice(1).split('.')[0];
  const fail = (note) => {
    results.set(suite.name, {
      passed: 0,
      failed: 1,
      skipped: 0,
      seconds: 0,
      startedAt: elapsed(),
      note,
      node: nodeName,
    });
    console.log(`\n=== ${suite.name}: ${note} ===`);
    return Promise.resolve();
  };
  if (suite.node === '24' && !node24Ready) return fail('Node.js 24 missing');
  if (suite.kind === 'playwright' && !chromiumReady) return fail('Chromium missing');
  const failedBefore = (suite.needs ?? []).filter(
    (name) => selectedNames.has(name) && results.get(name)?.failed,
  );
  if (failedBefore.length > 0) return fail(`not run: ${failedBefore.join(', ')} failed`);

  const { cmd, args: cmdArgs, cwd, env, counts } = commandOf(suite);
  const logFile = join(reportDir, `${suite.name}.log`);
  const log = openSync(logFile, 'w');
  const startedAt = elapsed();
  console.log(
    `[${startedAt.toFixed(0).padStart(4)} s] ${suite.name} started (Node.js ${nodeName})`,
  );
  return new Promise((done) => {
    const child = spawn(cmd, cmdArgs, {
      cwd,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        FORCE_COLOR: '0',
        ...(suite.node === '24' ? { PATH: node24Path } : {}),
        ...env,
      },
    });
    const finish = (code) => {
      const cpuAfter = endedChildrenCpu();
      const cpu = cpuAfter === undefined ? undefined : cpuAfter - cpuSeen;
      if (cpuAfter !== undefined) cpuSeen = cpuAfter;
      closeSync(log);
      const c = counts(code);
      if (code !== 0 && c.failed === 0) c.failed = 1; // a runner that died still fails the run
      const seconds = elapsed() - startedAt;
      results.set(suite.name, { ...c, seconds, cpu, startedAt, node: nodeName });
      const text = readFileSync(logFile, 'utf8');
      // A passing suite prints its last lines; a failing one all of it.
      const lines = text.trimEnd().split('\n');
      const shown = c.failed > 0 ? lines : lines.slice(-12);
      console.log(
        `\n=== ${suite.name} (Node.js ${nodeName}): ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped in ${seconds.toFixed(1)} s${cpu === undefined ? '' : `, ${cpu.toFixed(1)} CPU-s`} ===`,
      );
      if (c.failed === 0 && lines.length > shown.length)
        console.log(`(… ${lines.length - shown.length} lines in ${logFile})`);
      console.log(shown.join('\n'));
      done();
    };
    child.on('error', (error) => {
      writeFileSync(logFile, `${error.message}\n`, { flag: 'a' });
      finish(1);
    });
    child.on('close', (code) => finish(code ?? 1));
  });
}

/**
 * Starts suites in order while their cores fit in the free ones (a suite wider than the machine
 * starts when it is idle). A suite marked `last` waits until every other suite has started, then
 * starts as soon as a core is free, taking the rest as they free up.
 */
async function schedule() {
  const waiting = [...selected];
  const running = new Map();
  let free = cores;
  const isDone = (name) => !selectedNames.has(name) || results.has(name);
  while (waiting.length > 0 || running.size > 0) {
    for (let i = 0; i < waiting.length;) {
      const suite = waiting[i];
      const fits = suite.last
        ? waiting.every((s) => s.last) && (free > 0 || running.size === 0)
        : suite.cores <= free || running.size === 0;
      if (!fits || !(suite.after ?? []).every(isDone)) {
        i += 1;
        continue;
      }
      waiting.splice(i, 1);
      const taken = Math.min(suite.cores, Math.max(free, 1));
      free -= taken;
      running.set(
        suite.name,
        runSuite(suite).then(() => {
          free += taken;
          running.delete(suite.name);
        }),
      );
    }
    if (running.size === 0) {
      // Nothing can start: what is left waits on a suite that is not selected.
      for (const suite of waiting.splice(0)) await runSuite({ ...suite, after: [], needs: [] });
      break;
    }
    await Promise.race(running.values());
  }
}

await schedule();

const totals = { passed: 0, failed: 0, skipped: 0 };
const table = [];
console.log('\n=== summary ===');
console.log(
  `${'suite'.padEnd(24)} node  start   time    cpu  ${'passed'.padStart(6)} ${'failed'.padStart(6)} ${'skipped'.padStart(7)}`,
);
for (const suite of selected) {
  const r = results.get(suite.name);
  if (!r) continue;
  totals.passed += r.passed;
  totals.failed += r.failed;
  totals.skipped += r.skipped;
  table.push({ suite: suite.name, ...r });
  console.log(
    `${suite.name.padEnd(24)} ${r.node.padStart(4)} ${r.startedAt.toFixed(0).padStart(6)} ${r.seconds.toFixed(1).padStart(6)} ${(r.cpu === undefined ? '-' : r.cpu.toFixed(0)).padStart(6)}  ${String(r.passed).padStart(6)} ${String(r.failed).padStart(6)} ${String(r.skipped).padStart(7)}${r.note ? `  ${r.note}` : ''}`,
  );
}
const totalSeconds = elapsed();
const totalCpu = table.reduce((sum, r) => sum + (r.cpu ?? 0), 0);
console.log(
  `total time ${totalSeconds.toFixed(0)} s on ${cores} cores, ${totalCpu.toFixed(0)} CPU-s of suites`,
);
writeFileSync(
  join(root, '.tmp', 'test-times.json'),
  `${JSON.stringify({ date: new Date().toISOString(), cores, totalSeconds, totalCpu, suites: table }, null, 2)}\n`,
);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
