import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, SHEET_MESSAGES, clientPath } from '@adloom/contract';
import { loadConfig, type Config } from '../src/config.ts';
import { startGoogleStandIn, type GoogleStandIn } from './google-stand-in.ts';
import { startTestApp, type TestApp } from './helpers.ts';

/** The Google part of a config read from the stand-in's settings, retries 1 ms apart. */
function googleSettings(
  env: Record<string, string>,
): Pick<Config, 'google' | 'tokenEncryptionKey'> {
  const config = loadConfig({
    JWT_SECRET: 'k3J9x-Qw7zP2m_Lr5Tn8Vb1Yc4Hd6Fg0Se',
    DATA_DIR: join(tmpdir(), `adloom-sheets-${randomUUID()}`),
    TOKEN_ENCRYPTION_KEY: 'Wq9rLm2xVb7nKc5pHs8dJf3gYe6aQu1Zt4-',
    GOOGLE_RETRY_BASE_MS: '1',
    ...env,
  });
  return { google: config.google, tokenEncryptionKey: config.tokenEncryptionKey };
}

interface Row {
  id?: string;
  root: string;
  mod: string;
  var1: string;
  var2: string;
  var3: string;
  url: string;
  status: string;
}

function row(root: string, extra: Partial<Row> = {}): Row {
  return { root, mod: '', var1: '', var2: '', var3: '', url: '', status: '', ...extra };
}

/** Cells a spreadsheet would turn into numbers, dates or formulas unless written RAW. */
const TRICKY = row('00042', {
  mod: '=1+1',
  var1: '12345678901234567890',
  var2: '2024-01-02',
  var3: '+49 30',
  url: 'https://shop.example.com/?a=1',
});
const HEADER = ['root', 'mod', 'var1', 'var2', 'var3', 'url', 'status'];
const cellsOf = (r: Row) => [r.root, r.mod, r.var1, r.var2, r.var3, r.url, r.status];

describe('Google Sheets on feeds and lists', () => {
  let standIn: GoogleStandIn;
  let t: TestApp;
  let alice: { token: string; user: { _id: string } };
  let bob: { token: string; user: { _id: string } };

  /** Links the user's Google account through the stand-in's consent, as the browser does. */
  async function link(token: string): Promise<void> {
    const consent = await t.request('GET', API.google.consent, { token });
    expect(consent.status).toBe(200);
    const back = await fetch(consent.body.url as string, { redirect: 'manual' });
    const location = new URL(back.headers.get('location') ?? '');
    const linked = await t.request('POST', API.google.accessToken, {
      token,
      body: { code: location.searchParams.get('code'), state: location.searchParams.get('state') },
    });
    expect(linked.status).toBe(200);
  }

  /** A client with one feed linked to `sheetUrl` (stored with no rows); answers the feed. */
  async function linkedFeed(token: string, sheetUrl: string) {
    const name = `Client ${randomUUID()}`;
    await t.request('POST', API.app.clients, { token, body: { name } });
    const saved = await t.request('POST', API.app.feeds, {
      token,
      body: { name, feeds: [{ name: 'products', sheetUrl, sheetName: 'Products', rows: [] }] },
    });
    expect(saved.status).toBe(200);
    return { client: name, feed: saved.body.feeds[0] as { _id: string; sheetUrl: string } };
  }

  async function storedFeed(token: string, client: string) {
    const bundle = await t.request('GET', clientPath(client), { token });
    return bundle.body.feeds[0];
  }

  function newSheet(rows: string[][] = [], title = 'Products sheet'): string {
    const id = standIn.addSpreadsheet({ title, tabs: [{ title: 'Sheet1', sheetId: 0, rows }] });
    return standIn.sheetUrl(id, 0);
  }

  const tabRows = (sheetUrl: string, tab = 0) =>
    standIn.spreadsheet(/\/d\/([^/]+)/.exec(sheetUrl)![1]!).tabs[tab]!.rows;

  /** The Sheets API requests the stand-in received since `from`. */
  const sheetsRequests = (from: number) =>
    standIn.requests.slice(from).filter((r) => r.path.startsWith('/v4/'));

  beforeAll(async () => {
    standIn = await startGoogleStandIn();
    t = await startTestApp(googleSettings({ ...standIn.settings }));
    alice = await t.signUp();
    bob = await t.signUp();
    await link(alice.token);
    await link(bob.token);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });
  beforeEach(() => {
    standIn.quotaExhausted(false);
    standIn.failNext(0, 0);
  });

  it('uploads a feed RAW and downloads it back with every cell as typed', async () => {
    const sheetUrl = newSheet();
    const { client, feed } = await linkedFeed(alice.token, sheetUrl);
    const rows = [row('nike', { id: 'r1' }), { ...TRICKY, id: 'r2' }, row('', { id: 'blank' })];
    const from = standIn.requests.length;
    const uploaded = await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows },
    });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({
      message: SHEET_MESSAGES.uploaded,
      sheetName: 'Products sheet',
      sheetSync: { direction: 'written', rows: 2 },
    });
    expect(tabRows(sheetUrl)).toEqual([HEADER, cellsOf(rows[0]!), cellsOf(TRICKY)]);
    const writes = sheetsRequests(from).filter((r) => r.method === 'PUT');
    expect(writes.length).toBe(1);
    expect(writes.every((r) => r.path.includes('valueInputOption=RAW'))).toBe(true);
    // The copy is what was written, with the feed's own row ids.
    expect(await storedFeed(alice.token, client)).toMatchObject({
      rows: [rows[0], rows[1]],
      sheetSync: uploaded.body.sheetSync,
    });

    // A person edits the sheet; choosing the feed again downloads their cells.
    tabRows(sheetUrl)[1]![0] = '0007';
    tabRows(sheetUrl).push(['=SUM(A1:A2)', '', '', '', '', '']);
    const downloaded = await t.request('POST', API.google.downloadData, {
      token: alice.token,
      body: { activeFeed: feed },
    });
    expect(downloaded.status).toBe(200);
    const expected = [row('0007'), TRICKY, row('=SUM(A1:A2)')];
    expect(downloaded.body.formattedRows.map(({ id: _, ...r }: Row) => r)).toEqual(expected);
    expect(new Set(downloaded.body.formattedRows.map((r: Row) => r.id)).size).toBe(3);
    expect(downloaded.body).toMatchObject({
      sheetName: 'Products sheet',
      sheetSync: { direction: 'read', rows: 3 },
      truncatedCells: 0,
      ignoredHeaders: [],
    });
    expect(await storedFeed(alice.token, client)).toMatchObject({
      rows: downloaded.body.formattedRows,
      sheetSync: downloaded.body.sheetSync,
    });
  });

  it('uploads and downloads a list the same way', async () => {
    const sheetUrl = newSheet();
    const saved = await t.request('POST', API.app.lists, {
      token: bob.token,
      body: { feeds: [{ name: 'colours', dataType: 'list', sheetUrl, rows: [] }] },
    });
    const list = saved.body.feeds[0];
    const rows = [row('red'), TRICKY];
    const uploaded = await t.request('POST', API.google.uploadList, {
      token: bob.token,
      body: { activeList: { ...list, rows } },
    });
    expect(uploaded.status).toBe(200);
    expect(tabRows(sheetUrl)).toEqual([HEADER, cellsOf(rows[0]!), cellsOf(TRICKY)]);
    const downloaded = await t.request('POST', API.google.downloadList, {
      token: bob.token,
      body: { activeList: list },
    });
    expect(downloaded.status).toBe(200);
    expect(downloaded.body.formattedRows.map(({ id: _, ...r }: Row) => r)).toEqual(rows);
    const lists = await t.request('GET', API.app.lists, { token: bob.token });
    expect(lists.body.feeds[0]).toMatchObject({
      rows: downloaded.body.formattedRows,
      sheetSync: { direction: 'read', rows: 2 },
    });
  });

  it('moves 25,000 rows in requests of at most 10,000 rows', async () => {
    const sheetUrl = newSheet();
    const { feed } = await linkedFeed(alice.token, sheetUrl);
    const rows = Array.from({ length: 25_000 }, (_, i) => row(`r${i}`, { var1: String(i) }));
    let from = standIn.requests.length;
    const uploaded = await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows },
    });
    expect(uploaded.status).toBe(200);
    const writes = sheetsRequests(from).filter((r) => r.method === 'PUT');
    const written = writes.map((r) => (JSON.parse(r.body) as { values: unknown[] }).values.length);
    expect(written).toEqual([10_000, 10_000, 5_001]);
    expect(tabRows(sheetUrl).length).toBe(25_001);

    from = standIn.requests.length;
    const downloaded = await t.request('POST', API.google.downloadData, {
      token: alice.token,
      body: { activeFeed: feed },
    });
    expect(downloaded.status).toBe(200);
    expect(downloaded.body.formattedRows.length).toBe(25_000);
    expect(downloaded.body.formattedRows[24_999]).toMatchObject({ root: 'r24999', var1: '24999' });
    const reads = sheetsRequests(from).filter(
      (r) => r.method === 'GET' && r.path.includes('/values/'),
    );
    expect(reads.length).toBe(3);
  });

  it.each([
    ['no header row', [[], ['nike', 'shoes']]],
    [
      'a repeated header',
      [
        ['root', 'Root'],
        ['nike', 'adidas'],
      ],
    ],
    [
      'no recognised header',
      [
        ['brand', 'colour'],
        ['nike', 'red'],
      ],
    ],
  ])('answers 400 sheet_headers for %s and keeps the copy', async (_, sheetRows) => {
    const sheetUrl = newSheet();
    const { client, feed } = await linkedFeed(alice.token, sheetUrl);
    await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows: [row('kept')] },
    });
    const before = await storedFeed(alice.token, client);
    tabRows(sheetUrl).splice(0, Infinity, ...sheetRows);
    const answer = await t.request('POST', API.google.downloadData, {
      token: alice.token,
      body: { activeFeed: feed },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'sheet_headers',
      message: SHEET_MESSAGES.headers,
    });
    expect(await storedFeed(alice.token, client)).toEqual(before);
  });

  it('answers 404 for a sheet that does not exist and for a URL that names no sheet', async () => {
    const { feed } = await linkedFeed(alice.token, newSheet());
    for (const sheetUrl of [
      'https://docs.google.com/spreadsheets/d/ThisSheetDoesNotExist123/edit',
      'https://example.com/not-a-sheet',
    ]) {
      for (const [path, body] of [
        [API.google.downloadData, { activeFeed: { ...feed, sheetUrl } }],
        [API.google.uploadData, { activeFeed: { ...feed, sheetUrl }, rows: [row('a')] }],
      ] as const) {
        const answer = await t.request('POST', path, { token: alice.token, body });
        expect(answer.status).toBe(404);
        expect(answer.body.error).toMatchObject({
          code: 'sheet_not_found',
          message: SHEET_MESSAGES.invalidSheet,
        });
      }
    }
  });

  it('answers 401 not_linked to a user with no Google account linked', async () => {
    const carol = await t.signUp();
    const sheetUrl = newSheet([HEADER, ['a', '', '', '', '', '']]);
    const from = standIn.requests.length;
    const answer = await t.request('POST', API.google.downloadData, {
      token: carol.token,
      body: { activeFeed: { name: 'f', sheetUrl } },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({
      code: 'not_linked',
      message: SHEET_MESSAGES.notLinked,
    });
    expect(sheetsRequests(from)).toEqual([]);
  });

  it('retries 429 and 5xx answers and then succeeds', async () => {
    const sheetUrl = newSheet([HEADER, ['a', '', '', '', '', '']]);
    const { feed } = await linkedFeed(alice.token, sheetUrl);
    for (const status of [429, 500, 503]) {
      standIn.failNext(3, status);
      const from = standIn.requests.length;
      const answer = await t.request('POST', API.google.downloadData, {
        token: alice.token,
        body: { activeFeed: feed },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.formattedRows).toMatchObject([{ root: 'a' }]);
      // 3 refused, then the spreadsheet and its one batch of values.
      expect(sheetsRequests(from).length).toBe(5);
    }
  });

  it('answers 429 quota_exhausted when the quota stays exhausted and keeps the copy', async () => {
    const sheetUrl = newSheet();
    const { client, feed } = await linkedFeed(alice.token, sheetUrl);
    await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows: [row('kept')] },
    });
    const before = await storedFeed(alice.token, client);
    standIn.quotaExhausted(true);
    const from = standIn.requests.length;
    const quota = await t.request('POST', API.google.downloadData, {
      token: alice.token,
      body: { activeFeed: feed },
    });
    expect(quota.status).toBe(429);
    expect(quota.body.error).toMatchObject({
      code: 'quota_exhausted',
      message: SHEET_MESSAGES.quota,
    });
    // The first try and 5 retries.
    expect(sheetsRequests(from).length).toBe(6);
    standIn.quotaExhausted(false);
    expect(await storedFeed(alice.token, client)).toEqual(before);
  });

  it('stores nothing of a download that fails half-way through the sheet', async () => {
    const sheetUrl = newSheet();
    const { client, feed } = await linkedFeed(alice.token, sheetUrl);
    await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows: [row('kept')] },
    });
    const before = await storedFeed(alice.token, client);
    tabRows(sheetUrl).push(...Array.from({ length: 25_000 }, (_, i) => [`new ${i}`]));
    const from = standIn.requests.length;
    const failing = t.request('POST', API.google.downloadData, {
      token: alice.token,
      body: { activeFeed: feed },
    });
    // Once the first batch of values is asked for, Google starts failing every request.
    while (!sheetsRequests(from).some((r) => r.path.includes('/values/')))
      await new Promise((resolve) => setImmediate(resolve));
    standIn.failNext(100, 503);
    const failed = await failing;
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({
      code: 'upstream_failed',
      message: SHEET_MESSAGES.whoops,
    });
    expect(sheetsRequests(from).length).toBeGreaterThanOrEqual(2 + 6);
    expect(await storedFeed(alice.token, client)).toEqual(before);
  });

  it('asks before an upload replaces sheet rows the feed does not hold (409), then replaces them', async () => {
    const sheetUrl = newSheet([
      ['Root', 'Final URL'],
      ['nike', 'https://a.com'],
      ['theirs 1', ''],
      ['theirs 2', ''],
    ]);
    const { feed } = await linkedFeed(alice.token, sheetUrl);
    const rows = [row('nike', { url: 'https://a.com' }), row('mine')];
    const before = structuredClone(tabRows(sheetUrl));
    const asked = await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows },
    });
    expect(asked.status).toBe(409);
    expect(asked.body.error).toEqual({
      code: 'sheet_has_other_rows',
      message: SHEET_MESSAGES.otherRows(2),
      details: { otherRows: 2 },
    });
    expect(tabRows(sheetUrl)).toEqual(before);
    const replaced = await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows, replace: true },
    });
    expect(replaced.status).toBe(200);
    expect(tabRows(sheetUrl)).toEqual([HEADER, cellsOf(rows[0]!), cellsOf(rows[1]!)]);
    // The sheet now holds only the feed's rows: no question asked.
    const again = await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows: [...rows, row('more')] },
    });
    expect(again.status).toBe(200);
  });

  it('reports the rows written so far while an upload runs', async () => {
    const { feed } = await linkedFeed(alice.token, newSheet());
    const rows = Array.from({ length: 50_000 }, (_, i) => row(`r${i}`));
    const from = standIn.requests.length;
    // Google answers the writes only once the progress was read (a loaded machine could finish
    // them all first).
    const release = standIn.holdWrites();
    const uploading = t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows, progressId: 'running' },
    });
    try {
      while (!sheetsRequests(from).some((r) => r.method === 'PUT'))
        await new Promise((resolve) => setImmediate(resolve));
      const running = await t.request('GET', `${API.google.progress}running`, {
        token: alice.token,
      });
      expect(running.body).toMatchObject({ phase: 'writing', total: 50_000 });
      expect(running.body.done).toBeLessThan(50_000);
    } finally {
      release();
    }
    expect((await uploading).status).toBe(200);
    const done = await t.request('GET', `${API.google.progress}running`, { token: alice.token });
    expect(done.body).toMatchObject({ done: 50_000, total: 50_000 });
  });

  it("answers a call's progress to its caller only", async () => {
    const sheetUrl = newSheet();
    const { feed } = await linkedFeed(alice.token, sheetUrl);
    const rows = Array.from({ length: 12_000 }, (_, i) => row(`r${i}`));
    const uploaded = await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows, progressId: 'upload-1' },
    });
    expect(uploaded.status).toBe(200);
    const mine = await t.request('GET', `${API.google.progress}upload-1`, { token: alice.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ phase: 'done', done: 12_000, total: 12_000 });
    const theirs = await t.request('GET', `${API.google.progress}upload-1`, { token: bob.token });
    expect(theirs.status).toBe(404);
    const unknown = await t.request('GET', `${API.google.progress}nothing`, { token: alice.token });
    expect(unknown.status).toBe(404);
    const anonymous = await t.request('GET', `${API.google.progress}upload-1`);
    expect(anonymous.status).toBe(401);
  });

  it("never writes another user's feed: their feed id only moves the caller's own sheet", async () => {
    const aliceSheet = newSheet();
    const { client, feed } = await linkedFeed(alice.token, aliceSheet);
    await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: feed, rows: [row('alice')] },
    });
    const before = await storedFeed(alice.token, client);

    const bobSheet = newSheet([HEADER, ['bob', '', '', '', '', '']]);
    const download = await t.request('POST', API.google.downloadData, {
      token: bob.token,
      body: { activeFeed: { ...feed, sheetUrl: bobSheet } },
    });
    expect(download.status).toBe(200);
    expect(download.body.formattedRows).toMatchObject([{ root: 'bob' }]);
    const upload = await t.request('POST', API.google.uploadData, {
      token: bob.token,
      body: { activeFeed: { ...feed, sheetUrl: bobSheet }, rows: [row('bob 2')], replace: true },
    });
    expect(upload.status).toBe(200);
    expect(tabRows(bobSheet)).toEqual([HEADER, ['bob 2', '', '', '', '', '', '']]);
    // Bob's calls used his own sheet and token; Alice's stored copy and sheet are as they were.
    expect(await storedFeed(alice.token, client)).toEqual(before);
    expect(tabRows(aliceSheet)).toEqual([HEADER, ['alice', '', '', '', '', '', '']]);
  });

  it('renews an access token Google ended early, once', async () => {
    const sheetUrl = newSheet([HEADER, ['a', '', '', '', '', '']]);
    const { feed } = await linkedFeed(alice.token, sheetUrl);
    standIn.expireAccessTokens();
    const from = standIn.requests.length;
    const answer = await t.request('POST', API.google.downloadData, {
      token: alice.token,
      body: { activeFeed: feed },
    });
    expect(answer.status).toBe(200);
    const sent = standIn.requests.slice(from);
    expect(sent.map((r) => `${r.method} ${r.path.split('?')[0]!.split('/')[1]}`)).toEqual([
      'GET v4',
      'POST token',
      'GET v4',
      'GET v4',
    ]);
    expect(sent[0]!.authorization).not.toBe(sent[2]!.authorization);
  });

  it('refuses the sheet calls without a session, and with a body that is not a feed', async () => {
    const anonymous = await t.request('POST', API.google.downloadData, {
      body: { activeFeed: { name: 'f', sheetUrl: newSheet() } },
    });
    expect(anonymous.status).toBe(401);
    const noUrl = await t.request('POST', API.google.uploadData, {
      token: alice.token,
      body: { activeFeed: { name: 'f', sheetUrl: '' }, rows: [] },
    });
    expect(noUrl.status).toBe(400);
  });

  // Last: it revokes every token at the stand-in.
  it('answers 401 relink_needed once Google no longer honours the link', async () => {
    const sheetUrl = newSheet([HEADER, ['a', '', '', '', '', '']]);
    const { feed } = await linkedFeed(bob.token, sheetUrl);
    standIn.revokeAll();
    const answer = await t.request('POST', API.google.downloadData, {
      token: bob.token,
      body: { activeFeed: feed },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({
      code: 'relink_needed',
      message: SHEET_MESSAGES.relinkNeeded,
    });
    const status = await t.request('GET', API.google.status, { token: bob.token });
    expect(status.body.status).toBe('needs_consent');
  });

  it('retries an answer that is not JSON, then answers 502 Whoops, never 500', async () => {
    // Earlier tests revoked every grant at Google: a user of its own, linked now.
    const dave = await t.signUp();
    await link(dave.token);
    const sheetUrl = newSheet([HEADER, ['a', '', '', '', '', '']]);
    const { feed } = await linkedFeed(dave.token, sheetUrl);
    standIn.failNext(1, 200);
    const retried = await t.request('POST', API.google.downloadData, {
      token: dave.token,
      body: { activeFeed: feed },
    });
    expect(retried.status).toBe(200);
    expect(retried.body.formattedRows).toHaveLength(1);
    standIn.failNext(100, 200);
    const failed = await t.request('POST', API.google.downloadData, {
      token: dave.token,
      body: { activeFeed: feed },
    });
    standIn.failNext(0, 200);
    expect(failed.status).toBe(502);
    expect(failed.body.error).toEqual({ code: 'upstream_failed', message: SHEET_MESSAGES.whoops });
  });

  it('asks for the link again when Sheets refuses a freshly refreshed token too', async () => {
    const carol = await t.signUp();
    await link(carol.token);
    const sheetUrl = newSheet([HEADER, ['a', '', '', '', '', '']]);
    const { feed } = await linkedFeed(carol.token, sheetUrl);
    standIn.failNext(2, 401);
    const answer = await t.request('POST', API.google.downloadData, {
      token: carol.token,
      body: { activeFeed: feed },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ code: 'relink_needed' });
    const status = await t.request('GET', API.google.status, { token: carol.token });
    expect(status.body.status).toBe('needs_consent');
    const me = await t.request('GET', '/api/users/me', { token: carol.token });
    expect(me.body.user.integrations).toEqual([]);
  });
});
