import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorBodySchema,
  MeAnswerSchema,
  SessionSchema,
  TutorialAnswerSchema,
} from '@adloom/contract';
import { TEST_PASSWORD, startTestApp, type TestApp } from './helpers.ts';

const DEFAULT_TUTORIAL = { disabled: false, tutorialSteps: [{ name: 'Intro', done: false }] };

function registerBody(email: string, password = 'secret-pass', confirm = password) {
  return { email, password, 'password-confirm': confirm, recaptchaToken: 'anything' };
}

describe('accounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/users/register', () => {
    it('creates the account and signs in', async () => {
      const response = await t.request('POST', '/api/users/register', {
        body: registerBody('  New.Person@Example.com '),
      });
      expect(response.status).toBe(201);
      expect(response.body.expiresIn).toBe(t.config.sessionTtlSeconds);
      expect(typeof response.body.token).toBe('string');
      expect(response.body.user).toEqual({
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: 'new.person@example.com',
        role: 'user',
        integrations: [],
        tutorial: DEFAULT_TUTORIAL,
        emailVerified: false,
      });
      expect(JSON.stringify(response.body)).not.toMatch(/argon2|password_hash|session_version/);
      const me = await t.request('GET', '/api/users/me', { token: response.body.token });
      expect(me.status).toBe(200);
      expect(me.body.user).toEqual(response.body.user);
      expect(MeAnswerSchema.strict().parse(me.body)).toEqual(me.body);
    });

    it('rejects a second account with the same email, whatever its case', async () => {
      await t.request('POST', '/api/users/register', { body: registerBody('twice@example.com') });
      const response = await t.request('POST', '/api/users/register', {
        body: registerBody('TWICE@example.com'),
      });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('conflict');
      expect(response.body.errors).toEqual([
        { msg: expect.stringMatching(/already exists/), path: 'email' },
      ]);
    });

    it.each([
      ['an invalid email', registerBody('not-an-email'), ['Please enter a valid email']],
      [
        'a short password',
        registerBody('short@example.com', 'abc'),
        ['Password must be at least 6 characters'],
      ],
      [
        'different passwords',
        registerBody('differ@example.com', 'secret-1', 'secret-2'),
        ['Passwords do not match'],
      ],
      [
        'no fields at all',
        {},
        ['email is required', 'password is required', 'password-confirm is required'],
      ],
      [
        'a number as email',
        { ...registerBody('x@example.com'), email: 42 },
        [expect.stringMatching(/^email: /)],
      ],
    ])('answers 400 with errors [{ msg }] for %s', async (_name, body, messages) => {
      const response = await t.request('POST', '/api/users/register', { body });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.errors.map((error: { msg: string }) => error.msg)).toEqual(messages);
    });
  });

  describe('POST /api/users/login', () => {
    it('answers token, expiresIn and the user', async () => {
      const { email, user } = await t.signUp();
      const response = await t.request('POST', '/api/users/login', {
        body: { email: email.toUpperCase(), password: TEST_PASSWORD },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        token: expect.any(String),
        expiresIn: t.config.sessionTtlSeconds,
        user,
      });
      expect(SessionSchema.strict().parse(response.body)).toEqual(response.body);
    });

    it.each([
      ['a wrong password', (email: string) => ({ email, password: 'wrong-password' })],
      ['an unknown email', () => ({ email: 'nobody@example.com', password: TEST_PASSWORD })],
    ])('answers 404 with the spec message for %s', async (_name, makeBody) => {
      const { email } = await t.signUp();
      const response = await t.request('POST', '/api/users/login', { body: makeBody(email) });
      expect(response.status).toBe(404);
      expect(response.body.error).toEqual({
        code: 'not_found',
        message: 'User with that email/password combination not found',
      });
      expect(response.body.message).toBe('User with that email/password combination not found');
      expect(ErrorBodySchema.strict().parse(response.body)).toEqual(response.body);
    });

    it('answers 400 when fields are missing or mistyped', async () => {
      const missing = await t.request('POST', '/api/users/login', {
        body: { email: 'a@example.com' },
      });
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual([{ msg: 'password is required', path: 'password' }]);
      const mistyped = await t.request('POST', '/api/users/login', {
        body: { email: ['a@example.com'], password: true },
      });
      expect(mistyped.status).toBe(400);
      expect(mistyped.body.errors.map((error: { path: string }) => error.path)).toEqual([
        'email',
        'password',
      ]);
    });
  });

  describe('sessions', () => {
    it('accepts the token bare and as Bearer', async () => {
      const { token, user } = await t.signUp();
      for (const authorization of [token, `Bearer ${token}`, `bearer   ${token}`]) {
        const response = await t.request('GET', '/api/users/me', { headers: { authorization } });
        expect(response.status).toBe(200);
        expect(response.body.user._id).toBe(user._id);
      }
    });

    it.each([
      ['no token', {}],
      ['a garbage token', { authorization: 'Bearer not.a.jwt' }],
      ['an empty Bearer', { authorization: 'Bearer ' }],
    ])('answers 401 for %s', async (_name, headers) => {
      const response = await t.request('GET', '/api/users/me', { headers });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('unauthorized');
      expect(response.body.error.message).toBe('Unauthorized. Please log in to continue');
    });

    it('answers 401 for an expired token and for one signed with another secret', async () => {
      const { user } = await t.signUp();
      const key = new TextEncoder().encode(t.config.jwtSecret);
      const expired = await new SignJWT({ email: user.email, sv: 1 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user._id)
        .setIssuer('adloom')
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
        .sign(key);
      const expiredResponse = await t.request('GET', '/api/users/me', { token: expired });
      expect(expiredResponse.status).toBe(401);
      expect(expiredResponse.body.error.message).toMatch(/expired/);
      const forged = await new SignJWT({ email: user.email, sv: 1 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user._id)
        .setIssuer('adloom')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('some-other-secret-that-is-long-enough-1234'));
      expect((await t.request('GET', '/api/users/me', { token: forged })).status).toBe(401);
    });
  });

  describe('tutorials', () => {
    it('toggles, marks steps done and resets', async () => {
      const { token } = await t.signUp();
      const toggled = await t.request('POST', '/api/users/toggle-tutorials', {
        token,
        body: { shouldDisable: true },
      });
      expect(toggled.status).toBe(200);
      expect(toggled.body.tutorial).toEqual({ ...DEFAULT_TUTORIAL, disabled: true });
      expect(TutorialAnswerSchema.strict().parse(toggled.body)).toEqual(toggled.body);

      const done = await t.request('POST', '/api/users/set-tutorial-done-status', {
        token,
        body: { target: 'Intro', isDone: true },
      });
      expect(done.body.tutorial).toEqual({
        disabled: true,
        tutorialSteps: [{ name: 'Intro', done: true }],
      });
      const other = await t.request('POST', '/api/users/set-tutorial-done-status', {
        token,
        body: { target: 'Lists', isDone: true },
      });
      expect(other.body.tutorial.tutorialSteps).toEqual([
        { name: 'Intro', done: true },
        { name: 'Lists', done: true },
      ]);

      const login = await t.request('GET', '/api/users/me', { token });
      expect(login.body.user.tutorial).toEqual(other.body.tutorial);

      const reset = await t.request('POST', '/api/users/reset-tutorials', {
        token,
        body: { message: 'reset please' },
      });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({
        tutorial: {
          disabled: false,
          tutorialSteps: [
            { name: 'Intro', done: false },
            { name: 'Lists', done: false },
          ],
        },
      });
    });

    it('rejects bad payloads and missing tokens', async () => {
      const { token } = await t.signUp();
      const bad = await t.request('POST', '/api/users/toggle-tutorials', {
        token,
        body: { shouldDisable: 'yes' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].path).toBe('shouldDisable');
      const noTarget = await t.request('POST', '/api/users/set-tutorial-done-status', {
        token,
        body: { isDone: true },
      });
      expect(noTarget.status).toBe(400);
      const anonymous = await t.request('POST', '/api/users/reset-tutorials', { body: {} });
      expect(anonymous.status).toBe(401);
    });

    it('keeps each user to their own tutorial state', async () => {
      const first = await t.signUp();
      const second = await t.signUp();
      await t.request('POST', '/api/users/toggle-tutorials', {
        token: first.token,
        body: { shouldDisable: true },
      });
      const other = await t.request('GET', '/api/users/me', { token: second.token });
      expect(other.body.user.tutorial).toEqual(DEFAULT_TUTORIAL);

      // Another user's calls change only their own state, whatever they send.
      const done = await t.request('POST', '/api/users/set-tutorial-done-status', {
        token: second.token,
        body: { target: 'Intro', isDone: true, user: { _id: first.user._id } },
      });
      expect(done.body.tutorial.tutorialSteps).toEqual([{ name: 'Intro', done: true }]);
      const reset = await t.request('POST', '/api/users/reset-tutorials', {
        token: second.token,
        body: { message: first.user._id },
      });
      expect(reset.status).toBe(200);
      const own = await t.request('GET', '/api/users/me', { token: first.token });
      expect(own.body.user.tutorial).toEqual({ ...DEFAULT_TUTORIAL, disabled: true });
      const theirs = await t.request('GET', '/api/users/me', { token: second.token });
      expect(theirs.body.user.tutorial).toEqual(DEFAULT_TUTORIAL);
    });
  });

  describe('POST /api/users/delete', () => {
    it('needs the right password', async () => {
      const { token, email } = await t.signUp();
      const wrong = await t.request('POST', '/api/users/delete', {
        token,
        body: { email, password: 'wrong-password' },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.message).toBe('The password is not correct.');
      const short = await t.request('POST', '/api/users/delete', {
        token,
        body: { email, password: 'abc' },
      });
      expect(short.status).toBe(400);
      expect(short.body.errors).toEqual([
        { msg: 'Password must be at least 6 characters', path: 'password' },
      ]);
      const otherEmail = await t.request('POST', '/api/users/delete', {
        token,
        body: { email: 'someone@example.com', password: TEST_PASSWORD },
      });
      expect(otherEmail.status).toBe(403);
      expect((await t.request('GET', '/api/users/me', { token })).status).toBe(200);
    });

    it('removes the account and every piece of its data, and nobody else', async () => {
      const doomed = await t.signUp();
      const bystander = await t.signUp();
      await t.request('POST', '/api/users/forgot', { body: { email: doomed.email } });
      await t.request('POST', '/api/users/forgot', { body: { email: bystander.email } });
      const countTokens = async (userId: string) =>
        (
          await t.db.query<{ n: number }>(
            'select count(*) as n from password_reset_tokens where user_id = $1',
            [userId],
          )
        )[0]?.n;
      // Forgot stores its token after answering: wait for both.
      for (
        let i = 0;
        i < 400 &&
        ((await countTokens(doomed.user._id)) !== 1 ||
          (await countTokens(bystander.user._id)) !== 1);
        i += 1
      )
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await countTokens(doomed.user._id)).toBe(1);

      const response = await t.request('POST', '/api/users/delete', {
        token: doomed.token,
        body: { email: doomed.email, password: TEST_PASSWORD },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ type: 'success', message: 'Your account has been deleted.' });

      expect(await t.db.query('select id from users where id = $1', [doomed.user._id])).toEqual([]);
      expect(await countTokens(doomed.user._id)).toBe(0);
      expect(await countTokens(bystander.user._id)).toBe(1);
      expect((await t.request('GET', '/api/users/me', { token: doomed.token })).status).toBe(401);
      const login = await t.request('POST', '/api/users/login', {
        body: { email: doomed.email, password: TEST_PASSWORD },
      });
      expect(login.status).toBe(404);
      expect((await t.request('GET', '/api/users/me', { token: bystander.token })).status).toBe(
        200,
      );
    });

    it('cascades from every table that references users', async () => {
      // Every foreign key to users must delete with it, so that deleting an account removes all its data.
      const rows = await t.db.query<{ table_name: string; delete_rule: string }>(
        `select tc.table_name, rc.delete_rule
           from information_schema.referential_constraints rc
           join information_schema.table_constraints tc on tc.constraint_name = rc.constraint_name and tc.constraint_schema = rc.constraint_schema
           join information_schema.constraint_column_usage ccu on ccu.constraint_name = rc.unique_constraint_name and ccu.constraint_schema = rc.unique_constraint_schema
          where ccu.table_name = 'users'`,
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((row) => row.delete_rule !== 'CASCADE')).toEqual([]);
    });
  });
});
