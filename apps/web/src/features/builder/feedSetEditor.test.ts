import { describe, expect, it, vi } from 'vitest';
import type { Feed } from '@adloom/engine';
import { FEED_MAX_ROWS } from '@adloom/contract';
import { ApiError } from '../../api/errors.ts';
import {
  AUTOSAVE_INTERVAL_MS,
  DRAFT_DELAY_MS,
  createMemoryDraftStorage,
} from '../../state/revisionedSet/index.ts';
import { draftFeeds, type FeedSetDraft } from '../drafts/drafts.ts';
import { FeedSetEditor, type FeedSetTarget } from './feedSetEditor.ts';

/** The real setTimeout (tests fake timers, and a background draft write waits on real tasks). */
const realSetTimeout = globalThis.setTimeout;
function waitRealMs(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}

function feed(name: string, roots: string[], extra: Partial<Feed> = {}): Feed {
  return {
    name,
    dataType: 'table',
    sheetUrl: '',
    rows: roots.map((root, i) => ({
      id: `${name}-${i}`,
      root,
      mod: '',
      var1: '',
      var2: '',
      var3: '',
      url: '',
    })),
    ...extra,
  };
}

/** An in-memory server for one feed set, with revisions as the real one keeps them. */
function createServer(initial: Feed[]) {
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
      server.feeds = feeds.map((f, i) => ({ ...structuredClone(f), _id: `id-${i}` }));
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

function setup(initial: Feed[] = [feed('brands', ['nike', 'puma'])]) {
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
      feed('brands', ['nike']),
      feed('cities', ['paris']),
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

  it('keeps edits of a feed switched away from', async () => {
    const { editor, server, target } = setup([feed('a', ['1']), feed('b', ['2'])]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'a' });
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'one');
    editor.selectFeed('b');
    expect(editor.store.getCell(editor.store.getSlotAt(0), 0)).toBe('2');
    editor.selectFeed('a');
    expect(editor.store.getCell(editor.store.getSlotAt(0), 0)).toBe('one');
    expect(editor.collectFeeds().map((f) => f.rows[0]!.root)).toEqual(['one', '2']);
  });

  it('adds feeds with unique names, copies without the server id, removes', async () => {
    const { editor, server, target } = setup([feed('brands', ['x'], { _id: 'srv-1' })]);
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

  it('sends linked feeds without rows', async () => {
    const { editor, server, target } = setup([
      feed('sheet', ['a'], { sheetUrl: 'https://docs.google.com/spreadsheets/d/x' }),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 });
    expect(editor.collectFeeds()[0]!.rows).toEqual([]);
  });

  it('turns a 409 into a conflict: load theirs, or overwrite with mine', async () => {
    const { editor, server, target } = setup();
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    server.revision = 5;
    server.feeds = [feed('brands', ['theirs'])];
    editor.store.setCell(editor.store.getSlotAt(0), 0, 'mine');
    expect(await editor.save()).toBe('conflict');
    expect(editor.state.get().conflict?.revision).toBe(5);
    expect(editor.state.get().isDirty).toBe(true);

    expect(await editor.resolveConflict('mine')).toBe('saved');
    expect(server.saves.at(-1)!.revision).toBe(5);
    expect(server.feeds[0]!.rows[0]!.root).toBe('mine');

    server.revision = 9;
    server.feeds = [feed('brands', ['newest'])];
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
    const { editor, server, target, notices } = setup([feed('big', [])]);
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
      feed('brands', ['nike', 'puma']),
      feed('cities', ['par\tis', '', 'lyon 😀']),
    ]);
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.store.paste(1, 0, [
      ['tab\there', 'new\nline', '', '🇫🇷👍🏽', '|;\u001f', 'https://x.test/?a=1'],
      [],
      ['', '', '', '', '', ''],
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
    await drafts.put(draftOf(target, [feed('brands', ['old', 'format'])]));
    await editor.open(target, { feeds: server.feeds, revision: 1 }, { activeFeed: 'brands' });
    editor.restoreDraft();
    expect(editor.collectFeeds()).toEqual([feed('brands', ['old', 'format'])]);
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
    const { server, target } = createServer([feed('big', roots)]);
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
