/**
 * The grid's columns: the engine's one feed-column list (`FEED_COLUMN_DEFINITIONS`) by index, as
 * the grid, its store and its imports address them.
 */
import {
  FEED_COLUMN_LABELS,
  FEED_COLUMN_MAX_CHARS,
  FEED_COLUMNS,
  URL_COLUMN_INDEX,
  findFeedColumn,
  limitFeedCell,
  identifiedFeedCellsFrom,
  type FeedColumn,
  type FeedRow,
} from '@adloom/engine';

/** The grid's visible column labels, in FEED_COLUMNS order (as the engine's reports name them). */
export { FEED_COLUMN_LABELS };

/** Number of data columns in a feed row (`FEED_COLUMNS`). */
export const FEED_COLUMN_COUNT = FEED_COLUMNS.length;
/** Index of the Final URL column. */
export { URL_COLUMN_INDEX };

/** The grid's track of each column kind: Final URL wider, Status narrow (a word: active, paused). */
const COLUMN_TRACK: Readonly<Partial<Record<FeedColumn, string>>> = {
  url: 'minmax(220px, 2fr)',
  status: 'minmax(104px, 0.75fr)',
};

/**
 * The grid's CSS column tracks for these feed columns: row number, select box, one track per
 * column (Final URL wider, Status narrow), delete button.
 */
export function gridColumnTracks(columns: readonly FeedColumn[]): string {
  const tracks = columns.map((c) => COLUMN_TRACK[c] ?? 'minmax(115px, 1fr)');
  return ['40px', '72px', ...tracks, '44px'].join(' ');
}

/**
 * What an empty cell of the column shows greyed (an empty Status is active), or undefined.
 */
export function cellPlaceholder(column: FeedColumn): string | undefined {
  return column === 'status' ? 'active' : undefined;
}

/** Most characters a cell of the column at `columnIndex` may hold. */
export function getColumnMaxChars(columnIndex: number): number {
  return FEED_COLUMN_MAX_CHARS[FEED_COLUMNS[columnIndex] ?? 'root'];
}

/** A cell value as the feed stores it: trimmed and cut to the column's limit (the engine's rule). */
export function normalizeCell(value: string, columnIndex: number): string {
  return limitFeedCell(FEED_COLUMNS[columnIndex] ?? 'root', value).value;
}

/**
 * The feed column index a header names, mapped as the engine's `findFeedColumn` does (a column's
 * key, label or alias: `root`, `Modifier`, `Var 1`, `Final URL`; case and spacing ignored), or
 * undefined. A byte-order mark before the first header is ignored.
 */
export function findColumnForHeader(header: string): number | undefined {
  const column = findFeedColumn(header.replace(/^\uFEFF/, '').trim());
  return column === undefined ? undefined : FEED_COLUMNS.indexOf(column);
}

/** Whether a line of cells is a header row: every non-empty cell names a feed column. */
export function isHeaderRow(cells: readonly string[]): boolean {
  const filled = cells.filter((cell) => cell.trim() !== '');
  return filled.length > 0 && filled.every((cell) => findColumnForHeader(cell) !== undefined);
}

/** The cells of the row `feedRowAt` is making (reused: the row copies them). */
const ROW_CELLS: string[] = [];

/**
 * The row object of the cells at `index` of the columns (FEED_COLUMNS order): one fixed shape,
 * for code that turns columns into rows (saving a feed, restoring a draft).
 */
export function feedRowAt(
  id: string,
  columns: readonly (readonly string[])[],
  index: number,
): FeedRow {
  const cells = ROW_CELLS;
  for (let c = 0; c < FEED_COLUMN_COUNT; c += 1) cells[c] = columns[c]![index]!;
  return identifiedFeedCellsFrom(id, cells);
}
