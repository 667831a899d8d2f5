/**
 * Issue 37, finding 2: with every pool connection taken by one user's saves, other requests
 * answered 503 "The database is unavailable", the log said `SQLSTATE 08006 … the database cannot
 * be reached`, and /api/ready answered 503 after up to 16 s. Waiting for a connection is busy,
 * not an outage: 429 server_busy with Retry-After, a log line that says busy, and a readiness
 * answer that does not wait for the pool.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { API } from '@adloom/contract';
import { createPgDb, createPgPool, runMigrations, type Db } from '../src/db/index.ts';
import {
  DatabaseBusyError,
  SERVER_BUSY_MESSAGE,
  SERVER_BUSY_RETRY_AFTER_SECONDS,
} from '../src/errors.ts';
import { createPostgresDatabase, startTestApp, testDbKind, type TestApp } from './helpers.ts';

/**
 * Transactions held open until released: each keeps one connection (on PGlite, the only one).
 * Resolves once every one has run its first statement.
 */
async function holdConnections(db: Db, count: number): Promise<{ release(): Promise<void> }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const started: Promise<void>[] = [];
  const done: Promise<void>[] = [];
  for (let i = 0; i < count; i += 1) {
    let start = () => {};
    started.push(new Promise<void>((resolve) => (start = resolve)));
    done.push(
      db.transaction(async (tx) => {
        await tx.query('select 1');
        start();
        await released;
      }),
    );
  }
  await Promise.all(started);
  return {
    async release() {
      release();
      await Promise.all(done);
    },
  };
}

describe('a busy database is not an outage', () => {
  let t: TestApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await t?.close();
    await drop?.();
    t = undefined;
    drop = undefined;
  });

  it('/api/ready answers ready while the database is held by work', async () => {
    t = await startTestApp();
    await t.request('GET', API.ready);
    const held = await holdConnections(t.db, t.db.kind === 'postgres' ? 10 : 1);
    // Released after ready has answered, or after 20 s if ready waits for the work to end.
    let isReleased = false;
    const releaseLater = setTimeout(() => {
      isReleased = true;
      void held.release();
    }, 20_000);
    const answer = await t.request('GET', API.ready);
    const wasReleasedFirst = isReleased;
    clearTimeout(releaseLater);
    await held.release();
    expect(wasReleasedFirst).toBe(false);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 200,
      body: { ok: true, database: t.db.kind },
    });
  });

  it.runIf(testDbKind() === 'postgres')(
    'a request that finds every pool connection in use gets 429 server_busy, logged as busy',
    async () => {
      const database = await createPostgresDatabase(
        inject('adloomPostgresUrl'),
        `adloom_busy_${randomUUID().replaceAll('-', '')}`,
      );
      drop = database.drop;
      const db = createPgDb(
        createPgPool(database.url, undefined, { max: 2, connectionTimeoutMillis: 300 }),
      );
      await runMigrations(db);
      const lines: string[] = [];
      t = await startTestApp({}, { db, logStream: { write: (line) => lines.push(line) } });
      const { token } = await t.signUp();

      const held = await holdConnections(db, 2);
      const answer = await t.request('GET', API.app.clients, { token });
      const ready = await t.request('GET', API.ready);
      await held.release();

      expect({ status: answer.status, error: answer.body.error }).toEqual({
        status: 429,
        error: { code: 'server_busy', message: SERVER_BUSY_MESSAGE },
      });
      expect(answer.headers['retry-after']).toBe(String(SERVER_BUSY_RETRY_AFTER_SECONDS));
      expect(ready.status).toBe(200);
      const log = lines.join('');
      expect(log).toContain('"msg":"database busy"');
      expect(log).toMatch(/all 2 of the pool's connections were in use/);
      expect(log).not.toContain('08006');
      expect(log).not.toContain('cannot be reached');
      expect(log).not.toContain('database unavailable');
      // Free again: the same call is answered.
      expect((await t.request('GET', API.app.clients, { token })).status).toBe(200);
    },
  );

  it.runIf(testDbKind() === 'postgres')(
    'a new connection that timed out while this server was blocked is busy, not unreachable',
    async () => {
      const database = await createPostgresDatabase(
        inject('adloomPostgresUrl'),
        `adloom_blocked_${randomUUID().replaceAll('-', '')}`,
      );
      drop = database.drop;
      const db = createPgDb(
        createPgPool(database.url, undefined, { max: 2, connectionTimeoutMillis: 300 }),
      );
      try {
        // Let the event-loop watch take a first tick, then start a connection and block the
        // loop past its timeout, as parsing a large body on a loaded machine does.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const query = db.query('select 1');
        const until = performance.now() + 1500;
        while (performance.now() < until) {
          // Blocked.
        }
        const error: unknown = await query.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(DatabaseBusyError);
        expect((error as Error).message).toMatch(
          /connecting timed out after \d+ ms while this server's event loop was blocked for \d+ ms/,
        );
        // Unblocked, the same query is answered.
        expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
      } finally {
        await db.close();
      }
    },
  );
});
