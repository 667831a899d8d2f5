import type { ChangeEvent } from 'react';
import type { FeedColumn } from '@adloom/engine';
import { FEED_COLUMN_LABELS } from './feedColumns.ts';
import { cellFocusProps, FIRST_VALUE_CELL, HEADER_ROW } from './gridLayout.ts';

/**
 * The grid's header row: the select-all box, '#', the shown columns' labels, Delete; each a cell
 * the keyboard reaches with the arrows (row -1).
 */
export function GridHeader({
  columns,
  viewCount,
  selectedCount,
  isAllSelected,
  activeCell,
  onSelectAll,
}: {
  columns: readonly FeedColumn[];
  viewCount: number;
  selectedCount: number;
  isAllSelected: boolean;
  /** The header's cell that is the grid's Tab stop, or -1 when the active cell is in a row. */
  activeCell: number;
  onSelectAll: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const cellProps = (cell: number) => cellFocusProps(HEADER_ROW, cell, activeCell);
  return (
    <div className="feed-grid__head" role="rowgroup">
      <div className="feed-grid__row feed-grid__row--head" role="row" aria-rowindex={1}>
        <div role="columnheader" className="feed-grid__cell feed-grid__cell--check">
          <input
            type="checkbox"
            aria-label="Select all rows"
            checked={isAllSelected}
            ref={(element) => {
              if (element) element.indeterminate = selectedCount > 0 && !isAllSelected;
            }}
            onChange={onSelectAll}
            disabled={viewCount === 0}
            {...cellProps(0)}
          />
        </div>
        <div
          role="columnheader"
          className="feed-grid__cell feed-grid__cell--number"
          {...cellProps(1)}
        >
          #
        </div>
        {columns.map((column, col) => (
          <div
            key={column}
            role="columnheader"
            className="feed-grid__cell feed-grid__cell--label"
            {...cellProps(col + FIRST_VALUE_CELL)}
          >
            {FEED_COLUMN_LABELS[column]}
          </div>
        ))}
        <div
          role="columnheader"
          className="feed-grid__cell feed-grid__cell--action"
          {...cellProps(columns.length + FIRST_VALUE_CELL)}
        >
          <span className="visually-hidden">Delete</span>
        </div>
      </div>
    </div>
  );
}
