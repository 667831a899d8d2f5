import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, clientPath } from '@adloom/contract';
import { FEED_COLUMNS, newIdentifiedFeedCells } from '@adloom/engine';
import {
  MIGRATIONS_DIR,
  listMigrations,
  runMigrations,
  sqlArray,
  type Db,
} from '../src/db/index.ts';
import { STORED_ROW_LAYOUT } from '../src/db/feed-rows.ts';
import { openEmptyDatabase, startTestApp, testDbKind, type TestApp } from './helpers.ts';

/** The migration that records each feed's rows layout; the database is made as it stood before. */
const LAYOUT_MIGRATION = '0010_feed_rows_layout.sql';

/**
 * The later migration of the users table (address verification), which the app's account calls
 * read: applied with the ones before the layout, so the journey's user signs up through the API.
 */
const USERS_MIGRATION = '0012_email_verification.sql';

/**
 * Runs the migrations before `LAYOUT_MIGRATION`, and USERS_MIGRATION, only (a copy of them in a
 * scratch folder).
 */
async function migrateToBeforeLayout(db: Db): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'adloom-migrations-'));
  try {
    for (const { name } of listMigrations())
      if (name < LAYOUT_MIGRATION || name === USERS_MIGRATION)
        copyFileSync(join(MIGRATIONS_DIR, name), join(dir, name));
    await runMigrations(db, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A row of the columns stored before migration 0010. */
interface Row {
  id: string;
  root: string;
  mod: string;
  var1: string;
  var2: string;
  var3: string;
  url: string;
}

/** A row as the API answers it: every feed column of today, '' where nothing is stored. */
function answered(row: Partial<Row> & { id: string }): Record<string, string> {
  return { ...newIdentifiedFeedCells(row.id), ...row };
}

const OLD_FEED_ROWS: Row[] = [
  {
    id: 'row-a',
    root: 'shoes',
    mod: 'red',
    var1: 'cheap',
    var2: '42',
    var3: 'uk',
    url: 'https://e.com/a',
  },
  { id: 'row-b', root: 'boots', mod: '', var1: 'ü "q"', var2: '', var3: '', url: '' },
  { id: 'row-c', root: '', mod: '', var1: '', var2: '', var3: 'only var3', url: 'https://e.com/c' },
];
const OLD_LIST_ROWS: Row[] = [
  { id: 'list-1', root: 'paris', mod: '', var1: '', var2: '', var3: '', url: '' },
];

/**
 * A rows document exactly as the server wrote it before migration 0010 (services/workspace.ts,
 * `storedRowsJson` at 9ff3284): `[id, root, mod, var1, var2, var3, url]` per row, and its hash.
 */
function oldStoredRows(rows: readonly Row[]): { json: string; hash: string } {
  const json = JSON.stringify(
    rows.map((r) => [r.id, r.root, r.mod, r.var1, r.var2, r.var3, r.url]),
  );
  return { json, hash: createHash('sha256').update(json).digest('base64') };
}

describe(`feed rows written before the stored layout (${testDbKind()})`, () => {
  let t: TestApp;
  let token: string;
  const clientName = 'Legacy client';

  beforeAll(async () => {
    const db = await openEmptyDatabase();
    await migrateToBeforeLayout(db);
    t = await startTestApp({}, { db });
    const user = await t.signUp();
    token = user.token;
    // Users and clients did not change: made through the API. The feeds are written in the old
    // shape with the old columns, as the server before 0010 wrote them.
    expect(
      (await t.request('POST', API.app.clients, { token, body: { name: clientName } })).status,
    ).toBeLessThan(300);
    const [client] = await db.query<{ id: string }>('select id from clients where user_id = $1', [
      user.user._id,
    ]);
    const feed = oldStoredRows(OLD_FEED_ROWS);
    const list = oldStoredRows(OLD_LIST_ROWS);
    await db.query(
      `insert into feeds (user_id, client_id, position, name, data_type, rows, row_count, rows_hash)
       values ($1, $2, 0, 'brands', 'table', $3, $4, $5),
              ($1, null, 0, 'cities', 'list', $6, $7, $8)`,
      [
        user.user._id,
        client!.id,
        feed.json,
        OLD_FEED_ROWS.length,
        feed.hash,
        list.json,
        OLD_LIST_ROWS.length,
        list.hash,
      ],
    );
    await db.query('insert into list_sets (user_id, revision) values ($1, 1)', [user.user._id]);
    expect(await runMigrations(db)).toEqual(
      listMigrations()
        .map((m) => m.name)
        .filter((name) => name >= LAYOUT_MIGRATION && name !== USERS_MIGRATION),
    );
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('records the old layout on every feed already stored', async () => {
    const layouts = await t.db.query<{ rows_layout: string[] }>('select rows_layout from feeds');
    expect(layouts.map((r) => r.rows_layout)).toEqual([
      ['id', 'root', 'mod', 'var1', 'var2', 'var3', 'url'],
      ['id', 'root', 'mod', 'var1', 'var2', 'var3', 'url'],
    ]);
  });

  it('reads the same values back through the API', async () => {
    const bundle = await t.request('GET', clientPath(clientName), { token });
    expect(bundle.status).toBe(200);
    const feeds = (bundle.body as { feeds: { name: string; rows: Row[] }[] }).feeds;
    expect(feeds.map((f) => f.name)).toEqual(['brands']);
    expect(feeds[0]!.rows).toEqual(OLD_FEED_ROWS.map(answered));
    const lists = await t.request('GET', API.app.lists, { token });
    expect((lists.body as { feeds: { rows: Row[] }[] }).feeds[0]!.rows).toEqual(
      OLD_LIST_ROWS.map(answered),
    );
  });

  it('writes the rows in the current layout on the next save, values unchanged', async () => {
    const before = await t.request('GET', clientPath(clientName), { token });
    const feed = (before.body as { feeds: { _id: string; rows: Row[] }[] }).feeds[0]!;
    const saved = await t.request('POST', API.app.feeds, {
      token,
      body: {
        name: clientName,
        feeds: [
          { _id: feed._id, name: 'brands', dataType: 'table', sheetUrl: '', rows: feed.rows },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const [stored] = await t.db.query<{ rows_layout: string[] }>(
      'select rows_layout from feeds where id = $1',
      [feed._id],
    );
    expect(stored!.rows_layout).toEqual(STORED_ROW_LAYOUT);
    const after = await t.request('GET', clientPath(clientName), { token });
    expect((after.body as { feeds: { rows: Row[] }[] }).feeds[0]!.rows).toEqual(
      OLD_FEED_ROWS.map(answered),
    );
  });
});

describe(`feed rows read by their stored layout (${testDbKind()})`, () => {
  let t: TestApp;
  let token: string;
  let userId: string;
  const clientName = 'Layouts';

  beforeAll(async () => {
    t = await startTestApp();
    const user = await t.signUp();
    token = user.token;
    userId = user.user._id;
    await t.request('POST', API.app.clients, { token, body: { name: clientName } });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** Stores `rows` under `layout` as the only feed of the client, then loads it. */
  async function loadStored(layout: string[], rows: string[][]): Promise<Record<string, string>[]> {
    const saved = await t.request('POST', API.app.feeds, {
      token,
      body: {
        name: clientName,
        feeds: [{ name: 'f', dataType: 'table', sheetUrl: '', rows: [{ root: 'x' }] }],
      },
    });
    const feedId = (saved.body as { feeds: { _id: string }[] }).feeds[0]!._id;
    await t.db.query(
      `update feeds set rows = $3, rows_layout = $4::text[], rows_hash = '',
         rows_version = gen_random_uuid() where id = $1 and user_id = $2`,
      [feedId, userId, JSON.stringify(rows), sqlArray(layout)],
    );
    const bundle = await t.request('GET', clientPath(clientName), { token });
    return (bundle.body as { feeds: { rows: Record<string, string>[] }[] }).feeds[0]!.rows;
  }

  it('writes new rows in the layout of the id and every feed column', async () => {
    expect(STORED_ROW_LAYOUT).toEqual(['id', ...FEED_COLUMNS]);
    const saved = await t.request('POST', API.app.feeds, {
      token,
      body: {
        name: clientName,
        feeds: [
          {
            name: 'f',
            dataType: 'table',
            sheetUrl: '',
            rows: [{ id: 'r1', root: 'a', var2: 'b', url: 'https://e.com' }],
          },
        ],
      },
    });
    const feedId = (saved.body as { feeds: { _id: string }[] }).feeds[0]!._id;
    const [stored] = await t.db.query<{ rows: string; rows_layout: string[] }>(
      'select rows, rows_layout from feeds where id = $1',
      [feedId],
    );
    expect(stored!.rows_layout).toEqual(STORED_ROW_LAYOUT);
    const cells = (JSON.parse(stored!.rows) as string[][])[0]!;
    const byKey = Object.fromEntries(stored!.rows_layout.map((key, i) => [key, cells[i]]));
    expect(byKey).toMatchObject({ id: 'r1', root: 'a', var2: 'b', url: 'https://e.com' });
  });

  it('maps cells by key: another order, a column the layout lacks, a key no column has', async () => {
    const rows = await loadStored(
      ['url', 'retired', 'id', 'var1', 'root'],
      [
        ['https://e.com/1', 'gone', 'r1', 'v1', 'root 1'],
        ['', 'gone', 'r2', '', 'root 2'],
      ],
    );
    expect(rows).toEqual([
      answered({ id: 'r1', root: 'root 1', var1: 'v1', url: 'https://e.com/1' }),
      answered({ id: 'r2', root: 'root 2' }),
    ]);
    expect(rows[0]).not.toHaveProperty('retired');
  });
});
