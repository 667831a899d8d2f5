import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, LogOutAnswerSchema } from '@adloom/contract';
import { createSessionService } from '../src/auth/session.ts';
import type { Db } from '../src/db/index.ts';
import { REVOCATION_PRUNE_GRACE_SECONDS } from '../src/db/users.ts';
import { TEST_PASSWORD, startTestApp, type TestApp } from './helpers.ts';

describe('Log Out and log out everywhere end tokens on the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** A second session of the same account, as another device would get it. */
  async function logIn(email: string): Promise<string> {
    const response = await t.request('POST', API.users.login, {
      body: { email, password: TEST_PASSWORD },
    });
    expect(response.status).toBe(200);
    return response.body.token as string;
  }

  /** The status of the account call and of a workspace call made with the token. */
  async function statuses(token: string): Promise<[number, number]> {
    const me = await t.request('GET', API.users.me, { token });
    const clients = await t.request('GET', API.app.clients, { token });
    return [me.status, clients.status];
  }

  async function revocations(): Promise<{ jti: string; user_id: string; expires_at: Date }[]> {
    return t.db.query('select jti, user_id, expires_at from revoked_sessions order by created_at');
  }

  it('Log Out refuses that token until it expires, and only that token', async () => {
    const { token: first, email, user } = await t.signUp();
    const second = await logIn(email);
    expect(await statuses(first)).toEqual([200, 200]);

    const response = await t.request('POST', API.users.logout, { token: first });
    expect(response.status).toBe(200);
    expect(LogOutAnswerSchema.strict().parse(response.body)).toEqual({
      type: 'success',
      message: 'You have been logged out.',
    });

    expect(await statuses(first)).toEqual([401, 401]);
    const refused = await t.request('GET', API.users.me, { token: first });
    expect(refused.body.error.code).toBe('unauthorized');
    expect(await statuses(second)).toEqual([200, 200]);

    // Kept exactly until the token's own expiry.
    const { jti, exp } = decodeJwt(first);
    const row = (await revocations()).find((r) => r.jti === jti);
    expect(row?.user_id).toBe(user._id);
    expect(row?.expires_at.getTime()).toBe((exp ?? 0) * 1000);

    // The ended token cannot log out (or do anything) again.
    expect((await t.request('POST', API.users.logout, { token: first })).status).toBe(401);
  });

  it('log out everywhere ends every token of the user, and a fresh login works', async () => {
    const { token: first, email } = await t.signUp();
    const second = await logIn(email);
    const bystander = await t.signUp();
    await t.request('POST', API.users.logout, { token: await logIn(email) });
    expect((await revocations()).length).toBeGreaterThan(0);

    const response = await t.request('POST', API.users.logoutEverywhere, { token: second });
    expect(response.status).toBe(200);
    expect(LogOutAnswerSchema.strict().parse(response.body)).toEqual({
      type: 'success',
      message: 'You have been logged out on every device.',
    });

    expect(await statuses(first)).toEqual([401, 401]);
    expect(await statuses(second)).toEqual([401, 401]);
    expect(await statuses(bystander.token)).toEqual([200, 200]);
    // The version bump makes this user's revocations moot: they are dropped.
    const ids = (await revocations()).map((r) => r.user_id);
    const mine = await t.db.query<{ id: string }>('select id from users where email = $1', [email]);
    expect(ids).not.toContain(mine[0]?.id);

    const fresh = await logIn(email);
    expect(await statuses(fresh)).toEqual([200, 200]);
    expect((await t.request('POST', API.users.logoutEverywhere, { token: first })).status).toBe(
      401,
    );
  });

  it('a user cannot end another user’s token', async () => {
    const ann = await t.signUp();
    const bob = await t.signUp();
    const bobJti = decodeJwt(bob.token).jti;

    // Whatever the body names, logout ends the caller's own token.
    const response = await t.request('POST', API.users.logout, {
      token: ann.token,
      body: { token: bob.token, jti: bobJti, userId: bob.user._id },
    });
    expect(response.status).toBe(200);
    expect(await statuses(ann.token)).toEqual([401, 401]);
    expect(await statuses(bob.token)).toEqual([200, 200]);
    const rows = await revocations();
    expect(rows.filter((r) => r.jti === bobJti)).toEqual([]);
    expect(rows.find((r) => r.jti === decodeJwt(ann.token).jti)?.user_id).toBe(ann.user._id);

    const annAgain = await logIn(ann.email);
    await t.request('POST', API.users.logoutEverywhere, {
      token: annAgain,
      body: { userId: bob.user._id },
    });
    expect(await statuses(bob.token)).toEqual([200, 200]);

    // A revocation counts only for the user it was recorded for.
    await t.db.query(
      `insert into revoked_sessions (jti, user_id, expires_at) values ($1, $2, now() + interval '1 day')`,
      [bobJti, ann.user._id],
    );
    expect(await statuses(bob.token)).toEqual([200, 200]);
  });

  it('answers 401 to logout and logout everywhere without a valid token', async () => {
    for (const path of [API.users.logout, API.users.logoutEverywhere]) {
      expect((await t.request('POST', path)).status, path).toBe(401);
      expect((await t.request('POST', path, { token: 'not-a-token' })).status, path).toBe(401);
    }
  });

  it('refuses a token without an id (signed before tokens had one)', async () => {
    const { user } = await t.signUp();
    const legacy = await new SignJWT({ email: user.email, sv: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user._id)
      .setIssuer('adloom')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    expect(await statuses(legacy)).toEqual([401, 401]);
  });

  it('prunes revocations whose tokens expired, of every user, when a token is logged out', async () => {
    const ann = await t.signUp();
    const bob = await t.signUp();
    const [longGone, justExpired, stillValid] = [randomUUID(), randomUUID(), randomUUID()];
    const insert = (jti: string, userId: string, secondsFromNow: number) =>
      t.db.query(
        `insert into revoked_sessions (jti, user_id, expires_at) values ($1, $2, now() + make_interval(secs => $3))`,
        [jti, userId, secondsFromNow],
      );
    await insert(longGone, bob.user._id, -86_400);
    // Within the grace period (clock skew between app and database): kept a little longer.
    await insert(justExpired, ann.user._id, -REVOCATION_PRUNE_GRACE_SECONDS / 2);
    await insert(stillValid, bob.user._id, 3600);

    expect((await t.request('POST', API.users.logout, { token: ann.token })).status).toBe(200);

    const jtis = (await revocations()).map((r) => r.jti);
    expect(jtis).not.toContain(longGone);
    expect(jtis).toContain(justExpired);
    expect(jtis).toContain(stillValid);
    expect(jtis).toContain(decodeJwt(ann.token).jti);
  });

  it('checks a token, its user, version and revocation in one database round trip', async () => {
    const { token, user } = await t.signUp();
    const sqls: string[] = [];
    const counting: Db = {
      ...t.db,
      query(sql, params) {
        sqls.push(sql);
        return t.db.query(sql, params);
      },
    };
    const sessions = createSessionService({
      secret: t.config.jwtSecret,
      ttlSeconds: t.config.sessionTtlSeconds,
      db: counting,
    });
    const signedIn = await sessions.verify(token);
    expect(signedIn.id).toBe(user._id);
    expect(signedIn.session.id).toBe(decodeJwt(token).jti);
    expect(sqls).toHaveLength(1);

    await t.request('POST', API.users.logout, { token });
    sqls.length = 0;
    await expect(sessions.verify(token)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(sqls).toHaveLength(1);
  });

  it('gives every token its own id', async () => {
    const { token, email } = await t.signUp();
    const other = await logIn(email);
    const ids = [decodeJwt(token).jti, decodeJwt(other).jti];
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
