import { FEED_COLUMNS } from '@adloom/engine';
import { FEED_COLUMN_LABELS } from './feedColumns.ts';
import type { FeedStore } from './feedStore.ts';
import { formatTsvLines } from './tsv.ts';

/**
 * The store's rows as tab-separated text: a header line of the columns that hold any value,
 * then one line per row in feed order. The header makes the text paste back into a feed grid
 * (its first line is skipped there, the spec's paste rule) and into a spreadsheet with names.
 */
export function formatStoreAsTsv(store: FeedStore): string {
  const used: number[] = [];
  for (let c = 0; c < FEED_COLUMNS.length; c += 1) {
    for (let i = 0; i < store.rowCount; i += 1) {
      if (store.getCell(store.getSlotAt(i), c) !== '') {
        used.push(c);
        break;
      }
    }
  }
  if (used.length === 0) return '';
  function* lines(): Generator<string[]> {
    yield used.map((c) => FEED_COLUMN_LABELS[FEED_COLUMNS[c]!]);
    for (let i = 0; i < store.rowCount; i += 1) {
      const slot = store.getSlotAt(i);
      yield used.map((c) => store.getCell(slot, c));
    }
  }
  return formatTsvLines(lines());
}
