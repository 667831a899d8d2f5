import { useCallback, useRef } from 'react';
import type { FeedStore } from './feedStore.ts';

/**
 * Row selection by ranges: a click on a select box or Shift+Space flips one row and makes it the
 * anchor; Shift+click selects every row from the anchor; Shift+Up/Down (and Page Up/Down) grow or
 * shrink a range from the row they start on. Each step touches only the rows that change.
 */
export function useGridSelection(store: FeedStore) {
  const anchorRef = useRef(0);
  // The range Shift+arrows are growing (anchor to extent), or null when none is.
  const extentRef = useRef<number | null>(null);

  const toggleRow = useCallback(
    (row: number) => {
      const slot = store.getViewSlot(row);
      store.setSelected(slot, !store.isSelected(slot));
      anchorRef.current = row;
      extentRef.current = null;
    },
    [store],
  );

  const selectToRow = useCallback(
    (row: number) => {
      store.setRangeSelected(anchorRef.current, row, true);
      extentRef.current = null;
    },
    [store],
  );

  const extendRange = useCallback(
    (from: number, to: number) => {
      let extent = extentRef.current;
      if (extent === null) {
        anchorRef.current = from;
        extent = from;
        store.setRangeSelected(from, from, true);
      }
      const anchor = anchorRef.current;
      const [oldStart, oldEnd] = [Math.min(anchor, extent), Math.max(anchor, extent)];
      const [newStart, newEnd] = [Math.min(anchor, to), Math.max(anchor, to)];
      // Both ranges hold the anchor: rows leave or join only at their two ends.
      if (oldStart < newStart) store.setRangeSelected(oldStart, newStart - 1, false);
      if (oldEnd > newEnd) store.setRangeSelected(newEnd + 1, oldEnd, false);
      if (newStart < oldStart) store.setRangeSelected(newStart, oldStart - 1, true);
      if (newEnd > oldEnd) store.setRangeSelected(oldEnd + 1, newEnd, true);
      extentRef.current = to;
    },
    [store],
  );

  const endRange = useCallback(() => {
    extentRef.current = null;
  }, []);

  return { toggleRow, selectToRow, extendRange, endRange };
}
