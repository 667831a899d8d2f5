import { FEED_COLUMNS } from '@adloom/engine';
import { FEED_COLUMN_LABELS, formatTsvLines, type FeedStore } from '../feed-grid/index.ts';

/** Spec section 8: the notice after a table is copied. */
export const TABLE_COPIED_MESSAGE = 'Table contents copied to clipboard!';

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

/** Puts text on the clipboard; falls back to a hidden text area where the API is refused. */
export async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not a secure context or permission refused: the older path below still works there.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const isCopied = document.execCommand('copy');
  area.remove();
  if (!isCopied) throw new Error('The browser refused to copy to the clipboard');
}
