import type { ChangeEvent } from 'react';
import type { FeedColumn } from '@adloom/engine';
import { FEED_COLUMN_LABELS } from './feedColumns.ts';

/** The grid's header row: the select-all box, '#', the shown columns' labels, Delete. */
export function GridHeader({
  columns,
  viewCount,
  selectedCount,
  isAllSelected,
  onSelectAll,
}: {
  columns: readonly FeedColumn[];
  viewCount: number;
  selectedCount: number;
  isAllSelected: boolean;
  onSelectAll: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
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
          />
        </div>
        <div role="columnheader" className="feed-grid__cell feed-grid__cell--number">
          #
        </div>
        {columns.map((column) => (
          <div key={column} role="columnheader" className="feed-grid__cell feed-grid__cell--label">
            {FEED_COLUMN_LABELS[column]}
          </div>
        ))}
        <div role="columnheader" className="feed-grid__cell feed-grid__cell--action">
          <span className="visually-hidden">Delete</span>
        </div>
      </div>
    </div>
  );
}
