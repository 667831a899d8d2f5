import { useCallback, type KeyboardEvent, type RefObject } from 'react';
import { gridKeyTarget } from './gridKeys.ts';
import { FEED_ROW_HEIGHT_PX, HEADER_HEIGHT_PX, HEADER_ROW } from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';
import type { EditState } from './useGridEditing.ts';
import type { useGridSelection } from './useGridSelection.ts';

/** Keys that grow or shrink a range of selected rows when pressed with Shift. */
const RANGE_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown']);

/**
 * The ARIA grid pattern's keys on the cells (arrows, Page Up/Down, Home/End, Ctrl+Home/End; Tab
 * leaves the grid), Shift+Space and Shift+Up/Down selecting rows, spreadsheet editing on the
 * value cells (typing replaces the cell; Enter or F2 edits; Enter commits and moves down, adding
 * a row below the last; Escape cancels) and undo/redo keys anywhere in the grid and its toolbar.
 */
export function useGridKeyboard(options: {
  store: FeedStore;
  columnCount: number;
  height: number;
  editRef: RefObject<EditState | null>;
  commitEdit: () => void;
  cancelEdit: () => void;
  moveFocus: (row: number, col: number) => void;
  addRowAt: (col: number) => void;
  selection: Pick<ReturnType<typeof useGridSelection>, 'toggleRow' | 'extendRange' | 'endRange'>;
  handleUndo: () => void;
  handleRedo: () => void;
}) {
  const {
    store,
    columnCount,
    height,
    editRef,
    commitEdit,
    cancelEdit,
    moveFocus,
    addRowAt,
    selection,
    handleUndo,
    handleRedo,
  } = options;
  const { toggleRow, extendRange, endRange } = selection;

  const handleKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = event.target as HTMLElement;
      if (target.dataset.cell === undefined) return;
      const isMod = event.ctrlKey || event.metaKey;
      const row = Number(target.dataset.row);
      const cell = Number(target.dataset.cell);
      const isValueCell = target instanceof HTMLInputElement && target.dataset.col !== undefined;
      const current = editRef.current;
      const isEditing =
        isValueCell &&
        current !== null &&
        current.slot === Number(target.dataset.slot) &&
        current.col === Number(target.dataset.col);
      const isEditMode = isEditing || target.dataset.mode === 'edit';
      const key = event.key;

      if (key === ' ' && event.shiftKey && !isMod && !isEditMode && row !== HEADER_ROW) {
        event.preventDefault();
        toggleRow(row);
        return;
      }
      if (isEditMode && (key === 'ArrowLeft' || key === 'ArrowRight')) return;
      if (isEditMode && !isMod && (key === 'Home' || key === 'End')) return;
      const to = gridKeyTarget(
        key,
        isMod,
        { row, col: cell },
        {
          rowCount: store.viewCount,
          columnCount,
          pageRows: Math.max(1, Math.floor((height - HEADER_HEIGHT_PX) / FEED_ROW_HEIGHT_PX) - 1),
        },
      );
      if (to) {
        event.preventDefault();
        commitEdit();
        target.dataset.mode = '';
        if (event.shiftKey && RANGE_KEYS.has(key) && row !== HEADER_ROW && to.row !== HEADER_ROW)
          extendRange(row, to.row);
        else endRange();
        moveFocus(to.row, to.col);
        return;
      }
      if (!isValueCell) return;
      switch (key) {
        case 'Enter': {
          event.preventDefault();
          if (isEditMode) {
            commitEdit();
            target.dataset.mode = '';
            if (!event.shiftKey && row === store.viewCount - 1) addRowAt(cell);
            else moveFocus(row + (event.shiftKey ? -1 : 1), cell);
          } else {
            target.dataset.mode = 'edit';
            const end = target.value.length;
            target.setSelectionRange(end, end);
          }
          return;
        }
        case 'F2': {
          event.preventDefault();
          target.dataset.mode = 'edit';
          target.setSelectionRange(target.value.length, target.value.length);
          return;
        }
        case 'Escape': {
          if (isEditMode) {
            event.preventDefault();
            cancelEdit();
            target.dataset.mode = '';
            // select() focuses in Chromium: only if the keyboard has not moved on meanwhile.
            requestAnimationFrame(() => {
              if (document.activeElement === target) target.select();
            });
          }
          return;
        }
        default:
          if (!isMod && key.length === 1 && !isEditMode) target.dataset.mode = 'edit';
      }
    },
    [
      addRowAt,
      cancelEdit,
      columnCount,
      commitEdit,
      editRef,
      endRange,
      extendRange,
      height,
      moveFocus,
      store,
      toggleRow,
    ],
  );

  // Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z (or Ctrl+Y) anywhere in the grid and its toolbar, except
  // in the filter box, where they undo typing.
  const handleRootKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const isMod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (!isMod || event.altKey || (key !== 'z' && key !== 'y')) return;
      const target = event.target as HTMLElement;
      if (target instanceof HTMLInputElement && target.type === 'search') return;
      event.preventDefault();
      if (key === 'y' || event.shiftKey) handleRedo();
      else handleUndo();
    },
    [handleRedo, handleUndo],
  );

  return { handleKeyDown, handleRootKeyDown };
}
