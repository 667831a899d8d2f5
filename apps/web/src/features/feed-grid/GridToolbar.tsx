import type { ChangeEvent } from 'react';
import { formatCount, formatRows } from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';

/** The grid's toolbar: filter box, row count, undo, redo, CSV import, delete and add. */
export function GridToolbar({
  store,
  filterText,
  onFilterText,
  isEditing,
  isImporting,
  selectedCount,
  onUndo,
  onRedo,
  onFileInput,
  onDeleteSelected,
  onAddRow,
}: {
  store: FeedStore;
  filterText: string;
  onFilterText: (text: string) => void;
  /** A cell edit is in progress (Undo drops it). */
  isEditing: boolean;
  isImporting: boolean;
  selectedCount: number;
  onUndo: () => void;
  onRedo: () => void;
  onFileInput: (event: ChangeEvent<HTMLInputElement>) => void;
  onDeleteSelected: () => void;
  onAddRow: () => void;
}) {
  const viewCount = store.viewCount;
  return (
    <div className="feed-grid__toolbar" role="toolbar" aria-label="Feed rows toolbar">
      <input
        className="feed-grid__filter"
        type="search"
        aria-label="Filter rows"
        placeholder="Filter rows"
        value={filterText}
        onChange={(event) => onFilterText(event.target.value)}
      />
      <span className="feed-grid__count" aria-live="polite">
        {store.isFiltering
          ? 'Filtering…'
          : store.filter
            ? `${formatCount(viewCount)} of ${formatCount(store.rowCount)} rows`
            : formatRows(store.rowCount)}
      </span>
      <span className="feed-grid__spacer" />
      <button
        type="button"
        className="feed-grid__button"
        onClick={onUndo}
        disabled={!store.canUndo && !isEditing}
        aria-keyshortcuts="Control+Z"
      >
        Undo
      </button>
      <button
        type="button"
        className="feed-grid__button"
        onClick={onRedo}
        disabled={!store.canRedo}
        aria-keyshortcuts="Control+Shift+Z"
      >
        Redo
      </button>
      <label className={`feed-grid__button${isImporting ? ' is-disabled' : ''}`}>
        Import CSV
        <input
          className="feed-grid__file"
          type="file"
          accept=".csv,.tsv,.txt,text/csv,text/plain"
          onChange={onFileInput}
          disabled={isImporting}
        />
      </label>
      <button
        type="button"
        className="feed-grid__button feed-grid__button--danger"
        onClick={onDeleteSelected}
        disabled={selectedCount === 0}
      >
        Delete ({formatCount(selectedCount)})
      </button>
      <button
        type="button"
        className="feed-grid__button feed-grid__button--primary"
        onClick={onAddRow}
      >
        Add Row
      </button>
    </div>
  );
}
