import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@adloom/contract';
import { openDatabase } from '../src/db/index.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { startEmbeddedPostgres, type TestPostgres } from './postgres.ts';

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
