import { memo } from 'react';
import type { FeedColumn } from '@adloom/engine';
import { FEED_COLUMN_LABELS, getColumnMaxChars } from './feedColumns.ts';
import type { FeedStore } from './feedStore.ts';
import { formatCount } from './gridLayout.ts';

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
  onCellChange: (slot: number, col: number, value: string) => void;
  onCellFocus: (row: number, col: number, slot: number) => void;
  onCellBlur: () => void;
  onDelete: (slot: number, row: number) => void;
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
  onCellChange,
  onCellFocus,
  onCellBlur,
  onDelete,
}: GridRowProps) {
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
          onChange={(event) => store.setSelected(slot, event.target.checked)}
        />
      </div>
      <div role="rowheader" className="feed-grid__cell feed-grid__cell--number">
        {formatCount(rowNumber)}
      </div>
      {columns.map((column, col) => (
        <div key={column} role="gridcell" className="feed-grid__cell">
          <input
            className="feed-grid__input"
            aria-label={`${FEED_COLUMN_LABELS[column]}, row ${rowNumber}`}
            maxLength={getColumnMaxChars(col)}
            spellCheck={false}
            autoComplete="off"
            data-row={index}
            data-col={col}
            data-slot={slot}
            value={editCol === col ? editValue : store.getCell(slot, col)}
            onChange={(event) => onCellChange(slot, col, event.target.value)}
            onFocus={() => onCellFocus(index, col, slot)}
            onMouseDown={(event) => {
              // A click on a cell not yet focused selects it, as in a spreadsheet: typing replaces it.
              if (document.activeElement !== event.currentTarget)
                event.currentTarget.dataset.clickSelect = '1';
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
          onClick={() => onDelete(slot, index)}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </div>
  );
});
