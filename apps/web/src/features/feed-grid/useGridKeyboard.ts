import { useCallback, type KeyboardEvent, type RefObject } from 'react';
import { FEED_ROW_HEIGHT_PX, HEADER_HEIGHT_PX } from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';
import type { EditState } from './useGridEditing.ts';

/**
 * Spreadsheet keys on the cells (arrows, Page Up/Down, Home/End, Tab, Enter, F2, Escape; a cell
 * is in edit mode once typed into) and undo/redo keys anywhere in the grid and its toolbar.
 */
export function useGridKeyboard(options: {
  store: FeedStore;
  columnCount: number;
  height: number;
  editRef: RefObject<EditState | null>;
  commitEdit: () => void;
  cancelEdit: () => void;
  moveFocus: (row: number, col: number) => void;
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
    handleUndo,
    handleRedo,
  } = options;

  const handleKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = event.target as HTMLElement;
      const isMod = event.ctrlKey || event.metaKey;
      if (!(target instanceof HTMLInputElement) || target.dataset.col === undefined) return;
      const row = Number(target.dataset.row);
      const col = Number(target.dataset.col);
      const slot = Number(target.dataset.slot);
      const current = editRef.current;
      const isEditing = current !== null && current.slot === slot && current.col === col;
      const isEditMode = isEditing || target.dataset.mode === 'edit';
      switch (event.key) {
        case 'ArrowUp':
        case 'ArrowDown': {
          event.preventDefault();
          commitEdit();
          target.dataset.mode = '';
          const step = event.key === 'ArrowUp' ? -1 : 1;
          moveFocus(isMod ? (step < 0 ? 0 : store.viewCount - 1) : row + step, col);
          return;
        }
        case 'ArrowLeft':
        case 'ArrowRight': {
          if (isEditMode) return;
          event.preventDefault();
          moveFocus(row, col + (event.key === 'ArrowLeft' ? -1 : 1));
          return;
        }
        case 'PageUp':
        case 'PageDown': {
          event.preventDefault();
          commitEdit();
          const page = Math.max(
            1,
            Math.floor((height - HEADER_HEIGHT_PX) / FEED_ROW_HEIGHT_PX) - 1,
          );
          moveFocus(row + (event.key === 'PageUp' ? -page : page), col);
          return;
        }
        case 'Home':
        case 'End': {
          if (isEditMode && !isMod) return;
          event.preventDefault();
          commitEdit();
          if (isMod) moveFocus(event.key === 'Home' ? 0 : store.viewCount - 1, col);
          else moveFocus(row, event.key === 'Home' ? 0 : columnCount - 1);
          return;
        }
        case 'Tab': {
          event.preventDefault();
          commitEdit();
          target.dataset.mode = '';
          if (event.shiftKey) {
            if (col > 0) moveFocus(row, col - 1);
            else if (row > 0) moveFocus(row - 1, columnCount - 1);
          } else if (col < columnCount - 1) moveFocus(row, col + 1);
          else if (row < store.viewCount - 1) moveFocus(row + 1, 0);
          return;
        }
        case 'Enter': {
          event.preventDefault();
          if (isEditMode) {
            commitEdit();
            target.dataset.mode = '';
            moveFocus(row + (event.shiftKey ? -1 : 1), col);
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
          if (!isMod && event.key.length === 1 && !isEditMode) target.dataset.mode = 'edit';
      }
    },
    [cancelEdit, columnCount, commitEdit, editRef, height, moveFocus, store],
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
