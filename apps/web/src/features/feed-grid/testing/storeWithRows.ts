/** For unit tests: a FeedStore loaded with rows given as lines of cells (Root first). */
import { feedCellsFrom } from '@adloom/engine';
import { FeedStore } from '../feedStore.ts';

export function storeWithRows(rows: readonly string[][], makeId: () => string): FeedStore {
  const store = new FeedStore({ makeId });
  // Each line's cells in FEED_COLUMNS order (Root .. Final URL, Status); a missing one is empty.
  store.load(rows.map((cells) => feedCellsFrom(cells)));
  return store;
}
