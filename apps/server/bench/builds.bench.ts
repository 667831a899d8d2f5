/**
 * The build history's memory (issue 35): the compiled server (as `npm start` runs it) takes a
 * 30 MiB gzip'd build record and answers it back, on the embedded database and on PostgreSQL.
 *
 *   npx tsx apps/server/bench/builds.bench.ts [--db pglite|postgres|both] [--mib 30] [--rounds 3]
 *
 * For each database: the server's resident memory (RSS) idle before, its peak while a record is
 * uploaded (POST /api/clients/:id/builds) and while it is read back (GET .../builds/latest), and
 * idle after; each round uploads and reads one more record. The record is `--mib` MiB of random
 * bytes gzip'd without compression: a real record's gzip output is just as incompressible.
 * Prints a table and, as the last line, one JSON object with the figures.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import {
  API,
  BUILD_META_HEADER,
  buildsPath,
  clientPath,
  encodeBuildMetaHeader,
  latestBuildPath,
} from '@adloom/contract';
import { findFreePort, startEmbeddedPostgres } from '../test/postgres.ts';
import { peakRssMiB, resetPeakRss, rssMiB, sleep, startAndWait } from './compiled-server.ts';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const IDLE_MS = 5000;

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    mib: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '3' },
  },
});
const RECORD = gzipSync(randomBytes(Number(args.mib) * 1024 * 1024), { level: 0 });
const ROUNDS = Number(args.rounds);

/** Signs up and makes a client; answers the token and the client's id. */
async function prepareClient(url: string): Promise<{ token: string; clientId: string }> {
  const password = 'bench password builds';
  const register = await fetch(`${url}${API.users.register}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${Date.now()}@example.com`,
      password,
      'password-confirm': password,
      recaptchaToken: '',
    }),
  });
  const { token } = (await register.json()) as { token: string };
  const authorization = `Bearer ${token}`;
  await fetch(`${url}${API.app.clients}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ name: 'Bench' }),
  });
  const bundle = await fetch(`${url}${clientPath('Bench')}`, { headers: { authorization } });
  const { id } = (await bundle.json()) as { id: string };
  return { token, clientId: id };
}

interface Round {
  uploadStartMiB: number;
  uploadMs: number;
  uploadPeakMiB: number;
  readStartMiB: number;
  readMs: number;
  readPeakMiB: number;
}

async function measureDatabase(label: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'adloom-builds-bench-'));
  const fullEnv = { DATA_DIR: dataDir, NODE_ENV: 'development', ...env };
  const command = [join(SERVER_DIR, 'scripts', 'run.mjs'), 'main'];
  try {
    // A first start makes the database (initdb); the figures come from the second, as in use.
    const first = await startAndWait(command, SERVER_DIR, fullEnv, await findFreePort());
    await first.stop();
    const server = await startAndWait(command, SERVER_DIR, fullEnv, await findFreePort());
    const pid = server.child.pid!;
    try {
      const { token, clientId } = await prepareClient(server.url);
      const authorization = `Bearer ${token}`;
      await sleep(IDLE_MS);
      const rssIdleBeforeMiB = rssMiB(pid);
      const rounds: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const uploadStartMiB = rssMiB(pid);
        resetPeakRss(pid);
        let startedAt = performance.now();
        const stored = await fetch(`${server.url}${buildsPath(clientId)}`, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/gzip',
            [BUILD_META_HEADER]: encodeBuildMetaHeader({
              feedName: 'products',
              templateNames: ['Brand', 'RSA'],
              templateCount: 2,
              label: 'adloom',
              counts: { keyword: 1_000_000 },
            }),
          },
          body: RECORD,
        });
        if (stored.status !== 201)
          throw new Error(`upload: ${stored.status} ${await stored.text()}`);
        await stored.json();
        const uploadMs = Math.round(performance.now() - startedAt);
        const uploadPeakMiB = peakRssMiB(pid);

        const readStartMiB = rssMiB(pid);
        resetPeakRss(pid);
        startedAt = performance.now();
        const read = await fetch(`${server.url}${latestBuildPath(clientId)}`, {
          headers: { authorization },
        });
        const bytes = Buffer.from(await read.arrayBuffer());
        const readMs = Math.round(performance.now() - startedAt);
        const readPeakMiB = peakRssMiB(pid);
        if (!bytes.equals(RECORD)) throw new Error('the record read back differs');
        rounds.push({ uploadStartMiB, uploadMs, uploadPeakMiB, readStartMiB, readMs, readPeakMiB });
        console.log(
          `${label} round ${round + 1}: upload ${uploadMs} ms, RSS ${uploadStartMiB} -> peak ${uploadPeakMiB} MiB; ` +
            `read back ${readMs} ms, RSS ${readStartMiB} -> peak ${readPeakMiB} MiB`,
        );
      }
      await sleep(IDLE_MS);
      const rssIdleAfterMiB = rssMiB(pid);
      console.log(
        `${label}: ${(RECORD.length / 1024 / 1024).toFixed(1)} MiB records; RSS idle ${rssIdleBeforeMiB} MiB before, ${rssIdleAfterMiB} MiB after ${ROUNDS} rounds`,
      );
      return { recordBytes: RECORD.length, rssIdleBeforeMiB, rounds, rssIdleAfterMiB };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const figures: Record<string, unknown> = {};
if (args.db === 'pglite' || args.db === 'both')
  figures.embedded = await measureDatabase('embedded', {});
if (args.db === 'postgres' || args.db === 'both') {
  const pgDir = mkdtempSync(join(tmpdir(), 'adloom-builds-bench-pg-'));
  const postgres = await startEmbeddedPostgres(join(pgDir, 'pg'));
  try {
    figures.postgres = await measureDatabase('PostgreSQL', { DATABASE_URL: postgres.adminUrl });
  } finally {
    await postgres.stop();
    rmSync(pgDir, { recursive: true, force: true });
  }
}
console.log(JSON.stringify(figures));
