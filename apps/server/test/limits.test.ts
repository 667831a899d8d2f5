import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from './helpers.ts';

const LIMITS = {
  ...testConfig().rateLimit,
  windowMs: 60_000,
  loginPerIp: 6,
  loginPerIpAccount: 3,
  forgotPerIp: 4,
  forgotPerEmail: 2,
};

describe('rate limits on login and forgot', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('limits login failures per address and account; a success clears them', async () => {
    t = await startTestApp({ rateLimit: LIMITS, trustProxy: true });
    const { email, password } = await t.signUp();
    const login = (address: string, pass: string, asEmail = email) =>
      t!.request('POST', '/api/users/login', {
        body: { email: asEmail, password: pass },
        headers: { 'x-forwarded-for': address },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await login('10.0.0.1', 'wrong-password')).status);
    expect(statuses).toEqual([404, 404, 404]);
    // The same address, the same account (however the email is written): even the right password waits.
    const blocked = await login('10.0.0.1', password, ` ${email.toUpperCase()} `);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toEqual({
      code: 'rate_limited',
      message: 'Too many attempts. Please wait a while and try again.',
      details: { retryAfterSeconds: expect.any(Number) },
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another address gets in; so does the first one with another account.
    expect((await login('10.0.0.2', password)).status).toBe(200);
    const other = await t.signUp();
    expect((await login('10.0.0.1', other.password, other.email)).status).toBe(200);

    // Two failures, then a success: the success clears them, so three more failures are allowed.
    const again: number[] = [];
    for (const pass of ['bad-1', 'bad-2', password, 'bad-3', 'bad-4', 'bad-5', password])
      again.push((await login('10.0.0.3', pass)).status);
    expect(again).toEqual([404, 404, 200, 404, 404, 404, 429]);
  });

  it('limits login attempts per address across emails', async () => {
    t = await startTestApp({ rateLimit: LIMITS });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push(
        (
          await t.request('POST', '/api/users/login', {
            body: { email: `probe-${i}@example.com`, password: 'whatever' },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 429]);
  });

  it('limits forgot per email and per address', async () => {
    t = await startTestApp({ rateLimit: LIMITS });
    const byEmail: number[] = [];
    for (let i = 0; i < 3; i += 1)
      byEmail.push(
        (await t.request('POST', '/api/users/forgot', { body: { email: 'target@example.com' } }))
          .status,
      );
    expect(byEmail).toEqual([200, 200, 429]);
    const byAddress: number[] = [];
    for (let i = 0; i < 2; i += 1)
      byAddress.push(
        (
          await t.request('POST', '/api/users/forgot', {
            body: { email: `other-${i}@example.com` },
          })
        ).status,
      );
    // 3 + 1 counted from this address so far: the 4th is allowed, the 5th is not.
    expect(byAddress).toEqual([200, 429]);
  });

  it('trusts X-Forwarded-For only when TRUST_PROXY is on', async () => {
    t = await startTestApp({ rateLimit: { ...LIMITS, loginPerIp: 2 }, trustProxy: true });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (
          await t.request('POST', '/api/users/login', {
            body: { email: `p${i}@example.com`, password: 'x' },
            headers: { 'x-forwarded-for': `10.0.0.${i}` },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([404, 404, 404, 404]);
  });
});
