import { FIRST_VALUE_CELL, HEADER_ROW, type CellPosition } from './gridLayout.ts';

/** What a move key is measured against: the shown rows, the value columns, a page of rows. */
export interface GridExtent {
  rowCount: number;
  /** Shown value columns (the grid has this many + 3 cells a row). */
  columnCount: number;
  /** Rows Page Up / Page Down move by. */
  pageRows: number;
}

/**
 * Where a navigation key moves the focus from a cell (the ARIA grid pattern), or null when the
 * key does not move: arrows one cell (Ctrl/Cmd+Up/Down to the first/last row), Page Up/Down
 * a page of rows, Home/End to the row's first/last value cell, Ctrl/Cmd+Home/End to the
 * grid's first/last value cell. Rows stop at the header above and the last row below.
 */
export function gridKeyTarget(
  key: string,
  isMod: boolean,
  from: CellPosition,
  extent: GridExtent,
): CellPosition | null {
  const lastRow = extent.rowCount - 1;
  const lastCell = extent.columnCount + FIRST_VALUE_CELL;
  const lastValueCell = lastCell - 1;
  const clampRow = (row: number) => Math.max(HEADER_ROW, Math.min(lastRow, row));
  const at = (row: number, col: number): CellPosition => ({
    row: clampRow(row),
    col: Math.max(0, Math.min(lastCell, col)),
  });
  switch (key) {
    case 'ArrowUp':
      return at(isMod ? Math.min(from.row, 0) : from.row - 1, from.col);
    case 'ArrowDown':
      return at(isMod ? lastRow : from.row + 1, from.col);
    case 'ArrowLeft':
      return at(from.row, from.col - 1);
    case 'ArrowRight':
      return at(from.row, from.col + 1);
    case 'PageUp':
      return at(Math.max(Math.min(from.row, 0), from.row - extent.pageRows), from.col);
    case 'PageDown':
      return at(from.row + extent.pageRows, from.col);
    case 'Home':
      return isMod ? at(0, FIRST_VALUE_CELL) : at(from.row, FIRST_VALUE_CELL);
    case 'End':
      return isMod ? at(lastRow, lastValueCell) : at(from.row, lastValueCell);
    default:
      return null;
  }
}
