import { useCallback, type ChangeEvent } from 'react';
import { ADD_ROW_SCROLL_DELAY_MS, formatCount, type FeedGridNotice } from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';

/** What the toolbar, the select-all box and the rows' delete buttons do. */
export function useGridRowActions(
  store: FeedStore,
  commitEdit: () => void,
  moveFocus: (row: number, col: number) => void,
  showNotice: (notice: FeedGridNotice) => void,
) {
  const handleAddRow = useCallback(() => {
    commitEdit();
    const row = store.addRow();
    setTimeout(() => moveFocus(row, 0), ADD_ROW_SCROLL_DELAY_MS);
  }, [commitEdit, moveFocus, store]);

  const handleDeleteSelected = useCallback(() => {
    commitEdit();
    const count = store.deleteSelected();
    if (count > 0)
      showNotice({
        kind: 'info',
        message: `Deleted ${formatCount(count)} ${count === 1 ? 'row' : 'rows'}.`,
      });
  }, [commitEdit, showNotice, store]);

  const handleDeleteRow = useCallback(
    (slot: number, row: number) => {
      commitEdit();
      store.deleteRow(slot);
      // The button went with its row: keep the keyboard in the grid, on the row that moved up.
      if (store.viewCount > 0)
        requestAnimationFrame(() => moveFocus(Math.min(row, store.viewCount - 1), 0));
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

  return { handleAddRow, handleDeleteSelected, handleDeleteRow, handleSelectAll };
}
