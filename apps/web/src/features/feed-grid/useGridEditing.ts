import { useCallback, useRef, useState } from 'react';
import type { FeedStore } from './feedStore.ts';

/** The cell being typed into: its text so far and what the store holds. */
export interface EditState {
  slot: number;
  col: number;
  value: string;
  original: string;
}

/**
 * The cell edit in progress (kept out of the store until committed: on blur, Enter, a move or
 * another action) and undo/redo, where undo first drops an uncommitted edit.
 */
export function useGridEditing(store: FeedStore) {
  const [edit, setEdit] = useState<EditState | null>(null);
  const editRef = useRef<EditState | null>(null);
  editRef.current = edit;

  const commitEdit = useCallback(() => {
    const current = editRef.current;
    if (!current) return;
    editRef.current = null;
    setEdit(null);
    if (current.value !== current.original) store.setCell(current.slot, current.col, current.value);
  }, [store]);

  const cancelEdit = useCallback(() => {
    editRef.current = null;
    setEdit(null);
  }, []);

  const handleCellChange = useCallback(
    (slot: number, col: number, value: string) => {
      const current = editRef.current;
      const next: EditState =
        current && current.slot === slot && current.col === col
          ? { ...current, value }
          : { slot, col, value, original: store.getCell(slot, col) };
      editRef.current = next;
      setEdit(next);
    },
    [store],
  );

  const handleCellBlur = useCallback(() => {
    commitEdit();
  }, [commitEdit]);

  const handleUndo = useCallback(() => {
    const current = editRef.current;
    if (current && current.value !== current.original) {
      cancelEdit();
      return;
    }
    cancelEdit();
    store.undo();
  }, [cancelEdit, store]);

  const handleRedo = useCallback(() => {
    commitEdit();
    store.redo();
  }, [commitEdit, store]);

  return {
    edit,
    editRef,
    commitEdit,
    cancelEdit,
    handleCellChange,
    handleCellBlur,
    handleUndo,
    handleRedo,
  };
}
