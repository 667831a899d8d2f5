// Lighthouse on the public pages (/ and /login) of the built app served by the real server:
// mobile, simulated throttling (Lighthouse's defaults), system Chromium. Lighthouse 13 needs
// Node 22+, which the project does not: it and Node 24 are installed from the npm registry into
// a cache folder outside the install tree (.tmp/lighthouse, or ADLOOM_LIGHTHOUSE_DIR) when missing.
// Run: npx tsx e2e/bench/lighthouse.bench.ts [--runs 3] [--paths /,/login] [--url http://...]
// The app is taken from ADLOOM_E2E_DIST, else apps/web/dist (built first when it is missing),
// served by a server this bench starts, or by the one running at --url.
// Prints each run's scores, the failed audits of the median run, and as the last line one JSON
// object with the median run of each page.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { ensureWebAppBuilt } from './figures.ts';
import { REPO_ROOT, startServer } from '../support/server.ts';

const LIGHTHOUSE = 'lighthouse@13.5.0';
const NODE = 'node@24.21.0';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    paths: { type: 'string', default: '/,/login' },
    url: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const PATHS = args.paths.split(',');
const cacheDir = resolve(process.env.ADLOOM_LIGHTHOUSE_DIR ?? join(REPO_ROOT, '.tmp/lighthouse'));
const nodeBin = join(cacheDir, 'node_modules/.bin/node');
const lighthouseCli = join(cacheDir, 'node_modules/lighthouse/cli/index.js');

/** Installs Lighthouse and Node 24 into the cache folder when they are not there yet. */
function ensureLighthouse(): void {
  if (existsSync(nodeBin) && existsSync(lighthouseCli)) return;
  console.log(`Installing ${LIGHTHOUSE} and ${NODE} into ${cacheDir} ...`);
  mkdirSync(cacheDir, { recursive: true });
  // Node's package fetches its binary in a preinstall script, which npm runs only when allowed.
  writeFileSync(
    join(cacheDir, 'package.json'),
    JSON.stringify({ name: 'adloom-lighthouse', private: true, allowScripts: { node: true } }),
  );
  const install = spawnSync(
    'npm',
    ['install', '--prefix', cacheDir, '--no-audit', '--no-fund', LIGHTHOUSE, NODE],
    { stdio: 'inherit' },
  );
  if (install.status !== 0 || !existsSync(nodeBin) || !existsSync(lighthouseCli))
    throw new Error(`Installing ${LIGHTHOUSE} and ${NODE} failed (exit ${install.status})`);
}

interface Audit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
}

interface LighthouseResult {
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<string, Audit>;
  runWarnings: string[];
  environment: { benchmarkIndex: number };
}

interface PageRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Lighthouse's measure of this machine's CPU at the time (a mid-range phone ~ 1000). */
  benchmarkIndex: number;
  /** The failed audits of each category, by id. */
  failed: Record<string, string[]>;
}

function runLighthouse(url: string, out: string): PageRun {
  const result = spawnSync(
    nodeBin,
    [
      lighthouseCli,
      url,
      '--output=json',
      `--output-path=${out}`,
      `--only-categories=${CATEGORIES.join(',')}`,
      `--chrome-flags=${CHROMIUM_ARGS.join(' ')} --disable-quic`,
      '--quiet',
    ],
    {
      env: { ...process.env, CHROME_PATH: CHROMIUM_PATH },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (result.status !== 0) throw new Error(`Lighthouse exited with ${result.status} on ${url}`);
  const report = JSON.parse(readFileSync(out, 'utf8')) as LighthouseResult;
  const score = (category: string) => Math.round((report.categories[category]?.score ?? 0) * 100);
  const value = (audit: string) => report.audits[audit]?.numericValue ?? Number.NaN;
  const failed: Record<string, string[]> = {};
  for (const category of CATEGORIES) {
    failed[category] = (report.categories[category]?.auditRefs ?? [])
      .map((ref) => report.audits[ref.id])
      .filter(
        (audit): audit is Audit =>
          audit !== undefined &&
          audit.score !== null &&
          audit.score < 0.9 &&
          !['notApplicable', 'informative', 'manual'].includes(audit.scoreDisplayMode),
      )
      .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: Math.round(value('first-contentful-paint')),
    lcpMs: Math.round(value('largest-contentful-paint')),
    tbtMs: Math.round(value('total-blocking-time')),
    cls: Number(value('cumulative-layout-shift').toFixed(3)),
    speedIndexMs: Math.round(value('speed-index')),
    benchmarkIndex: Math.round(report.environment.benchmarkIndex),
    failed,
  };
}

ensureLighthouse();
const server = args.url
  ? { url: args.url, stop: async () => {} }
  : (ensureWebAppBuilt(), await startServer());
const reports = join(REPO_ROOT, '.tmp/bench/lighthouse');
mkdirSync(reports, { recursive: true });
const figures: Record<string, Omit<PageRun, 'failed'> & { runs: number }> = {};
try {
  for (const path of PATHS) {
    const runs: PageRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      const out = join(reports, `${path === '/' ? 'landing' : path.slice(1)}-${i + 1}.json`);
      const run = runLighthouse(`${server.url}${path}`, out);
      runs.push(run);
      console.log(
        `  ${path.padEnd(8)} run ${i + 1}: performance ${run.performance}, accessibility ${run.accessibility}, best practices ${run.bestPractices}, SEO ${run.seo}; FCP ${run.fcpMs} ms, LCP ${run.lcpMs} ms, TBT ${run.tbtMs} ms, CLS ${run.cls} (CPU benchmark index ${run.benchmarkIndex})`,
      );
    }
    // The run of median performance stands for the page (Lighthouse varies from run to run).
    const median = [...runs].sort((a, b) => a.performance - b.performance)[
      Math.floor(runs.length / 2)
    ] as PageRun;
    const { failed, ...scores } = median;
    for (const [category, audits] of Object.entries(failed))
      if (audits.length > 0) console.log(`  ${path} ${category} findings: ${audits.join(', ')}`);
    figures[path] = { ...scores, runs: RUNS };
  }
} finally {
  await server.stop();
}
console.log(`Reports in ${reports}`);
console.log(JSON.stringify(figures));
