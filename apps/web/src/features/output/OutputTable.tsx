import { useEffect } from 'react';
import { Text } from '@mantine/core';
import { readPackedCell, type PackedTable } from '../generation/packTable.ts';
import { claimOutputFocus } from './outputFocus.ts';
import type { TableExport } from '../exports/downloads.ts';
import { OutputToolbar } from './OutputToolbar.tsx';
import { useOutputActions } from './useOutputActions.ts';
import { useFittedRowLines } from './useFittedRowLines.ts';
import { useOutputScroll } from './useOutputScroll.ts';
import './OutputTable.css';

/** Height of one output line. */
export const OUTPUT_ROW_HEIGHT_PX = 28;
/** Height each further line of text adds to a row of a table whose cells wrap. */
const WRAPPED_LINE_HEIGHT_PX = 18;
/** Lines drawn above and below the visible ones. */
const OVERSCAN_ROWS = 8;
/** Width of a column when the table is wider than its frame. */
export const OUTPUT_COLUMN_WIDTH_PX = 150;
/**
 * Tables with more columns than this draw only the columns in view (and one either side): an
 * RSA output of 45 columns drew 1,300 cells at once, a 130 ms task in Chromium on a 2-core machine.
 */
export const COLUMN_WINDOW_FROM = 20;
/** Columns drawn left and right of the visible ones. */
const OVERSCAN_COLUMNS = 1;
/** Past this height the scroll position is scaled (browsers cap element heights). */
const MAX_SCROLL_HEIGHT_PX = 8_000_000;

/** Props of `OutputTable`. */
export interface OutputTableProps {
  /** Accessible name of the table (e.g. 'Keywords'). */
  label: string;
  table: PackedTable | null;
  /** Clear button; omitted: no Clear button. */
  onClear?: () => void;
  /**
   * 'Download for Google Ads Editor' saves `table` as the Editor CSV of this table kind, named
   * for the client and today (the export step's `downloadTable`).
   */
  editorExport?: TableExport;
  /** What Copy puts on the clipboard when it is not `table`. */
  copyTable?: PackedTable | null;
  /**
   * Copy is for a spreadsheet: cells starting with = + - @ get an apostrophe (lists such as the
   * skipped-and-cleaned items; never outputs meant for Editor, which keep the text as typed).
   */
  neutraliseCopy?: boolean;
  /** Height of the scrolling body in px (default 360). */
  height?: number;
  /** Text when there is nothing to show. */
  emptyText?: string;
  /** Word for one line in the count ('line' by default). */
  unit?: [singular: string, plural: string];
  /** CSS grid column widths (default: every column at least 150 px). */
  columnWidths?: string;
  /**
   * Lines of text a cell shows, wrapped (default 1: one line, cut with an ellipsis); 'fit': as
   * many as the last column's longest text needs at the width it has, so every text shows whole.
   */
  rowLines?: number | 'fit';
}

/**
 * The columns to draw, [first, last), of a table of `columnCount` columns of `columnWidth` px
 * scrolled `scrollLeft` px in a frame `width` px wide: all of them when the frame's width is not
 * known yet (0) or the table has at most COLUMN_WINDOW_FROM columns.
 */
export function visibleColumns(
  columnCount: number,
  scrollLeft: number,
  width: number,
  columnWidth = OUTPUT_COLUMN_WIDTH_PX,
): [first: number, last: number] {
  if (columnCount <= COLUMN_WINDOW_FROM || width <= 0) return [0, columnCount];
  const first = Math.max(0, Math.floor(scrollLeft / columnWidth) - OVERSCAN_COLUMNS);
  const last = Math.min(
    columnCount,
    Math.ceil((scrollLeft + width) / columnWidth) + OVERSCAN_COLUMNS,
  );
  return [Math.min(first, last), last];
}

/**
 * A generated output as a virtualized table (only the visible lines are in the page, so 600k
 * lines scroll smoothly) with Copy (tab-separated, header first), Clear and 'Download for Google
 * Ads Editor'. Copy text and CSV are made in the engine worker.
 */
export function OutputTable({
  label,
  table,
  onClear,
  editorExport,
  copyTable,
  neutraliseCopy = false,
  height = 360,
  emptyText = 'Nothing generated yet.',
  unit = ['line', 'lines'],
  columnWidths,
  rowLines: lineSetting = 1,
}: OutputTableProps) {
  const isFitted = lineSetting === 'fit';
  const fitted = useFittedRowLines(table, WRAPPED_LINE_HEIGHT_PX, isFitted);
  const rowLines = isFitted ? fitted.lines : lineSetting;
  const isWrapping = isFitted || rowLines > 1;
  const rowHeight = OUTPUT_ROW_HEIGHT_PX + (rowLines - 1) * WRAPPED_LINE_HEIGHT_PX;
  const rowCount = table?.rowCount ?? 0;
  const columnCount = table?.headers.length ?? 0;
  const isWindowed = !columnWidths && columnCount > COLUMN_WINDOW_FROM;

  const { scrollerRef, scrollTop, scrollLeft, frameWidth, handleScroll } = useOutputScroll(
    table,
    isWindowed,
  );

  useEffect(() => {
    if (table && scrollerRef.current) claimOutputFocus(scrollerRef.current);
  }, [table, scrollerRef]);

  const { copySource, busy, handleCopy, handleDownload } = useOutputActions(
    table,
    copyTable,
    editorExport,
    neutraliseCopy,
  );

  // A short output takes only the room its lines need.
  const bodyHeight = Math.min(height, Math.max(1, rowCount) * rowHeight);
  const totalHeight = rowCount * rowHeight;
  const spacerHeight = Math.min(totalHeight, MAX_SCROLL_HEIGHT_PX);
  const factor =
    totalHeight > spacerHeight && spacerHeight > bodyHeight
      ? (totalHeight - bodyHeight) / (spacerHeight - bodyHeight)
      : 1;
  const virtualTop = scrollTop * factor;
  const first = Math.max(0, Math.floor(virtualTop / rowHeight) - OVERSCAN_ROWS);
  const visible = Math.ceil(bodyHeight / rowHeight) + OVERSCAN_ROWS * 2;
  const last = Math.min(rowCount, first + visible);
  const layerTop = scrollTop + (first * rowHeight - virtualTop);
  const gridTemplate =
    columnWidths ??
    (isWindowed
      ? `repeat(${columnCount}, ${OUTPUT_COLUMN_WIDTH_PX}px)`
      : `repeat(${Math.max(1, columnCount)}, minmax(${OUTPUT_COLUMN_WIDTH_PX}px, 1fr))`);
  const [firstColumn, lastColumn] = isWindowed
    ? visibleColumns(columnCount, scrollLeft, frameWidth)
    : [0, columnCount];
  const isEmpty = rowCount === 0;

  const rows = [];
  if (table) {
    for (let r = first; r < last; r += 1) {
      const cells = [];
      for (let c = firstColumn; c < lastColumn; c += 1) {
        const value = readPackedCell(table, r, c);
        cells.push(
          <span
            role="cell"
            key={c}
            className="output-table__cell"
            title={value}
            aria-colindex={isWindowed ? c + 1 : undefined}
            style={isWindowed ? { gridColumn: c + 1 } : undefined}
          >
            {value}
          </span>,
        );
      }
      rows.push(
        <div
          role="row"
          aria-rowindex={r + 2}
          key={r}
          className="output-table__row"
          style={{
            gridTemplateColumns: gridTemplate,
            top: (r - first) * rowHeight,
            height: isWrapping ? rowHeight : undefined,
          }}
        >
          {cells}
        </div>,
      );
    }
  }

  return (
    <div className="output-table">
      <OutputToolbar
        label={label}
        rowCount={rowCount}
        unit={unit}
        canCopy={!!copySource && copySource.rowCount > 0}
        busy={busy}
        onCopy={() => void handleCopy()}
        onClear={onClear}
        isClearDisabled={isEmpty && !copySource?.rowCount}
        canDownload={!!editorExport}
        isDownloadDisabled={isEmpty}
        onDownload={() => void handleDownload()}
        onMicrosoftDownload={() => void handleDownload(true)}
      />
      <div className={`output-table__frame${isWrapping ? ' output-table__frame--wrap' : ''}`}>
        {/* The table scrolls, so it is a Tab stop: arrow keys scroll it, and Generate's output
            can take the focus. A table of only headers scrolls sideways too (an ad table has
            dozens of columns). The empty text sits outside it: a table holds only rows. */}
        <div
          role="table"
          aria-label={label}
          aria-rowcount={rowCount + 1}
          aria-colcount={columnCount}
          tabIndex={isEmpty && columnCount === 0 ? -1 : 0}
          className="output-table__scroller"
          ref={scrollerRef}
          onScroll={handleScroll}
          style={{ height: isEmpty ? undefined : bodyHeight + OUTPUT_ROW_HEIGHT_PX + 2 }}
        >
          {columnCount > 0 ? (
            <div role="rowgroup" className="output-table__head">
              <div
                role="row"
                aria-rowindex={1}
                className="output-table__row output-table__row--head"
                style={{ gridTemplateColumns: gridTemplate }}
              >
                {(table?.headers ?? []).map((header, c) => (
                  <span
                    role="columnheader"
                    key={header}
                    className="output-table__cell"
                    ref={c === columnCount - 1 ? fitted.lastHeaderRef : undefined}
                  >
                    {header}
                  </span>
                ))}
              </div>
            </div>
          ) : null}
          {isEmpty ? null : (
            <div
              role="rowgroup"
              className="output-table__body"
              style={{
                height: Math.max(spacerHeight, 1),
                minWidth: columnWidths ? undefined : columnCount * OUTPUT_COLUMN_WIDTH_PX,
              }}
            >
              <div
                className="output-table__layer"
                style={{ transform: `translateY(${layerTop}px)` }}
              >
                {rows}
              </div>
            </div>
          )}
        </div>
        {isFitted && !isEmpty ? (
          <span
            ref={fitted.probeRef}
            aria-hidden
            className="output-table__cell output-table__probe"
          >
            {fitted.longest}
          </span>
        ) : null}
        {isEmpty ? (
          <Text size="sm" c="dimmed" className="output-table__empty">
            {emptyText}
          </Text>
        ) : null}
      </div>
    </div>
  );
}
