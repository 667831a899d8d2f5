import { useCallback, type ClipboardEvent } from 'react';
import { formatCount, formatRows, type FeedGridNotice } from './gridLayout.ts';
import type { FeedStore, PasteResult } from './feedStore.ts';
import { formatTsvLines, parseTsvBlock } from './tsv.ts';

/**
 * Copy (the selected rows as tab-separated lines, else the focused cell) and paste (a block of
 * lines from the focused cell, adding rows at the end; text typed into a cell in edit mode
 * stays the input's own).
 */
export function useGridClipboard(
  store: FeedStore,
  columnCount: number,
  cancelEdit: () => void,
  showNotice: (notice: FeedGridNotice) => void,
) {
  const handleCopy = useCallback(
    (event: ClipboardEvent<HTMLDivElement>) => {
      const target = event.target as HTMLElement;
      if (target instanceof HTMLInputElement && target.dataset.col !== undefined) {
        const hasTextSelection =
          target.selectionStart !== null &&
          target.selectionEnd !== null &&
          target.selectionEnd - target.selectionStart < target.value.length;
        if (target.dataset.mode === 'edit' && hasTextSelection) return;
      }
      const count = store.selectedCount;
      let text: string;
      if (count > 0) {
        text = formatTsvLines(store.selectedRows());
      } else if (target instanceof HTMLInputElement && target.dataset.col !== undefined) {
        text = store.getCell(Number(target.dataset.slot), Number(target.dataset.col));
      } else {
        return;
      }
      event.preventDefault();
      event.clipboardData.setData('text/plain', text);
      if (count > 0)
        showNotice({
          kind: 'info',
          message: `Copied ${formatRows(count)}.`,
        });
    },
    [showNotice, store],
  );

  const handlePaste = useCallback(
    (event: ClipboardEvent<HTMLDivElement>) => {
      const target = event.target as HTMLElement;
      if (!(target instanceof HTMLInputElement) || target.dataset.col === undefined) return;
      const text = event.clipboardData.getData('text/plain');
      const isBlock = /[\t\n\r]/.test(text.replace(/[\r\n]+$/, ''));
      if (!isBlock && target.dataset.mode === 'edit') return;
      event.preventDefault();
      cancelEdit();
      const row = Number(target.dataset.row);
      const col = Number(target.dataset.col);
      // Cells right of the shown columns are not pasted into hidden ones.
      const lines = parseTsvBlock(text).map((line) =>
        line.length > columnCount - col ? line.slice(0, columnCount - col) : line,
      );
      if (lines.length === 0) return;
      const result = store.paste(row, col, lines);
      requestAnimationFrame(() => {
        if (document.activeElement === target) target.select();
      });
      showNotice(describePaste(lines.length, result));
    },
    [cancelEdit, columnCount, showNotice, store],
  );

  return { handleCopy, handlePaste };
}

/**
 * What a paste says: how many rows, how many added and, when it wrote over values rows held,
 * how many rows it replaced, with Undo beside it.
 */
export function describePaste(lineCount: number, result: PasteResult): FeedGridNotice {
  const added = result.addedRows > 0 ? ` (${formatCount(result.addedRows)} added)` : '';
  if (result.replacedRows === 0)
    return { kind: 'info', message: `Pasted ${formatRows(lineCount)}${added}.` };
  const replaced = result.replacedRows;
  return {
    kind: 'info',
    message: `Pasted ${formatRows(lineCount)}${added}: ${formatCount(replaced)} ${replaced === 1 ? 'row that had values was' : 'rows that had values were'} replaced.`,
    undoLabel: 'Undo paste',
  };
}
