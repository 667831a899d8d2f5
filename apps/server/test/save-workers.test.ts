/**
 * Issue 37, finding 2: feed and list saves are checked and prepared in worker threads
 * (SAVE_WORKERS), their rows stored by a binary COPY. What is stored and answered is what the
 * event loop's path (SAVE_WORKERS=0) stores and answers, and the stored document is the one the
 * layout defines; a bad body is still a 4xx that changes nothing; a worker lost mid-save is a
 * 500 that changes nothing; users stay apart.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { API, clientPath } from '@adloom/contract';
import { FEED_COLUMNS } from '@adloom/engine';
import { SAVE_WORKER_LOST_MESSAGE } from '../src/services/save-workers.ts';
import { startTestApp, type TestApp } from './helpers.ts';

/** Generated row ids (`row-<random>-<n>`) differ from save to save: only their place counts. */
function withoutMadeIds(text: string): string {
  return text.replace(/row-[A-Za-z0-9_-]{11}-[0-9a-z]+/g, 'row-<made>');
}

/** Rows of every kind the rules touch: ids kept, missing and repeated; cells trimmed; any script. */
function sampleRows(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    ...(i % 5 === 0 ? {} : { id: i % 7 === 0 ? 'same-id' : `r-${i}` }),
    root: `  Brand ${i} ✓ `,
    mod: i % 3 === 0 ? 'Überschuh 日本 😀' : `model ${i}`,
    var1: `colour\t${i % 13}`,
    var2: i % 2 === 0 ? null : `size ${i % 7}`,
    url: `https://shop.example.com/p/${i}?q="a\\b"`,
    selected: true,
  }));
}

function saveBody(client: string, rows: number): Record<string, unknown> {
  return {
    name: client,
    feeds: [
      { name: 'products', rows: sampleRows(rows) },
      { name: 'products', dataType: 'list', rows: sampleRows(3) },
      { name: 'linked', sheetUrl: 'https://docs.google.com/spreadsheets/d/x', rows: sampleRows(2) },
    ],
  };
}

/** The stored feeds of a user, every column a save writes, generated ids masked. */
async function storedFeeds(t: TestApp, email: string): Promise<unknown[]> {
  const rows = await t.db.query<Record<string, unknown>>(
    `select position, name, data_type, sheet_url, sheet_name, rows::text as rows, row_count,
       rows_hash, rows_layout, sheet_sync_direction, sheet_rows_moved, client_id is null as is_list
     from feeds where user_id = (select id from users where email = $1)
     order by is_list, position`,
    [email],
  );
  return rows.map((row) => ({
    ...row,
    rows: withoutMadeIds(String(row.rows)),
    // A hash over made ids differs with them; it is checked against the document below.
    rows_hash: typeof row.rows_hash === 'string' && row.rows_hash.length === 44,
  }));
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

describe('saves prepared in worker threads', { timeout: 120_000 }, () => {
  let apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((t) => t.close()));
    apps = [];
  });
  async function start(saveWorkers: number): Promise<TestApp> {
    const t = await startTestApp({ saveWorkers });
    apps.push(t);
    return t;
  }

  it('stores and answers what the event loop stores and answers, feeds and lists', async () => {
    const [inWorkers, onLoop] = [await start(1), await start(0)];
    expect(inWorkers.app.saveWorkers.size).toBe(1);
    expect(onLoop.app.saveWorkers.size).toBe(0);
    const results = [];
    for (const t of [inWorkers, onLoop]) {
      const { token, email } = await t.signUp();
      await t.request('POST', API.app.clients, { token, body: { name: 'Acme' } });
      // Large (through the large-save gate) and small bodies, a feed save and a list save.
      const large = await t.request('POST', API.app.feeds, {
        token,
        body: saveBody('Acme', 12_000),
      });
      expect(JSON.stringify(saveBody('Acme', 12_000)).length).toBeGreaterThan(1024 * 1024);
      const lists = await t.request('POST', API.app.lists, {
        token,
        body: { feeds: saveBody('', 40).feeds },
      });
      expect([large.status, lists.status]).toEqual([200, 200]);
      // A second save of the same rows over the kept feeds (ids sent back): rows unchanged.
      const again = await t.request('POST', API.app.feeds, {
        token,
        body: { name: 'Acme', feeds: large.body.feeds },
      });
      expect(again.status).toBe(200);
      results.push({
        answers: [large.body, lists.body, again.body].map((body) =>
          withoutMadeIds(JSON.stringify(body))
            .replace(/[0-9a-f-]{36}/g, '<uuid>')
            .replace(/"at":"[^"]+"/g, '"at":"<time>"'),
        ),
        stored: await storedFeeds(t, email),
      });
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0]!.stored).toHaveLength(6);
  });

  it('stores the document the layout defines, with its hash, through the COPY', async () => {
    const t = await start(1);
    const { token, email } = await t.signUp();
    await t.request('POST', API.app.clients, { token, body: { name: 'Acme' } });
    const rows = sampleRows(9000).map((row, i) => ({ ...row, id: `id-${i}` }));
    const answer = await t.request('POST', API.app.feeds, {
      token,
      body: { name: 'Acme', feeds: [{ name: 'p', rows }] },
    });
    expect(answer.status).toBe(200);
    const expected = JSON.stringify(
      rows.map((row) => [
        row.id,
        ...FEED_COLUMNS.map((column) =>
          String((row as Record<string, unknown>)[column] ?? '').trim(),
        ),
      ]),
    );
    const [stored] = await t.db.query<{ rows: string; rows_hash: string; row_count: number }>(
      `select rows::text as rows, rows_hash, row_count from feeds
       where user_id = (select id from users where email = $1)`,
      [email],
    );
    expect(stored!.rows).toBe(expected);
    expect(stored!.rows_hash).toBe(createHash('sha256').update(expected).digest('base64'));
    expect(stored!.row_count).toBe(9000);
  });

  it('answers a bad large body 400 in the error shape and keeps the stored feeds whole', async () => {
    const t = await start(1);
    const { token } = await t.signUp();
    await t.request('POST', API.app.clients, { token, body: { name: 'Acme' } });
    const saved = await t.request('POST', API.app.feeds, { token, body: saveBody('Acme', 50) });
    expect(saved.status).toBe(200);
    const before = await t.request('GET', clientPath('Acme'), { token });
    const whole = JSON.stringify(saveBody('Acme', 12_000));
    const badRows = saveBody('Acme', 12_000);
    (badRows.feeds as { rows: Record<string, unknown>[] }[])[0]!.rows[11_000]!.root = 'x'.repeat(
      31,
    );
    const answers = [
      await t.request('POST', API.app.feeds, {
        token,
        body: whole.slice(0, -10),
        headers: { 'content-type': 'application/json' },
      }),
      await t.request('POST', API.app.feeds, { token, body: badRows }),
    ];
    expect(answers.map((a) => [a.status, a.body.error.code, a.body.type])).toEqual([
      [400, 'bad_request', 'error'],
      [400, 'validation_failed', 'error'],
    ]);
    expect(answers[1]!.body.errors).toEqual([
      { msg: 'At most 30 characters', path: 'feeds.0.rows.11000.root' },
    ]);
    expect((await t.request('GET', clientPath('Acme'), { token })).body).toEqual(before.body);
  });

  it('answers 500 when its worker is lost mid-save, keeps the stored feeds, and saves again', async () => {
    const t = await start(1);
    const url = await listen(t);
    const { token } = await t.signUp();
    await t.request('POST', API.app.clients, { token, body: { name: 'Acme' } });
    expect(
      (await t.request('POST', API.app.feeds, { token, body: saveBody('Acme', 50) })).status,
    ).toBe(200);
    const before = await t.request('GET', clientPath('Acme'), { token });
    const body = Buffer.from(JSON.stringify(saveBody('Acme', 12_000)));
    // Half the body is sent; the worker is ended while it waits for the rest.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${url}${API.app.feeds}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
      });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (piece: Buffer) => (text += piece.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      request.on('error', reject);
      request.write(body.subarray(0, body.length >> 1));
      const stop = setInterval(() => {
        if (t.app.saveWorkers.running === 0) return;
        clearInterval(stop);
        void t.app.saveWorkers.stop();
      }, 10);
    });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body).error).toEqual({
      code: 'internal_error',
      message: SAVE_WORKER_LOST_MESSAGE,
    });
    expect((await t.request('GET', clientPath('Acme'), { token })).body).toEqual(before.body);
    // A new worker takes the next save.
    const next = await t.request('POST', API.app.feeds, { token, body: saveBody('Acme', 12_000) });
    expect(next.status).toBe(200);
    expect(next.body.feeds[0].rows).toHaveLength(12_000);
  });

  it("keeps users apart: a large save never reaches another user's client of that name", async () => {
    const t = await start(1);
    const alice = await t.signUp();
    const bob = await t.signUp();
    await t.request('POST', API.app.clients, { token: alice.token, body: { name: 'Acme' } });
    const saved = await t.request('POST', API.app.feeds, {
      token: alice.token,
      body: saveBody('Acme', 50),
    });
    expect(saved.status).toBe(200);
    const before = await storedFeeds(t, alice.email);
    // Bob has no client Acme: 404; then his own Acme gets his rows, Alice's stays.
    const refused = await t.request('POST', API.app.feeds, {
      token: bob.token,
      body: saveBody('Acme', 12_000),
    });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'not_found']);
    await t.request('POST', API.app.clients, { token: bob.token, body: { name: 'Acme' } });
    const own = await t.request('POST', API.app.feeds, {
      token: bob.token,
      body: {
        name: 'Acme',
        feeds: [{ _id: saved.body.feeds[0]._id, name: 'products', rows: sampleRows(12_000) }],
      },
    });
    expect(own.status).toBe(200);
    expect(own.body.feeds[0]._id).not.toBe(saved.body.feeds[0]._id);
    expect(await storedFeeds(t, alice.email)).toEqual(before);
    expect(await storedFeeds(t, bob.email)).toHaveLength(1);
  });
});
