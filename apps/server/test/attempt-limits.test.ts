import { afterEach, describe, expect, it } from 'vitest';
import { readRateLimits, type RateLimitConfig } from '../src/config.ts';
import { createMemoryAttemptStores } from '../src/services/rate-limit.ts';
import { startTestApp, type TestApp, type TestResponse } from './helpers.ts';

/** The shipped defaults, as a server without any limit setting has them. */
const DEFAULTS = readRateLimits({});

function expectRateLimited(response: TestResponse): number {
  expect(response.status).toBe(429);
  expect(response.body.error).toEqual({
    code: 'rate_limited',
    message: 'Too many attempts. Please wait a while and try again.',
    details: { retryAfterSeconds: expect.any(Number) },
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBe(response.body.error.details.retryAfterSeconds);
  expect(retryAfter).toBeGreaterThan(0);
  return retryAfter;
}

describe('login: guessing stops, the owner gets in', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const login = (address: string, email: string, password: string) =>
    t!.request('POST', '/api/users/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': address },
    });

  /** Limits with short account delays (1 s doubling to 5 s), counted on a clock the test moves. */
  const DELAY_LIMITS: RateLimitConfig = {
    ...DEFAULTS,
    loginAccountAttemptsBeforeDelay: 10,
    loginAccountDelayBaseMs: 1_000,
    loginAccountDelayMaxMs: 5_000,
  };
  async function startWithClock(): Promise<{ app: TestApp; advance(ms: number): void }> {
    let now = Date.parse('2026-11-26T08:00:00Z');
    t = await startTestApp(
      { rateLimit: DELAY_LIMITS, trustProxy: true },
      { attemptStores: createMemoryAttemptStores(1_000, () => now) },
    );
    return {
      app: t,
      advance: (ms) => {
        now += ms;
      },
    };
  }

  it("lets the owner in with the right password after an attacker's ten wrong ones (default limits)", async () => {
    t = await startTestApp({ rateLimit: DEFAULTS, trustProxy: true });
    const { email, password } = await t.signUp();
    // Ten wrong passwords, all of them checked: five from each of two addresses.
    const attack: number[] = [];
    for (const address of ['198.51.100.7', '198.51.100.8'])
      for (let i = 0; i < 5; i += 1)
        attack.push((await login(address, email, `guess-${i}`)).status);
    expect(attack).toEqual(Array(10).fill(404));
    // A sixth guess from an attacking address is refused before any password is checked.
    expectRateLimited(await login('198.51.100.7', email, password));

    const owner = await login('203.0.113.20', email, password);
    expect(owner.status).toBe(200);
    expect(owner.body.user.email).toBe(email);
  });

  it('slows the account down with growing delays, except for an address that signed in before', async () => {
    const clock = await startWithClock();
    const { email, password } = await clock.app.signUp();
    // The owner signed in from home before the attack (its window is over; home stays known).
    const home = '203.0.113.20';
    expect((await login(home, email, password)).status).toBe(200);
    clock.advance(DELAY_LIMITS.windowMs);

    // A botnet: every guess from a fresh address, so no per-address limit applies.
    let bot = 0;
    const guess = () => login(`10.66.${Math.floor(bot / 250)}.${(bot++ % 250) + 1}`, email, 'nope');
    const free: number[] = [];
    for (let i = 0; i < 11; i += 1) free.push((await guess()).status);
    expect(free).toEqual(Array(11).fill(404));

    // Beyond ten failures each guess waits: 1 s, 2 s, 4 s, then the 5 s cap.
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const waitSeconds = expectRateLimited(await guess());
      delays.push(waitSeconds);
      clock.advance(waitSeconds * 1000);
      expect((await guess()).status).toBe(404);
    }
    expect(delays).toEqual([1, 2, 4, 5, 5]);

    // While the account is slowed down: the owner's known address gets straight in ...
    const blocked = expectRateLimited(await guess());
    expect(blocked).toBe(5);
    expect((await login(home, email, password)).status).toBe(200);
    // ... a clean address waits the delay like everyone else, then gets in with the password.
    const travel = '192.0.2.55';
    const wait = expectRateLimited(await login(travel, email, password));
    clock.advance(wait * 1000);
    expect((await login(travel, email, password)).status).toBe(200);
    // Once the failures leave the window, nobody waits.
    clock.advance(DELAY_LIMITS.windowMs);
    expect((await guess()).status).toBe(404);
  });

  it('forgets the known addresses when the owner logs out everywhere', async () => {
    const clock = await startWithClock();
    const { email, password } = await clock.app.signUp();
    const home = '203.0.113.20';
    const signedIn = await login(home, email, password);
    expect(signedIn.status).toBe(200);
    clock.advance(1_000);
    // The owner fears someone else is signed in and ends every session.
    const ended = await clock.app.request('POST', '/api/users/logout-everywhere', {
      token: signedIn.body.token,
      body: {},
    });
    expect(ended.status).toBe(200);
    // The window of the owner's own attempt passes; the forgetting is kept much longer.
    clock.advance(DELAY_LIMITS.windowMs);

    // A botnet drives the account into its delays.
    let bot = 0;
    const guess = () => login(`10.77.0.${(bot++ % 250) + 1}`, email, 'nope');
    for (let i = 0; i < 11; i += 1) expect((await guess()).status).toBe(404);
    expectRateLimited(await guess());

    // Home is no longer known: it waits like any address, then signs in and is known again.
    const wait = expectRateLimited(await login(home, email, password));
    clock.advance(wait * 1000);
    expect((await login(home, email, password)).status).toBe(200);
    expectRateLimited(await guess());
    expect((await login(home, email, password)).status).toBe(200);
  });

  it('counts a burst of parallel guesses before any password is checked', async () => {
    const now = Date.parse('2026-11-26T08:00:00Z');
    t = await startTestApp(
      { rateLimit: DEFAULTS, trustProxy: true },
      { attemptStores: createMemoryAttemptStores(1_000, () => now) },
    );
    const { email } = await t.signUp();
    // From one address: only its five tries at the account are checked.
    const fromOne = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login('198.51.100.9', email, `guess-${i}`)),
    );
    expect(fromOne.filter((response) => response.status === 404)).toHaveLength(5);
    expect(fromOne.filter((response) => response.status === 429)).toHaveLength(7);
    // From 40 addresses at once: the account's five other free tries, then one more, are checked.
    const fromMany = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(`10.77.0.${i + 1}`, email, `guess-${i}`)),
    );
    expect(fromMany.filter((response) => response.status === 404)).toHaveLength(6);
    expect(fromMany.filter((response) => response.status === 429)).toHaveLength(34);
  });
});

describe('limits on register, the waiting list, feedback and delete-account', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const limits: RateLimitConfig = {
    ...DEFAULTS,
    registerPerIp: 3,
    waitingListPerIp: 2,
    feedbackPerUser: 2,
    deletePasswordChecksPerUser: 3,
  };

  it('limits sign-ups per address, counting malformed ones too', async () => {
    t = await startTestApp({ rateLimit: limits, trustProxy: true });
    const register = (address: string, email: string, password = 'a good password') =>
      t!.request('POST', '/api/users/register', {
        body: { email, password, 'password-confirm': password, recaptchaToken: '' },
        headers: { 'x-forwarded-for': address },
      });
    const statuses = [
      (await register('198.51.100.1', 'first@example.com')).status,
      (await register('198.51.100.1', 'not an email')).status,
      (await register('198.51.100.1', 'first@example.com')).status,
    ];
    expect(statuses).toEqual([201, 400, 409]);
    expectRateLimited(await register('198.51.100.1', 'second@example.com'));
    expect((await register('198.51.100.2', 'second@example.com')).status).toBe(201);
  });

  it('limits the waiting list per address', async () => {
    t = await startTestApp({ rateLimit: limits, trustProxy: true });
    const join = (address: string, email: string) =>
      t!.request('POST', '/api/app/waiting-list', {
        body: { email },
        headers: { 'x-forwarded-for': address },
      });
    expect((await join('198.51.100.1', 'a@example.com')).status).toBe(200);
    expect((await join('198.51.100.1', 'b@example.com')).status).toBe(200);
    expectRateLimited(await join('198.51.100.1', 'c@example.com'));
    expect((await join('198.51.100.2', 'c@example.com')).status).toBe(200);
    const stored = await t.db.query<{ email: string }>(
      'select email from waiting_list order by email',
    );
    expect(stored.map((row) => row.email)).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
    ]);
  });

  it('limits feedback per user', async () => {
    t = await startTestApp({ rateLimit: limits });
    const alice = await t.signUp();
    const bob = await t.signUp();
    const send = (token: string) =>
      t!.request('POST', '/api/feedback', {
        token,
        body: { type: 'Idea', message: 'Please add a Bing export.' },
      });
    expect((await send(alice.token)).status).toBe(200);
    expect((await send(alice.token)).status).toBe(200);
    expectRateLimited(await send(alice.token));
    expect((await send(bob.token)).status).toBe(200);
    const rows = await t.db.query<{ n: number }>('select count(*)::int as n from feedback');
    expect(rows[0]?.n).toBe(3);
  });

  it('limits wrong passwords on delete-account per user', async () => {
    t = await startTestApp({ rateLimit: limits });
    const alice = await t.signUp();
    const bob = await t.signUp();
    const remove = (user: { token: string; email: string }, password: string) =>
      t!.request('POST', '/api/users/delete', {
        token: user.token,
        body: { email: user.email, password },
      });
    const wrong: number[] = [];
    for (let i = 0; i < 3; i += 1) wrong.push((await remove(alice, `wrong-${i}`)).status);
    expect(wrong).toEqual([403, 403, 403]);
    // Past the limit even the right password is not checked, and the account stays.
    expectRateLimited(await remove(alice, alice.password));
    expect((await t.request('GET', '/api/users/me', { token: alice.token })).status).toBe(200);
    // Another user is not affected.
    expect((await remove(bob, 'wrong-password')).status).toBe(403);
    expect((await remove(bob, bob.password)).status).toBe(200);
  });
});
