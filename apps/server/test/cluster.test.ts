/**
 * Two server processes (the compiled server, as `npm start` runs it) on one PostgreSQL database
 * behind a round-robin proxy: whatever server a request reaches, the answer is the same. Runs
 * on PostgreSQL only (the embedded database belongs to one process).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API, clientPath, resetPath } from '@adloom/contract';
import { startCluster, type Cluster } from './cluster.ts';
import { TEST_PASSWORD, createPostgresDatabase, openTestLog, testDbKind } from './helpers.ts';
import { RESET_SUBJECT, findResetLink, startMailbox, type Mailbox } from './mailbox.ts';
import { UPSTREAM_HEADER } from './round-robin-proxy.ts';
import { callServer, type HttpAnswer } from './server-process.ts';

const APP_URL = 'http://adloom.test';
const LOGIN_TRIES_PER_ACCOUNT = 4;

describe.skipIf(testDbKind() !== 'postgres')(
  'two servers on one PostgreSQL behind a round-robin proxy',
  { timeout: 180_000 },
  () => {
    let workDir: string;
    let database: { url: string; drop(): Promise<void> };
    let mailbox: Mailbox;
    let cluster: Cluster;
    beforeAll(async () => {
      workDir = mkdtempSync(join(tmpdir(), 'adloom-cluster-'));
      database = await createPostgresDatabase(
        inject('adloomPostgresUrl'),
        `adloom_cluster_${process.pid}`,
      );
      mailbox = await startMailbox();
      cluster = await startCluster({
        databaseUrl: database.url,
        workDir,
        count: 2,
        env: {
          SMTP_URL: mailbox.url,
          APP_URL,
          REGISTER_LIMIT_PER_IP: '100000',
          LOGIN_LIMIT_PER_IP_ACCOUNT: String(LOGIN_TRIES_PER_ACCOUNT),
        },
        openLog: () => openTestLog('server'),
      });
    });
    afterAll(async () => {
      expect(await cluster?.stop()).toEqual([0, 0]);
      await mailbox?.close();
      await database?.drop();
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    });

    /** One request through the proxy, from the address `from` (x-forwarded-for). */
    const call = (
      method: string,
      path: string,
      options: { body?: unknown; token?: string; from?: string } = {},
    ) =>
      callServer(cluster.url, method, path, {
        ...options,
        headers: { 'x-forwarded-for': options.from ?? '198.51.100.1' },
      });
    const servedBy = (answer: HttpAnswer) => answer.headers.get(UPSTREAM_HEADER);

    async function signUp(): Promise<{ email: string; token: string }> {
      const email = `cluster-${Math.random().toString(36).slice(2)}@example.com`;
      const answer = await call('POST', API.users.register, {
        body: {
          email,
          password: TEST_PASSWORD,
          'password-confirm': TEST_PASSWORD,
          recaptchaToken: '',
        },
      });
      expect(answer.status).toBe(201);
      return { email, token: answer.body.token as string };
    }

    /** The statuses of `GET /api/users/me` with `token` through each server in turn. */
    async function meOnBoth(token: string): Promise<Record<string, number>> {
      const statuses: Record<string, number> = {};
      for (let i = 0; i < 2; i += 1) {
        const me = await call('GET', API.users.me, { token });
        statuses[servedBy(me) ?? '?'] = me.status;
      }
      return statuses;
    }

    it("runs each server through run.mjs's first line, as npm start does (its memory settings)", () => {
      for (const server of cluster.servers) {
        // The line's `env -S GLIBC_TUNABLES=... node --max-semi-space-size=4` ran: node got its
        // flag (glibc consumes its setting at start; it does not show in /proc/PID/environ).
        const args = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
        expect(args.slice(0, 3)).toEqual([
          'node',
          '--max-semi-space-size=4',
          join(import.meta.dirname, '..', 'scripts', 'run.mjs'),
        ]);
      }
    });

    it('takes a session made on one server on the other', async () => {
      const email = `session-${Date.now()}@example.com`;
      const made = await call('POST', API.users.register, {
        body: {
          email,
          password: TEST_PASSWORD,
          'password-confirm': TEST_PASSWORD,
          recaptchaToken: '',
        },
      });
      expect(made.status).toBe(201);
      const me = await call('GET', API.users.me, { token: made.body.token });
      expect(servedBy(me)).not.toBe(servedBy(made));
      expect(me.status).toBe(200);
      expect(me.body.user.email).toBe(email);
      expect(cluster.proxy.counts.every((count) => count > 0)).toBe(true);
    });

    it('counts login attempts on both servers together', async () => {
      const { email } = await signUp();
      const from = '203.0.113.9';
      const attempts: { status: number; server: string | null }[] = [];
      for (let i = 0; i < LOGIN_TRIES_PER_ACCOUNT + 2; i += 1) {
        const answer = await call('POST', API.users.login, {
          body: { email, password: 'not the password' },
          from,
        });
        attempts.push({ status: answer.status, server: servedBy(answer) });
      }
      // Two tries through each server fill the limit of four; the next ones are refused on both.
      expect(attempts.map((attempt) => attempt.status)).toEqual([
        ...Array<number>(LOGIN_TRIES_PER_ACCOUNT).fill(404),
        429,
        429,
      ]);
      expect(new Set(attempts.slice(-2).map((attempt) => attempt.server)).size).toBe(2);
      // Even the right password waits now, whichever server it reaches.
      const right = await call('POST', API.users.login, {
        body: { email, password: TEST_PASSWORD },
        from,
      });
      expect(right.status).toBe(429);
    });

    it('gives one of two saves with the same revision, one through each server, a 409', async () => {
      const { token } = await signUp();
      expect((await call('POST', API.app.clients, { body: { name: 'Acme' }, token })).status).toBe(
        200,
      );
      const bundle = await call('GET', clientPath('Acme'), { token });
      const revision = bundle.body.revisions.feeds as number;
      const save = (rows: number) =>
        call('POST', API.app.feeds, {
          token,
          body: {
            name: 'Acme',
            revision,
            feeds: [
              {
                name: 'products',
                rows: Array.from({ length: rows }, (_, i) => ({ id: `r${i}`, root: `p ${i}` })),
              },
            ],
          },
        });
      const answers = await Promise.all([save(10), save(20)]);
      expect(new Set(answers.map(servedBy)).size).toBe(2);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const won = answers.find((answer) => answer.status === 200);
      const lost = answers.find((answer) => answer.status === 409);
      expect(lost?.body.error.code).toBe('conflict');
      expect(lost?.body.error.details.current.revision).toBe(revision + 1);
      // Both servers now answer the winner's rows.
      for (let i = 0; i < 2; i += 1) {
        const stored = await call('GET', clientPath('Acme'), { token });
        expect(stored.body.revisions.feeds).toBe(revision + 1);
        expect(stored.body.feeds[0].rows).toHaveLength(won?.body.feeds[0].rows.length);
      }
    });

    it('ends the sessions served by the other server when the password is reset on one', async () => {
      const { email, token: first } = await signUp();
      const login = await call('POST', API.users.login, {
        body: { email, password: TEST_PASSWORD },
      });
      expect(login.status).toBe(200);
      const second = login.body.token as string;
      expect(await meOnBoth(first)).toEqual({ 0: 200, 1: 200 });

      expect((await call('POST', API.users.forgot, { body: { email } })).status).toBe(200);
      const link = findResetLink(
        (await mailbox.waitForMail(email, undefined, RESET_SUBJECT)).text,
        APP_URL,
      );
      const resetToken = link.pathname.split('/').at(-1) ?? '';
      const reset = await call('POST', resetPath(resetToken), {
        body: { password: 'a brand new password', 'password-confirm': 'a brand new password' },
      });
      expect(reset.status).toBe(200);

      expect(await meOnBoth(first)).toEqual({ 0: 401, 1: 401 });
      expect(await meOnBoth(second)).toEqual({ 0: 401, 1: 401 });
      expect(await meOnBoth(reset.body.token as string)).toEqual({ 0: 200, 1: 200 });
    });

    it('logs out everywhere across both servers', async () => {
      const { email, token: first } = await signUp();
      const second = (
        await call('POST', API.users.login, { body: { email, password: TEST_PASSWORD } })
      ).body.token as string;
      expect(await meOnBoth(second)).toEqual({ 0: 200, 1: 200 });
      const out = await call('POST', API.users.logoutEverywhere, { body: {}, token: first });
      expect(out.status).toBe(200);
      expect(await meOnBoth(first)).toEqual({ 0: 401, 1: 401 });
      expect(await meOnBoth(second)).toEqual({ 0: 401, 1: 401 });
    });
  },
);
