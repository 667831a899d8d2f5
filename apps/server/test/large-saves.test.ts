/**
 * Issue 37, finding 2: one user's parallel large saves starved the database (6 of 12 answered
 * 503 "The database is unavailable") and the memory. A large save now waits for its turn: one
 * per user and LARGE_SAVES_AT_ONCE on the server; the others are answered 429 with Retry-After.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { API } from '@adloom/contract';
import {
  LARGE_SAVE_MIN_BYTES,
  LARGE_SAVE_RETRY_AFTER_SECONDS,
  SAVES_BUSY_MESSAGE,
  SAVE_IN_PROGRESS_MESSAGE,
  createLargeSaveGate,
} from '../src/http/large-saves.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { callServer, type HttpAnswer } from './server-process.ts';

/** A feed save body of at least `minBytes` (rows of ~300 bytes). */
function feedSaveBody(client: string, minBytes: number): string {
  const rowCount = Math.ceil(minBytes / 280);
  const rows = Array.from({ length: rowCount }, (_, i) => ({
    root: `brand ${i} ${'r'.repeat(15)}`,
    mod: `model ${i % 977} ${'m'.repeat(15)}`,
    var1: `colour ${i % 13} ${'c'.repeat(15)}`,
    var2: `size ${i % 7} ${'s'.repeat(15)}`,
    var3: `kind ${i % 5} ${'k'.repeat(15)}`,
    url: `https://shop.example.com/p/${i}/${'u'.repeat(60)}`,
  }));
  return JSON.stringify({ name: client, feeds: [{ name: 'products', rows }] });
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function signUpWithClient(t: TestApp, client: string): Promise<string> {
  const { token } = await t.signUp();
  expect((await t.request('POST', API.app.clients, { token, body: { name: client } })).status).toBe(
    200,
  );
  return token;
}

function expectRefused(answer: HttpAnswer, code: string, message: string): void {
  expect({ status: answer.status, error: answer.body.error }).toEqual({
    status: 429,
    error: { code, message },
  });
  expect(answer.headers.get('retry-after')).toBe(String(LARGE_SAVE_RETRY_AFTER_SECONDS));
}

describe('large saves take turns', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('12 parallel large saves by one user: the ones that find another running get 429, never 503', async () => {
    t = await startTestApp({ largeSavesAtOnce: 4 });
    const base = await listen(t);
    const token = await signUpWithClient(t, 'Shop');
    const body = feedSaveBody('Shop', 3 * LARGE_SAVE_MIN_BYTES);

    const answers = await Promise.all(
      Array.from({ length: 12 }, () => callServer(base, 'POST', API.app.feeds, { token, body })),
    );

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused)
      expectRefused(answer, 'save_in_progress', SAVE_IN_PROGRESS_MESSAGE);
    // Each save that ran wrote one revision: none was lost or half done.
    const bundle = await callServer(base, 'GET', `${API.app.clients}/Shop`, { token });
    expect(bundle.body.revisions.feeds).toBe(statuses.filter((status) => status === 200).length);
    // The connection stays usable after a refused (read and dropped) body.
    const again = await callServer(base, 'POST', API.app.feeds, { token, body });
    expect(again.status).toBe(200);
  });

  it('a large save while the server runs LARGE_SAVES_AT_ONCE others gets 429; a small one passes', async () => {
    t = await startTestApp({ largeSavesAtOnce: 1 });
    const base = await listen(t);
    const first = await signUpWithClient(t, 'First');
    const second = await signUpWithClient(t, 'Second');
    const big = (client: string) => feedSaveBody(client, 8 * LARGE_SAVE_MIN_BYTES);
    const running = callServer(base, 'POST', API.app.feeds, { token: first, body: big('First') });
    // Another user's large save, sent while the first one is being read or stored.
    const [firstAnswer, secondAnswer, small] = await Promise.all([
      running,
      callServer(base, 'POST', API.app.feeds, { token: second, body: big('Second') }),
      callServer(base, 'POST', API.app.feeds, {
        token: second,
        body: feedSaveBody('Second', 1000),
      }),
    ]);
    expect(small.status).toBe(200);
    // Whichever came first ran; the other was refused for the server's cap.
    const [ran, refused] =
      firstAnswer.status === 200 ? [firstAnswer, secondAnswer] : [secondAnswer, firstAnswer];
    expect(ran.status).toBe(200);
    expectRefused(refused, 'server_busy', SAVES_BUSY_MESSAGE);
    // Once the first is done, the slot is free again.
    expect(
      (await callServer(base, 'POST', API.app.feeds, { token: second, body: big('Second') }))
        .status,
    ).toBe(200);
  });

  it('a body sent in chunks (no Content-Length) is counted by the bytes read', async () => {
    t = await startTestApp({ largeSavesAtOnce: 4 });
    const base = await listen(t);
    const token = await signUpWithClient(t, 'Shop');
    const body = feedSaveBody('Shop', 3 * LARGE_SAVE_MIN_BYTES);
    const chunked = () =>
      fetch(`${base}${API.app.feeds}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < body.length; i += 64 * 1024)
              controller.enqueue(new TextEncoder().encode(body.slice(i, i + 64 * 1024)));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const answer = await chunked();
        return { status: answer.status, headers: answer.headers, text: await answer.text() };
      }),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses).toContain(429);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe(String(LARGE_SAVE_RETRY_AFTER_SECONDS));
    expect((JSON.parse(refused.text) as { error: { code: string } }).error.code).toBe(
      'save_in_progress',
    );
  });
});

describe('the large-save gate', () => {
  it('one slot per user, atOnce on the server, each given back once', () => {
    const gate = createLargeSaveGate(2);
    const a = gate.tryEnter('a');
    expect(typeof a).toBe('function');
    expect(gate.tryEnter('a')).toBe('save_in_progress');
    const b = gate.tryEnter('b');
    expect(gate.tryEnter('c')).toBe('server_busy');
    expect(gate.running).toBe(2);
    (a as () => void)();
    (a as () => void)();
    expect(gate.running).toBe(1);
    expect(typeof gate.tryEnter('c')).toBe('function');
    expect(gate.tryEnter('b')).toBe('save_in_progress');
    (b as () => void)();
    expect(typeof gate.tryEnter('a')).toBe('function');
  });
});
