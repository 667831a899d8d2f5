import { describe, expect, it, vi } from 'vitest';
import type { Feed } from '@adloom/engine';
import { FEED_MAX_ROWS, type SheetSync, type StoredFeed } from '@adloom/contract';
import { ApiError } from '../../api/errors.ts';
import {
  AUTOSAVE_INTERVAL_MS,
  DRAFT_DELAY_MS,
  createMemoryDraftStorage,
} from '../../state/revisionedSet/index.ts';
import { draftFeeds, type FeedSetDraft } from '../drafts/drafts.ts';
import { FeedSetEditor, type FeedSetTarget } from './feedSetEditor.ts';
import { storedFeed } from './testFeeds.ts';

/** The real setTimeout (tests fake timers, and a background draft write waits on real tasks). */
const realSetTimeout = globalThis.setTimeout;
function waitRealMs(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}

const SHEET_URL = 'https://docs.google.com/spreadsheets/d/abcdefghijkl/edit';
const READ: SheetSync = { at: '2026-11-26T10:00:00.000Z', direction: 'read', rows: 1 };

/**
 * An in-memory server for one feed set, with revisions as the real one keeps them, and its
 * rule for linked feeds: one sent with empty rows keeps its stored copy; one sent with rows
 * before its first sync has them kept as its copy.
 */
function createServer(initial: StoredFeed[]) {
  const server = {
    feeds: structuredClone(initial),
    revision: 1,
    saves: [] as { feeds: Feed[]; revision: number | undefined }[],
    failWith: null as ApiError | null,
  };
  const target: FeedSetTarget = {
    key: 'user-1|client|Acme',
    name: 'Acme',
    savedMessage: 'Feeds successfully updated',
    save(feeds, revision) {
      server.saves.push({ feeds: structuredClone(feeds), revision });
      if (server.failWith) return Promise.reject(server.failWith);
      if (revision !== undefined && revision !== server.revision)
        return Promise.reject(new ApiError({ status: 409, path: '/api/app/feeds', message: 'x' }));
      server.revision += 1;
      server.feeds = feeds.map((f, i) => {
        const stored = server.feeds.find((s) => s.name === f.name);
        const sent: StoredFeed = { ...structuredClone(f), _id: `id-${i}` };
        if (!f.sheetUrl) return sent;
        if (stored?.sheetSync) return { ...sent, rows: stored.rows, sheetSync: stored.sheetSync };
        if (f.rows.length === 0) return { ...sent, rows: stored?.rows ?? [] };
        return { ...sent, sheetSync: { at: 'T1', direction: 'kept', rows: f.rows.length } };
      });
      return Promise.resolve({ feeds: structuredClone(server.feeds), revision: server.revision });
    },
    load: () =>
      Promise.resolve({ feeds: structuredClone(server.feeds), revision: server.revision }),
  };
  return { server, target };
}

/** A draft of the Acme set on revision 1, with the brands feed active. */
function draftOf(target: FeedSetTarget, feeds: FeedSetDraft['feeds']): FeedSetDraft {
  return {
    key: target.key,
    userId: 'user-1',
    name: 'Acme',
    baseRevision: 1,
    savedAt: 5,
    activeFeed: 'brands',
    feeds,
  };
}

function setup(initial: Feed[] = [storedFeed('brands', ['nike', 'puma'])]) {
  vi.useFakeTimers();
  const drafts = createMemoryDraftStorage<FeedSetDraft>();
  const notices: string[] = [];
  const unauthorized: ApiError[] = [];
  const editor = new FeedSetEditor({
    drafts,
    notify: (kind, message) => notices.push(`${kind}: ${message}`),
    onUnauthorized: (error) => unauthorized.push(error),
  });
  const { server, target } = createServer(initial);
  return { editor, drafts, notices, unauthorized, server, target };
}

describe('FeedSetEditor', () => {
  it('opens a set, shows the chosen feed and tracks edits as unsaved', async () => {
    const { editor, server, target } = setup();
    await editor.open(
      target,
      { feeds: server.feeds, revision: server.revision },
      {
        activeFeed: 'brands',
      },
    );
    expect(editor.state.get().activeFeed).toBe('brands');
    expect(editor.store.rowCount).toBe(2);
    expect(editor.state.get().isDirty).toBe(false);
    editor.store.setSelected(editor.store.getSlotAt(0), true);
    expect(editor.state.get().isDirty).toBe(false);
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'adidas');
    expect(editor.state.get().isDirty).toBe(true);
  });

  it('saves every feed against the loaded revision and becomes clean', async () => {
    const { editor, server, target, notices, drafts } = setup([
      storedFeed('brands', ['nike']),
      storedFeed('cities', ['paris']),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.paste(0, 0, [['reebok'], ['asics']]);
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    expect(drafts.size).toBe(1);
    expect(await editor.save()).toBe('saved');
    expect(server.saves[0]!.revision).toBe(1);
    expect(server.feeds.map((f) => f.rows.map((r) => r.root))).toEqual([
      ['reebok', 'asics'],
      ['paris'],
    ]);
    expect(editor.state.get()).toMatchObject({ isDirty: false, revision: 2 });
    expect(editor.state.get().feeds[0]!._id).toBe('id-0');
    expect(notices).toEqual(['success: Feeds successfully updated']);
    expect(drafts.size).toBe(0);
  });

  it("says saved only once the browser's draft is gone (leaving then finds nothing to offer)", async () => {
    const { editor, server, target, drafts } = setup();
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.setCell(editor.store.getSlotAt(0), 1, 'shoes');
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    expect(drafts.size).toBe(1);
    const remove = drafts.remove.bind(drafts);
    let release = (): void => undefined;
    drafts.remove = (key) =>
      new Promise<void>((resolve) => {
        release = () => void remove(key).then(resolve);
      });
    const saving = editor.save();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.revision).toBe(2);
    expect(editor.state.get()).toMatchObject({ isDirty: false, isSaving: true, revision: 2 });
    release();
    expect(await saving).toBe('saved');
    expect(editor.state.get()).toMatchObject({ isDirty: false, isSaving: false });
    expect(drafts.size).toBe(0);
  });

  it('keeps edits of a feed switched away from', async () => {
    const { editor, server, target } = setup([storedFeed('a', ['1']), storedFeed('b', ['2'])]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'a' });
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'one');
    editor.selectFeed('b');
    expect(editor.store.getCell(editor.store.getSlotAt(0), 0)).toBe('2');
    editor.selectFeed('a');
    expect(editor.store.getCell(editor.store.getSlotAt(0), 0)).toBe('one');
    expect(editor.collectFeeds().map((f) => f.rows[0]!.root)).toEqual(['one', '2']);
  });

  it('adds feeds with unique names, copies without the server id, removes', async () => {
    const { editor, server, target } = setup([storedFeed('brands', ['x'], { _id: 'srv-1' })]);
    await editor.open(target, { feeds: server.feeds, revision: 1 });
    expect(editor.addFeed('brands')).toBe('brands (1)');
    expect(editor.state.get().activeFeed).toBe('brands (1)');
    expect(editor.store.rowCount).toBe(1);
    expect(editor.copyFeed('brands')).toBe('brands (2)');
    const copy = editor.collectFeeds().find((f) => f.name === 'brands (2)')!;
    expect(copy._id).toBeUndefined();
    expect(copy.rows[0]!.root).toBe('x');
    editor.removeFeed('brands (2)');
    expect(editor.state.get().activeFeed).toBeNull();
    expect(editor.state.get().feeds.map((f) => f.name)).toEqual(['brands', 'brands (1)']);
  });

  it('adds a feed holding given rows: unique name, fresh row ids, active, unsaved until saved', async () => {
    const { editor, server, target } = setup([storedFeed('Berlin', ['x'])]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'Berlin' });
    const name = editor.addFeedWithRows(' Berlin ', [
      { root: '1003854', mod: 'Berlin' },
      {
        root: '9041100',
        mod: 'Berlin Brandenburg Airport',
        url: 'https://example.com',
        status: 'paused',
      },
    ]);
    expect(name).toBe('Berlin (1)');
    expect(editor.state.get()).toMatchObject({ activeFeed: 'Berlin (1)', isDirty: true });
    expect(editor.store.rowCount).toBe(2);
    expect(editor.store.getCell(editor.store.getSlotAt(1), 1)).toBe('Berlin Brandenburg Airport');
    const added = editor.collectFeeds().find((f) => f.name === 'Berlin (1)')!;
    expect(added).toMatchObject({ dataType: 'table', sheetUrl: '' });
    expect(added.rows.map(({ id: _id, ...cells }) => cells)).toEqual([
      { root: '1003854', mod: 'Berlin', var1: '', var2: '', var3: '', url: '', status: '' },
      {
        root: '9041100',
        mod: 'Berlin Brandenburg Airport',
        var1: '',
        var2: '',
        var3: '',
        url: 'https://example.com',
        status: 'paused',
      },
    ]);
    const ids = editor.collectFeeds().flatMap((f) => f.rows.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(await editor.save()).toBe('saved');
    expect(server.feeds.map((f) => [f.name, f.rows.length])).toEqual([
      ['Berlin', 1],
      ['Berlin (1)', 2],
    ]);
  });

  it('sends a synced linked feed without rows, and shows its kept copy', async () => {
    const { editor, server, target } = setup([
      storedFeed('sheet', ['a', 'b'], { sheetUrl: SHEET_URL, sheetSync: READ }),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'sheet' });
    expect(editor.store.rowCount).toBe(2);
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'edited');
    const sent = editor.collectFeeds()[0]!;
    expect(sent.rows).toEqual([]);
    expect(sent).not.toHaveProperty('sheetSync');
    expect(await editor.save()).toBe('saved');
    expect(server.feeds[0]!.rows.map((row) => row.root)).toEqual(['a', 'b']);
  });

  it("sends a linked feed's rows until its first sync, so the server keeps them", async () => {
    const { editor, server, target } = setup([
      storedFeed('imported', ['x', 'y'], { sheetUrl: SHEET_URL }),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 });
    expect(editor.collectFeeds()[0]!.rows.map((row) => row.root)).toEqual(['x', 'y']);
    editor.addFeed('other');
    expect(await editor.save()).toBe('saved');
    expect(server.feeds[0]!.rows).toHaveLength(2);
    // The server recorded them as the copy: from now on a save sends none.
    expect(editor.findFeed('imported')?.sheetSync?.direction).toBe('kept');
    expect(editor.collectFeeds()[0]!.rows).toEqual([]);
  });

  it("takes the rows read from a sheet as the server's copy: shown, not unsaved", async () => {
    const { editor, server, target } = setup([
      storedFeed('sheet', ['old'], { sheetUrl: SHEET_URL, sheetSync: READ, sheetName: 'Old' }),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'sheet' });
    const sync: SheetSync = { at: '2026-11-26T11:00:00.000Z', direction: 'read', rows: 2 };
    editor.applySheetSync('sheet', { sheetName: 'Prices', sheetSync: sync }, [
      ...storedFeed('x', ['new 1', 'new 2']).rows,
    ]);
    expect(editor.store.rowCount).toBe(2);
    expect(editor.store.getCell(editor.store.getSlotAt(1), 0)).toBe('new 2');
    expect(editor.state.get().isDirty).toBe(false);
    expect(editor.findFeed('sheet')).toMatchObject({ sheetName: 'Prices', sheetSync: sync });
    // Another feed's rows are kept for when it is chosen.
    editor.selectFeed(null);
    expect(editor.getFeedRows('sheet').map((row) => row.root)).toEqual(['new 1', 'new 2']);
    editor.applySheetSync('gone', { sheetName: 'x', sheetSync: sync }, []);
    expect(editor.findFeed('gone')).toBeUndefined();
  });

  it('knows which feeds hold edits a download would replace, until rows move to or from the sheet', async () => {
    const { editor, server, target } = setup([
      storedFeed('sheet', ['a'], { sheetUrl: SHEET_URL, sheetSync: READ }),
      storedFeed('other', ['b']),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'sheet' });
    expect(editor.hasEditedRows('sheet')).toBe(false);
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'edited');
    expect(editor.hasEditedRows('sheet')).toBe(true);
    editor.selectFeed('other');
    expect(editor.hasEditedRows('sheet')).toBe(true);
    expect(editor.hasEditedRows('other')).toBe(false);
    // Uploaded: the sheet holds the edits now.
    editor.applySheetSync('sheet', {
      sheetName: 'S',
      sheetSync: { ...READ, direction: 'written' },
    });
    expect(editor.hasEditedRows('sheet')).toBe(false);
    editor.selectFeed('sheet');
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'again');
    editor.applySheetSync('sheet', { sheetName: 'S', sheetSync: READ });
    expect(editor.hasEditedRows('sheet')).toBe(false);
    expect(editor.getFeedRows('sheet')[0]!.root).toBe('again');
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'third');
    editor.applySheetSync(
      'sheet',
      { sheetName: 'S', sheetSync: READ },
      storedFeed('x', ['read']).rows,
    );
    expect(editor.hasEditedRows('sheet')).toBe(false);
    expect(editor.store.getCell(editor.store.getSlotAt(0), 0)).toBe('read');
  });

  it("links a feed as an edit, and a cleared link keeps the rows as the feed's own", async () => {
    const { editor, server, target } = setup([storedFeed('brands', ['nike', 'puma'])]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.setSheetLink('brands', { sheetUrl: SHEET_URL, sheetName: 'Brands', sheetSync: READ });
    expect(editor.state.get().isDirty).toBe(true);
    expect(editor.collectFeeds()[0]).toMatchObject({ sheetUrl: SHEET_URL, rows: [] });
    editor.setSheetLink('brands', { sheetUrl: '', sheetName: '' });
    const cleared = editor.collectFeeds()[0]!;
    expect(cleared).toMatchObject({ sheetUrl: '', sheetName: '' });
    expect(cleared.rows.map((row) => row.root)).toEqual(['nike', 'puma']);
    expect(editor.findFeed('brands')).not.toHaveProperty('sheetSync');
  });

  it('copies a linked feed as a feed whose rows are saved (it has no copy of its own yet)', async () => {
    const { editor, server, target } = setup([
      storedFeed('sheet', ['a'], { sheetUrl: SHEET_URL, sheetSync: READ, _id: 'id-0' }),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 });
    const name = editor.copyFeed('sheet')!;
    const copy = editor.collectFeeds().find((f) => f.name === name)!;
    expect(copy).toMatchObject({ sheetUrl: SHEET_URL, rows: [{ root: 'a' }] });
    expect(copy._id).toBeUndefined();
  });

  it('restores a draft without losing the copy of a synced linked feed', async () => {
    const { editor, server, target, drafts } = setup([
      storedFeed('brands', ['nike']),
      storedFeed('sheet', ['a', 'b'], { sheetUrl: SHEET_URL, sheetSync: READ }),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'adidas');
    await editor.flushDraft();
    editor.close();

    const again = new FeedSetEditor({ drafts, notify: () => {}, onUnauthorized: () => {} });
    await again.open(target, { feeds: server.feeds, revision: 1 });
    again.restoreDraft();
    expect(again.getFeedRows('brands')[0]!.root).toBe('adidas');
    expect(again.getFeedRows('sheet').map((row) => row.root)).toEqual(['a', 'b']);
  });

  it('turns a 409 into a conflict: load theirs, or overwrite with mine', async () => {
    const { editor, server, target } = setup();
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    server.revision = 5;
    server.feeds = [storedFeed('brands', ['theirs'])];
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'mine');
    expect(await editor.save()).toBe('conflict');
    expect(editor.state.get().conflict?.revision).toBe(5);
    expect(editor.state.get().isDirty).toBe(true);

    expect(await editor.resolveConflict('mine')).toBe('saved');
    expect(server.saves.at(-1)!.revision).toBe(5);
    expect(server.feeds[0]!.rows[0]!.root).toBe('mine');

    server.revision = 9;
    server.feeds = [storedFeed('brands', ['newest'])];
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'again');
    expect(await editor.save()).toBe('conflict');
    expect(await editor.resolveConflict('theirs')).toBe('loaded');
    expect(editor.store.getCell(editor.store.getSlotAt(0), 0)).toBe('newest');
    expect(editor.state.get()).toMatchObject({ isDirty: false, revision: 9, conflict: null });
  });

  it('keeps every edit when a save fails, and says so with the spec text', async () => {
    const { editor, server, target, notices, drafts } = setup();
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'kept');
    server.failWith = new ApiError({
      status: 413,
      path: '/api/app/feeds',
      message: 'The request body is larger than the limit of 64 MB.',
    });
    expect(await editor.save()).toBe('failed');
    expect(notices).toEqual([
      'error: There was a problem saving your data: The request body is larger than the limit of 64 MB.',
    ]);
    expect(editor.state.get().isDirty).toBe(true);
    expect(editor.store.getCell(editor.store.getSlotAt(0), 0)).toBe('kept');
    await vi.runOnlyPendingTimersAsync();
    const kept = await drafts.find(target.key);
    expect(kept && draftFeeds(kept)[0]!.rows[0]!.root).toBe('kept');
  });

  it("uses the target's failure text, told whether the save was an autosave", async () => {
    const { editor, server, target, notices } = setup();
    const saveFailedMessage = (error: string, isAutosave: boolean) =>
      `${isAutosave ? 'Unable to save data' : 'Unable to save feed'}: ${error}`;
    await editor.open(
      { ...target, saveFailedMessage },
      { feeds: server.feeds, revision: 1 },
      { activeFeed: 'brands' },
    );
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'kept');
    server.failWith = new ApiError({ status: 429, path: '/api/app/feeds', message: 'Slow down' });
    expect(await editor.save()).toBe('failed');
    expect(await editor.save({ isAutosave: true })).toBe('failed');
    expect(notices).toEqual([
      'error: Unable to save feed: Slow down',
      'error: Unable to save data: Slow down',
    ]);
    expect(editor.state.get().isDirty).toBe(true);
  });

  it('refuses a feed over the server row limit before sending it', async () => {
    const { editor, server, target, notices } = setup([storedFeed('big', [])]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'big' });
    editor.appendRows(Array.from({ length: FEED_MAX_ROWS + 1 }, (_, i) => ({ root: `r${i}` })));
    expect(await editor.save()).toBe('refused');
    expect(server.saves).toHaveLength(0);
    expect(notices[0]).toContain('250,001 rows');
  });

  it('hands a 401 to the generic handler', async () => {
    const { editor, server, target, unauthorized } = setup();
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    server.failWith = new ApiError({ status: 401, path: '/api/app/feeds', message: 'no' });
    expect(await editor.save()).toBe('failed');
    expect(unauthorized).toHaveLength(1);
  });

  it('keeps a draft by column and restores the same rows, ids and awkward cells included', async () => {
    const { editor, server, target, drafts } = setup([
      storedFeed('brands', ['nike', 'puma']),
      storedFeed('cities', ['par\tis', '', 'lyon 😀']),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.paste(1, 0, [
      ['tab\there', 'new\nline', '', '🇫🇷👍🏽', '|;\u001f', 'https://x.test/?a=1', 'Out_of_stock'],
      [],
      ['', '', '', '', '', '', ''],
    ]);
    editor.store.setCell(editor.store.getSlotAt(0), 5, 'https://nike.test');
    const edited = editor.collectFeeds();
    expect(edited[0]!.rows).toHaveLength(4);
    await editor.flushDraft();
    editor.close();

    const kept = await drafts.find(target.key);
    expect(kept!.feeds.map((f) => [f.rows, f.packed?.rowCount])).toEqual([
      [undefined, 4],
      [undefined, 3],
    ]);
    const again = new FeedSetEditor({ drafts, notify: () => {}, onUnauthorized: () => {} });
    await again.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'cities' });
    again.restoreDraft();
    expect(again.state.get().activeFeed).toBe('brands');
    expect(again.collectFeeds()).toEqual(edited);
  });

  it('writes the draft in the background after an edit and does not write it again unchanged', async () => {
    const { editor, server, target, drafts } = setup();
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.setCell(editor.store.getSlotAt(0), 1, 'shoes');
    expect(editor.state.get()).toMatchObject({ isDirty: true, isDraftKept: false });
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    const first = await drafts.find(target.key);
    expect(first && draftFeeds(first)[0]!.rows[0]!.mod).toBe('shoes');
    expect(editor.state.get().isDraftKept).toBe(true);
    await drafts.remove(target.key);
    await editor.flushDraft();
    expect(drafts.size).toBe(0);
    editor.store.setCell(editor.store.getSlotAt(0), 1, 'boots');
    expect(editor.state.get().isDraftKept).toBe(false);
    await editor.flushDraft();
    const second = await drafts.find(target.key);
    expect(second && draftFeeds(second)[0]!.rows[0]!.mod).toBe('boots');
    expect(editor.state.get().isDraftKept).toBe(true);
  });

  it('restores a draft kept with row objects (written before drafts were packed)', async () => {
    const { editor, server, target, drafts } = setup();
    await drafts.put(draftOf(target, [storedFeed('brands', ['old', 'format'])]));
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.restoreDraft();
    expect(editor.collectFeeds()).toEqual([storedFeed('brands', ['old', 'format'])]);
    expect(editor.state.get().isDirty).toBe(true);
  });

  it('says so when a kept draft cannot be read', async () => {
    const { editor, server, target, drafts, notices } = setup();
    await drafts.put(
      draftOf(target, [
        {
          name: 'brands',
          dataType: 'table',
          sheetUrl: '',
          packed: { rowCount: 2, blockRows: [1], text: [], lengths: [] },
        },
      ]),
    );
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.restoreDraft();
    expect(notices).toEqual(['error: The changes kept in this browser could not be read.']);
    expect(editor.collectFeeds()).toEqual(server.feeds);
    expect(editor.state.get()).toMatchObject({ isDirty: false, draftOffer: null });
  });

  it('stops a background draft write when an edit or a save comes in meanwhile', async () => {
    vi.useFakeTimers();
    const drafts = createMemoryDraftStorage<FeedSetDraft>();
    let clock = 0;
    // Every look at the clock is 100 ms later: the write yields to the page after each block.
    const editor = new FeedSetEditor({
      drafts,
      notify: () => {},
      onUnauthorized: () => {},
      now: () => (clock += 100),
    });
    const roots = Array.from({ length: 40_000 }, (_, i) => `r${i}`);
    const { server, target } = createServer([storedFeed('big', roots)]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'big' });

    editor.store.setCell(editor.store.getSlotAt(0), 0, 'first');
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'second');
    await waitRealMs(50);
    expect(drafts.size).toBe(0);
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    await vi.waitFor(() => expect(drafts.size).toBe(1));
    const kept = await drafts.find(target.key);
    const rows = draftFeeds(kept!)[0]!.rows;
    expect(rows).toHaveLength(40_000);
    expect([rows[0]!.root, rows[39_999]!.root, rows[39_999]!.id]).toEqual([
      'second',
      'r39999',
      'big-39999',
    ]);

    editor.store.setCell(editor.store.getSlotAt(0), 0, 'third');
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    expect(await editor.save()).toBe('saved');
    await waitRealMs(50);
    expect(drafts.size).toBe(0);
  });

  it('offers a draft on return and restores it on its base revision', async () => {
    const { editor, server, target, drafts } = setup();
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.setCell(editor.store.getSlotAt(1), 0, 'unsaved');
    await editor.flushDraft();
    editor.close();

    const again = new FeedSetEditor({ drafts, notify: () => {}, onUnauthorized: () => {} });
    await again.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    expect(again.state.get().draftOffer).toMatchObject({ isBehind: false });
    again.restoreDraft();
    expect(again.store.getCell(again.store.getSlotAt(1), 0)).toBe('unsaved');
    expect(again.state.get()).toMatchObject({ isDirty: true, revision: 1, draftOffer: null });

    const third = new FeedSetEditor({ drafts, notify: () => {}, onUnauthorized: () => {} });
    await third.open(target, { feeds: server.feeds, revision: 3 });
    expect(third.state.get().draftOffer).toMatchObject({ isBehind: true });
    await third.discardDraft();
    expect(drafts.size).toBe(0);
  });

  it('drops, without offering it, a draft kept while a save that reached the server was on its way', async () => {
    const { editor, server, target, drafts } = setup();
    // The save reaches the server, whose answer comes after the page was left.
    let answer = () => {};
    const slowTarget: FeedSetTarget = {
      ...target,
      save: (feeds, revision) => {
        const saved = target.save(feeds, revision);
        return new Promise((resolve) => {
          answer = () => resolve(saved);
        });
      },
    };
    await editor.open(slowTarget, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.setCell(editor.store.getSlotAt(1), 0, 'edited');
    editor.addFeed('colours');
    const saving = editor.save();
    // Leaving the page writes the draft of the edits, on revision 1.
    await editor.flushDraft();
    editor.close();
    answer();
    await saving;
    expect(server.revision).toBe(2);
    expect(drafts.size).toBe(1);

    const again = new FeedSetEditor({ drafts, notify: () => {}, onUnauthorized: () => {} });
    await again.open(target, { feeds: server.feeds, revision: 2 }, { activeFeed: 'brands' });
    expect(again.state.get().draftOffer).toBeNull();
    expect(drafts.size).toBe(0);

    // A draft that differs from what was saved is still offered.
    const edited = new FeedSetEditor({ drafts, notify: () => {}, onUnauthorized: () => {} });
    await edited.open(target, { feeds: server.feeds, revision: 2 }, { activeFeed: 'brands' });
    edited.store.setCell(edited.store.getSlotAt(1), 0, 'edited again');
    await edited.flushDraft();
    edited.close();
    const last = new FeedSetEditor({ drafts, notify: () => {}, onUnauthorized: () => {} });
    await last.open(target, { feeds: server.feeds, revision: 2 }, { activeFeed: 'brands' });
    expect(last.state.get().draftOffer).toMatchObject({ isBehind: false });
  });

  it('autosaves unsaved edits every 5 minutes, quietly', async () => {
    const { editor, server, target, notices } = setup();
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.startAutosave();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_INTERVAL_MS);
    expect(server.saves).toHaveLength(0);
    editor.store.addRow();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_INTERVAL_MS);
    expect(server.saves).toHaveLength(1);
    expect(editor.state.get().isDirty).toBe(false);
    expect(notices).toEqual([]);
    editor.dispose();
  });
});
