/**
 * Fair use of the database and memory (issue 37, finding 2), on the compiled server as `npm start`
 * runs it (scripts/run.mjs main, one process), on the embedded database and on PostgreSQL.
 *
 *   npx tsx apps/server/bench/fair-use.bench.ts [--db pglite|postgres|both] [--saves 12] [--mb 54]
 *     [--idle 10] [--env NAME=VALUE,...] [--log FILE]
 *
 * For each database, in one server:
 * - alone: one user's single large save (`--mb` MB, ~270 bytes a row), its time and the server's
 *   peak RSS above the idle RSS before it;
 * - at once: LARGE_SAVES_AT_ONCE users (the server's default unless `--env` sets it) each send one
 *   large save together: the peak RSS above idle, divided by the saves that ran (memory per
 *   concurrent save);
 * - starved: one user sends `--saves` large saves in parallel while another user reads a small
 *   client's bundle in a loop and /api/ready is asked every 100 ms, both timed by a process of
 *   their own (fair-use-observer.mjs): the statuses of the saves, the other user's read times
 *   (p50, p95, max; any status but 200 counted), /api/ready's times and statuses, the peak RSS;
 * - then the RSS after `--idle` seconds of quiet.
 * Prints a line per database and, as the last line, one JSON object with the figures.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { API } from '@adloom/contract';
import { findFreePort, startEmbeddedPostgres } from '../test/postgres.ts';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    saves: { type: 'string', default: '12' },
    mb: { type: 'string', default: '54' },
    idle: { type: 'string', default: '10' },
    env: { type: 'string', default: '' },
    log: { type: 'string' },
  },
});
const SAVES = Number(args.saves);
const BODY_MB = Number(args.mb);
const IDLE_MS = Number(args.idle) * 1000;
const EXTRA_ENV: Record<string, string> = Object.fromEntries(
  args.env
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]),
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process, MiB. */
function rssMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kib / 1024);
}

/** Samples a process's RSS every 20 ms until stopped; answers the peak. */
function samplePeak(pid: number): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
}

function countStatuses(statuses: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

interface Server {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await findFreePort();
  const child = spawn(join(SERVER_DIR, 'scripts', 'run.mjs'), ['main'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      REGISTER_LIMIT_PER_IP: '1000',
      ...env,
    },
    // The server's log lines (warnings and errors) go to `--log FILE` when given.
    stdio: ['ignore', args.log ? openSync(args.log, 'a') : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${API.health}`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await sleep(50);
  }
  return {
    child,
    url,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Answer {
  status: number;
  ms: number;
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: string | Uint8Array,
  token?: string,
): Promise<Answer & { text: string }> {
  const startedAt = performance.now();
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - startedAt, text };
}

async function signUpWithClient(url: string, name: string, n: number): Promise<string> {
  const password = 'bench password fair use';
  const answer = await call(
    url,
    'POST',
    API.users.register,
    JSON.stringify({
      email: `fair-${n}-${Date.now()}@example.com`,
      password,
      'password-confirm': password,
      recaptchaToken: '',
    }),
  );
  const { token } = JSON.parse(answer.text) as { token: string };
  await call(url, 'POST', API.app.clients, JSON.stringify({ name }), token);
  return token;
}

/** A feed save of `mb` MB (rows of ~270 bytes, every cell under the 30-character limit). */
function feedSaveBody(client: string, mb: number): Uint8Array {
  const rowCount = Math.round((mb * 1_000_000) / 270);
  const rows = Array.from({ length: rowCount }, (_, i) => ({
    root: `brand ${i} ${'r'.repeat(15)}`,
    mod: `model ${i % 977} ${'m'.repeat(15)}`,
    var1: `colour ${i % 13} ${'c'.repeat(15)}`,
    var2: `size ${i % 7} ${'s'.repeat(15)}`,
    var3: `kind ${i % 5} ${'k'.repeat(15)}`,
    url: `https://shop.example.com/p/${i}/${'u'.repeat(40)}`,
  }));
  return new TextEncoder().encode(JSON.stringify({ name: client, feeds: [{ name: 'p', rows }] }));
}

async function measure(label: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'adloom-fair-'));
  const server = await startServer({ DATA_DIR: dataDir, ...EXTRA_ENV, ...env });
  const pid = server.child.pid!;
  try {
    const bodyBytes = feedSaveBody('Big', BODY_MB);
    const mb = Math.round(bodyBytes.length / 100_000) / 10;
    const reader = await signUpWithClient(server.url, 'Small', 0);
    await call(server.url, 'POST', API.app.feeds, feedSaveBody('Small', 0.3), reader);
    const tokens: string[] = [];
    for (let i = 1; i <= 8; i += 1) tokens.push(await signUpWithClient(server.url, 'Big', i));
    await sleep(3000);

    // Alone: one large save.
    const idleBefore = rssMiB(pid);
    let peak = samplePeak(pid);
    const single = await call(server.url, 'POST', API.app.feeds, bodyBytes, tokens[0]);
    const alone = {
      status: single.status,
      ms: Math.round(single.ms),
      peakAboveIdleMiB: peak.stop() - idleBefore,
    };
    await sleep(IDLE_MS);

    // At once: one save per user, as many users as there are tokens; the server's cap decides.
    const idleAtOnce = rssMiB(pid);
    peak = samplePeak(pid);
    const together = await Promise.all(
      tokens.map((token) => call(server.url, 'POST', API.app.feeds, bodyBytes, token)),
    );
    const ran = together.filter((answer) => answer.status === 200).length;
    const peakAtOnce = peak.stop() - idleAtOnce;
    const atOnce = {
      statuses: countStatuses(together.map((answer) => answer.status)),
      peakAboveIdleMiB: peakAtOnce,
      perSaveMiB: Math.round(peakAtOnce / Math.max(1, ran)),
    };
    await sleep(IDLE_MS);

    // Starved: one user's parallel saves, another user's reads, readiness.
    const idleStarved = rssMiB(pid);
    peak = samplePeak(pid);
    const saves = Promise.all(
      Array.from({ length: SAVES }, () =>
        call(server.url, 'POST', API.app.feeds, bodyBytes, tokens[0]),
      ),
    );
    // The reads and readiness are timed by another process (fair-use-observer.mjs): this one's
    // event loop is busy sending the bodies, and delayed what it timed.
    const observer = fork(join(dirname(fileURLToPath(import.meta.url)), 'fair-use-observer.mjs'), [
      server.url,
      reader,
      `${API.app.clients}/Small`,
      API.ready,
    ]);
    const observed = new Promise<{ reads: Answer[]; readies: Answer[] }>((resolve) =>
      observer.once('message', (message) =>
        resolve(message as { reads: Answer[]; readies: Answer[] }),
      ),
    );
    const saveAnswers = await saves;
    observer.send('stop');
    const { reads, readies } = await observed;
    const starved = {
      saveStatuses: countStatuses(saveAnswers.map((answer) => answer.status)),
      savesMs: Math.round(Math.max(...saveAnswers.map((answer) => answer.ms))),
      reads: reads.length,
      readP50Ms: percentile(
        reads.map((read) => read.ms),
        50,
      ),
      readP95Ms: percentile(
        reads.map((read) => read.ms),
        95,
      ),
      readMaxMs: percentile(
        reads.map((read) => read.ms),
        100,
      ),
      readStatuses: countStatuses(reads.map((read) => read.status)),
      readyP95Ms: percentile(
        readies.map((ready) => ready.ms),
        95,
      ),
      readyMaxMs: percentile(
        readies.map((ready) => ready.ms),
        100,
      ),
      readyStatuses: countStatuses(readies.map((ready) => ready.status)),
      rssIdleMiB: idleStarved,
      rssPeakMiB: peak.stop(),
    };
    await sleep(IDLE_MS);
    const rssAfterIdleMiB = rssMiB(pid);
    const figures = {
      bodyMB: mb,
      rssIdleBeforeMiB: idleBefore,
      alone,
      atOnce,
      starved,
      rssAfterIdleMiB,
    };
    console.log(
      `${label}: ${mb} MB saves. Alone: ${alone.ms} ms, +${alone.peakAboveIdleMiB} MiB peak. ` +
        `At once (${tokens.length} users): ${JSON.stringify(atOnce.statuses)}, +${atOnce.peakAboveIdleMiB} MiB peak, ${atOnce.perSaveMiB} MiB per save that ran. ` +
        `${SAVES} parallel by one user: ${JSON.stringify(starved.saveStatuses)} in ${starved.savesMs} ms; ` +
        `other user's ${starved.reads} reads p50 ${starved.readP50Ms} / p95 ${starved.readP95Ms} / max ${starved.readMaxMs} ms ${JSON.stringify(starved.readStatuses)}; ` +
        `/api/ready p95 ${starved.readyP95Ms} / max ${starved.readyMaxMs} ms ${JSON.stringify(starved.readyStatuses)}; ` +
        `RSS ${idleBefore} MiB idle at first, ${starved.rssIdleMiB} -> ${starved.rssPeakMiB} MiB peak, ${rssAfterIdleMiB} MiB after ${IDLE_MS / 1000} s idle`,
    );
    return figures;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const figures: Record<string, unknown> = {};
if (args.db === 'pglite' || args.db === 'both') figures.embedded = await measure('embedded', {});
if (args.db === 'postgres' || args.db === 'both') {
  const pgDir = mkdtempSync(join(tmpdir(), 'adloom-fair-pg-'));
  const postgres = await startEmbeddedPostgres(join(pgDir, 'pg'));
  try {
    figures.postgres = await measure('PostgreSQL', { DATABASE_URL: postgres.adminUrl });
  } finally {
    await postgres.stop();
    rmSync(pgDir, { recursive: true, force: true });
  }
}
console.log(JSON.stringify(figures));
