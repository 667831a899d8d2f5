import { memo } from 'react';
import type { FeedColumn } from '@adloom/engine';
import { cellPlaceholder, FEED_COLUMN_LABELS, getColumnMaxChars } from './feedColumns.ts';
import type { FeedStore } from './feedStore.ts';
import { cellFocusProps, FIRST_VALUE_CELL, formatCount } from './gridLayout.ts';

export interface GridRowProps {
  store: FeedStore;
  columns: readonly FeedColumn[];
  version: number;
  slot: number;
  index: number;
  /** The feed's own number of the row (its position when a filter hides others). */
  rowNumber: number;
  top: number;
  isSelected: boolean;
  editCol: number;
  editValue: string;
  /** The row's cell that is the grid's Tab stop, or -1 when the active cell is elsewhere. */
  activeCell: number;
  onCellChange: (slot: number, col: number, value: string) => void;
  onCellBlur: () => void;
  onDelete: (slot: number, row: number) => void;
  /** A select box click (flips the row) or a Shift+click (selects from the anchor row). */
  onRowSelect: (row: number, isRange: boolean) => void;
}

/**
 * One pooled row: select box, number, one input per shown column, delete button. Memoized: it
 * re-renders only when its row, its cells (the store version) or its edit change.
 */
export const GridRow = memo(function GridRow({
  store,
  columns,
  slot,
  index,
  rowNumber,
  top,
  isSelected,
  editCol,
  editValue,
  activeCell,
  onCellChange,
  onCellBlur,
  onDelete,
  onRowSelect,
}: GridRowProps) {
  // Every focusable part of the row is a grid cell the keyboard walks (see gridLayout.ts).
  const cellProps = (cell: number) => ({
    ...cellFocusProps(index, cell, activeCell),
    'data-slot': slot,
  });
  const deleteCell = columns.length + FIRST_VALUE_CELL;
  return (
    <div
      className={`feed-grid__row${isSelected ? ' is-selected' : ''}${index % 2 === 1 ? ' is-odd' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={isSelected}
      style={{ transform: `translateY(${top}px)` }}
    >
      <div role="gridcell" className="feed-grid__cell feed-grid__cell--check">
        <input
          type="checkbox"
          aria-label={`Select row ${rowNumber}`}
          checked={isSelected}
          {...cellProps(0)}
          onChange={(event) =>
            onRowSelect(
              index,
              event.nativeEvent instanceof MouseEvent && event.nativeEvent.shiftKey,
            )
          }
        />
      </div>
      <div
        role="rowheader"
        className="feed-grid__cell feed-grid__cell--number"
        {...cellProps(1)}
        onMouseDown={(event) => {
          if (event.shiftKey) onRowSelect(index, true);
        }}
      >
        {formatCount(rowNumber)}
      </div>
      {columns.map((column, col) => (
        <div key={column} role="gridcell" className="feed-grid__cell">
          <input
            className="feed-grid__input"
            aria-label={`${FEED_COLUMN_LABELS[column]}, row ${rowNumber}`}
            // A Final URL is never cut (no limit shown, spec section 2): the engine reports one
            // too long for Google.
            maxLength={column === 'url' ? undefined : getColumnMaxChars(col)}
            placeholder={cellPlaceholder(column)}
            spellCheck={false}
            autoComplete="off"
            {...cellProps(col + FIRST_VALUE_CELL)}
            data-col={col}
            value={editCol === col ? editValue : store.getCell(slot, col)}
            onChange={(event) => onCellChange(slot, col, event.target.value)}
            onMouseDown={(event) => {
              const input = event.currentTarget;
              if (event.shiftKey && input.dataset.mode !== 'edit') {
                // Shift+click selects rows from the anchor row, as on the select boxes.
                event.preventDefault();
                onRowSelect(index, true);
                input.focus();
                input.select();
                return;
              }
              // A click on a cell not yet focused selects it, as in a spreadsheet: typing replaces it.
              if (document.activeElement !== input) input.dataset.clickSelect = '1';
            }}
            onMouseUp={(event) => {
              const input = event.currentTarget;
              if (input.dataset.clickSelect !== '1') return;
              delete input.dataset.clickSelect;
              input.select();
            }}
            onDoubleClick={(event) => (event.currentTarget.dataset.mode = 'edit')}
            onBlur={(event) => {
              event.currentTarget.dataset.mode = '';
              onCellBlur();
            }}
          />
        </div>
      ))}
      <div role="gridcell" className="feed-grid__cell feed-grid__cell--action">
        <button
          type="button"
          className="feed-grid__delete"
          aria-label={`Delete row ${rowNumber}`}
          title="Delete row"
          {...cellProps(deleteCell)}
          onClick={() => onDelete(slot, index)}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </div>
  );
});
