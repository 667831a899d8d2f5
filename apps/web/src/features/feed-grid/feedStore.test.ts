import { describe, expect, it } from 'vitest';
import { encodeColumnChunk } from './columnChunk.ts';
import { FeedStore } from './feedStore.ts';
import { storeWithRows } from './testing/storeWithRows.ts';

function makeStore(rows: string[][] = []): FeedStore {
  let n = 0;
  return storeWithRows(rows, () => `id${(n += 1)}`);
}

function shownRoots(store: FeedStore): string[] {
  const out: string[] = [];
  for (let i = 0; i < store.viewCount; i += 1) out.push(store.getCell(store.getViewSlot(i), 0));
  return out;
}

describe('FeedStore', () => {
  it('loads rows, normalizing cells to 30 characters; a URL stays whole', () => {
    const store = makeStore([
      ['  shoes  ', 'x'.repeat(40), '', '', '', `https://a.test/${'p'.repeat(3000)}`],
    ]);
    const slot = store.getViewSlot(0);
    expect(store.getCell(slot, 0)).toBe('shoes');
    expect(store.getCell(slot, 1)).toBe('x'.repeat(30));
    expect(store.getCell(slot, 5)).toBe(`https://a.test/${'p'.repeat(3000)}`);
    expect(store.rowCount).toBe(1);
    expect(store.toFeedRows()[0]).toMatchObject({ id: 'id1', root: 'shoes' });
  });

  it('loads cells with other whitespace or non-ASCII ends as the engine normalizes them', () => {
    const store = makeStore([['\u00a0café\u3000', '\tboots', 'größe', 'é'.repeat(31)]]);
    const slot = store.getViewSlot(0);
    expect(store.getCell(slot, 0)).toBe('café');
    expect(store.getCell(slot, 1)).toBe('boots');
    expect(store.getCell(slot, 2)).toBe('größe');
    expect(store.getCell(slot, 3)).toBe('é'.repeat(30));
  });

  it('makes each row without an id one unique, stable id, and forgets ids of aborted rows', () => {
    const store = new FeedStore();
    store.load([{ id: 'server-1', root: 'a' }, { root: 'b' }]);
    const bulk = store.beginBulkAppend();
    bulk.addRows([['c'], ['d']]);
    bulk.commit();
    const first = store.toFeedRows().map((row) => row.id);
    expect(first[0]).toBe('server-1');
    expect(new Set(first).size).toBe(4);
    expect(store.toFeedRows().map((row) => row.id)).toEqual(first);
    const aborted = store.beginBulkAppend();
    aborted.addRows([['e']]);
    const slot = store.getSlotAt(3) + 1;
    const abortedId = store.getRowId(slot);
    expect(abortedId).toMatch(/^row-/);
    aborted.abort();
    const later = store.beginBulkAppend();
    later.addRows([['f']]);
    later.commit();
    const ids = store.toFeedRows().map((row) => row.id);
    expect(ids.slice(0, 4)).toEqual(first);
    expect(new Set(ids).size).toBe(5);
    expect(ids[4]).not.toBe(abortedId);
  });

  it('keeps ids rows were loaded with', () => {
    const store = new FeedStore();
    store.load([{ id: 'server-1', root: 'a' }]);
    expect(store.toFeedRows()[0]!.id).toBe('server-1');
  });

  it('edits a cell and undoes and redoes it, bumping the version', () => {
    const store = makeStore([['a'], ['b']]);
    const v = store.getVersion();
    const slot = store.getViewSlot(1);
    expect(store.setCell(slot, 2, '  red  ')).toBe('red');
    expect(store.getVersion()).toBeGreaterThan(v);
    expect(store.undo()).toBe('edit');
    expect(store.getCell(slot, 2)).toBe('');
    expect(store.redo()).toBe('edit');
    expect(store.getCell(slot, 2)).toBe('red');
    expect(store.setCell(slot, 2, 'red ')).toBe('red');
    store.undo();
    expect(store.getCell(slot, 2)).toBe('');
  });

  it('adds a row at the end and undo removes it', () => {
    const store = makeStore([['a']]);
    expect(store.addRow()).toBe(1);
    expect(store.rowCount).toBe(2);
    store.undo();
    expect(store.rowCount).toBe(1);
    store.redo();
    expect(store.rowCount).toBe(2);
  });

  it('counts the rows a paste wrote over values they held, not blank rows or unchanged cells', () => {
    const store = makeStore([['a', 'x'], [''], ['c', 'same'], ['d']]);
    const result = store.paste(0, 1, [['y'], ['new'], ['same'], ['e'], ['added']]);
    expect(result).toEqual({ changedCells: 3, addedRows: 1, replacedRows: 1 });
    const again = store.paste(0, 0, [['A'], ['B'], ['C']]);
    expect(again.replacedRows).toBe(2);
  });

  it('pastes a block at a cell, adding rows, as one undoable step', () => {
    const store = makeStore([['a'], ['b']]);
    const result = store.paste(1, 1, [
      ['m1', 'v1'],
      ['m2', 'v2', '', '', 'https://x.test', 'paused', 'dropped'],
      ['m3'],
    ]);
    expect(result).toEqual({ changedCells: 2, addedRows: 2, replacedRows: 0 });
    expect(store.rowCount).toBe(4);
    expect(store.getRowCells(store.getViewSlot(1))).toEqual(['b', 'm1', 'v1', '', '', '', '']);
    expect(store.getRowCells(store.getViewSlot(2))).toEqual([
      '',
      'm2',
      'v2',
      '',
      '',
      'https://x.test',
      'paused',
    ]);
    expect(store.undo()).toBe('rows');
    expect(store.rowCount).toBe(2);
    expect(store.getRowCells(store.getViewSlot(1))).toEqual(['b', '', '', '', '', '', '']);
    store.redo();
    expect(shownRoots(store)).toEqual(['a', 'b', '', '']);
    expect(store.getCell(store.getViewSlot(3), 1)).toBe('m3');
  });

  it('selects all in O(1), counts, and deletes everything with undo', () => {
    const store = makeStore([['a'], ['b'], ['c']]);
    store.selectAllShown();
    expect(store.selectedCount).toBe(3);
    expect(store.isAllShownSelected).toBe(true);
    store.setSelected(store.getViewSlot(1), false);
    expect(store.selectedCount).toBe(2);
    expect(store.isAllShownSelected).toBe(false);
    expect(store.deleteSelected()).toBe(2);
    expect(shownRoots(store)).toEqual(['b']);
    expect(store.selectedCount).toBe(0);
    store.undo();
    expect(shownRoots(store)).toEqual(['a', 'b', 'c']);
    store.selectAllShown();
    expect(store.deleteSelected()).toBe(3);
    expect(store.rowCount).toBe(0);
    expect(store.isAllShownSelected).toBe(false);
    store.undo();
    expect(shownRoots(store)).toEqual(['a', 'b', 'c']);
    store.redo();
    expect(store.rowCount).toBe(0);
  });

  it('does not select rows added after select all', () => {
    const store = makeStore([['a']]);
    store.selectAllShown();
    store.addRow();
    expect(store.selectedCount).toBe(1);
    expect(store.isSelected(store.getViewSlot(1))).toBe(false);
  });

  it('deletes one row and keeps the rest of the selection', () => {
    const store = makeStore([['a'], ['b'], ['c']]);
    store.setSelected(store.getViewSlot(0), true);
    store.setSelected(store.getViewSlot(2), true);
    store.deleteRow(store.getViewSlot(2));
    expect(shownRoots(store)).toEqual(['a', 'b']);
    expect(store.selectedCount).toBe(1);
    expect([...store.selectedRows()]).toEqual([['a', '', '', '', '', '', '']]);
  });

  it('selects and deselects a range of shown rows in one change, also after select all', async () => {
    const store = makeStore([['a'], ['b'], ['c'], ['d'], ['e']]);
    const before = store.getVersion();
    store.setRangeSelected(3, 1, true);
    expect(store.getVersion()).toBe(before + 1);
    expect([...store.selectedRows()].map((row) => row[0])).toEqual(['b', 'c', 'd']);
    store.setRangeSelected(2, 9, false);
    expect([...store.selectedRows()].map((row) => row[0])).toEqual(['b']);
    const unchanged = store.getVersion();
    store.setRangeSelected(3, 4, false);
    expect(store.getVersion()).toBe(unchanged);
    store.selectAllShown();
    store.setRangeSelected(0, 1, false);
    expect(store.selectedCount).toBe(3);
    await store.setFilter('e');
    store.setRangeSelected(0, 0, false);
    expect([...store.selectedRows()].map((row) => row[0])).toEqual(['c', 'd']);
  });

  it('filters case-insensitively; select all selects only what is shown', async () => {
    const store = makeStore([['Red shoes'], ['blue'], ['', 'RED'], ['green']]);
    await store.setFilter('red');
    expect(shownRoots(store)).toEqual(['Red shoes', '']);
    store.selectAllShown();
    expect(store.selectedCount).toBe(2);
    expect(store.isAllShownSelected).toBe(true);
    expect(store.deleteSelected()).toBe(2);
    expect(store.viewCount).toBe(0);
    await store.setFilter('');
    expect(shownRoots(store)).toEqual(['blue', 'green']);
  });

  it('keeps a row added under a filter visible', async () => {
    const store = makeStore([['red'], ['blue']]);
    await store.setFilter('red');
    expect(store.addRow()).toBe(1);
    expect(store.viewCount).toBe(2);
    expect(store.rowCount).toBe(3);
  });

  it("numbers shown rows by the feed's own order, under a filter, after deletes and undo", async () => {
    const store = makeStore([['a x'], ['b'], ['c x'], ['d'], ['e x']]);
    const numbers = () => Array.from({ length: store.viewCount }, (_, i) => store.getRowNumber(i));
    expect(numbers()).toEqual([1, 2, 3, 4, 5]);
    await store.setFilter('x');
    expect(numbers()).toEqual([1, 3, 5]);
    store.deleteRow(store.getSlotAt(1));
    expect(shownRoots(store)).toEqual(['a x', 'c x', 'e x']);
    expect(numbers()).toEqual([1, 2, 4]);
    store.undo();
    await store.whenFiltered();
    expect(numbers()).toEqual([1, 3, 5]);
    store.addRow();
    expect(numbers()).toEqual([1, 3, 5, 6]);
    const bulk = store.beginBulkAppend();
    bulk.addRows([['f x']]);
    bulk.commit();
    await store.whenFiltered();
    expect(store.getRowNumber(store.viewCount - 1)).toBe(7);
  });

  it('keeps a notice for the status line until the rows change under it (undo, redo, load)', () => {
    const store = makeStore([['a'], ['b']]);
    const notice = { kind: 'info', message: 'Deleted 1 row.' } as const;
    store.deleteRow(store.getSlotAt(0));
    store.announce(notice);
    expect(store.notice).toBe(notice);
    store.setCell(store.getSlotAt(0), 1, 'edited');
    expect(store.notice).toBe(notice);
    store.undo();
    expect(store.notice).toBeNull();
    store.announce(notice);
    store.redo();
    expect(store.notice).toBeNull();
    store.announce(notice);
    store.load([{ root: 'other feed' }]);
    expect(store.notice).toBeNull();
  });

  it('filters big feeds in slices and resolves with the result', async () => {
    const store = new FeedStore();
    const bulk = store.beginBulkAppend();
    const rows: string[][] = [];
    for (let i = 0; i < 60_000; i += 1) rows.push([`k${i}`, i % 3 === 0 ? 'hit' : 'miss']);
    bulk.addChunk(encodeColumnChunk(rows));
    bulk.commit();
    const done = store.setFilter('HIT');
    expect(store.isFiltering).toBe(true);
    await done;
    expect(store.isFiltering).toBe(false);
    expect(store.viewCount).toBe(20_000);
    expect(store.getCell(store.getViewSlot(1), 0)).toBe('k3');
  });

  it('appends chunks in bulk as one step, replacing a blank feed when asked', () => {
    const store = makeStore([['']]);
    const bulk = store.beginBulkAppend();
    bulk.addChunk(encodeColumnChunk([['a', 'b'], ['c']]));
    bulk.addRows([['d', '', '', '', '', 'u']]);
    expect(store.rowCount).toBe(1);
    expect(bulk.commit({ replaceBlankFeed: true })).toBe(3);
    expect(shownRoots(store)).toEqual(['a', 'c', 'd']);
    expect(store.getCell(store.getViewSlot(2), 5)).toBe('u');
    store.undo();
    expect(shownRoots(store)).toEqual(['']);
  });

  it('appends after existing rows and drops an aborted bulk', () => {
    const store = makeStore([['x']]);
    const aborted = store.beginBulkAppend();
    aborted.addRows([['no']]);
    aborted.abort();
    const bulk = store.beginBulkAppend();
    bulk.addRows([['y']]);
    bulk.commit({ replaceBlankFeed: true });
    expect(shownRoots(store)).toEqual(['x', 'y']);
    expect(() => bulk.addRows([['z']])).toThrow(/already finished/);
  });

  it('undoes a delete of most of a million rows by swapping order arrays', () => {
    const store = new FeedStore();
    const bulk = store.beginBulkAppend();
    const chunk = encodeColumnChunk([['a'], ['b']]);
    for (let i = 0; i < 500; i += 1) bulk.addChunk({ ...chunk, rowCount: 2 });
    bulk.commit();
    expect(store.rowCount).toBe(1000);
    store.selectAllShown();
    store.setSelected(store.getViewSlot(999), false);
    expect(store.deleteSelected()).toBe(999);
    expect(store.rowCount).toBe(1);
    expect(store.getCell(store.getViewSlot(0), 0)).toBe('b');
    store.undo();
    expect(store.rowCount).toBe(1000);
  });

  it('notifies subscribers and stops after unsubscribe', () => {
    const store = makeStore([['a']]);
    let calls = 0;
    const off = store.subscribe(() => (calls += 1));
    store.addRow();
    off();
    store.addRow();
    expect(calls).toBe(1);
  });

  it('caps the history at 100 steps', () => {
    const store = makeStore([['a']]);
    const slot = store.getViewSlot(0);
    for (let i = 0; i < 120; i += 1) store.setCell(slot, 0, `v${i}`);
    let undone = 0;
    while (store.undo()) undone += 1;
    expect(undone).toBe(100);
    expect(store.getCell(slot, 0)).toBe('v19');
  });
});
