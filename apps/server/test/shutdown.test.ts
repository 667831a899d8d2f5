/**
 * SIGTERM on a server in the middle of a 100k-row save, as a deploy does: the server stops
 * accepting, lets the save finish, then exits 0; past SHUTDOWN_GRACE_SECONDS it exits anyway
 * and the save is not stored at all. A second server on the same PostgreSQL database (as in a
 * rolling deploy) shows what was stored. PostgreSQL only (the embedded database belongs to one
 * process).
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API, clientPath } from '@adloom/contract';
import { startCluster, type Cluster } from './cluster.ts';
import { TEST_PASSWORD, createPostgresDatabase, openTestLog, testDbKind } from './helpers.ts';
import {
  callServer,
  startCompiledServer,
  waitForOutput,
  type ServerProcess,
} from './server-process.ts';

const ROWS = 100_000;

/** A request whose body is sent only up to `sentBytes`; `finish` sends the rest. */
function startHeldRequest(
  url: string,
  token: string,
  body: Buffer,
  sentBytes: number,
): { answer: Promise<{ status: number; text: string }>; finish(): void } {
  const request = httpRequest(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': String(body.length),
    },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
  });
  request.write(body.subarray(0, sentBytes));
  return { answer, finish: () => request.end(body.subarray(sentBytes)) };
}

/** True once a new connection to `url` is refused. */
async function waitUntilRefused(url: string): Promise<boolean> {
  for (let tries = 0; tries < 200; tries += 1) {
    try {
      await fetch(`${url}${API.health}`);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe.skipIf(testDbKind() !== 'postgres')(
  'SIGTERM while a 100k-row save is in flight',
  { timeout: 240_000 },
  () => {
    let workDir: string;
    let database: { url: string; drop(): Promise<void> };
    let cluster: Cluster;
    let token: string;
    const extra: ServerProcess[] = [];
    const feedBody = (salt: string, revision: number) =>
      Buffer.from(
        JSON.stringify({
          name: 'Acme',
          revision,
          feeds: [
            {
              name: 'products',
              rows: Array.from({ length: ROWS }, (_, i) => ({
                id: `r${i}`,
                root: `brand ${i}`,
                mod: `shoes ${salt}`,
                url: `https://shop.example.com/products/${i}`,
              })),
            },
          ],
        }),
      );
    /** The stored feed, read through the server that keeps running. */
    const storedFeed = async () => {
      const bundle = await callServer(cluster.servers[1]?.url ?? '', 'GET', clientPath('Acme'), {
        token,
      });
      const rows = bundle.body.feeds[0]?.rows as { mod: string }[] | undefined;
      return {
        revision: bundle.body.revisions.feeds as number,
        rows: rows?.length ?? 0,
        mods: [...new Set(rows?.map((row) => row.mod))],
      };
    };

    beforeAll(async () => {
      workDir = mkdtempSync(join(tmpdir(), 'adloom-shutdown-'));
      database = await createPostgresDatabase(
        inject('adloomPostgresUrl'),
        `adloom_shutdown_${process.pid}`,
      );
      cluster = await startCluster({
        databaseUrl: database.url,
        workDir,
        count: 2,
        env: { SHUTDOWN_GRACE_SECONDS: '120' },
        openLog: () => openTestLog('server'),
      });
      const base = cluster.servers[1]?.url ?? '';
      const email = `shutdown-${Date.now()}@example.com`;
      const signUp = await callServer(base, 'POST', API.users.register, {
        body: {
          email,
          password: TEST_PASSWORD,
          'password-confirm': TEST_PASSWORD,
          recaptchaToken: '',
        },
      });
      token = signUp.body.token as string;
      await callServer(base, 'POST', API.app.clients, { body: { name: 'Acme' }, token });
      const first = await callServer(base, 'POST', API.app.feeds, {
        body: feedBody('old', 0).toString(),
        token,
      });
      expect(first.status).toBe(200);
    });
    afterAll(async () => {
      for (const started of extra)
        if (started.child.exitCode === null) started.child.kill('SIGKILL');
      await cluster?.stop();
      await database?.drop();
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    });

    it('stops accepting, finishes the save whole, then exits 0', async () => {
      const stopping = cluster.servers[0];
      if (!stopping) throw new Error('no server');
      const body = feedBody('new', 1);
      const save = startHeldRequest(
        `${stopping.url}${API.app.feeds}`,
        token,
        body,
        body.length / 2,
      );
      await waitForOutput(stopping, /\/api\/app\/feeds/);
      stopping.child.kill('SIGTERM');
      await waitForOutput(stopping, /SIGTERM: shutting down/);
      // While the save is still arriving, the server takes no new connection.
      expect(await waitUntilRefused(stopping.url)).toBe(true);
      save.finish();
      const answer = await save.answer;
      expect(answer.status).toBe(200);
      expect(await stopping.exited).toBe(0);
      expect(await storedFeed()).toEqual({ revision: 2, rows: ROWS, mods: ['shoes new'] });
    });

    it('exits after SHUTDOWN_GRACE_SECONDS with a save unfinished, which is not stored at all', async () => {
      const stopping = await startCompiledServer(
        { ...cluster.env, DATA_DIR: join(workDir, 'short-grace'), SHUTDOWN_GRACE_SECONDS: '1' },
        openTestLog('server'),
      );
      extra.push(stopping);
      const before = await storedFeed();
      const body = feedBody('cut off', before.revision);
      const save = startHeldRequest(
        `${stopping.url}${API.app.feeds}`,
        token,
        body,
        body.length / 2,
      );
      const outcome = save.answer.then(
        () => 'answered',
        () => 'cut off',
      );
      await waitForOutput(stopping, /\/api\/app\/feeds/);
      stopping.child.kill('SIGTERM');
      expect(await stopping.exited).toBe(1);
      expect(stopping.output()).toMatch(/shutdown took longer than 1 s \(SHUTDOWN_GRACE_SECONDS\)/);
      expect(await outcome).toBe('cut off');
      expect(await storedFeed()).toEqual(before);
    });
  },
);
