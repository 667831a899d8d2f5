import { FEED_COLUMNS, type FeedRow } from '@adloom/engine';
import type { FeedStore } from '../feed-grid/index.ts';

/** The rows the preview steps through, read one at a time (never all of them at once). */
export interface PreviewRows {
  /** How many rows (every selected row). */
  readonly count: number;
  /** Row `index` (0-based, in feed order), or undefined outside 0..count-1. */
  rowAt(index: number): FeedRow | undefined;
  /** The grid row (from 1) of row `index`, the number a person sees beside it; 0 outside. */
  gridRowAt(index: number): number;
}

/** Preview rows over rows already in hand (tests, small sets). */
export function previewRowsOf(rows: readonly FeedRow[]): PreviewRows {
  return {
    count: rows.length,
    rowAt: (index) => rows[index],
    gridRowAt: (index) => (rows[index] ? index + 1 : 0),
  };
}

/**
 * The selected rows of a feed store as preview rows: one pass notes where the selected rows are
 * (a number per row, no row objects), and each step reads the one row it shows. The positions
 * are noted again if the store changes.
 */
export function selectedPreviewRows(store: FeedStore): PreviewRows {
  let positions: Uint32Array | null = null;
  let version = -1;
  function findPositions(): Uint32Array {
    if (positions && version === store.getVersion()) return positions;
    const found = new Uint32Array(store.selectedCount);
    let n = 0;
    for (let p = 0; p < store.rowCount && n < found.length; p += 1) {
      if (store.isSelected(store.getSlotAt(p))) found[n++] = p;
    }
    positions = n === found.length ? found : found.slice(0, n);
    version = store.getVersion();
    return positions;
  }
  return {
    get count() {
      return findPositions().length;
    },
    rowAt(index) {
      const at = findPositions();
      if (!Number.isInteger(index) || index < 0 || index >= at.length) return undefined;
      const slot = store.getSlotAt(at[index] as number);
      const row = { id: store.getRowId(slot) } as FeedRow;
      FEED_COLUMNS.forEach((column, c) => {
        row[column] = store.getCell(slot, c);
      });
      return row;
    },
    gridRowAt(index) {
      const at = findPositions();
      return Number.isInteger(index) && index >= 0 && index < at.length
        ? (at[index] as number) + 1
        : 0;
    },
  };
}
