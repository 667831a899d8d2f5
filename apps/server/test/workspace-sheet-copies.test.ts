import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, clientPath } from '@adloom/contract';
import { recordSheetCopy } from '../src/services/workspace.ts';
import { startTestApp, type TestApp } from './helpers.ts';

const SHEET_URL = 'https://docs.google.com/spreadsheets/d/abcdefghijklmnop/edit';

function row(root: string, id = '') {
  return { id, root, mod: '', var1: '', var2: '', var3: '', url: '', status: '' };
}

/**
 * A linked feed's rows are the copy last read from or written to its sheet (spec section 7 saves
 * it with empty rows): saves never drop it, loads present it with its sync.
 */
describe('kept copies of linked feeds', () => {
  let t: TestApp;
  let alice: { token: string; user: { _id: string } };
  let bob: { token: string; user: { _id: string } };

  beforeAll(async () => {
    t = await startTestApp();
    alice = await t.signUp();
    bob = await t.signUp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function newClient(token: string, name: string): Promise<string> {
    const created = await t.request('POST', API.app.clients, { token, body: { name } });
    expect(created.status).toBe(200);
    return created.body.name as string;
  }

  async function saveFeeds(token: string, name: string, feeds: unknown[]) {
    const saved = await t.request('POST', API.app.feeds, { token, body: { name, feeds } });
    expect(saved.status).toBe(200);
    return saved.body;
  }

  it('keeps the copy when a linked feed is saved with empty rows, and presents it on load', async () => {
    const name = await newClient(alice.token, 'Copies');
    const first = await saveFeeds(alice.token, name, [{ name: 'feed', rows: [row('old')] }]);
    const id = first.feeds[0]._id as string;
    const at = new Date('2026-11-26T10:00:00.000Z');
    const sync = await recordSheetCopy(t.db, alice.user._id, id, {
      rows: [row('from-sheet-1'), row('from-sheet-2')],
      direction: 'read',
      now: at,
    });
    expect(sync).toEqual({ at: at.toISOString(), direction: 'read', rows: 2 });

    const saved = await saveFeeds(alice.token, name, [
      { _id: id, name: 'feed', sheetUrl: SHEET_URL, sheetName: 'Sheet', rows: [] },
    ]);
    const expected = {
      _id: id,
      sheetUrl: SHEET_URL,
      sheetSync: sync,
      rows: [
        expect.objectContaining({ root: 'from-sheet-1' }),
        expect.objectContaining({ root: 'from-sheet-2' }),
      ],
    };
    expect(saved.feeds[0]).toMatchObject(expected);
    const loaded = await t.request('GET', clientPath(name), { token: alice.token });
    expect(loaded.body.feeds[0]).toMatchObject(expected);
    expect(loaded.body.feeds).toEqual(saved.feeds);
  });

  it('keeps the copy of a synced feed whatever rows it is sent with', async () => {
    const name = await newClient(alice.token, 'Synced');
    const first = await saveFeeds(alice.token, name, [
      { name: 'feed', sheetUrl: SHEET_URL, rows: [] },
    ]);
    const id = first.feeds[0]._id as string;
    expect(first.feeds[0].sheetSync).toBeUndefined();
    await recordSheetCopy(t.db, alice.user._id, id, {
      rows: [row('written')],
      direction: 'written',
    });
    const saved = await saveFeeds(alice.token, name, [
      { _id: id, name: 'renamed', sheetUrl: SHEET_URL, rows: [row('stale edit')] },
    ]);
    expect(saved.feeds[0]).toMatchObject({
      name: 'renamed',
      rows: [expect.objectContaining({ root: 'written' })],
      sheetSync: { direction: 'written', rows: 1 },
    });
  });

  it("stores the rows of a linked feed never synced as its copy ('kept')", async () => {
    const name = await newClient(alice.token, 'Imported');
    const first = await saveFeeds(alice.token, name, [
      { name: 'imported', rows: [row('a', 'r1'), row('b', 'r2')] },
    ]);
    const id = first.feeds[0]._id as string;
    expect(first.feeds[0].sheetSync).toBeUndefined();
    const saved = await saveFeeds(alice.token, name, [
      { _id: id, name: 'imported', sheetUrl: SHEET_URL, rows: [row('a', 'r1'), row('c', 'r3')] },
    ]);
    expect(saved.feeds[0]).toMatchObject({
      rows: [row('a', 'r1'), row('c', 'r3')],
      sheetSync: { direction: 'kept', rows: 2 },
    });
    // From now on the copy stays: a later save with no rows (the spec's linked save) keeps it.
    const again = await saveFeeds(alice.token, name, [
      { _id: id, name: 'imported', sheetUrl: SHEET_URL, rows: [] },
    ]);
    expect(again.feeds[0].rows).toEqual([row('a', 'r1'), row('c', 'r3')]);
    expect(again.feeds[0].sheetSync).toEqual(saved.feeds[0].sheetSync);
  });

  it('stores the sent rows once a feed is unlinked, and forgets its sync', async () => {
    const name = await newClient(alice.token, 'Unlink');
    const first = await saveFeeds(alice.token, name, [
      { name: 'feed', sheetUrl: SHEET_URL, rows: [] },
    ]);
    const id = first.feeds[0]._id as string;
    await recordSheetCopy(t.db, alice.user._id, id, { rows: [row('copy')], direction: 'read' });
    const unlinked = await saveFeeds(alice.token, name, [
      { _id: id, name: 'feed', sheetUrl: '', rows: [row('copy', 'x'), row('edited', 'y')] },
    ]);
    expect(unlinked.feeds[0]).toEqual({
      _id: id,
      name: 'feed',
      dataType: 'table',
      sheetUrl: '',
      sheetName: '',
      rows: [row('copy', 'x'), row('edited', 'y')],
    });
    const loaded = await t.request('GET', clientPath(name), { token: alice.token });
    expect(loaded.body.feeds).toEqual(unlinked.feeds);
    // Linked again later: the rows it then holds are kept, as for a feed never synced.
    const relinked = await saveFeeds(alice.token, name, [
      { _id: id, name: 'feed', sheetUrl: SHEET_URL, rows: [row('again', 'z')] },
    ]);
    expect(relinked.feeds[0]).toMatchObject({
      rows: [row('again', 'z')],
      sheetSync: { direction: 'kept', rows: 1 },
    });
  });

  it("keeps a linked list's copy in the user's lists", async () => {
    const u = await t.signUp();
    const first = await t.request('POST', API.app.lists, {
      token: u.token,
      body: { feeds: [{ name: 'colours', dataType: 'list', sheetUrl: SHEET_URL, rows: [] }] },
    });
    const id = first.body.feeds[0]._id as string;
    await recordSheetCopy(t.db, u.user._id, id, { rows: [row('red')], direction: 'read' });
    const saved = await t.request('POST', API.app.lists, {
      token: u.token,
      body: {
        revision: first.body.revision,
        feeds: [{ _id: id, name: 'colours', dataType: 'list', sheetUrl: SHEET_URL, rows: [] }],
      },
    });
    expect(saved.body.feeds[0]).toMatchObject({
      rows: [expect.objectContaining({ root: 'red' })],
      sheetSync: { direction: 'read', rows: 1 },
    });
    const loaded = await t.request('GET', API.app.lists, { token: u.token });
    expect(loaded.body.feeds).toEqual(saved.body.feeds);
  });

  it("never records a copy in another user's feed, nor for an id that is no feed id", async () => {
    const name = await newClient(alice.token, 'Theirs');
    const first = await saveFeeds(alice.token, name, [
      { name: 'feed', sheetUrl: SHEET_URL, rows: [row('mine', 'm1')] },
    ]);
    const id = first.feeds[0]._id as string;
    const sync = await recordSheetCopy(t.db, bob.user._id, id, {
      rows: [row('intruder')],
      direction: 'read',
    });
    expect(sync.rows).toBe(1);
    const noFeed = await recordSheetCopy(t.db, alice.user._id, 'not-a-feed-id', {
      rows: [row('nowhere')],
      direction: 'written',
    });
    expect(noFeed).toMatchObject({ direction: 'written', rows: 1 });
    const loaded = await t.request('GET', clientPath(name), { token: alice.token });
    expect(loaded.body.feeds).toEqual(first.feeds);
    // Bob saving a feed with Alice's id makes a new feed of his own.
    const bobClient = await newClient(bob.token, 'Theirs');
    const bobSaved = await saveFeeds(bob.token, bobClient, [
      { _id: id, name: 'feed', sheetUrl: SHEET_URL, rows: [] },
    ]);
    expect(bobSaved.feeds[0]._id).not.toBe(id);
    expect(bobSaved.feeds[0].rows).toEqual([]);
    expect((await t.request('GET', clientPath(name), { token: alice.token })).body.feeds).toEqual(
      first.feeds,
    );
  });
});
