#!/usr/bin/env node
// The browser suite's time per file, costliest first, from a Playwright JSON report (the one
// `npm test` writes to .tmp/test-reports/browser.json): each file's tests, the sum of their
// runs' durations (a run again after a failure included) and the span from its first test's
// start to its last test's end (a worker's setup before the first test is in neither).
// Usage: node scripts/journey-times.mjs [REPORT] [--json]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './test-suites.mjs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? join(root, '.tmp/test-reports/browser.json');
const report = JSON.parse(readFileSync(file, 'utf8'));

/** @type {Map<string, { tests: number, runs: number, seconds: number, start: number, end: number }>} */
const files = new Map();
function visit(suite, path) {
  const at = suite.file ?? path;
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests ?? []) {
      const entry = files.get(at) ?? { tests: 0, runs: 0, seconds: 0, start: Infinity, end: 0 };
      entry.tests += 1;
      for (const result of test.results ?? []) {
        const start = Date.parse(result.startTime);
        entry.runs += 1;
        entry.seconds += result.duration / 1000;
        entry.start = Math.min(entry.start, start);
        entry.end = Math.max(entry.end, start + result.duration);
      }
      files.set(at, entry);
    }
  for (const child of suite.suites ?? []) visit(child, at);
}
for (const suite of report.suites ?? []) visit(suite, suite.file);

const rows = [...files.entries()]
  .map(([name, e]) => ({
    file: name,
    tests: e.tests,
    runs: e.runs,
    seconds: Number(e.seconds.toFixed(1)),
    span: Number(((e.end - e.start) / 1000).toFixed(1)),
  }))
  .sort((a, b) => b.seconds - a.seconds);
if (args.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  console.log(`${'file'.padEnd(44)} tests  runs  test time     span`);
  for (const r of rows)
    console.log(
      `${r.file.padEnd(44)} ${String(r.tests).padStart(5)} ${String(r.runs).padStart(5)} ${r.seconds.toFixed(1).padStart(9)} s ${r.span.toFixed(1).padStart(7)} s`,
    );
  const total = rows.reduce((sum, r) => sum + r.seconds, 0);
  console.log(`${'total'.padEnd(44)} ${' '.repeat(11)} ${total.toFixed(1).padStart(9)} s`);
}
