import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, clientPath } from '@adloom/contract';
import { INVALID_UTF8_MESSAGE } from '../src/http/json-body.ts';
import { startTestApp, type TestApp } from './helpers.ts';

/**
 * A body whose bytes are not UTF-8 (a windows-1252 file sent as is) answers 400: Node's decoder
 * would otherwise store U+FFFD in place of the person's characters without a word.
 */

/** JSON text with the windows-1252 bytes of "Café €5" (0xE9 and 0x80) in one string. */
function windows1252Json(before: string, after: string): Buffer {
  return Buffer.concat([
    Buffer.from(before, 'utf8'),
    Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]),
    Buffer.from(after, 'utf8'),
  ]);
}

describe('bodies that are not UTF-8', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.signUp());
    const created = await t.request('POST', API.app.clients, { token, body: { name: 'C' } });
    expect(created.status).toBe(200);
  });
  afterAll(() => t.close());

  it('refuses an account call with 400 and says why', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: API.users.forgot,
      headers: { 'content-type': 'application/json' },
      payload: windows1252Json('{"email":"', '@example.com"}'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'bad_request', message: INVALID_UTF8_MESSAGE },
    });
  });

  it('refuses a feed save with 400 and leaves the stored feeds whole', async () => {
    const before = await t.request('GET', clientPath('C'), { token });
    expect(before.status).toBe(200);
    const response = await t.app.inject({
      method: 'POST',
      url: API.app.feeds,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: windows1252Json('{"name":"C","feeds":[{"name":"shoes","rows":[{"root":"', '"}]}]}'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(INVALID_UTF8_MESSAGE);
    const after = await t.request('GET', clientPath('C'), { token });
    expect(after.body.feeds).toEqual(before.body.feeds);
  });

  it('still takes the same text sent as UTF-8', async () => {
    const response = await t.request('POST', API.app.feeds, {
      token,
      body: { name: 'C', feeds: [{ name: 'shoes', rows: [{ root: 'Café €5' }] }] },
    });
    expect(response.status).toBe(200);
    const stored = await t.request('GET', clientPath('C'), { token });
    const feed = stored.body.feeds.find((f: { name: string }) => f.name === 'shoes');
    expect(feed.rows[0].root).toBe('Café €5');
  });
});
