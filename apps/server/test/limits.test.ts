import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

const LIMITS = {
  windowMs: 60_000,
  loginPerIp: 6,
  loginPerEmail: 3,
  forgotPerIp: 4,
  forgotPerEmail: 2,
};

describe('rate limits on login and forgot', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('limits login attempts per email, whatever the address', async () => {
    t = await startTestApp({ rateLimit: LIMITS });
    const { email } = await t.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push(
        (
          await t.request('POST', '/api/users/login', {
            body: { email, password: 'wrong-password' },
            headers: { 'x-forwarded-for': `10.0.0.${i}` },
          })
        ).status,
      );
    }
    const blocked = await t.request('POST', '/api/users/login', {
      body: { email: email.toUpperCase(), password: 'wrong-password' },
    });
    expect(statuses).toEqual([404, 404, 404]);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toEqual({
      code: 'rate_limited',
      message: 'Too many attempts. Please wait a while and try again.',
      details: { retryAfterSeconds: expect.any(Number) },
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another account is not affected.
    const other = await t.signUp();
    expect(
      (
        await t.request('POST', '/api/users/login', {
          body: { email: other.email, password: other.password },
        })
      ).status,
    ).toBe(200);
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
