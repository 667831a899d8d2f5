import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, clientPath } from '@adloom/contract';
import { openDatabase } from '../src/db/index.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { TEST_PASSWORD, openTestLog, startTestApp, testDbKind, type TestApp } from './helpers.ts';
import { startEmbeddedPostgres, type TestPostgres } from './postgres.ts';
import { callServer, type HttpAnswer } from './server-process.ts';

async function waitFor<T>(
  probe: () => Promise<T>,
  isDone: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Its own PostgreSQL server, stopped and started again while the app runs.
describe('database outage', () => {
  let workDir: string;
  let server: TestPostgres;
  let t: TestApp;
  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'adloom-outage-'));
    server = await startEmbeddedPostgres(join(workDir, 'pg'));
    const db = await openDatabase({ dataDir: workDir, databaseUrl: server.adminUrl });
    t = await startTestApp({ databaseUrl: server.adminUrl }, { db });
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop().catch(() => {});
    rmSync(workDir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down and recovers by itself', async () => {
    const { email, password, token } = await t.signUp();
    expect((await t.request('GET', API.ready)).body).toEqual({
      ok: true,
      database: 'postgres',
    });

    await server.stop();
    // Alive (no reason to restart it), but not ready.
    expect((await t.request('GET', API.health)).status).toBe(200);
    const ready = await t.request('GET', API.ready);
    expect(ready.status).toBe(503);
    expect(ready.body.error).toEqual({
      code: 'service_unavailable',
      message: 'The database is unavailable right now. Please try again shortly.',
    });
    const login = await t.request('POST', '/api/users/login', { body: { email, password } });
    expect(login.status).toBe(503);
    const me = await t.request('GET', '/api/users/me', { token });
    expect(me.status).toBe(503);

    await server.start();
    const back = await waitFor(
      () => t.request('GET', API.ready),
      (response) => response.status === 200,
    );
    expect(back.status).toBe(200);
    const again = await t.request('POST', '/api/users/login', { body: { email, password } });
    expect(again.status).toBe(200);
    expect((await t.request('GET', '/api/users/me', { token })).status).toBe(200);
  });
});

/** Rows of each save under load: enough for a save to take a while. */
const LOAD_ROWS = 5_000;
const WRITERS = 3;

/** One client's saves, one after another against the revision last answered, until stopped. */
interface Writer {
  /** Salts of the saves answered 200, in order, with their revisions. */
  acked: { salt: string; revision: number }[];
  /** Salts of the saves answered an error, in order, with the saves acknowledged before each. */
  failed: { salt: string; status: number; code: unknown; afterAcked: number }[];
  inFlight: boolean;
  done: Promise<void>;
}

// Two compiled servers behind the round-robin proxy, on a PostgreSQL server of its own that stops
// and starts again while clients save through the proxy. PostgreSQL suite only.
describe.skipIf(testDbKind() !== 'postgres')(
  'database outage under load, two servers behind a proxy',
  { timeout: 300_000 },
  () => {
    let workDir: string;
    let postgres: TestPostgres;
    let cluster: Cluster;
    beforeAll(async () => {
      workDir = mkdtempSync(join(tmpdir(), 'adloom-outage-cluster-'));
      postgres = await startEmbeddedPostgres(join(workDir, 'pg'));
      cluster = await startCluster({
        databaseUrl: postgres.adminUrl,
        workDir,
        count: 2,
        env: { REGISTER_LIMIT_PER_IP: '100000' },
        openLog: () => openTestLog('server'),
      });
    });
    afterAll(async () => {
      await cluster?.stop();
      await postgres?.stop().catch(() => {});
      rmSync(workDir, { recursive: true, force: true });
    });

    it('answers 503 while PostgreSQL is down, recovers without a restart, and stores every save whole or answers an error', async () => {
      const call = (method: string, path: string, options: { body?: unknown; token?: string }) =>
        callServer(cluster.url, method, path, options);
      const register = await call('POST', API.users.register, {
        body: {
          email: `outage-${Date.now()}@example.com`,
          password: TEST_PASSWORD,
          'password-confirm': TEST_PASSWORD,
          recaptchaToken: '',
        },
      });
      const token = register.body.token as string;
      const rowsOf = (salt: string) =>
        Array.from({ length: LOAD_ROWS }, (_, i) => ({ id: `r${i}`, root: `p ${i}`, mod: salt }));

      let isStopping = false;
      let isDatabaseBack = false;
      let savesAfterRestart = 0;
      const startWriter = async (client: string): Promise<Writer> => {
        expect(
          (await call('POST', API.app.clients, { body: { name: client }, token })).status,
        ).toBe(200);
        const writer: Writer = { acked: [], failed: [], inFlight: false, done: Promise.resolve() };
        writer.done = (async () => {
          let revision = 0;
          for (let n = 0; !isStopping; n += 1) {
            const salt = `${client} save ${n}`;
            writer.inFlight = true;
            let answer: HttpAnswer;
            try {
              answer = await call('POST', API.app.feeds, {
                body: { name: client, revision, feeds: [{ name: 'products', rows: rowsOf(salt) }] },
                token,
              });
            } finally {
              writer.inFlight = false;
            }
            if (answer.status === 200) {
              revision = answer.body.revision as number;
              writer.acked.push({ salt, revision });
              if (isDatabaseBack) savesAfterRestart += 1;
              continue;
            }
            writer.failed.push({
              salt,
              status: answer.status,
              code: answer.body?.error?.code,
              afterAcked: writer.acked.length,
            });
            // As the web app does after an error: load the stored set again before saving on.
            await new Promise((resolve) => setTimeout(resolve, 100));
            const bundle = await call('GET', clientPath(client), { token });
            if (bundle.status === 200) revision = bundle.body.revisions.feeds as number;
          }
        })();
        return writer;
      };
      const writers = await Promise.all(
        Array.from({ length: WRITERS }, (_, index) => startWriter(`Client ${index}`)),
      );
      // Saves go on until some are stored and one is in flight, then PostgreSQL stops.
      await waitFor(
        async () =>
          writers.every((writer) => writer.acked.length > 0) &&
          writers.some((writer) => writer.inFlight),
        (isReady) => isReady,
        60_000,
      );
      await postgres.stop();
      const ready = await Promise.all(
        cluster.servers.map((server) => callServer(server.url, 'GET', API.ready)),
      );
      expect(ready.map((answer) => answer.status)).toEqual([503, 503]);
      expect(ready[0]?.body.error.code).toBe('service_unavailable');
      await waitFor(
        async () => writers.every((writer) => writer.failed.length > 0),
        (isReady) => isReady,
        30_000,
      );

      await postgres.start();
      const back = await waitFor(
        () =>
          Promise.all(cluster.servers.map((server) => callServer(server.url, 'GET', API.ready))),
        (answers) => answers.every((answer) => answer.status === 200),
        60_000,
      );
      expect(back.map((answer) => answer.status)).toEqual([200, 200]);
      isDatabaseBack = true;
      await waitFor(
        async () => savesAfterRestart,
        (count) => count >= WRITERS * 2,
        60_000,
      );
      isStopping = true;
      await Promise.all(writers.map((writer) => writer.done));

      // Both servers recovered by themselves: the same processes serve.
      expect(cluster.servers.map((server) => server.child.exitCode)).toEqual([null, null]);
      for (const [index, writer] of writers.entries()) {
        // The failures: the database being away (503, the web app's service-down page, edits
        // kept), or, should a lost answer's save have been stored after all, the next save's 409.
        expect(writer.failed.map((failure) => `${failure.status} ${failure.code}`)).toContain(
          '503 service_unavailable',
        );
        for (const failure of writer.failed)
          expect(['503 service_unavailable', '409 conflict']).toContain(
            `${failure.status} ${failure.code}`,
          );
        // The stored feed is one save whole: the last one answered 200, or one answered an error
        // after it (its commit done just before the answer was lost).
        const bundle = await call('GET', clientPath(`Client ${index}`), { token });
        const rows = bundle.body.feeds[0].rows as { id: string; mod: string }[];
        const salts = [...new Set(rows.map((row) => row.mod))];
        expect(rows).toHaveLength(LOAD_ROWS);
        expect(salts).toHaveLength(1);
        const lastAcked = writer.acked.at(-1);
        const laterFailures = writer.failed
          .filter((failure) => failure.afterAcked === writer.acked.length)
          .map((failure) => failure.salt);
        expect([lastAcked?.salt, ...laterFailures]).toContain(salts[0]);
      }
    });
  },
);
