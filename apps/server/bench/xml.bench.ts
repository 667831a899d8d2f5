/**
 * XML feed benchmark: POST /api/app/fetch-xml of a generated 100 MB product feed served by the
 * feed stand-in (test/feed-stand-in.ts), on PGlite.
 *
 *   npx tsx apps/server/bench/xml.bench.ts [--mb 100] [--runs 3] [--piece BYTES]
 *
 * `--piece 250` has the stand-in send the feed in writes of 250 bytes, one per turn of its event
 * loop (HTTP chunked), as a slow shop server or a chunked proxy sends it.
 *
 * The app runs in this process (buildApp, listening on 127.0.0.1) so its memory can be sampled:
 * process.memoryUsage() every 50 ms during each call gives the peak RSS and the peak V8 heap.
 * The stand-in runs in a child process, so generating the feed is not counted. While the feed
 * streams, GET /api/health is called every 50 ms: its slowest answer shows whether the server
 * kept answering. Times are wall times seen by the client (fetch + parse + answer), medians of
 * the runs. Prints a table and, as the last line, one JSON object with the figures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { API } from '@adloom/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPgliteDb, openPglite, runMigrations } from '../src/db/index.ts';

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '100' },
    runs: { type: 'string', default: '3' },
    piece: { type: 'string', default: '0' },
  },
});
const FEED_MB = Number(args.mb);
const RUNS = Number(args.runs);
const SAMPLE_EVERY_MS = 50;
const MB = 1024 * 1024;
const STAND_IN = resolve(fileURLToPath(new URL('../test/feed-stand-in.ts', import.meta.url)));

/** Starts the stand-in alone (its CLI) and reads its base URL. */
async function startStandInProcess() {
  const child = spawn(process.execPath, ['--import', 'tsx', STAND_IN], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((done, fail) => {
    lines.once('line', done);
    child.once('exit', (code) => fail(new Error(`the stand-in exited with code ${code}`)));
  });
  lines.close();
  process.once('exit', () => child.kill('SIGTERM'));
  const { baseUrl } = JSON.parse(first) as { baseUrl: string };
  return { baseUrl, stop: () => child.kill('SIGTERM') };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'adloom-bench-xml-'));
  const standIn = await startStandInProcess();
  const db = createPgliteDb(await openPglite({ dataDir: join(dir, 'pglite') }));
  await runMigrations(db);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    JWT_SECRET: 'bench-'.repeat(8),
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dir, 'no-web'),
    APP_URL: 'http://adloom.bench',
    XML_TOOLS_EMAIL_MARKER: '+agency',
    FETCH_ALLOW_LOOPBACK: 'true',
  });
  const app = await buildApp({ config, db });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  const password = 'bench password 1';
  const signUp = await fetch(`${base}${API.users.register}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench+agency@example.com',
      password,
      'password-confirm': password,
      recaptchaToken: '',
    }),
  });
  const { token } = (await signUp.json()) as { token: string };
  const feedUrl = `${standIn.baseUrl}/big.xml?bytes=${FEED_MB * MB}&piece=${args.piece}`;

  const runs = [];
  for (let run = 0; run < RUNS; run += 1) {
    const before = process.memoryUsage();
    let rssPeak = before.rss;
    let heapPeak = before.heapUsed;
    const sample = () => {
      const now = process.memoryUsage();
      rssPeak = Math.max(rssPeak, now.rss);
      heapPeak = Math.max(heapPeak, now.heapUsed);
    };
    const timer = setInterval(sample, SAMPLE_EVERY_MS);
    const started = performance.now();
    let isDone = false;
    const call = fetch(`${base}${API.app.fetchXml}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: feedUrl }),
    })
      .then(async (response) => ({ status: response.status, body: await response.text() }))
      .finally(() => {
        isDone = true;
      });
    const healthMs: number[] = [];
    while (!isDone) {
      const asked = performance.now();
      await (await fetch(`${base}${API.health}`)).text();
      healthMs.push(performance.now() - asked);
      await new Promise((done) => setTimeout(done, SAMPLE_EVERY_MS));
    }
    const answer = await call;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    sample();
    if (answer.status !== 200)
      throw new Error(`fetch-xml answered ${answer.status}: ${answer.body}`);
    const counts = JSON.parse(answer.body) as Record<string, Record<string, number>>;
    const products = Object.values(counts)
      .flatMap((categories) => Object.values(categories))
      .reduce((sum, n) => sum + n, 0);
    runs.push({
      seconds,
      products,
      rssBeforeMb: before.rss / MB,
      rssPeakMb: rssPeak / MB,
      heapPeakMb: heapPeak / MB,
      healthCalls: healthMs.length,
      healthMaxMs: Math.max(...healthMs),
      healthMedianMs: median(healthMs),
    });
    console.log(
      `run ${run + 1}: ${seconds.toFixed(2)} s, ${products} products, RSS ${(before.rss / MB).toFixed(0)} -> peak ${(rssPeak / MB).toFixed(0)} MB, heap peak ${(heapPeak / MB).toFixed(0)} MB, health ${healthMs.length} calls, max ${Math.max(...healthMs).toFixed(0)} ms`,
    );
  }

  await app.close();
  await db.close();
  standIn.stop();
  rmSync(dir, { recursive: true, force: true });

  const figures = {
    feedMb: FEED_MB,
    runs: RUNS,
    products: runs[0]?.products ?? 0,
    secondsMedian: round(median(runs.map((r) => r.seconds)), 2),
    secondsMax: round(Math.max(...runs.map((r) => r.seconds)), 2),
    rssBeforeMb: round(median(runs.map((r) => r.rssBeforeMb))),
    // The median: the first run still holds what PGlite's initdb took (~800 MB), whatever the feed.
    rssPeakMb: round(median(runs.map((r) => r.rssPeakMb))),
    rssRiseMb: round(Math.max(...runs.map((r) => r.rssPeakMb - r.rssBeforeMb))),
    heapPeakMb: round(Math.max(...runs.map((r) => r.heapPeakMb))),
    healthMaxMs: round(Math.max(...runs.map((r) => r.healthMaxMs))),
    healthMedianMs: round(median(runs.map((r) => r.healthMedianMs))),
  };
  console.log(JSON.stringify(figures));
}

await main();
