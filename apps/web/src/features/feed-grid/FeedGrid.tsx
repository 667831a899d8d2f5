import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type CSSProperties,
} from 'react';
import { FEED_COLUMNS } from '@adloom/engine';
import { FEED_COLUMN_COUNT, gridColumnTracks } from './feedColumns.ts';
import type { FeedStore } from './feedStore.ts';
import {
  FEED_ROW_HEIGHT_PX,
  FIRST_VALUE_CELL,
  GRID_OVERSCAN_ROWS,
  HEADER_ROW,
  LAYER_BLOCK_PX,
  type FeedGridNotice,
} from './gridLayout.ts';
import { CsvMappingDialog } from './CsvMappingDialog.tsx';
import { GridHeader } from './GridHeader.tsx';
import { GridRow } from './GridRow.tsx';
import { GridStatus } from './GridStatus.tsx';
import { GridToolbar } from './GridToolbar.tsx';
import { useBrowserHistoryGuard } from './useBrowserHistoryGuard.ts';
import { useGridClipboard } from './useGridClipboard.ts';
import { useGridEditing } from './useGridEditing.ts';
import { useGridFocus } from './useGridFocus.ts';
import { useGridImport } from './useGridImport.ts';
import { useGridKeyboard } from './useGridKeyboard.ts';
import { useGridRowActions } from './useGridRowActions.ts';
import { useGridScroll } from './useGridScroll.ts';
import { useGridSelection } from './useGridSelection.ts';
import './FeedGrid.css';

const FILTER_DEBOUNCE_MS = 150;

/** Props of FeedGrid. */
export interface FeedGridProps {
  store: FeedStore;
  /** Accessible name of the grid. */
  label?: string;
  /** Height of the scrolling area in CSS pixels. */
  height?: number;
  /** Called with every notice the grid shows (to mirror it in the app's notifications). */
  onNotice?: (notice: FeedGridNotice) => void;
  /** How many leading columns show and take edits and pastes (1: Root only, for lists). */
  columnCount?: number;
}

/**
 * The feed grid: a virtualized spreadsheet of Root, Modifier, Var 1-3 and Final URL over a
 * FeedStore, fast at a million rows. Cells are real inputs; the grid is one Tab stop and the
 * keyboard works as in the ARIA grid pattern and a spreadsheet (arrows, Enter, Escape, copy,
 * paste, undo, redo, Shift+Space and Shift+arrows selecting rows); CSV files import by the file
 * input or by dropping them on the grid.
 */
export function FeedGrid({
  store,
  label = 'Feed rows',
  height = 520,
  onNotice,
  columnCount: requestedColumns = FEED_COLUMN_COUNT,
}: FeedGridProps) {
  const columnCount = Math.max(1, Math.min(FEED_COLUMN_COUNT, requestedColumns));
  // One array per column count, so rows (memoized) see the same prop on every render.
  const shownColumns = useMemo(
    () => (columnCount === FEED_COLUMN_COUNT ? FEED_COLUMNS : FEED_COLUMNS.slice(0, columnCount)),
    [columnCount],
  );
  useSyncExternalStore(store.subscribe, store.getVersion);
  const viewCount = store.viewCount;
  const [filterText, setFilterText] = useState(store.filter);
  const showNotice = useCallback(
    (next: FeedGridNotice) => {
      store.announce(next);
      onNotice?.(next);
    },
    [onNotice, store],
  );

  const { scrollerRef, layerRef, factor, spacerHeight, scrollRowIntoView } = useGridScroll(
    viewCount,
    height,
  );
  const { active, moveFocus, handleGridFocus } = useGridFocus(
    store,
    columnCount,
    scrollerRef,
    scrollRowIntoView,
  );
  const editing = useGridEditing(store);
  const { edit, commitEdit, cancelEdit, handleUndo, handleRedo } = editing;
  const rowActions = useGridRowActions(store, commitEdit, moveFocus, showNotice);
  const selection = useGridSelection(store);
  const { toggleRow, selectToRow } = selection;
  const { handleKeyDown, handleRootKeyDown } = useGridKeyboard({
    store,
    columnCount,
    height,
    editRef: editing.editRef,
    commitEdit,
    cancelEdit,
    moveFocus,
    addRowAt: rowActions.addRowAt,
    selection,
    handleUndo,
    handleRedo,
  });
  useBrowserHistoryGuard(scrollerRef, handleUndo, handleRedo);
  const handleRowSelect = useCallback(
    (row: number, isRange: boolean) => (isRange ? selectToRow(row) : toggleRow(row)),
    [selectToRow, toggleRow],
  );
  const { handleCopy, handlePaste } = useGridClipboard(store, columnCount, cancelEdit, showNotice);
  const csvImport = useGridImport(store, commitEdit, showNotice);

  useEffect(() => {
    const timer = setTimeout(() => void store.setFilter(filterText), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [filterText, store]);

  const selectedCount = store.selectedCount;
  const scrollTop = scrollerRef.current?.scrollTop ?? 0;
  const virtualOffset = scrollTop * factor;
  // Rows sit in one layer placed at the scroll position, each at its offset from a fixed origin:
  // scrolling moves only the layer, so rows re-render only when they enter the window (or, every
  // LAYER_BLOCK_PX of virtual offset, when the origin moves).
  const layerOrigin = Math.floor(virtualOffset / LAYER_BLOCK_PX) * LAYER_BLOCK_PX;
  const layerTop = scrollTop - virtualOffset + layerOrigin;
  // A fixed pool of rows: pool row k always shows the index in [first, first + poolSize) that is
  // k modulo poolSize. The keys never change, so a scroll re-renders only the rows whose index
  // changed, with new values in the same DOM (no inputs created or destroyed).
  const poolSize = Math.ceil(height / FEED_ROW_HEIGHT_PX) + 2 * GRID_OVERSCAN_ROWS + 4;
  const firstIndex = Math.max(
    0,
    Math.min(
      Math.floor(virtualOffset / FEED_ROW_HEIGHT_PX) - GRID_OVERSCAN_ROWS,
      viewCount - poolSize,
    ),
  );
  const poolIndexes: number[] = [];
  for (let k = 0; k < poolSize; k += 1) {
    const index = firstIndex + ((((k - firstIndex) % poolSize) + poolSize) % poolSize);
    if (index < viewCount) poolIndexes.push(index);
  }
  // The one Tab stop: the active cell, kept inside the rows there are (the header's cells when
  // there are none; its select box is then disabled).
  const activeRow = Math.min(active.row, viewCount - 1);
  const activeCell =
    activeRow === HEADER_ROW && viewCount === 0 && active.col === 0 ? FIRST_VALUE_CELL : active.col;
  const isActiveRendered =
    activeRow === HEADER_ROW || (activeRow >= firstIndex && activeRow < firstIndex + poolSize);

  return (
    <div
      className={`feed-grid compact-text${columnCount === 1 ? ' feed-grid--single' : ''}`}
      style={
        columnCount === 1
          ? undefined
          : ({ '--fg-columns': gridColumnTracks(shownColumns) } as CSSProperties)
      }
      onKeyDown={handleRootKeyDown}
    >
      <GridToolbar
        store={store}
        filterText={filterText}
        onFilterText={setFilterText}
        isEditing={edit !== null}
        isImporting={csvImport.importProgress !== null}
        selectedCount={selectedCount}
        onUndo={handleUndo}
        onRedo={handleRedo}
        onFileInput={csvImport.handleFileInput}
        onDeleteSelected={rowActions.handleDeleteSelected}
        onAddRow={rowActions.handleAddRow}
      />
      <GridStatus
        importProgress={csvImport.importProgress}
        notice={store.notice}
        onUndo={handleUndo}
      />
      {csvImport.mappingRequest ? (
        <CsvMappingDialog
          fileName={csvImport.mappingRequest.file.name}
          head={csvImport.mappingRequest.head}
          onImport={csvImport.importMapped}
          onCancel={csvImport.cancelMapping}
        />
      ) : null}
      <div
        ref={scrollerRef}
        className={`feed-grid__scroller${csvImport.isDragOver ? ' is-drag-over' : ''}`}
        style={{ height }}
        role="grid"
        aria-label={label}
        aria-rowcount={viewCount + 1}
        aria-colcount={columnCount + 3}
        aria-multiselectable="true"
        tabIndex={isActiveRendered ? -1 : 0}
        onFocus={handleGridFocus}
        onKeyDown={handleKeyDown}
        onCopy={handleCopy}
        onPaste={handlePaste}
        onDragOver={csvImport.handleDragOver}
        onDragLeave={csvImport.handleDragLeave}
        onDrop={csvImport.handleDrop}
      >
        <GridHeader
          columns={shownColumns}
          viewCount={viewCount}
          selectedCount={selectedCount}
          isAllSelected={store.isAllShownSelected}
          activeCell={activeRow === HEADER_ROW ? activeCell : -1}
          onSelectAll={rowActions.handleSelectAll}
        />
        <div className="feed-grid__body" role="rowgroup" style={{ height: spacerHeight }}>
          <div
            ref={layerRef}
            className="feed-grid__layer"
            role="presentation"
            style={{ transform: `translateY(${layerTop}px)` }}
          >
            {poolIndexes.map((index) => {
              const slot = store.getViewSlot(index);
              const rowEdit = edit && edit.slot === slot ? edit : null;
              return (
                <GridRow
                  key={index % poolSize}
                  store={store}
                  columns={shownColumns}
                  version={store.getVersion()}
                  slot={slot}
                  index={index}
                  rowNumber={store.getRowNumber(index)}
                  top={index * FEED_ROW_HEIGHT_PX - layerOrigin}
                  isSelected={store.isSelected(slot)}
                  editCol={rowEdit ? rowEdit.col : -1}
                  editValue={rowEdit ? rowEdit.value : ''}
                  activeCell={index === activeRow ? activeCell : -1}
                  onCellChange={editing.handleCellChange}
                  onCellBlur={editing.handleCellBlur}
                  onDelete={rowActions.handleDeleteRow}
                  onRowSelect={handleRowSelect}
                />
              );
            })}
          </div>
          {viewCount === 0 ? (
            <div className="feed-grid__empty" role="row">
              <div role="gridcell">
                {store.isFiltering
                  ? 'Filtering…'
                  : store.filter
                    ? 'No rows match the filter.'
                    : 'No rows yet. Add a row, paste, import a CSV or combine seeds.'}
              </div>
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}
