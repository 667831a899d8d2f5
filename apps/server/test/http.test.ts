import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

function expectErrorShape(body: unknown, code: string): void {
  expect(body).toEqual(
    expect.objectContaining({
      error: expect.objectContaining({ code, message: expect.any(String) }),
      type: 'error',
    }),
  );
}

describe('bad input answers 4xx with the error shape, never 500', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ bodyLimitBytes: 4096 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('malformed JSON is 400', async () => {
    const response = await t.request('POST', '/api/users/login', {
      body: '{"email": "a@example.com", ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'bad_request');
    expect(response.body.error.message).toBe('The request body is not valid JSON.');
  });

  it('an empty JSON body is 400', async () => {
    const response = await t.request('POST', '/api/users/login', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'bad_request');
  });

  it.each([
    ['null', 'null'],
    ['an array', '[1,2]'],
    ['a string', '"text"'],
    ['a number', '42'],
  ])('a JSON body that is %s is 400 validation_failed', async (_name, raw) => {
    const response = await t.request('POST', '/api/users/login', {
      body: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'validation_failed');
  });

  it.each([
    ['text/plain', 'email=a'],
    ['application/x-www-form-urlencoded', 'email=a%40example.com&password=x'],
    ['application/xml', '<email/>'],
  ])('a %s body is 415', async (contentType, raw) => {
    const response = await t.request('POST', '/api/users/login', {
      body: raw,
      headers: { 'content-type': contentType },
    });
    expect(response.status).toBe(415);
    expectErrorShape(response.body, 'unsupported_media_type');
    expect(response.body.error.message).toMatch(/application\/json/);
  });

  it('a body over the limit is 413 with the limit in the message', async () => {
    const response = await t.request('POST', '/api/users/login', {
      body: { email: 'a@example.com', password: 'x'.repeat(5000) },
    });
    expect(response.status).toBe(413);
    expectErrorShape(response.body, 'payload_too_large');
    expect(response.body.error.message).toBe('The request body is larger than the limit of 4 KiB.');
  });

  it.each([
    ['GET', '/api/nothing-here'],
    ['POST', '/api/users/unknown'],
    ['GET', '/api/users/login'],
    ['DELETE', '/api'],
  ])('%s %s is 404 JSON', async (method, path) => {
    const response = await t.request(method, path);
    expect(response.status).toBe(404);
    expectErrorShape(response.body, 'not_found');
    expect(response.body.error.message).toBe(`No API route ${method} ${path}`);
  });

  it.each([
    ['a bad %-escape', '/api/users/reset/%E0%A4%A', 'The URL is not valid (a bad %-escape?).'],
    ['a bad %-escape outside the API', '/%E0%A4%A', 'The URL is not valid (a bad %-escape?).'],
    [
      'a path part over the router limit',
      `/api/users/reset/${'a'.repeat(600)}`,
      'A part of the URL is too long.',
    ],
  ])('a URL with %s is 400 with the error shape', async (_name, path, message) => {
    const response = await t.request('GET', path);
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'bad_request');
    expect(response.body.error.message).toBe(message);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a JSON body with __proto__ is refused, not merged', async () => {
    const response = await t.request('POST', '/api/users/login', {
      body: '{"__proto__": {"x": 1}, "email": "a@example.com", "password": "x"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'bad_request');
  });

  it('a trailing slash reaches the same route', async () => {
    expect((await t.request('GET', '/api/health/')).status).toBe(200);
  });

  it('every answer carries the security headers', async () => {
    for (const path of ['/api/health', '/api/nothing', '/campaign-builder']) {
      const { headers } = await t.request('GET', path);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(String(headers['content-security-policy'])).toContain("script-src 'self'");
    }
    expect((await t.request('GET', '/api/health')).headers['cache-control']).toBe('no-store');
  });

  it('without a built web app, pages say to run npm run build', async () => {
    const response = await t.request('GET', '/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('npm run build');
    expect((await t.request('GET', '/lists')).body).toContain('npm run build');
  });
});

describe('serving the built web app', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'adloom-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(
      join(webDist, 'index.html'),
      '<!doctype html><title>Adloom app</title><div id="root"></div>',
    );
    writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log("app")');
    writeFileSync(join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestApp({ webDist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/reset/some-token', '/campaign-builder', '/no/such/page'])(
    'GET %s answers index.html (history routing)',
    async (path) => {
      const response = await t.request('GET', path);
      expect(response.status).toBe(200);
      expect(response.body).toContain('<title>Adloom app</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves hashed assets for a year and other files with revalidation', async () => {
    const asset = await t.request('GET', '/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.request('GET', '/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('a missing file is 404, not the app page', async () => {
    const response = await t.request('GET', '/assets/missing-123.js');
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('Adloom app');
  });

  it('API paths are never answered with the app page', async () => {
    const response = await t.request('GET', '/api/unknown');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});

describe('serving the prerendered pages of the built web app', () => {
  const SCRIPT = 'document.documentElement.dataset.seen = ""';
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'adloom-web-'));
    mkdirSync(join(webDist, 'pages'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Adloom app</title>');
    writeFileSync(
      join(webDist, 'pages', 'index.html'),
      `<!doctype html><title>Adloom landing</title><script>${SCRIPT}</script>`,
    );
    writeFileSync(
      join(webDist, 'pages', 'login.html'),
      '<!doctype html><title>Adloom login</title><script type="module" src="/a.js"></script>',
    );
    t = await startTestApp({ webDist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it.each([
    ['/', 'Adloom landing'],
    ['/login', 'Adloom login'],
    ['/login?next=1', 'Adloom login'],
    ['/register', 'Adloom app'],
    ['/campaign-builder', 'Adloom app'],
  ])('GET %s answers %s', async (path, title) => {
    const response = await t.request('GET', path);
    expect(response.status).toBe(200);
    expect(response.body).toContain(`<title>${title}</title>`);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it("allows the pages' inline scripts by their hash, and no other inline script", async () => {
    const response = await t.request('GET', '/');
    const hash = createHash('sha256').update(SCRIPT).digest('base64');
    const scriptSrc = String(response.headers['content-security-policy'])
      .split('; ')
      .find((directive) => directive.startsWith('script-src'));
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
  });
});
