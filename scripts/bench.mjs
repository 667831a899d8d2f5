#!/usr/bin/env node
// Runs every benchmark and collects the figures each prints as its last line (one JSON object)
// into .tmp/bench/latest.json. Benchmarks report; they never fail on a time.
// Usage: node scripts/bench.mjs [--only name,name] (the names of `benches` below)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1]?.split(',') : null;

const benches = [
  { name: 'engine', file: 'packages/engine/bench/engine.bench.ts' },
  { name: 'plan', file: 'packages/engine/bench/plan.bench.ts' },
  { name: 'formats', file: 'packages/engine/bench/formats.bench.ts' },
  { name: 'cli', file: 'apps/cli/bench/cli.bench.ts' },
  { name: 'workspace', file: 'apps/server/bench/workspace.bench.ts', args: ['--db', 'both'] },
  { name: 'cluster', file: 'apps/server/bench/cluster.bench.ts' },
  { name: 'fair-use', file: 'apps/server/bench/fair-use.bench.ts', args: ['--db', 'both'] },
  { name: 'save-body', file: 'apps/server/bench/save-body.bench.ts', args: [] },
  { name: 'bundle-wire', file: 'apps/server/bench/bundle-wire.bench.ts' },
  { name: 'text-rule', file: 'apps/server/bench/text-rule.bench.ts' },
  { name: 'sheets', file: 'apps/server/bench/sheets.bench.ts' },
  { name: 'xml', file: 'apps/server/bench/xml.bench.ts' },
  { name: 'geo', file: 'apps/server/bench/geo.bench.ts', args: ['--db', 'both'] },
  { name: 'server-rss', file: 'apps/server/bench/server-rss.bench.ts', args: ['--db', 'both'] },
  { name: 'builds', file: 'apps/server/bench/builds.bench.ts', args: ['--db', 'both'] },
  // Deletes the web app's and the server's builds first: `npm start` on a fresh clone.
  {
    name: 'start',
    file: 'apps/server/bench/server-rss.bench.ts',
    args: ['--db', 'none', '--start'],
  },
  { name: 'grid', file: 'e2e/grid/grid.bench.ts' },
  { name: 'builder', file: 'e2e/bench/builder.bench.ts' },
  { name: 'generation', file: 'e2e/bench/generation.bench.ts' },
  { name: 'plan-browser', file: 'e2e/bench/plan.bench.ts' },
  { name: 'lighthouse', file: 'e2e/bench/lighthouse.bench.ts' },
];

const figures = {};
for (const bench of benches) {
  if (only && !only.includes(bench.name)) continue;
  if (!existsSync(join(root, bench.file))) {
    console.log(`\n=== ${bench.name}: not present (${bench.file}) ===`);
    continue;
  }
  console.log(`\n=== ${bench.name} (${bench.file}) ===`);
  const result = spawnSync('npx', ['tsx', bench.file, ...(bench.args ?? [])], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(result.stdout ?? '');
  const last = (result.stdout ?? '').trim().split('\n').pop() ?? '';
  try {
    figures[bench.name] = JSON.parse(last);
  } catch {
    figures[bench.name] = { error: `exit ${result.status}; no JSON figures on the last line` };
  }
}
mkdirSync(join(root, '.tmp', 'bench'), { recursive: true });
const out = join(root, '.tmp', 'bench', 'latest.json');
writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), figures }, null, 2));
console.log(`\nFigures written to ${out}`);
