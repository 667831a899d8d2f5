/** Feed rows for tests: the columns a test names, the others empty. */
import type { FeedRow } from '../../src/types.ts';

export function feedRow(id: string, columns: Partial<Omit<FeedRow, 'id'>> = {}): FeedRow {
  return { id, root: '', mod: '', var1: '', var2: '', var3: '', url: '', ...columns };
}
