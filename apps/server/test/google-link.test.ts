import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GOOGLE_LINK_MESSAGES,
  GOOGLE_SHEETS_INTEGRATION,
  GoogleStatusSchema,
  LinkAnswerSchema,
  SHEET_MESSAGES,
} from '@adloom/contract';
import { loadConfig, type Config } from '../src/config.ts';
import { AppError } from '../src/errors.ts';
import {
  CODE_REFUSED_MESSAGE,
  GOOGLE_SHEETS_SCOPE,
  createGoogleAccessTokens,
  getGoogleAccessToken,
  pkceChallenge,
  type GoogleDeps,
} from '../src/services/google-oauth.ts';
import { openSecret } from '../src/services/secrets.ts';
import { startGoogleStandIn, type GoogleStandIn } from './google-stand-in.ts';
import {
  TEST_PASSWORD,
  startTestApp,
  type RequestOptions,
  type TestApp,
  type TestResponse,
} from './helpers.ts';

const TOKEN_KEY = 'Zt4-Wq9rLm2xVb7nKc5pHs8dJf3gYe6aQu1';
const REDIRECT_URI = 'http://adloom.test/account';

/** The Google part of a config read from the stand-in's settings, as the server reads them. */
function googleSettings(
  env: Record<string, string>,
): Pick<Config, 'google' | 'tokenEncryptionKey'> {
  const config = loadConfig({
    JWT_SECRET: 'k3J9x-Qw7zP2m_Lr5Tn8Vb1Yc4Hd6Fg0Se',
    DATA_DIR: join(tmpdir(), `adloom-google-${randomUUID()}`),
    TOKEN_ENCRYPTION_KEY: TOKEN_KEY,
    GOOGLE_RETRY_BASE_MS: '0',
    ...env,
  });
  return { google: config.google, tokenEncryptionKey: config.tokenEncryptionKey };
}

/** The error a promise rejects with. */
async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('Google account link', () => {
  let standIn: GoogleStandIn;
  let t: TestApp;
  /** Every answer body and log line, to prove no token leaves the server. */
  const answers: string[] = [];
  const logLines: string[] = [];

  async function call(method: string, path: string, options?: RequestOptions) {
    const response = await t.request(method, path, options);
    answers.push(JSON.stringify(response.body));
    return response;
  }

  /** Opens the consent page as a browser would: the stand-in sends it back to /account. */
  async function consent(token: string): Promise<{ url: URL; code: string; state: string }> {
    const answer = await call('GET', '/api/google/consent', { token });
    expect(answer.status).toBe(200);
    const url = new URL(answer.body.url as string);
    const back = await fetch(url, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    return {
      url,
      code: location.searchParams.get('code') ?? '',
      state: location.searchParams.get('state') ?? '',
    };
  }

  async function link(token: string): Promise<TestResponse> {
    const { code, state } = await consent(token);
    const answer = await call('POST', '/api/google/access-token', {
      token,
      body: { user: {}, code, state },
    });
    expect(answer.status).toBe(200);
    return answer;
  }

  async function linkRow(userId: string) {
    const rows = await t.db.query<{ refresh_token: string; status: string; scope: string }>(
      'select refresh_token, status, scope from google_links where user_id = $1',
      [userId],
    );
    return rows[0];
  }

  /** The plain refresh token stored for a user (opened as the server opens it). */
  async function storedRefreshToken(userId: string): Promise<string> {
    const row = await linkRow(userId);
    if (!row) throw new Error('no link stored');
    return openSecret(TOKEN_KEY, row.refresh_token, userId);
  }

  const tokenRequests = () =>
    standIn.requests
      .filter((request) => request.method === 'POST' && request.path.startsWith('/token'))
      .map((request) => new URLSearchParams(request.body));

  /** Fresh access-token memory over the app's config and database. */
  const freshDeps = (): GoogleDeps => ({
    config: t.config,
    db: t.db,
    googleTokens: createGoogleAccessTokens(),
  });

  beforeAll(async () => {
    standIn = await startGoogleStandIn();
    t = await startTestApp(googleSettings({ ...standIn.settings }), {
      logStream: { write: (line) => logLines.push(line) },
    });
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  it('answers a consent URL: offline, the spreadsheets scope only, a state and a PKCE S256 challenge', async () => {
    const { token, user } = await t.signUp();
    const status = await call('GET', '/api/google/status', { token });
    expect(status.status).toBe(200);
    expect(GoogleStatusSchema.strict().parse(status.body)).toEqual({
      configured: true,
      status: 'not_linked',
    });

    const first = await call('GET', '/api/google/consent', { token });
    const url = new URL(first.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe(standIn.settings.GOOGLE_AUTH_URL);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toEqual({
      client_id: 'stand-in-client',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: GOOGLE_SHEETS_SCOPE,
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'false',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(GOOGLE_SHEETS_SCOPE).toBe('https://www.googleapis.com/auth/spreadsheets');
    // The state is the user's, with the verifier whose S256 challenge the URL carries.
    const rows = await t.db.query<{ user_id: string; code_verifier: string; ttl: number }>(
      `select user_id, code_verifier, extract(epoch from expires_at - now())::int as ttl
       from google_oauth_states where state = $1`,
      [params.state],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBe(user._id);
    expect(pkceChallenge(rows[0]!.code_verifier)).toBe(params.code_challenge);
    expect(rows[0]!.code_verifier).not.toBe(params.code_challenge);
    expect(rows[0]!.ttl).toBeGreaterThan(590);
    expect(rows[0]!.ttl).toBeLessThanOrEqual(600);

    // Each consent page gets its own state; a user keeps at most 5 unanswered ones.
    const second = new URL((await call('GET', '/api/google/consent', { token })).body.url);
    expect(second.searchParams.get('state')).not.toBe(params.state);
    for (let i = 0; i < 6; i += 1) await call('GET', '/api/google/consent', { token });
    const kept = await t.db.query('select state from google_oauth_states where user_id = $1', [
      user._id,
    ]);
    expect(kept).toHaveLength(5);
  });

  it('links: the code is exchanged with the PKCE verifier, the user gains the integration', async () => {
    const { token, user } = await t.signUp();
    const before = tokenRequests().length;
    const answer = await link(token);
    expect(LinkAnswerSchema.strict().parse(answer.body)).toEqual(answer.body);
    expect(answer.body.user.integrations).toEqual([GOOGLE_SHEETS_INTEGRATION]);
    expect(answer.body.status).toEqual({
      configured: true,
      status: 'linked',
      linkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(answer.body.revoked).toBeUndefined();

    const exchanges = tokenRequests().slice(before);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.get('grant_type')).toBe('authorization_code');
    expect(exchanges[0]!.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(exchanges[0]!.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{64}$/);

    const me = await call('GET', '/api/users/me', { token });
    expect(me.body.user.integrations).toEqual([GOOGLE_SHEETS_INTEGRATION]);
    const status = await call('GET', '/api/google/status', { token });
    expect(status.body).toEqual(answer.body.status);

    // Linking again keeps one integration and one link.
    const again = await link(token);
    expect(again.body.user.integrations).toEqual([GOOGLE_SHEETS_INTEGRATION]);
    const links = await t.db.query('select 1 from google_links where user_id = $1', [user._id]);
    expect(links).toHaveLength(1);
  });

  it('stores the refresh token encrypted for the user: not the token, opens only with their id', async () => {
    const { token, user } = await t.signUp();
    const other = await t.signUp();
    await link(token);
    const row = await linkRow(user._id);
    expect(row).toMatchObject({ status: 'linked', scope: GOOGLE_SHEETS_SCOPE });
    const sealed = row!.refresh_token;
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    const plain = openSecret(TOKEN_KEY, sealed, user._id);
    expect(standIn.liveRefreshTokens()).toContain(plain);
    expect(sealed).not.toContain(plain);
    expect(() => openSecret(TOKEN_KEY, sealed, other.user._id)).toThrow(/did not open/);
  });

  it('refuses a state of another user, a used one, an expired one and an unknown one', async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    const before = tokenRequests().length;
    const aliceConsent = await consent(alice.token);

    const expectRefused = async (token: string, body: { code: string; state: string }) => {
      const answer = await call('POST', '/api/google/access-token', { token, body });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('bad_request');
      expect(answer.body.error.message).toMatch(/expired or was started elsewhere/);
    };
    // Bob cannot use Alice's state, and trying does not use it up.
    await expectRefused(bob.token, aliceConsent);
    await expectRefused(bob.token, { code: aliceConsent.code, state: 'not-a-state' });
    expect(tokenRequests().length).toBe(before);
    expect(await linkRow(bob.user._id)).toBeUndefined();
    const linked = await call('POST', '/api/google/access-token', {
      token: alice.token,
      body: aliceConsent,
    });
    expect(linked.status).toBe(200);
    // Used once: a second time is refused before Google is asked.
    await expectRefused(alice.token, aliceConsent);
    expect(tokenRequests().length).toBe(before + 1);

    const late = await consent(bob.token);
    await t.db.query(
      `update google_oauth_states set expires_at = now() - interval '1 second' where state = $1`,
      [late.state],
    );
    await expectRefused(bob.token, late);
    const states = await t.db.query('select 1 from google_oauth_states where state = $1', [
      late.state,
    ]);
    expect(states).toHaveLength(0);
    expect(await linkRow(bob.user._id)).toBeUndefined();

    // Without a session: 401.
    const anonymous = await call('POST', '/api/google/access-token', { body: aliceConsent });
    expect(anonymous.status).toBe(401);
  });

  it('answers 400 when the code does not belong to the state (Google answers invalid_grant)', async () => {
    const { token, user } = await t.signUp();
    const used = await consent(token);
    expect((await call('POST', '/api/google/access-token', { token, body: used })).status).toBe(
      200,
    );
    await call('POST', '/api/google/unlink-google-sheets', { token, body: { user: {} } });
    // A code works once at Google and only with its own state's verifier: sent with another,
    // fresh state, Google answers invalid_grant. The request was wrong, not Google.
    const fresh = await consent(token);
    const answer = await call('POST', '/api/google/access-token', {
      token,
      body: { code: used.code, state: fresh.state },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ code: 'bad_request', message: CODE_REFUSED_MESSAGE });
    expect(await linkRow(user._id)).toBeUndefined();
    const me = await call('GET', '/api/users/me', { token });
    expect(me.body.user.integrations).toEqual([]);
  });

  it('answers 502 with the link failure message when Google fails the code exchange', async () => {
    const { token, user } = await t.signUp();
    const pending = await consent(token);
    standIn.failNextCodeExchange(1, 503);
    const answer = await call('POST', '/api/google/access-token', { token, body: pending });
    expect(answer.status).toBe(502);
    expect(answer.body.error).toEqual({
      code: 'upstream_failed',
      message: GOOGLE_LINK_MESSAGES.linkFailed,
    });
    expect(await linkRow(user._id)).toBeUndefined();
  });

  it('unlinks: revokes the token at Google, deletes it and removes the integration', async () => {
    const { token, user } = await t.signUp();
    await link(token);
    const refreshToken = await storedRefreshToken(user._id);
    const answer = await call('POST', '/api/google/unlink-google-sheets', {
      token,
      body: { user: {} },
    });
    expect(answer.status).toBe(200);
    expect(LinkAnswerSchema.strict().parse(answer.body)).toEqual(answer.body);
    expect(answer.body).toMatchObject({
      revoked: true,
      status: { configured: true, status: 'not_linked' },
      user: { _id: user._id, integrations: [] },
    });
    expect(standIn.liveRefreshTokens()).not.toContain(refreshToken);
    const revokes = standIn.requests.filter((request) => request.path.startsWith('/revoke'));
    expect(revokes.map((request) => new URLSearchParams(request.body).get('token'))).toContain(
      refreshToken,
    );
    expect(await linkRow(user._id)).toBeUndefined();
    const me = await call('GET', '/api/users/me', { token });
    expect(me.body.user.integrations).toEqual([]);

    // Nothing linked: still 200, nothing to revoke.
    const again = await call('POST', '/api/google/unlink-google-sheets', { token, body: {} });
    expect(again.status).toBe(200);
    expect(again.body.revoked).toBeUndefined();
    expect(again.body.status.status).toBe('not_linked');
  });

  it('gives each user an access token from their own refresh token, kept in memory', async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    await link(alice.token);
    await link(bob.token);
    const aliceRefresh = await storedRefreshToken(alice.user._id);
    const bobRefresh = await storedRefreshToken(bob.user._id);
    expect(aliceRefresh).not.toBe(bobRefresh);

    const deps = freshDeps();
    const before = tokenRequests().length;
    const aliceToken = await getGoogleAccessToken(deps, alice.user._id, t.app.log);
    const afterAlice = tokenRequests().slice(before);
    expect(afterAlice).toHaveLength(1);
    expect(afterAlice[0]!.get('grant_type')).toBe('refresh_token');
    expect(afterAlice[0]!.get('refresh_token')).toBe(aliceRefresh);

    const bobToken = await getGoogleAccessToken(deps, bob.user._id, t.app.log);
    const afterBob = tokenRequests().slice(before + 1);
    expect(afterBob).toHaveLength(1);
    expect(afterBob[0]!.get('refresh_token')).toBe(bobRefresh);
    expect(bobToken).not.toBe(aliceToken);

    // Kept: asked again, no new refresh; each keeps their own.
    expect(await getGoogleAccessToken(deps, alice.user._id, t.app.log)).toBe(aliceToken);
    expect(await getGoogleAccessToken(deps, bob.user._id, t.app.log)).toBe(bobToken);
    expect(tokenRequests().length).toBe(before + 2);
    // Calls at the same time share one refresh.
    const together = freshDeps();
    const [one, two] = await Promise.all([
      getGoogleAccessToken(together, alice.user._id, t.app.log),
      getGoogleAccessToken(together, alice.user._id, t.app.log),
    ]);
    expect(one).toBe(two);
    expect(tokenRequests().length).toBe(before + 3);

    // The tokens are Google's: the stand-in's Sheets API takes them.
    const spreadsheetId = standIn.addSpreadsheet({ title: 'Products' });
    const sheet = await fetch(`${standIn.url}/v4/spreadsheets/${spreadsheetId}`, {
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(sheet.status).toBe(200);

    // Bob unlinks (through this app: `deps` stands for another server on the database, its
    // kept token unused from then): Alice's token stays, Bob has none.
    await call('POST', '/api/google/unlink-google-sheets', { token: bob.token, body: {} });
    const notLinked = await rejectionOf(getGoogleAccessToken(deps, bob.user._id, t.app.log));
    expect(notLinked.code).toBe('not_linked');
    expect(notLinked.status).toBe(401);
    expect(notLinked.message).toBe(SHEET_MESSAGES.notLinked);
    expect(await getGoogleAccessToken(deps, alice.user._id, t.app.log)).toBe(aliceToken);
    // Linked again: the token kept from the old link is not used.
    await link(bob.token);
    const relinked = await getGoogleAccessToken(deps, bob.user._id, t.app.log);
    expect(relinked).not.toBe(bobToken);
    expect(tokenRequests().at(-1)?.get('refresh_token')).toBe(
      await storedRefreshToken(bob.user._id),
    );
  });

  it('tries a refresh Google answers 429 or 5xx again, then answers 502', async () => {
    const { token, user } = await t.signUp();
    await link(token);
    const before = tokenRequests().length;
    standIn.failNextRefresh(2, 503);
    expect(await getGoogleAccessToken(freshDeps(), user._id, t.app.log)).not.toBe('');
    expect(tokenRequests().length).toBe(before + 3);
    standIn.failNextRefresh(1, 429);
    expect(await getGoogleAccessToken(freshDeps(), user._id, t.app.log)).not.toBe('');
    standIn.failNextRefresh(100, 500);
    const failed = await rejectionOf(getGoogleAccessToken(freshDeps(), user._id, t.app.log));
    standIn.failNextRefresh(0, 500);
    expect(failed.code).toBe('upstream_failed');
    expect(failed.status).toBe(502);
    const status = await call('GET', '/api/google/status', { token });
    expect(status.body.status).toBe('linked');
  });

  it('marks the link as needing consent when Google answers invalid_grant', async () => {
    const { token, user } = await t.signUp();
    await link(token);
    // The person removed Adloom's access at Google.
    standIn.revokeAll();
    const deps = freshDeps();
    const refused = await rejectionOf(getGoogleAccessToken(deps, user._id, t.app.log));
    expect(refused.code).toBe('relink_needed');
    expect(refused.status).toBe(401);
    expect(refused.message).toBe(SHEET_MESSAGES.relinkNeeded);
    expect((await linkRow(user._id))?.status).toBe('needs_consent');
    const status = await call('GET', '/api/google/status', { token });
    expect(status.body).toMatchObject({ configured: true, status: 'needs_consent' });
    const me = await call('GET', '/api/users/me', { token });
    expect(me.body.user.integrations).toEqual([]);

    // Asked again: refused at once, Google is not asked.
    const before = tokenRequests().length;
    expect((await rejectionOf(getGoogleAccessToken(deps, user._id, t.app.log))).code).toBe(
      'relink_needed',
    );
    expect(tokenRequests().length).toBe(before);

    // Linking again heals it.
    const relinked = await link(token);
    expect(relinked.body.status.status).toBe('linked');
    expect(relinked.body.user.integrations).toEqual([GOOGLE_SHEETS_INTEGRATION]);
    expect(await getGoogleAccessToken(deps, user._id, t.app.log)).toMatch(/^ya29\./);
  });

  it('asks for the link again when the stored token no longer opens (TOKEN_ENCRYPTION_KEY changed)', async () => {
    const { token, user } = await t.signUp();
    await link(token);
    const refreshToken = await storedRefreshToken(user._id);
    const otherKey = { ...t.config, tokenEncryptionKey: `${TOKEN_KEY}-other` };
    const deps = { ...freshDeps(), config: otherKey };
    const before = tokenRequests().length;
    const refused = await rejectionOf(getGoogleAccessToken(deps, user._id, t.app.log));
    expect(refused.code).toBe('relink_needed');
    expect(tokenRequests().length).toBe(before);
    expect((await linkRow(user._id))?.status).toBe('needs_consent');
    const me = await call('GET', '/api/users/me', { token });
    expect(me.body.user.integrations).toEqual([]);
    // Google still holds the grant: with the right key, unlinking revokes it.
    expect(standIn.liveRefreshTokens()).toContain(refreshToken);
    const unlink = await call('POST', '/api/google/unlink-google-sheets', { token, body: {} });
    expect(unlink.body.revoked).toBe(true);
    expect(standIn.liveRefreshTokens()).not.toContain(refreshToken);
  });

  it('revokes and deletes the link when the account is deleted', async () => {
    const { token, user, email } = await t.signUp();
    await link(token);
    const refreshToken = await storedRefreshToken(user._id);
    const deleted = await call('POST', '/api/users/delete', {
      token,
      body: { email, password: TEST_PASSWORD },
    });
    expect(deleted.status).toBe(200);
    expect(standIn.liveRefreshTokens()).not.toContain(refreshToken);
    expect(await linkRow(user._id)).toBeUndefined();
    const states = await t.db.query('select 1 from google_oauth_states where user_id = $1', [
      user._id,
    ]);
    expect(states).toHaveLength(0);
  });

  it('keeps the code and state Google sends back to /account out of the log', async () => {
    const answer = await call('GET', '/account?code=4%2F0AbCdSecretCode&state=SecretStateValue');
    expect(answer.status).toBe(200);
    const log = logLines.join('');
    expect(log).toContain('/account?code=<redacted>&state=<redacted>');
    expect(log).not.toMatch(/SecretCode|SecretStateValue/);
  });

  it('never answers or logs a token, code or verifier Google handled', async () => {
    const secrets = new Set<string>();
    for (const form of tokenRequests())
      for (const name of ['code', 'code_verifier', 'refresh_token'])
        if (form.get(name)) secrets.add(form.get(name)!);
    for (const request of standIn.requests) {
      const bearer = /^Bearer (.+)$/.exec(request.authorization ?? '')?.[1];
      if (bearer) secrets.add(bearer);
      if (request.path.startsWith('/revoke'))
        secrets.add(new URLSearchParams(request.body).get('token') ?? '');
    }
    secrets.delete('');
    // Codes, verifiers, refresh tokens of several users, and an access token.
    expect(secrets.size).toBeGreaterThan(20);
    const answered = answers.join('\n');
    const logged = logLines.join('');
    expect(logged).toMatch(/google account linked/);
    expect(logged).toMatch(
      /google token refresh failed.*invalid_grant|invalid_grant.*google token refresh failed/,
    );
    for (const secret of secrets) {
      expect(answered.includes(secret)).toBe(false);
      expect(logged.includes(secret)).toBe(false);
    }
  });
});

describe('Google account link, not configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ google: undefined });
  });
  afterAll(async () => {
    await t.close();
  });

  it('says so in the status, answers 501 to consent and access token, and unlinks nothing', async () => {
    const { token, user } = await t.signUp();
    const status = await t.request('GET', '/api/google/status', { token });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ configured: false, status: 'not_linked' });
    for (const [method, path, body] of [
      ['GET', '/api/google/consent', undefined],
      ['POST', '/api/google/access-token', { code: 'c', state: 's' }],
    ] as const) {
      const answer = await t.request(method, path, { token, body });
      expect(answer.status).toBe(501);
      expect(answer.body.error).toEqual({
        code: 'not_configured',
        message: SHEET_MESSAGES.notConfigured,
      });
    }
    const unlink = await t.request('POST', '/api/google/unlink-google-sheets', { token, body: {} });
    expect(unlink.status).toBe(200);
    expect(unlink.body.status).toEqual({ configured: false, status: 'not_linked' });
    const refused = await rejectionOf(
      getGoogleAccessToken(
        { config: t.config, db: t.db, googleTokens: createGoogleAccessTokens() },
        user._id,
      ),
    );
    expect(refused.code).toBe('not_configured');
    expect(refused.status).toBe(501);
  });
  it('unlinks a link kept from when the settings were there, without Google or a key', async () => {
    const { token, user } = await t.signUp();
    await t.db.query(`insert into google_links (user_id, refresh_token) values ($1, 'v1.a.b.c')`, [
      user._id,
    ]);
    const unlink = await t.request('POST', '/api/google/unlink-google-sheets', { token, body: {} });
    expect(unlink.status).toBe(200);
    expect(unlink.body).toMatchObject({ revoked: false, status: { status: 'not_linked' } });
    const rows = await t.db.query('select 1 from google_links where user_id = $1', [user._id]);
    expect(rows).toHaveLength(0);
  });

  it('presents no google-sheets integration a stored link still names, so no sheet button shows', async () => {
    const { token, user, email, password } = await t.signUp();
    // A link made while the settings were there: the row still names the integration.
    await t.db.query(`update users set integrations = '["google-sheets"]'::jsonb where id = $1`, [
      user._id,
    ]);
    const me = await t.request('GET', '/api/users/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.user.integrations).toEqual([]);
    const login = await t.request('POST', '/api/users/login', {
      body: { email, password },
    });
    expect(login.body.user.integrations).toEqual([]);
  });
});

describe('Google account link, revoke unreachable', () => {
  let standIn: GoogleStandIn;
  let t: TestApp;
  beforeAll(async () => {
    standIn = await startGoogleStandIn();
    // Nothing listens on port 9 of loopback (discard): the revoke cannot reach Google.
    t = await startTestApp(
      googleSettings({ ...standIn.settings, GOOGLE_REVOKE_URL: 'http://127.0.0.1:9/revoke' }),
    );
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  it('still deletes the token and removes the integration, answering revoked: false', async () => {
    const { token, user } = await t.signUp();
    const consent = await t.request('GET', '/api/google/consent', { token });
    const back = await fetch(consent.body.url as string, { redirect: 'manual' });
    const location = new URL(back.headers.get('location') ?? '');
    const linked = await t.request('POST', '/api/google/access-token', {
      token,
      body: {
        code: location.searchParams.get('code'),
        state: location.searchParams.get('state'),
      },
    });
    expect(linked.status).toBe(200);
    const unlink = await t.request('POST', '/api/google/unlink-google-sheets', { token, body: {} });
    expect(unlink.status).toBe(200);
    expect(unlink.body).toMatchObject({
      revoked: false,
      status: { status: 'not_linked' },
      user: { integrations: [] },
    });
    const rows = await t.db.query('select 1 from google_links where user_id = $1', [user._id]);
    expect(rows).toHaveLength(0);
    // Google still holds it (the person can remove it in their Google account).
    expect(standIn.liveRefreshTokens()).toHaveLength(1);
  });
});
