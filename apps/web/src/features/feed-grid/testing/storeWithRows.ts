/** For unit tests: a FeedStore loaded with rows given as lines of cells (Root first). */
import { FeedStore } from '../feedStore.ts';

export function storeWithRows(rows: readonly string[][], makeId: () => string): FeedStore {
  const store = new FeedStore({ makeId });
  store.load(
    rows.map(([root = '', mod = '', var1 = '', var2 = '', var3 = '', url = '']) => ({
      root,
      mod,
      var1,
      var2,
      var3,
      url,
    })),
  );
  return store;
}
