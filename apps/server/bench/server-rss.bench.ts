/**
 * The compiled server's start time and idle memory, as `npm start` runs it (scripts/run.mjs main
 * as a program, whose first line sets glibc's and V8's memory settings; one process), on the
 * embedded database and on PostgreSQL.
 *
 *   npx tsx apps/server/bench/server-rss.bench.ts [--db pglite|postgres|both] [--idle 10] [--start]
 *
 * For each database: a first start on a fresh DATA_DIR (the embedded database's initdb runs in a
 * worker thread) and a second start; the time from spawn to the first page `/`; the resident
 * memory (RSS) when ready, after `--idle` seconds, then after a client with a 100k-row feed is
 * saved and another idle spell. Targets: idle under 300 MB on the embedded database and under
 * 150 MB on PostgreSQL. With `--start`, also `npm start` at the root from no build at all (the
 * web app and server compiled first: a fresh clone after `npm ci`) and then a second time.
 * Prints a table and, as the last line, one JSON object with the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { API } from '@adloom/contract';
import { findFreePort, startEmbeddedPostgres } from '../test/postgres.ts';
import { rssMiB, sleep, startAndWait } from './compiled-server.ts';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(SERVER_DIR, '..', '..');
const FEED_ROWS = 100_000;

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    idle: { type: 'string', default: '10' },
    start: { type: 'boolean', default: false },
  },
});
const IDLE_MS = Number(args.idle) * 1000;

/** Signs up, makes a client and saves a feed of FEED_ROWS rows through the API. */
async function save100kRows(url: string): Promise<number> {
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { token?: string };
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const password = 'bench password 100k';
  const { token } = await post(API.users.register, {
    email: `bench-${Date.now()}@example.com`,
    password,
    'password-confirm': password,
    recaptchaToken: '',
  });
  await post(API.app.clients, { name: 'Bench' }, token);
  const rows = Array.from({ length: FEED_ROWS }, (_, i) => ({
    root: `brand ${i}`,
    mod: `model ${i % 977}`,
    var1: `colour ${i % 13}`,
    var2: '',
    var3: '',
    url: `https://shop.example.com/p/${i}`,
  }));
  const startedAt = performance.now();
  await post(API.app.feeds, { name: 'Bench', feeds: [{ name: 'products', rows }] }, token);
  return Math.round(performance.now() - startedAt);
}

interface DbFigures {
  firstStartMs: number;
  secondStartMs: number;
  rssReadyMiB: number;
  rssIdleMiB: number;
  saveMs: number;
  rssAfterSaveMiB: number;
  rssIdleAfterSaveMiB: number;
}

async function measureDatabase(label: string, env: Record<string, string>): Promise<DbFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adloom-rss-'));
  const fullEnv = { DATA_DIR: dataDir, NODE_ENV: 'development', ...env };
  const command = [join(SERVER_DIR, 'scripts', 'run.mjs'), 'main'];
  try {
    const first = await startAndWait(command, SERVER_DIR, fullEnv, await findFreePort());
    await first.stop();
    const server = await startAndWait(command, SERVER_DIR, fullEnv, await findFreePort());
    const pid = server.child.pid!;
    const rssReadyMiB = rssMiB(pid);
    await sleep(IDLE_MS);
    const rssIdleMiB = rssMiB(pid);
    const saveMs = await save100kRows(server.url);
    const rssAfterSaveMiB = rssMiB(pid);
    await sleep(IDLE_MS);
    const rssIdleAfterSaveMiB = rssMiB(pid);
    await server.stop();
    const figures = {
      firstStartMs: first.firstPageMs,
      secondStartMs: server.firstPageMs,
      rssReadyMiB,
      rssIdleMiB,
      saveMs,
      rssAfterSaveMiB,
      rssIdleAfterSaveMiB,
    };
    console.log(
      `${label}: first page ${figures.firstStartMs} ms (fresh DATA_DIR), ${figures.secondStartMs} ms (second start); ` +
        `RSS ${rssReadyMiB} MiB ready, ${rssIdleMiB} MiB idle; 100k-row save ${saveMs} ms, ` +
        `RSS ${rssAfterSaveMiB} MiB after it, ${rssIdleAfterSaveMiB} MiB idle after it`,
    );
    return figures;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npm start` at the root with no build (a fresh clone after npm ci), then a second time. */
async function measureNpmStart(): Promise<{ freshCloneMs: number; secondStartMs: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adloom-start-'));
  const env = { DATA_DIR: dataDir, NODE_ENV: 'development' };
  try {
    rmSync(join(ROOT, 'apps', 'web', 'dist'), { recursive: true, force: true });
    rmSync(join(SERVER_DIR, 'dist'), { recursive: true, force: true });
    const fresh = await startAndWait(['npm', 'start'], ROOT, env, await findFreePort());
    await fresh.stop();
    const second = await startAndWait(['npm', 'start'], ROOT, env, await findFreePort());
    await second.stop();
    console.log(
      `npm start: first page ${fresh.firstPageMs} ms on a fresh clone (web app and server built, initdb), ${second.firstPageMs} ms the second time`,
    );
    return { freshCloneMs: fresh.firstPageMs, secondStartMs: second.firstPageMs };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const figures: Record<string, unknown> = {};
if (args.start) figures.npmStart = await measureNpmStart();
if (args.db === 'pglite' || args.db === 'both')
  figures.embedded = await measureDatabase('embedded', {});
if (args.db === 'postgres' || args.db === 'both') {
  const pgDir = mkdtempSync(join(tmpdir(), 'adloom-rss-pg-'));
  const postgres = await startEmbeddedPostgres(join(pgDir, 'pg'));
  try {
    figures.postgres = await measureDatabase('PostgreSQL', { DATABASE_URL: postgres.adminUrl });
  } finally {
    await postgres.stop();
    rmSync(pgDir, { recursive: true, force: true });
  }
}
console.log(JSON.stringify(figures));
