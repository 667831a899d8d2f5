import { useCallback, type ChangeEvent } from 'react';
import {
  ADD_ROW_SCROLL_DELAY_MS,
  FIRST_VALUE_CELL,
  formatRows,
  type FeedGridNotice,
} from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';

/** What the toolbar, the select-all box and the rows' delete buttons do. */
export function useGridRowActions(
  store: FeedStore,
  commitEdit: () => void,
  moveFocus: (row: number, col: number) => void,
  showNotice: (notice: FeedGridNotice) => void,
) {
  // Adds a row at the end and, after the spec's delay, focuses its cell `col` (a grid cell).
  const addRowAt = useCallback(
    (col: number) => {
      commitEdit();
      const row = store.addRow();
      setTimeout(() => moveFocus(row, col), ADD_ROW_SCROLL_DELAY_MS);
    },
    [commitEdit, moveFocus, store],
  );

  const handleAddRow = useCallback(() => addRowAt(FIRST_VALUE_CELL), [addRowAt]);

  const handleDeleteSelected = useCallback(() => {
    commitEdit();
    const count = store.deleteSelected();
    if (count > 0)
      showNotice({
        kind: 'info',
        message: `Deleted ${formatRows(count)}.`,
      });
  }, [commitEdit, showNotice, store]);

  const handleDeleteRow = useCallback(
    (slot: number, row: number) => {
      commitEdit();
      store.deleteRow(slot);
      // The button went with its row: keep the keyboard in the grid, on the row that moved up.
      if (store.viewCount > 0)
        requestAnimationFrame(() =>
          moveFocus(Math.min(row, store.viewCount - 1), FIRST_VALUE_CELL),
        );
    },
    [commitEdit, moveFocus, store],
  );

  const handleSelectAll = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => {
      if (event.target.checked) store.selectAllShown();
      else store.clearSelection();
    },
    [store],
  );

  return { addRowAt, handleAddRow, handleDeleteSelected, handleDeleteRow, handleSelectAll };
}
