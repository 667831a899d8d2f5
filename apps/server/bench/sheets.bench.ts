/**
 * Google Sheets benchmark: Upload Data and Download Data of a 100k-row feed against the Google
 * stand-in (test/google-stand-in.ts), on PGlite.
 *
 *   npx tsx apps/server/bench/sheets.bench.ts [--rows 100000] [--runs 3] [--grid-rows N]
 *
 * The app runs in this process (buildApp, listening on 127.0.0.1) so its memory can be sampled:
 * process.memoryUsage() every 50 ms during each call gives the peak RSS and the peak V8 heap.
 * The stand-in runs in a child process, so the spreadsheet it holds is not counted; the HTTP
 * client runs in a worker thread (its request body counts in the RSS, not in the heap, which is
 * the main thread's, the server's). The user is linked through the stand-in's OAuth consent as a
 * browser would be. Times are wall times seen by the client, medians of the runs.
 * The sheet starts as a new one: one tab of 1000 x 26 cells, which the upload must grow (Google
 * refuses values past a tab's grid); --grid-rows N starts it with N rows instead.
 * Prints a table and, as the last line, one JSON object with the figures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { API } from '@adloom/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPgliteDb, openPglite, runMigrations } from '../src/db/index.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    'grid-rows': { type: 'string' },
  },
});
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);
const SAMPLE_EVERY_MS = 50;
const MB = 1024 * 1024;
const STAND_IN = resolve(fileURLToPath(new URL('../test/google-stand-in.ts', import.meta.url)));

function feedRows(count: number, salt: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    root: `brand ${i}`,
    mod: `shoes ${salt}`,
    var1: i % 7 === 0 ? '00042' : 'red',
    var2: `size ${i % 40}`,
    var3: '',
    url: `https://shop.example.com/products/${i}`,
  }));
}

/** Starts the stand-in alone (its CLI) and reads its settings and an empty sheet's URL. */
async function startStandInProcess() {
  const gridRows = args['grid-rows'] === undefined ? [] : ['--grid-rows', args['grid-rows']];
  const child = spawn(process.execPath, ['--import', 'tsx', STAND_IN, ...gridRows], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((done, fail) => {
    lines.once('line', done);
    child.once('exit', (code) => fail(new Error(`the stand-in exited with code ${code}`)));
  });
  lines.close();
  // Never leave the stand-in behind when this process ends early.
  process.once('exit', () => child.kill('SIGTERM'));
  const { settings, sheetUrl } = JSON.parse(first) as {
    settings: Record<string, string>;
    sheetUrl: string;
  };
  return { settings, sheetUrl, stop: () => child.kill('SIGTERM') };
}

/** The HTTP client's thread: fetches what it is asked to and answers the time and the body. */
const CLIENT_THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ id, method, url, headers, body }) => {
  const start = performance.now();
  try {
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    parentPort.postMessage({
      id, ms: performance.now() - start, status: response.status, text,
      location: response.headers.get('location'),
    });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

interface ClientAnswer {
  id: number;
  ms: number;
  status: number;
  text: string;
  location: string | null;
  error?: string;
}

function startClientThread() {
  const worker = new Worker(CLIENT_THREAD_SOURCE, { eval: true });
  const waiting = new Map<number, (answer: ClientAnswer) => void>();
  worker.on('message', (answer: ClientAnswer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  let nextId = 0;
  return {
    request(message: {
      method: string;
      url: string;
      headers?: Record<string, string>;
      body?: string;
    }): Promise<ClientAnswer> {
      const id = ++nextId;
      return new Promise((done, fail) => {
        waiting.set(id, (answer) =>
          answer.error === undefined ? done(answer) : fail(new Error(answer.error)),
        );
        worker.postMessage({ id, headers: {}, ...message });
      });
    },
    stop: () => worker.terminate(),
  };
}

/** Peak RSS and V8 heap (MB) while `work` runs, sampled every 50 ms, with the values before. */
async function measured<T>(work: () => Promise<T>) {
  const before = process.memoryUsage();
  let rssPeak = before.rss;
  let heapPeak = before.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  try {
    const result = await work();
    sample();
    return {
      result,
      rssBeforeMb: before.rss / MB,
      rssPeakMb: rssPeak / MB,
      heapBeforeMb: before.heapUsed / MB,
      heapPeakMb: heapPeak / MB,
    };
  } finally {
    clearInterval(timer);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

interface Run {
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  heapBeforeMb: number;
  heapPeakMb: number;
}

function summarise(runs: readonly Run[]) {
  return {
    secondsMedian: round(median(runs.map((r) => r.seconds)), 2),
    secondsMax: round(Math.max(...runs.map((r) => r.seconds)), 2),
    rssBeforeMb: round(median(runs.map((r) => r.rssBeforeMb))),
    rssPeakMb: round(Math.max(...runs.map((r) => r.rssPeakMb))),
    heapBeforeMb: round(median(runs.map((r) => r.heapBeforeMb))),
    heapPeakMb: round(Math.max(...runs.map((r) => r.heapPeakMb))),
    /** The most a run's call added to what the process held when it began. */
    rssRiseMb: round(Math.max(...runs.map((r) => r.rssPeakMb - r.rssBeforeMb))),
    heapRiseMb: round(Math.max(...runs.map((r) => r.heapPeakMb - r.heapBeforeMb))),
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'adloom-bench-sheets-'));
  const standIn = await startStandInProcess();
  const db = createPgliteDb(await openPglite({ dataDir: join(dir, 'pglite') }));
  await runMigrations(db);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    JWT_SECRET: 'bench-'.repeat(8),
    TOKEN_ENCRYPTION_KEY: 'bench-token-key-'.repeat(4),
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dir, 'no-web'),
    APP_URL: 'http://adloom.bench',
    ...standIn.settings,
  });
  const app = await buildApp({ config, db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const client = startClientThread();
  try {
    const ok = (answer: ClientAnswer, what: string, status = 200): ClientAnswer => {
      if (answer.status !== status) {
        throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
      }
      return answer;
    };
    const registered = ok(
      await client.request({
        method: 'POST',
        url: `${base}${API.users.register}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `bench-${Date.now()}@example.com`,
          password: 'bench password',
          'password-confirm': 'bench password',
        }),
      }),
      'register',
      201,
    );
    const { token } = JSON.parse(registered.text) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) =>
      ok(
        await client.request({
          method,
          url: `${base}${path}`,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
        `${method} ${path}`,
      );

    // Link through consent, as the browser would: Google's page redirects back with a code.
    const { url: consentUrl } = JSON.parse((await call('GET', API.google.consent)).text) as {
      url: string;
    };
    const consent = ok(await client.request({ method: 'GET', url: consentUrl }), 'consent', 302);
    const back = new URL(consent.location!);
    await call('POST', API.google.accessToken, {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    });

    await call('POST', API.app.clients, { name: 'Bench' });
    const saved = await call('POST', API.app.feeds, {
      name: 'Bench',
      feeds: [{ name: 'products', dataType: 'table', sheetUrl: standIn.sheetUrl, rows: [] }],
    });
    const feed = (JSON.parse(saved.text) as { feeds: Record<string, unknown>[] }).feeds[0]!;
    const activeFeed = { ...feed, rows: [] };

    const uploads: Run[] = [];
    const downloads: Run[] = [];
    for (let run = 0; run < RUNS; run++) {
      const rows = feedRows(ROWS, String(run));
      const body = { activeFeed, rows, replace: true };
      const upload = await measured(() => call('POST', API.google.uploadData, body));
      uploads.push({ seconds: upload.result.ms / 1000, ...upload });
      const download = await measured(() => call('POST', API.google.downloadData, { activeFeed }));
      const { formattedRows } = JSON.parse(download.result.text) as {
        formattedRows: { root: string }[];
      };
      if (formattedRows.length !== ROWS || formattedRows[ROWS - 1]?.root !== `brand ${ROWS - 1}`) {
        throw new Error(`the download answered ${formattedRows.length} rows, not ${ROWS}`);
      }
      downloads.push({ seconds: download.result.ms / 1000, ...download });
    }

    const figures = {
      rows: ROWS,
      runs: RUNS,
      gridRows: args['grid-rows'] === undefined ? 1000 : Number(args['grid-rows']),
      upload: summarise(uploads),
      download: summarise(downloads),
    };
    const show = (name: string, s: ReturnType<typeof summarise>) =>
      `${name.padEnd(10)} ${String(s.secondsMedian).padStart(6)} s (max ${s.secondsMax})  ` +
      `RSS ${s.rssBeforeMb} -> peak ${s.rssPeakMb} MB (+${s.rssRiseMb})  ` +
      `heap ${s.heapBeforeMb} -> peak ${s.heapPeakMb} MB (+${s.heapRiseMb})`;
    console.log(
      `Google Sheets, ${ROWS.toLocaleString('en-US')} rows, ${RUNS} runs, a tab of ${figures.gridRows} rows at first (PGlite, stand-in)`,
    );
    console.log(show('upload', figures.upload));
    console.log(show('download', figures.download));
    console.log(JSON.stringify(figures));
  } finally {
    await client.stop();
    await app.close();
    await db.close();
    standIn.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
