import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ChangeEvent,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
} from 'react';
import { FEED_COLUMNS } from '@adloom/engine';
import { FEED_COLUMN_COUNT, FEED_COLUMN_LABELS, getColumnMaxChars } from './feedColumns.ts';
import type { FeedStore } from './feedStore.ts';
import { importCsvFile } from './importCsvFile.ts';
import { formatTsvLines, parseTsvBlock } from './tsv.ts';
import './FeedGrid.css';

/** Height of one grid row in CSS pixels. */
export const FEED_ROW_HEIGHT_PX = 34;
/** Height of the grid's header row. */
const HEADER_HEIGHT_PX = 36;
/**
 * Tallest scroll spacer used. Chrome clamps elements at ~33.5M px and Firefox at ~17.9M px:
 * beyond this the scroll position is scaled (virtual offset = scrollTop x factor).
 */
export const MAX_SCROLL_HEIGHT_PX = 8_000_000;
/** The spec's delay before an added row is scrolled to. */
export const ADD_ROW_SCROLL_DELAY_MS = 100;
const FILTER_DEBOUNCE_MS = 150;
const GRID_OVERSCAN_ROWS = 4;
const LAYER_BLOCK_PX = 1_000_000;

/** A message for the person: import results, refusals, copy and paste counts. */
export interface FeedGridNotice {
  kind: 'success' | 'error' | 'info';
  message: string;
}

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

interface CellPosition {
  row: number;
  col: number;
}

interface EditState {
  slot: number;
  col: number;
  value: string;
  original: string;
}

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');
const formatCount = (n: number) => NUMBER_FORMAT.format(n);

/**
 * The feed grid: a virtualized spreadsheet of Root, Modifier, Var 1-3 and Final URL over a
 * FeedStore, fast at a million rows. Cells are real inputs; the keyboard works as in a
 * spreadsheet (arrows, Tab, Enter, Escape, copy, paste, undo, redo); CSV files import by the
 * file input or by dropping them on the grid.
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
  const scrollerRef = useRef<HTMLDivElement>(null);
  const focusRef = useRef<CellPosition>({ row: 0, col: 0 });
  const pendingFocusRef = useRef<(CellPosition & { select: boolean }) | null>(null);
  const [edit, setEdit] = useState<EditState | null>(null);
  const editRef = useRef<EditState | null>(null);
  editRef.current = edit;
  const [filterText, setFilterText] = useState(store.filter);
  const [notice, setNotice] = useState<FeedGridNotice | null>(null);
  const [importProgress, setImportProgress] = useState<number | null>(null);
  const [isDragOver, setIsDragOver] = useState(false);

  const viewCount = store.viewCount;
  const totalHeight = viewCount * FEED_ROW_HEIGHT_PX;
  const spacerHeight = Math.min(totalHeight, MAX_SCROLL_HEIGHT_PX);
  const bodyViewHeight = Math.max(1, height - HEADER_HEIGHT_PX);
  const factor =
    totalHeight > spacerHeight && spacerHeight > bodyViewHeight
      ? (totalHeight - bodyViewHeight) / (spacerHeight - bodyViewHeight)
      : 1;
  const factorRef = useRef(factor);
  factorRef.current = factor;
  const layerRef = useRef<HTMLDivElement>(null);
  // What the rendered rows depend on besides the store: the first row in view and the layer's
  // origin. A scroll that changes neither (most scroll events of a small step) renders nothing.
  const [, setScrollWindow] = useState({ first: 0, origin: 0 });

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return undefined;
    // Our own windowing: rows have one fixed height, so the range is arithmetic. (A generic
    // virtualizer keeps an object per row and rebuilds them all whenever the row count
    // changes: a million objects on opening a big feed, adding or deleting a row.)
    const handleScroll = () => {
      const scrollTop = scroller.scrollTop;
      const offset = scrollTop * factorRef.current;
      const origin = Math.floor(offset / LAYER_BLOCK_PX) * LAYER_BLOCK_PX;
      // The layer follows at once; the rows are rendered in their own task after this event,
      // not inside it, so the frame that handles the scroll only moves pixels.
      if (layerRef.current)
        layerRef.current.style.transform = `translateY(${scrollTop - offset + origin}px)`;
      const first = Math.floor(offset / FEED_ROW_HEIGHT_PX);
      setScrollWindow((previous) =>
        previous.first === first && previous.origin === origin ? previous : { first, origin },
      );
    };
    scroller.addEventListener('scroll', handleScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', handleScroll);
  }, []);

  const showNotice = useCallback(
    (next: FeedGridNotice) => {
      setNotice(next);
      onNotice?.(next);
    },
    [onNotice],
  );

  // ---- focus and scrolling ----

  const scrollRowIntoView = useCallback((row: number) => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const viewHeight = Math.max(1, scroller.clientHeight - HEADER_HEIGHT_PX);
    const offset = scroller.scrollTop * factorRef.current;
    const start = row * FEED_ROW_HEIGHT_PX;
    const end = start + FEED_ROW_HEIGHT_PX;
    let target = offset;
    if (start < offset) target = start;
    else if (end > offset + viewHeight) target = end - viewHeight;
    if (target !== offset) scroller.scrollTop = Math.ceil(target / factorRef.current);
  }, []);

  const focusInput = useCallback((position: CellPosition, select: boolean): boolean => {
    const scroller = scrollerRef.current;
    const input = scroller?.querySelector<HTMLInputElement>(
      `input[data-row="${position.row}"][data-col="${position.col}"]`,
    );
    if (!scroller || !input) return false;
    input.focus({ preventScroll: true });
    if (select) input.select();
    const cell = input.parentElement;
    if (cell) {
      if (cell.offsetLeft < scroller.scrollLeft) scroller.scrollLeft = cell.offsetLeft;
      else if (cell.offsetLeft + cell.offsetWidth > scroller.scrollLeft + scroller.clientWidth) {
        scroller.scrollLeft = cell.offsetLeft + cell.offsetWidth - scroller.clientWidth;
      }
    }
    return true;
  }, []);

  const moveFocus = useCallback(
    (row: number, col: number) => {
      const count = store.viewCount;
      if (count === 0) return;
      const position = {
        row: Math.max(0, Math.min(count - 1, row)),
        col: Math.max(0, Math.min(columnCount - 1, col)),
      };
      focusRef.current = position;
      scrollRowIntoView(position.row);
      if (!focusInput(position, true)) pendingFocusRef.current = { ...position, select: true };
    },
    [columnCount, focusInput, scrollRowIntoView, store],
  );

  useLayoutEffect(() => {
    // A pooled row that scrolled away now shows another row: let its input go (committing an edit).
    const active = document.activeElement;
    if (
      active instanceof HTMLInputElement &&
      active.dataset.slot !== undefined &&
      scrollerRef.current?.contains(active)
    ) {
      if (Number(active.dataset.slot) !== focusedSlotRef.current) active.blur();
    }
    const pending = pendingFocusRef.current;
    if (pending && focusInput(pending, pending.select)) pendingFocusRef.current = null;
  });

  // ---- editing ----

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

  const focusedSlotRef = useRef(-1);
  const handleCellFocus = useCallback((row: number, col: number, slot: number) => {
    focusRef.current = { row, col };
    focusedSlotRef.current = slot;
  }, []);

  const handleCellBlur = useCallback(() => {
    commitEdit();
  }, [commitEdit]);

  // ---- rows ----

  const handleAddRow = useCallback(() => {
    commitEdit();
    const row = store.addRow();
    setTimeout(() => moveFocus(row, 0), ADD_ROW_SCROLL_DELAY_MS);
  }, [commitEdit, moveFocus, store]);

  const handleDeleteSelected = useCallback(() => {
    commitEdit();
    const count = store.deleteSelected();
    if (count > 0)
      showNotice({
        kind: 'info',
        message: `Deleted ${formatCount(count)} ${count === 1 ? 'row' : 'rows'}.`,
      });
  }, [commitEdit, showNotice, store]);

  const handleDeleteRow = useCallback(
    (slot: number, row: number) => {
      commitEdit();
      store.deleteRow(slot);
      // The button went with its row: keep the keyboard in the grid, on the row that moved up.
      if (store.viewCount > 0)
        requestAnimationFrame(() => moveFocus(Math.min(row, store.viewCount - 1), 0));
    },
    [commitEdit, moveFocus, store],
  );

  const handleSelectAll = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => {
      if (event.target.checked) store.selectAllShown();
      else store.clearSelection();
    },
    [store],
  );

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

  // ---- filter ----

  useEffect(() => {
    const timer = setTimeout(() => void store.setFilter(filterText), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [filterText, store]);

  // ---- keyboard ----

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
    [cancelEdit, columnCount, commitEdit, height, moveFocus, store],
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

  // ---- clipboard ----

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
      } else if (target instanceof HTMLInputElement && target.dataset.slot !== undefined) {
        text = store.getCell(Number(target.dataset.slot), Number(target.dataset.col));
      } else {
        return;
      }
      event.preventDefault();
      event.clipboardData.setData('text/plain', text);
      if (count > 0)
        showNotice({
          kind: 'info',
          message: `Copied ${formatCount(count)} ${count === 1 ? 'row' : 'rows'}.`,
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
      showNotice({
        kind: 'info',
        message: `Pasted ${formatCount(lines.length)} ${lines.length === 1 ? 'row' : 'rows'}${result.addedRows > 0 ? ` (${formatCount(result.addedRows)} added)` : ''}.`,
      });
    },
    [cancelEdit, columnCount, showNotice, store],
  );

  // ---- import ----

  const runImport = useCallback(
    async (file: File) => {
      commitEdit();
      setImportProgress(0);
      showNotice({ kind: 'info', message: `Importing ${file.name}…` });
      const outcome = await importCsvFile(file, store, (fraction) => setImportProgress(fraction));
      setImportProgress(null);
      showNotice({ kind: outcome.ok ? 'success' : 'error', message: outcome.message });
    },
    [commitEdit, showNotice, store],
  );

  const handleFileInput = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => {
      const file = event.target.files?.[0];
      event.target.value = '';
      if (file) void runImport(file);
    },
    [runImport],
  );

  const handleDragOver = useCallback((event: DragEvent<HTMLDivElement>) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setIsDragOver(true);
  }, []);

  const handleDrop = useCallback(
    (event: DragEvent<HTMLDivElement>) => {
      setIsDragOver(false);
      const file = event.dataTransfer.files[0];
      if (!file) return;
      event.preventDefault();
      void runImport(file);
    },
    [runImport],
  );

  // ---- render ----

  const selectedCount = store.selectedCount;
  const isAllSelected = store.isAllShownSelected;
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
  const isImporting = importProgress !== null;

  return (
    <div
      className={`feed-grid${columnCount === 1 ? ' feed-grid--single' : ''}`}
      onKeyDown={handleRootKeyDown}
    >
      <div className="feed-grid__toolbar" role="toolbar" aria-label="Feed rows toolbar">
        <input
          className="feed-grid__filter"
          type="search"
          aria-label="Filter rows"
          placeholder="Filter rows"
          value={filterText}
          onChange={(event) => setFilterText(event.target.value)}
        />
        <span className="feed-grid__count" aria-live="polite">
          {store.isFiltering
            ? 'Filtering…'
            : store.filter
              ? `${formatCount(viewCount)} of ${formatCount(store.rowCount)} rows`
              : `${formatCount(store.rowCount)} ${store.rowCount === 1 ? 'row' : 'rows'}`}
        </span>
        <span className="feed-grid__spacer" />
        <button
          type="button"
          className="feed-grid__button"
          onClick={handleUndo}
          disabled={!store.canUndo && !edit}
          aria-keyshortcuts="Control+Z"
        >
          Undo
        </button>
        <button
          type="button"
          className="feed-grid__button"
          onClick={handleRedo}
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
            onChange={handleFileInput}
            disabled={isImporting}
          />
        </label>
        <button
          type="button"
          className="feed-grid__button feed-grid__button--danger"
          onClick={handleDeleteSelected}
          disabled={selectedCount === 0}
        >
          Delete ({formatCount(selectedCount)})
        </button>
        <button
          type="button"
          className="feed-grid__button feed-grid__button--primary"
          onClick={handleAddRow}
        >
          Add Row
        </button>
      </div>
      <div className="feed-grid__status" role="status">
        {isImporting ? (
          <>
            <progress max={1} value={importProgress} aria-label="Import progress" />{' '}
            <span>Importing… {Math.round(importProgress * 100)}%</span>
          </>
        ) : notice ? (
          <span className={`feed-grid__notice feed-grid__notice--${notice.kind}`}>
            {notice.message}
          </span>
        ) : null}
      </div>
      <div
        ref={scrollerRef}
        className={`feed-grid__scroller${isDragOver ? ' is-drag-over' : ''}`}
        style={{ height }}
        role="grid"
        aria-label={label}
        aria-rowcount={viewCount + 1}
        aria-colcount={columnCount + 3}
        aria-multiselectable="true"
        onKeyDown={handleKeyDown}
        onCopy={handleCopy}
        onPaste={handlePaste}
        onDragOver={handleDragOver}
        onDragLeave={() => setIsDragOver(false)}
        onDrop={handleDrop}
      >
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
                onChange={handleSelectAll}
                disabled={viewCount === 0}
              />
            </div>
            <div role="columnheader" className="feed-grid__cell feed-grid__cell--number">
              #
            </div>
            {shownColumns.map((column) => (
              <div
                key={column}
                role="columnheader"
                className="feed-grid__cell feed-grid__cell--label"
              >
                {FEED_COLUMN_LABELS[column]}
              </div>
            ))}
            <div role="columnheader" className="feed-grid__cell feed-grid__cell--action">
              <span className="feed-grid__sr-only">Delete</span>
            </div>
          </div>
        </div>
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
                <FeedGridRow
                  key={index % poolSize}
                  store={store}
                  columns={shownColumns}
                  version={store.getVersion()}
                  slot={slot}
                  index={index}
                  top={index * FEED_ROW_HEIGHT_PX - layerOrigin}
                  isSelected={store.isSelected(slot)}
                  editCol={rowEdit ? rowEdit.col : -1}
                  editValue={rowEdit ? rowEdit.value : ''}
                  onCellChange={handleCellChange}
                  onCellFocus={handleCellFocus}
                  onCellBlur={handleCellBlur}
                  onDelete={handleDeleteRow}
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

interface FeedGridRowProps {
  store: FeedStore;
  columns: readonly (typeof FEED_COLUMNS)[number][];
  version: number;
  slot: number;
  index: number;
  top: number;
  isSelected: boolean;
  editCol: number;
  editValue: string;
  onCellChange: (slot: number, col: number, value: string) => void;
  onCellFocus: (row: number, col: number, slot: number) => void;
  onCellBlur: () => void;
  onDelete: (slot: number, row: number) => void;
}

const FeedGridRow = memo(function FeedGridRow({
  store,
  columns,
  slot,
  index,
  top,
  isSelected,
  editCol,
  editValue,
  onCellChange,
  onCellFocus,
  onCellBlur,
  onDelete,
}: FeedGridRowProps) {
  const rowNumber = index + 1;
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
