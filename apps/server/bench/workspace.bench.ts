/**
 * Workspace API benchmark against a real listening server, on PGlite and/or PostgreSQL.
 *
 *   npx tsx apps/server/bench/workspace.bench.ts [--db pglite|postgres|both] [--runs 5] [--duration 10]
 *
 * Measures (over HTTP on 127.0.0.1, bodies read in full):
 * - save and load of a client with a 100k-row feed (target < 1 s each): a save that changes
 *   every row, a save of unchanged rows (autosave), a cold load (another server, empty cache)
 *   and a load served from the rows cache,
 * - the client list (50 clients) and a client bundle with 50 templates (median < 50 ms),
 * - throughput of GET /api/app/clients/:name with a 1k-row feed under concurrent load
 *   (autocannon), with the p99 latency.
 * Times are medians seen by the client; 'server' is Fastify's own time for the request and
 * 'cpu' the CPU time of the whole process (PGlite runs in it). The client runs in a worker
 * thread of its own, as a browser would on its own machine, so that reading and sending its
 * megabytes does not wait in the server's event loop (nor the server's work in the client's).
 * Prints a table and, as the last line, one JSON object with the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API, clientPath } from '@adloom/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import {
  createPgDb,
  createPgliteDb,
  createPgPool,
  openPglite,
  runMigrations,
  type Db,
} from '../src/db/index.ts';
import { startEmbeddedPostgres } from '../test/postgres.ts';

type DbKind = 'pglite' | 'postgres';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '5' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const kinds: DbKind[] = args.db === 'both' ? ['pglite', 'postgres'] : [args.db as DbKind];
if (!kinds.every((k) => k === 'pglite' || k === 'postgres')) {
  console.error('--db must be pglite, postgres or both');
  process.exit(2);
}
const RUNS = Number(args.runs);
const SMALL_RUNS = 30;
const DURATION_S = Number(args.duration);
const CONNECTIONS = Number(args.connections);

function feedRows(count: number, salt: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    root: `brand ${i}`,
    mod: `shoes ${salt}`,
    var1: 'red',
    var2: `size ${i % 40}`,
    var3: '',
    url: `https://shop.example.com/products/${i}`,
  }));
}

function templatesOfKind(kind: string, count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `${kind} ${i}`;
    switch (kind) {
      case 'campaign':
        return {
          name,
          campaign: '{root}',
          adGroup: '{mod}',
          keywords: [
            { keyword: '{root} {mod}', matchType: 'Exact' },
            { keyword: '{root}', matchType: 'Phrase' },
          ],
        };
      case 'ad':
        return { name, templates: [[{ h1: '{root}', h2: 'Shop now', dl1: 'Great {mod}' }]] };
      case 'rsa':
        return {
          name,
          templates: [
            {
              headlines: Array.from({ length: 15 }, (_, h) => ({
                text: `{root} headline ${h}`,
                pos: 0,
              })),
              descriptions: Array.from({ length: 4 }, (_, d) => ({
                text: `Description ${d} for {root}`,
                pos: 0,
              })),
              paths: ['{root}', '{mod}'],
              labels: ['yyyymmdd-v1'],
            },
          ],
        };
      case 'pmax':
        return {
          name,
          templates: [
            {
              headlines: [{ text: '{root}', pos: 0 }],
              longHeadlines: [{ text: 'Long {root}', pos: 0 }],
              descriptions: [{ text: 'D', pos: 0 }],
              businessName: 'Acme',
              callToAction: 'Shop now',
            },
          ],
        };
      default:
        return {
          name,
          extensionType: 'Sitelink',
          templates: [
            {
              'Link Text': '{root}',
              'Description Line 1': 'a',
              'Description Line 2': 'b',
              'Final URL': '{url}',
            },
          ],
        };
    }
  });
}

/** The HTTP client's thread: fetches what it is asked to and answers the time and the body. */
const CLIENT_THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ id, method, url, headers, body }) => {
  const start = performance.now();
  try {
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    parentPort.postMessage({ id, ms: performance.now() - start, status: response.status, text });
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
  error?: string;
}

/** Starts the client thread; `request` sends one request through it. */
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
      headers: Record<string, string>;
      body?: string;
    }): Promise<ClientAnswer> {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        waiting.set(id, (answer) =>
          answer.error === undefined ? resolve(answer) : reject(new Error(answer.error)),
        );
        worker.postMessage({ id, ...message });
      });
    },
    stop: () => worker.terminate(),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const round = (x: number) => Math.round(x * 10) / 10;

async function openBenchDb(
  kind: DbKind,
  dir: string,
): Promise<{ db: Db; stop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = createPgliteDb(await openPglite({ dataDir: join(dir, 'pglite') }));
    await runMigrations(db);
    return { db, stop: () => db.close() };
  }
  const server = await startEmbeddedPostgres(join(dir, 'postgres'));
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query('create database adloom_bench');
  await admin.end();
  const db = createPgDb(createPgPool(server.urlFor('adloom_bench')));
  await runMigrations(db);
  return {
    db,
    stop: async () => {
      await db.close();
      await server.stop();
    },
  };
}

/** Wall time seen by the client (median, max), the server's own time and the process CPU time. */
interface Summary {
  median: number;
  max: number;
  serverMedian: number;
  cpuMedian: number;
}

function summarise(timings: readonly { ms: number; serverMs: number; cpuMs: number }[]): Summary {
  return {
    median: round(median(timings.map((t) => t.ms))),
    max: round(Math.max(...timings.map((t) => t.ms))),
    serverMedian: round(median(timings.map((t) => t.serverMs))),
    cpuMedian: round(median(timings.map((t) => t.cpuMs))),
  };
}

const showSummary = (s: Summary) =>
  `${s.median} ms (max ${s.max}; server ${s.serverMedian}, cpu ${s.cpuMedian})`;

interface Figures {
  saveFeed100kMs: Summary;
  saveUnchangedFeed100kMs: Summary;
  loadClient100kMs: Summary;
  loadClient100kColdMs: Summary;
  clientListMs: { median: number; p95: number };
  bundle50TemplatesMs: { median: number; p95: number };
  bundle1kRps: number;
  bundle1kP99Ms: number;
  bundle1kErrors: number;
}

async function benchOne(kind: DbKind): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), `adloom-bench-${kind}-`));
  const { db, stop } = await openBenchDb(kind, dir);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    JWT_SECRET: 'bench-'.repeat(8),
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dir, 'no-web'),
  });
  const app = await buildApp({ config, db });
  // Server-side time of each request (from its arrival to the answer sent), as Fastify counts it.
  const serverTimes = new Map<string, number>();
  const recordServerTime = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = request.headers['x-bench-request'];
    if (typeof id === 'string') serverTimes.set(id, reply.elapsedTime);
  };
  app.addHook('onResponse', recordServerTime);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // A second server on the same database: its loads never find the rows in its cache (cold).
  const coldApp = await buildApp({ config, db });
  coldApp.addHook('onResponse', recordServerTime);
  await coldApp.listen({ port: 0, host: '127.0.0.1' });
  const coldAddress = coldApp.server.address();
  const coldBase = `http://127.0.0.1:${typeof coldAddress === 'object' && coldAddress ? coldAddress.port : 0}`;
  const client = startClientThread();
  try {
    const registered = await fetch(`${base}${API.users.register}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `bench-${Date.now()}@example.com`,
        password: 'bench password',
        'password-confirm': 'bench password',
      }),
    });
    const { token } = (await registered.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    let requestCount = 0;
    const call = async (
      method: string,
      path: string,
      body?: string,
      server = base,
    ): Promise<{ ms: number; serverMs: number; cpuMs: number; status: number; text: string }> => {
      const requestId = String(++requestCount);
      const cpu = process.cpuUsage();
      const { ms, status, text } = await client.request({
        method,
        url: `${server}${path}`,
        headers: { ...headers, 'x-bench-request': requestId },
        ...(body !== undefined ? { body } : {}),
      });
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      // The server notes its time once the answer is sent, which may be just after it arrived.
      for (let wait = 0; !serverTimes.has(requestId) && wait < 100; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return {
        ms,
        serverMs: serverTimes.get(requestId) ?? NaN,
        cpuMs,
        status,
        text,
      };
    };
    const ok = <T extends { status: number; text: string }>(r: T, what: string): T => {
      if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
      return r;
    };

    // Client list: 50 clients.
    for (let i = 0; i < 49; i++)
      ok(await call('POST', API.app.clients, JSON.stringify({ name: `Client ${i}` })), 'create');
    ok(await call('POST', API.app.clients, JSON.stringify({ name: 'Big' })), 'create');
    ok(await call('POST', API.app.clients, JSON.stringify({ name: 'Templates' })), 'create');
    ok(await call('POST', API.app.clients, JSON.stringify({ name: 'Mid' })), 'create');

    // 100k-row feed: each save changes every row, as a real edit would.
    type Timing = { ms: number; serverMs: number; cpuMs: number };
    const saves: Timing[] = [];
    const loads: Timing[] = [];
    const coldLoads: Timing[] = [];
    const unchangedSaves: Timing[] = [];
    for (let run = 0; run < RUNS; run++) {
      const feed = {
        name: 'products',
        dataType: 'table',
        sheetUrl: '',
        rows: feedRows(100_000, String(run)),
      };
      const saved = ok(
        await call('POST', API.app.feeds, JSON.stringify({ name: 'Big', feeds: [feed] })),
        'save',
      );
      saves.push(saved);
      coldLoads.push(ok(await call('GET', clientPath('Big'), undefined, coldBase), 'cold load'));
      const loaded = ok(await call('GET', clientPath('Big')), 'load');
      loads.push(loaded);
      if (
        run === 0 &&
        (JSON.parse(loaded.text) as { feeds: { rows: unknown[] }[] }).feeds[0]?.rows.length !==
          100_000
      ) {
        throw new Error('the loaded feed does not hold 100k rows');
      }
      // An autosave of the same rows (with the feed's _id), as the web app sends every 5 minutes.
      const feedId = (JSON.parse(saved.text) as { feeds: { _id: string }[] }).feeds[0]?._id;
      const again = JSON.stringify({ name: 'Big', feeds: [{ ...feed, _id: feedId }] });
      unchangedSaves.push(ok(await call('POST', API.app.feeds, again), 'unchanged save'));
    }

    // A client with 50 templates (10 of each kind) and a small feed.
    const kindsAndPaths: [string, string][] = [
      ['campaign', API.app.saveCampaignTemplates],
      ['ad', API.app.saveAdTemplates],
      ['rsa', API.app.saveRsaTemplates],
      ['pmax', API.app.savePerformanceMaxTemplates],
      ['extension', API.app.saveExtensionTemplates],
    ];
    for (const [k, path] of kindsAndPaths) {
      ok(
        await call(
          'POST',
          path,
          JSON.stringify({ name: 'Templates', templates: templatesOfKind(k, 10) }),
        ),
        `save ${k}`,
      );
    }
    ok(
      await call(
        'POST',
        API.app.feeds,
        JSON.stringify({ name: 'Templates', feeds: [{ name: 'f', rows: feedRows(50, 't') }] }),
      ),
      'save small',
    );
    const lists: number[] = [];
    const bundles: number[] = [];
    for (let run = 0; run < SMALL_RUNS; run++) {
      lists.push(ok(await call('GET', API.app.clients), 'list').ms);
      bundles.push(ok(await call('GET', clientPath('Templates')), 'bundle').ms);
    }
    const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

    // Throughput: GET a client with a 1k-row feed.
    ok(
      await call(
        'POST',
        API.app.feeds,
        JSON.stringify({ name: 'Mid', feeds: [{ name: 'f', rows: feedRows(1000, 'm') }] }),
      ),
      'save mid',
    );
    const load = await autocannon({
      url: `${base}${clientPath('Mid')}`,
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { authorization: `Bearer ${token}` },
    });

    return {
      saveFeed100kMs: summarise(saves),
      saveUnchangedFeed100kMs: summarise(unchangedSaves),
      loadClient100kMs: summarise(loads),
      loadClient100kColdMs: summarise(coldLoads),
      clientListMs: { median: round(median(lists)), p95: round(p95(lists)) },
      bundle50TemplatesMs: { median: round(median(bundles)), p95: round(p95(bundles)) },
      bundle1kRps: round(load.requests.average),
      bundle1kP99Ms: load.latency.p99,
      bundle1kErrors: load.errors + load.timeouts + load.non2xx,
    };
  } finally {
    await client.stop();
    await coldApp.close();
    await app.close();
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: Partial<Record<DbKind, Figures>> = {};
for (const kind of kinds) {
  console.error(`benchmarking ${kind} ...`);
  results[kind] = await benchOne(kind);
}

const rows: [string, (f: Figures) => string, string][] = [
  [
    'save client, 100k-row feed (all rows changed)',
    (f) => showSummary(f.saveFeed100kMs),
    '< 1000 ms',
  ],
  [
    'save again, rows unchanged (autosave)',
    (f) => showSummary(f.saveUnchangedFeed100kMs),
    '< 1000 ms',
  ],
  ['load client, 100k-row feed (cold)', (f) => showSummary(f.loadClient100kColdMs), '< 1000 ms'],
  ['load client, 100k-row feed (cached)', (f) => showSummary(f.loadClient100kMs), '< 1000 ms'],
  [
    'client list (50 clients)',
    (f) => `${f.clientListMs.median} ms (p95 ${f.clientListMs.p95})`,
    '< 50 ms median',
  ],
  [
    'client bundle, 50 templates',
    (f) => `${f.bundle50TemplatesMs.median} ms (p95 ${f.bundle50TemplatesMs.p95})`,
    '< 50 ms median',
  ],
  [
    `GET client, 1k rows, ${CONNECTIONS} conns`,
    (f) => `${f.bundle1kRps} req/s, p99 ${f.bundle1kP99Ms} ms, ${f.bundle1kErrors} errors`,
    'report',
  ],
];
const widths = [46, ...kinds.map(() => 56), 16];
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 20)).join(' | ');
console.log(line(['measure', ...kinds, 'target']));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const [label, show, target] of rows)
  console.log(line([label, ...kinds.map((k) => show(results[k]!)), target]));
console.log(
  JSON.stringify({ runs: RUNS, durationSeconds: DURATION_S, connections: CONNECTIONS, results }),
);
