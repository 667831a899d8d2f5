import { describe, expect, it } from 'vitest';
import { FeedStore } from './feedStore.ts';
import { formatStoreAsTsv } from './copyTable.ts';

describe('formatStoreAsTsv', () => {
  it('writes a header of the used columns, then the rows in order', () => {
    const store = new FeedStore();
    store.load([
      { root: 'shoes', mod: 'red' },
      { root: 'boots', mod: '', var2: 'x' },
    ]);
    expect(formatStoreAsTsv(store)).toBe('Root\tModifier\tVar 2\nshoes\tred\t\nboots\t\tx');
  });

  it('is empty for a feed without values', () => {
    const store = new FeedStore();
    store.load([{ root: '' }]);
    expect(formatStoreAsTsv(store)).toBe('');
  });

  it('leaves out deleted rows', () => {
    const store = new FeedStore();
    store.load([{ root: 'a' }, { root: 'b' }, { root: 'c' }]);
    store.deleteRow(store.getSlotAt(1));
    expect(formatStoreAsTsv(store)).toBe('Root\na\nc');
  });
});
