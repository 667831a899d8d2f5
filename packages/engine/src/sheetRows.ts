/**
 * Feed rows to and from a Google Sheets tab's values (`string[][]`, first row the headers).
 * Headers are matched exactly as CSV import matches them (`mapFeedHeaders`); unlike a CSV file,
 * a sheet is written back by the app, so a header row must name each column once.
 */
import {
  describeUnrecognisedHeaders,
  limitFeedCell,
  mapFeedHeaders,
  readMappedRows,
  type FeedRowData,
} from './data.ts';
import { FEED_COLUMNS, newFeedCells, type FeedColumn } from './feedColumns.ts';

/** The header row written to a sheet: the CSV-import names of the feed's columns (their keys). */
export const SHEET_HEADER_ROW: readonly string[] = FEED_COLUMNS;

/** Why a sheet's header row cannot be read. */
export type SheetHeaderProblem = 'no-header-row' | 'repeated-header' | 'no-recognised-column';

/** Result of `readSheetRows`. */
export type ReadSheetRowsResult =
  | {
      ok: true;
      rows: FeedRowData[];
      columns: FeedColumn[];
      /** Non-empty headers no feed column matches (their cells are ignored). */
      ignoredHeaders: string[];
      /** Cells cut to the feed cell limits. */
      truncatedCells: number;
    }
  | { ok: false; problem: SheetHeaderProblem; error: string };

function isBlank(cells: readonly string[] | undefined): boolean {
  return !cells || cells.every((c) => c.trim() === '');
}

/** The first repeated header: the same text twice (any case), or two naming one feed column. */
function findRepeatedHeader(
  header: readonly string[],
  mapping: readonly (FeedColumn | undefined)[],
): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < header.length; i++) {
    const text = header[i]!.trim();
    if (text === '') continue;
    const key = mapping[i] ?? `text:${text.toLowerCase()}`;
    if (seen.has(key)) return text;
    seen.add(key);
  }
  return undefined;
}

/**
 * A sheet's values as feed rows. The first row holds the headers (each column's key, label or
 * alias, any case: root, mod/Modifier, var1/Var 1, url/Final URL); cells are trimmed and limited like CSV import,
 * blank rows skipped. No header row, a repeated header or no recognised column is an error.
 */
export function readSheetRows(values: readonly (readonly string[])[]): ReadSheetRowsResult {
  const header = values[0];
  if (!header || isBlank(header))
    return {
      ok: false,
      problem: 'no-header-row',
      error: 'The sheet has no header row: its first row is empty',
    };
  const { mapping, columns, ignoredHeaders } = mapFeedHeaders(header);
  const repeated = findRepeatedHeader(header, mapping);
  if (repeated !== undefined)
    return {
      ok: false,
      problem: 'repeated-header',
      error: `The header row names a column twice (${JSON.stringify(repeated)}): each header must be unique`,
    };
  if (columns.length === 0)
    return {
      ok: false,
      problem: 'no-recognised-column',
      error: describeUnrecognisedHeaders(header),
    };
  const read = readMappedRows(values, mapping);
  return {
    ok: true,
    // A row with text only under ignored columns is blank as a feed row: skipped.
    rows: read.rows.filter((row) => FEED_COLUMNS.some((col) => row[col] !== '')),
    columns,
    ignoredHeaders,
    truncatedCells: read.truncated.length,
  };
}

/** A row's cells in sheet column order (`FEED_COLUMNS`). */
function sheetCellsOf(row: FeedRowData): string[] {
  return FEED_COLUMNS.map((col) => row[col] ?? '');
}

/** Feed rows as sheet values: the header row `SHEET_HEADER_ROW`, then one row each. */
export function formatSheetValues(rows: readonly FeedRowData[]): string[][] {
  const values = new Array<string[]>(rows.length + 1);
  values[0] = [...SHEET_HEADER_ROW];
  for (let i = 0; i < rows.length; i++) values[i + 1] = sheetCellsOf(rows[i]!);
  return values;
}

/**
 * How many non-blank rows of a sheet `rows` does not hold, compared by every cell value as
 * they stand in the sheet (trimmed). When the sheet's headers cannot be read, every non-blank
 * row counts, the first one too: uploading replaces them all.
 */
export function countSheetRowsNotIn(
  values: readonly (readonly string[])[],
  rows: readonly FeedRowData[],
): number {
  const header = values[0];
  const mapping = header ? mapFeedHeaders(header).mapping : [];
  const isReadable =
    header !== undefined &&
    !isBlank(header) &&
    mapping.some((c) => c !== undefined) &&
    findRepeatedHeader(header, mapping) === undefined;
  if (!isReadable) return values.filter((cells) => !isBlank(cells)).length;
  const held = new Set(rows.map((row) => JSON.stringify(sheetCellsOf(row))));
  let count = 0;
  for (let r = 1; r < values.length; r++) {
    const cells = values[r]!;
    if (isBlank(cells)) continue;
    // A row with text under a column no feed column matches is lost by an upload: it counts.
    if (cells.some((cell, i) => mapping[i] === undefined && cell.trim() !== '')) {
      count++;
      continue;
    }
    const row = newFeedCells();
    mapping.forEach((col, i) => {
      // Cut as a download cuts it, so a downloaded row is recognised as held.
      if (col) row[col] = limitFeedCell(col, cells[i] ?? '').value;
    });
    if (!held.has(JSON.stringify(sheetCellsOf(row)))) count++;
  }
  return count;
}
