import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

const SECRET = 'verify-secret';
const SITE_KEY = 'site-key-1';
const SCRIPT_URL = 'https://captcha.example.com:8443/api.js?render=site-key-1';

/** A local endpoint speaking the reCAPTCHA siteverify protocol (form POST of secret, response, remoteip). */
function startVerifier(received: URLSearchParams[]): Promise<Server> {
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(raw);
      received.push(form);
      const token = form.get('response');
      const answer =
        form.get('secret') !== SECRET
          ? { success: false, 'error-codes': ['invalid-input-secret'] }
          : token === 'human'
            ? { success: true, score: 0.9 }
            : token === 'low-score'
              ? { success: true, score: 0.1 }
              : { success: false, 'error-codes': ['invalid-input-response'] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function body(email: string, recaptchaToken: string | undefined) {
  return {
    email,
    password: 'secret-pass',
    'password-confirm': 'secret-pass',
    ...(recaptchaToken === undefined ? {} : { recaptchaToken }),
  };
}

describe('bot check on register', () => {
  let verifier: Server;
  let t: TestApp;
  const received: URLSearchParams[] = [];
  beforeAll(async () => {
    verifier = await startVerifier(received);
    const { port } = verifier.address() as AddressInfo;
    t = await startTestApp({
      recaptchaVerifyUrl: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
      recaptchaSecret: SECRET,
      recaptchaSiteKey: SITE_KEY,
      recaptchaScriptUrl: SCRIPT_URL,
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => verifier.close(resolve));
  });

  it('accepts a sign-up whose token passes, posting secret, response and remoteip', async () => {
    const response = await t.request('POST', '/api/users/register', {
      body: body('human@example.com', 'human'),
    });
    expect(response.status).toBe(201);
    const form = received.at(-1);
    expect(form?.get('secret')).toBe(SECRET);
    expect(form?.get('response')).toBe('human');
    expect(form?.get('remoteip')).toBe('127.0.0.1');
  });

  it.each([
    ['a failing token', 'robot'],
    ['a low score', 'low-score'],
    ['an empty token', ''],
    ['no token', undefined],
  ])('rejects %s with a clear 400 and creates no account', async (_name, token) => {
    const email = `bot-${String(token)}@example.com`;
    const response = await t.request('POST', '/api/users/register', { body: body(email, token) });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: 'bad_request',
      message: 'The bot check failed. Please try again.',
    });
    expect(response.body.errors).toEqual([
      { msg: 'The bot check failed. Please try again.', path: 'recaptchaToken' },
    ]);
    expect(await t.db.query('select id from users where email = $1', [email])).toEqual([]);
  });

  it('tells the web app, without a token, that the check is on, with the site key and script', async () => {
    const response = await t.request('GET', '/api/config');
    expect(response.status).toBe(200);
    expect(response.body.botCheck).toEqual({
      enabled: true,
      siteKey: SITE_KEY,
      scriptUrl: SCRIPT_URL,
    });
    expect(response.body.botCheck).not.toHaveProperty('secret');
    expect(JSON.stringify(response.body)).not.toContain(SECRET);
  });

  it('lets pages load the widget script and its frame (Content-Security-Policy)', async () => {
    const response = await t.request('GET', '/api/config');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self' https://captcha.example.com:8443;");
    expect(policy).toContain('frame-src https://captcha.example.com:8443;');
  });

  it("allows Google's static and frame hosts for Google's widget", async () => {
    const google = await startTestApp({
      recaptchaVerifyUrl: 'http://127.0.0.1:9/siteverify',
      recaptchaSecret: SECRET,
      recaptchaSiteKey: SITE_KEY,
      recaptchaScriptUrl: 'https://www.google.com/recaptcha/api.js?render=site-key-1',
    });
    try {
      const response = await google.request('GET', '/api/config');
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("script-src 'self' https://www.google.com https://www.gstatic.com;");
      expect(policy).toContain('frame-src https://www.google.com https://recaptcha.google.com;');
    } finally {
      await google.close();
    }
  });

  it('answers 502 when the verify endpoint cannot be reached', async () => {
    const down = await startTestApp({
      recaptchaVerifyUrl: 'http://127.0.0.1:9/siteverify',
      recaptchaSecret: SECRET,
    });
    try {
      const response = await down.request('POST', '/api/users/register', {
        body: body('unreachable@example.com', 'human'),
      });
      expect(response.status).toBe(502);
      expect(response.body.error.code).toBe('upstream_failed');
    } finally {
      await down.close();
    }
  });

  it('is off by default: the web app is told so and any token is accepted', async () => {
    const plain = await startTestApp();
    try {
      expect(plain.config.recaptchaVerifyUrl).toBeUndefined();
      const config = await plain.request('GET', '/api/config');
      expect(config.status).toBe(200);
      expect(config.body).toEqual({
        botCheck: { enabled: false },
        // No help video, landing video or booking widget configured: no frame at all.
        media: { helpVideoUrls: {}, landingVideoUrl: null, demoBookingUrl: null },
        tagManager: { enabled: false },
      });
      const policy = String(config.headers['content-security-policy']);
      expect(policy).toContain("script-src 'self';");
      expect(policy).toContain("frame-src 'none';");
      expect(policy).not.toContain('youtube');
      const response = await plain.request('POST', '/api/users/register', {
        body: body('anyone@example.com', 'whatever'),
      });
      expect(response.status).toBe(201);
    } finally {
      await plain.close();
    }
  });
});
