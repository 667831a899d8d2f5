import { describe, expect, it } from 'vitest';
import { TrackedFeedStore } from './trackedFeedStore.ts';

function loaded(): TrackedFeedStore {
  const store = new TrackedFeedStore();
  store.load([
    { root: 'a', mod: 'x' },
    { root: 'b', mod: 'y' },
  ]);
  return store;
}

describe('TrackedFeedStore', () => {
  it('does not count loading, selection or filtering as changes', async () => {
    const store = loaded();
    store.setSelected(store.getSlotAt(0), true);
    store.selectAllShown();
    store.clearSelection();
    await store.setFilter('a');
    expect(store.dataChanges).toBe(0);
  });

  it('counts edits, pastes, added and deleted rows, undo and redo', () => {
    const store = loaded();
    store.setCell(store.getSlotAt(0), 0, 'a');
    expect(store.dataChanges).toBe(0);
    store.setCell(store.getSlotAt(0), 0, 'changed');
    expect(store.dataChanges).toBe(1);
    store.paste(0, 0, [['p', 'q']]);
    store.addRow();
    store.deleteRow(store.getSlotAt(2));
    expect(store.dataChanges).toBe(4);
    store.deleteSelected();
    expect(store.dataChanges).toBe(4);
    store.setSelected(store.getSlotAt(0), true);
    store.deleteSelected();
    expect(store.dataChanges).toBe(5);
    store.undo();
    store.redo();
    expect(store.dataChanges).toBe(7);
  });

  it('counts selection changes, loads and edits as row changes, not filtering', async () => {
    const store = loaded();
    const changes = () => store.rowsChanges;
    let last = changes();
    const moved = () => {
      const now = changes();
      const hasMoved = now !== last;
      last = now;
      return hasMoved;
    };
    await store.setFilter('a');
    expect(moved()).toBe(false);
    store.setSelected(store.getSlotAt(0), true);
    expect(moved()).toBe(true);
    store.setSelected(store.getSlotAt(0), true);
    expect(moved()).toBe(false);
    store.clearSelection();
    expect(moved()).toBe(true);
    store.clearSelection();
    expect(moved()).toBe(false);
    store.selectAllShown();
    expect(moved()).toBe(true);
    store.setCell(store.getSlotAt(1), 1, 'z');
    expect(moved()).toBe(true);
    store.load([{ root: 'c' }]);
    expect(moved()).toBe(true);
  });

  it('counts a change before listeners hear of it', () => {
    const store = loaded();
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.dataChanges));
    store.addRow();
    expect(seen).toEqual([1]);
  });

  it('appends feed rows as one undoable step, replacing a blank feed', () => {
    const store = new TrackedFeedStore();
    store.load([{ root: '' }]);
    expect(store.appendFeedRows([{ root: '  shoes ' }, { root: 'boots', url: 'https://x' }])).toBe(
      2,
    );
    expect(store.rowCount).toBe(2);
    expect(store.getCell(store.getSlotAt(0), 0)).toBe('shoes');
    expect(store.dataChanges).toBe(1);
    store.undo();
    expect(store.rowCount).toBe(1);
  });
});
