import { FEED_COLUMNS, type FeedColumn } from '@adloom/engine';

/** Number of data columns in a feed row (root, mod, var1, var2, var3, url). */
export const FEED_COLUMN_COUNT = FEED_COLUMNS.length;
/** Index of the Final URL column. */
export const URL_COLUMN_INDEX = FEED_COLUMNS.indexOf('url');
/** Root, modifier and var cells are trimmed and cut to this many characters (spec section 5). */
export const FEED_CELL_MAX_CHARS = 30;
/** Final URL cells are trimmed and cut to this many characters. */
export const FEED_URL_MAX_CHARS = 2048;

/** The grid's visible column labels, in FEED_COLUMNS order. */
export const FEED_COLUMN_LABELS: Record<FeedColumn, string> = {
  root: 'Root',
  mod: 'Modifier',
  var1: 'Var 1',
  var2: 'Var 2',
  var3: 'Var 3',
  url: 'Final URL',
};

/** Most characters a cell of the column at `columnIndex` may hold. */
export function getColumnMaxChars(columnIndex: number): number {
  return columnIndex === URL_COLUMN_INDEX ? FEED_URL_MAX_CHARS : FEED_CELL_MAX_CHARS;
}

/** A cell value as the feed stores it: trimmed and cut to the column's limit. */
export function normalizeCell(value: string, columnIndex: number): string {
  const trimmed = value.trim();
  const max = getColumnMaxChars(columnIndex);
  return trimmed.length > max ? trimmed.slice(0, max).trimEnd() : trimmed;
}

const HEADER_ALIASES = new Map<string, number>();
FEED_COLUMNS.forEach((column, index) => {
  HEADER_ALIASES.set(normalizeHeader(column), index);
  HEADER_ALIASES.set(normalizeHeader(FEED_COLUMN_LABELS[column]), index);
});
HEADER_ALIASES.set('modifier', FEED_COLUMNS.indexOf('mod'));
HEADER_ALIASES.set('finalurl', URL_COLUMN_INDEX);

function normalizeHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/**
 * The feed column a header names (`root`, `mod`, `var1`..`var3`, `url` or the grid labels
 * Root, Modifier, Var 1.. Var 3, Final URL; case and spacing ignored), or undefined.
 */
export function findColumnForHeader(header: string): number | undefined {
  return HEADER_ALIASES.get(normalizeHeader(header));
}

/** Whether a line of cells is a header row: every non-empty cell names a feed column. */
export function isHeaderRow(cells: readonly string[]): boolean {
  const filled = cells.filter((cell) => cell.trim() !== '');
  return filled.length > 0 && filled.every((cell) => findColumnForHeader(cell) !== undefined);
}
