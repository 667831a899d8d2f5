/** Data helpers: keyword combiner, clipboard paste, CSV import mapped by header names. */
import { forEachCsvRecord } from './csv.ts';
import {
  FEED_COLUMN_MAX_CHARS,
  FEED_COLUMNS,
  FEED_TEXT_COLUMNS,
  URL_COLUMN_INDEX,
  describeFeedColumnKeys,
  feedCellsFrom,
  headerNamesOf,
  isEmptyFeedCells,
  newFeedCells,
  type FeedCells,
  type FeedColumn,
  type FeedTextColumn,
} from './feedColumns.ts';
import { LINKED_VARIABLES_ERROR } from './limits.ts';
import type { FeedRow } from './types.ts';

/** A feed row's data without its id. */
export type FeedRowData = FeedCells;

/** The seed columns of the combiner, in order: the feed's text columns. */
export const SEED_COLUMNS: readonly SeedColumn[] = FEED_TEXT_COLUMNS;
/** A seed column. */
export type SeedColumn = FeedTextColumn;

/** Splits a seed text area into values: one per line, trimmed, empty lines dropped. */
export function splitSeedLines(text: string): string[] {
  return text
    .split(/\r?\n|\r/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Input of `combineSeeds`. */
export interface CombineSeedsInput {
  seeds: Partial<Record<SeedColumn, readonly string[]>>;
  /** links[i] joins SEED_COLUMNS[i] and SEED_COLUMNS[i + 1] (one fewer than the seeds). */
  links?: readonly boolean[];
}

/**
 * Every combination of the non-empty seed lists. Linked neighbouring columns are zipped (their
 * i-th values stay together) and must have the same number of values.
 */
export function combineSeeds(
  input: CombineSeedsInput,
): { ok: true; rows: FeedRowData[] } | { ok: false; error: string } {
  const links = input.links ?? [];
  // Build groups of linked neighbouring columns.
  const groups: SeedColumn[][] = [];
  SEED_COLUMNS.forEach((col, i) => {
    const last = groups[groups.length - 1];
    if (i > 0 && links[i - 1] && last) last.push(col);
    else groups.push([col]);
  });
  const factors: Array<{ cols: SeedColumn[]; size: number }> = [];
  for (const cols of groups) {
    const used = cols.filter((c) => (input.seeds[c]?.length ?? 0) > 0);
    if (used.length === 0) continue;
    const sizes = new Set(cols.map((c) => input.seeds[c]?.length ?? 0));
    if (cols.length > 1 && sizes.size > 1) return { ok: false, error: LINKED_VARIABLES_ERROR };
    factors.push({ cols: used, size: input.seeds[used[0]!]?.length ?? 0 });
  }
  if (factors.length === 0) return { ok: true, rows: [] };
  const rows: FeedRowData[] = [];
  const idx = new Array<number>(factors.length).fill(0);
  for (;;) {
    const row = newFeedCells();
    factors.forEach((f, k) => {
      for (const c of f.cols) row[c] = input.seeds[c]?.[idx[k]!] ?? '';
    });
    rows.push(row);
    let k = factors.length - 1;
    while (k >= 0) {
      idx[k]!++;
      if (idx[k]! < factors[k]!.size) break;
      idx[k] = 0;
      k--;
    }
    if (k < 0) break;
  }
  return { ok: true, rows };
}

/** A cell that was cut to the feed cell limit. */
export interface TruncatedCell {
  /** Position from 1 of the row among the rows read (header and blank lines not counted). */
  rowNumber: number;
  column: FeedColumn;
  original: string;
}

/**
 * Trims a cell and limits a text column's cell to its `maxChars` (30). A Final URL is never cut:
 * a cut URL is another page, so a URL too long for Google reaches the engine whole and its item
 * is reported and not written (`findFinalUrlProblem`).
 */
export function limitFeedCell(
  column: FeedColumn,
  value: string,
): { value: string; isTruncated: boolean } {
  const v = value.trim();
  const max = FEED_COLUMN_MAX_CHARS[column];
  if (v.length <= max || column === 'url') return { value: v, isTruncated: false };
  const cut = [...v].slice(0, max).join('').trimEnd();
  return { value: cut, isTruncated: true };
}

/** Result of reading rows from pasted or imported text. */
export interface ReadRowsResult {
  rows: FeedRowData[];
  truncated: TruncatedCell[];
}

/** Clipboard paste: tab-separated lines, first line skipped, columns in `FEED_COLUMNS` order. */
export function parsePastedRows(text: string): ReadRowsResult {
  const lines = text.split(/\r?\n|\r/);
  const rows: FeedRowData[] = [];
  const truncated: TruncatedCell[] = [];
  for (let l = 1; l < lines.length; l++) {
    const line = lines[l] ?? '';
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const row = newFeedCells();
    FEED_COLUMNS.forEach((col, i) => {
      const c = limitFeedCell(col, cells[i] ?? '');
      row[col] = c.value;
      if (c.isTruncated)
        truncated.push({
          rowNumber: rows.length + 1,
          column: col,
          original: (cells[i] ?? '').trim(),
        });
    });
    rows.push(row);
  }
  return { rows, truncated };
}

/** True when every data column of the row is empty. */
export function isEmptyFeedRow(row: FeedRowData): boolean {
  return isEmptyFeedCells(row);
}

/** A header as headers are compared: lowercased without spaces, '_' or '-'. */
function normaliseHeader(header: string): string {
  return header.toLowerCase().replace(/[\s_-]+/g, '');
}

/** Header names accepted for each column: its key, its label and its aliases, normalised. */
const COLUMN_BY_HEADER = new Map<string, FeedColumn>(
  FEED_COLUMNS.flatMap((col) =>
    headerNamesOf(col).map((a): [string, FeedColumn] => [normaliseHeader(a), col]),
  ),
);

/** The feed column a header names ('root', 'Modifier', 'Var 1', 'Final URL', ...), or undefined. */
export function findFeedColumn(header: string): FeedColumn | undefined {
  return COLUMN_BY_HEADER.get(normaliseHeader(header));
}

/** How a header row maps to feed columns. */
export interface FeedHeaderMapping {
  /** The feed column each header cell names, or undefined for one no column matches. */
  mapping: Array<FeedColumn | undefined>;
  /** The recognised columns, each once, in header order. */
  columns: FeedColumn[];
  /** Non-empty headers no feed column matches. */
  ignoredHeaders: string[];
}

/** Maps a header row with `findFeedColumn`, the one rule of CSV import and Google Sheets. */
export function mapFeedHeaders(header: readonly string[]): FeedHeaderMapping {
  const mapping = header.map((h) => findFeedColumn(h));
  const columns = [...new Set(mapping.filter((c): c is FeedColumn => c !== undefined))];
  const ignoredHeaders = header.filter((h, i) => mapping[i] === undefined && h.trim() !== '');
  return { mapping, columns, ignoredHeaders };
}

/** The message for a header row that names no feed column. */
export function describeUnrecognisedHeaders(header: readonly string[]): string {
  return `No recognised column in the header row (${header.map((h) => JSON.stringify(h)).join(', ')}); expected ${describeFeedColumnKeys()} (or their labels, such as Root, Modifier, Var 1, Final URL)`;
}

/**
 * The rows under a table's header (row 0), cells placed by `mapping`, trimmed and limited; blank
 * rows skipped. A column named twice takes its first non-empty cell. `onRow` hears the table
 * index of each row read.
 */
export function readMappedRows(
  table: readonly (readonly string[])[],
  mapping: readonly (FeedColumn | undefined)[],
  onRow?: (tableIndex: number) => void,
): ReadRowsResult {
  const rows: FeedRowData[] = [];
  const truncated: TruncatedCell[] = [];
  const slots = columnSlots(mapping);
  for (let r = 1; r < table.length; r++) {
    const row = readMappedRow(table[r]!, slots, rows.length + 1, truncated);
    if (!row) continue;
    onRow?.(r);
    rows.push(row);
  }
  return { rows, truncated };
}

/** Per header cell the index in `FEED_COLUMNS` of the column it names, or -1. */
function columnSlots(mapping: readonly (FeedColumn | undefined)[]): Int8Array {
  return Int8Array.from(mapping, (col) => (col === undefined ? -1 : FEED_COLUMNS.indexOf(col)));
}

/**
 * One record's row (`readMappedRows`), cells placed by `slots` (`columnSlots`), numbered
 * `rowNumber` in `truncated`; undefined for a blank record. The cells are gathered by slot and
 * the row made at the end in one go (`feedCellsFrom`), always of one shape.
 */
function readMappedRow(
  cells: readonly string[],
  slots: Int8Array,
  rowNumber: number,
  truncated: TruncatedCell[],
): FeedRowData | undefined {
  let isBlank = true;
  for (let i = 0; i < cells.length; i++) {
    if ((cells[i] ?? '').trim() !== '') {
      isBlank = false;
      break;
    }
  }
  if (isBlank) return undefined;
  const values = scratchCells;
  values.fill('');
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if (slot < 0) continue;
    const cell = cells[i] ?? '';
    let value = cell.trim();
    if (value.length > (MAX_CHARS_BY_SLOT[slot] as number) && slot !== URL_COLUMN_INDEX) {
      const column = FEED_COLUMNS[slot]!;
      value = limitFeedCell(column, cell).value;
      truncated.push({ rowNumber, column, original: cell.trim() });
    }
    // A column named twice takes its first non-empty cell.
    if (values[slot] === '') values[slot] = value;
  }
  return feedCellsFrom(values);
}

/** Each column's cell limit by slot (a lookup by index per cell, not by name). */
const MAX_CHARS_BY_SLOT = Int32Array.from(FEED_COLUMNS, (column) => FEED_COLUMN_MAX_CHARS[column]);

/** The cells of the row `readMappedRow` is reading, by slot (reused: one array per reader). */
const scratchCells: string[] = FEED_COLUMNS.map(() => '');

/** Result of `importCsvRows`. */
export type ImportCsvResult =
  | (ReadRowsResult & {
      ok: true;
      columns: FeedColumn[];
      ignoredHeaders: string[];
      /**
       * For each row read, the physical line of the file it starts on: the header is line 1,
       * blank lines and line breaks inside quoted cells count.
       */
      sourceLines: number[];
      /** The cell separator the file was read with (`detectCsvDelimiter`). */
      delimiter: CsvDelimiter;
    })
  | { ok: false; error: string };

/**
 * Feed rows from CSV records handed over one by one (`forEachCsvRecord`, or a file read in
 * pieces): the first non-blank record is the header and names the fields (each column's key,
 * label or alias: `root`, `Modifier`, `Var 1`, `Final URL`, in any case). Cells
 * are trimmed and limited; blank records are skipped. A header with no recognised column is an
 * error (`error`).
 */
export class FeedCsvReader {
  error: string | undefined;
  mapped: FeedHeaderMapping | undefined;
  readonly truncated: TruncatedCell[] = [];
  /** Rows read so far. */
  count = 0;
  /** `columnSlots` of the header's mapping. */
  private slots: Int8Array = new Int8Array(0);

  /** `onRow` hears each row with the physical line it starts on. */
  constructor(private readonly onRow: (row: FeedRowData, line: number) => void) {}

  /** Reads one record; false when reading should stop (see `error`). */
  record(cells: string[], line: number): boolean {
    if (!this.mapped) {
      if (cells.every((h) => h.trim() === '')) {
        this.error = 'The file is empty: a header row is needed';
        return false;
      }
      this.mapped = mapFeedHeaders(cells);
      this.slots = columnSlots(this.mapped.mapping);
      if (this.mapped.columns.length === 0) {
        this.error = describeUnrecognisedHeaders(cells);
        return false;
      }
      return true;
    }
    const row = readMappedRow(cells, this.slots, this.count + 1, this.truncated);
    if (!row) return true;
    this.count++;
    this.onRow(row, line);
    return true;
  }

  /** The error once every record is read: a header naming no column, or no header at all. */
  finish(): string | undefined {
    return this.mapped ? this.error : (this.error ?? 'The file is empty: a header row is needed');
  }
}

/** The cell separators a feed file may use: comma, semicolon (Excel in European locales), tab. */
export type CsvDelimiter = ',' | ';' | '\t';

/** Candidates in the order a tie is settled: the comma first. */
const CSV_DELIMITERS: readonly CsvDelimiter[] = [',', '\t', ';'];

/**
 * The separator of a feed file from its first non-blank record: the one whose header names the
 * most feed columns (`findFeedColumn`); when no reading names any, the one that cuts it into the
 * most cells. Ties go to the comma, so a comma file whose cells hold semicolons stays a comma
 * file (its header, not its cells, decides).
 */
export function detectCsvDelimiter(text: string): CsvDelimiter {
  let best: CsvDelimiter = ',';
  let bestColumns = -1;
  let bestCells = -1;
  for (const d of CSV_DELIMITERS) {
    let header: string[] | undefined;
    forEachCsvRecord(
      text,
      (cells) => {
        if (cells.every((c) => c.trim() === '')) return true;
        header = cells;
        return false;
      },
      d,
    );
    if (!header) return ',';
    const columns = mapFeedHeaders(header).columns.length;
    const cells = header.length;
    if (columns > bestColumns || (columns === bestColumns && columns === 0 && cells > bestCells)) {
      best = d;
      bestColumns = columns;
      bestCells = cells;
    }
  }
  return best;
}

const ENCODING_NAMES: Readonly<Record<string, string>> = {
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
};
const DELIMITER_NAMES: Readonly<Record<CsvDelimiter, string>> = {
  ',': '',
  ';': 'semicolon-separated',
  '\t': 'tab-separated',
};

/**
 * The import notice's words for a file read in `encoding` with `delimiter` ("Read as UTF-16,
 * tab-separated"), or '' for plain UTF-8 with commas.
 */
export function describeCsvReading(encoding: string, delimiter: CsvDelimiter): string {
  const parts = [
    encoding === 'utf-8' ? '' : (ENCODING_NAMES[encoding] ?? encoding),
    DELIMITER_NAMES[delimiter],
  ].filter((p) => p !== '');
  return parts.length ? `Read as ${parts.join(', ')}` : '';
}

/**
 * CSV import (`FeedCsvReader` over the whole text), comma, semicolon or tab-separated
 * (`detectCsvDelimiter`). A file with no recognised column is an error.
 */
export function importCsvRows(text: string): ImportCsvResult {
  const rows: FeedRowData[] = [];
  const sourceLines: number[] = [];
  // Each record becomes its row as it is parsed: a big file never becomes one table of cells.
  const reader = new FeedCsvReader((row, line) => {
    rows.push(row);
    sourceLines.push(line);
  });
  const delimiter = detectCsvDelimiter(text);
  forEachCsvRecord(text, (cells, line) => reader.record(cells, line), delimiter);
  const error = reader.finish();
  if (error !== undefined || !reader.mapped) return { ok: false, error: error ?? '' };
  const { columns, ignoredHeaders } = reader.mapped;
  return {
    ok: true,
    rows,
    truncated: reader.truncated,
    columns,
    ignoredHeaders,
    sourceLines,
    delimiter,
  };
}

/** Gives rows ids from an injected generator. */
export function withRowIds(
  rows: readonly FeedRowData[],
  makeId: (index: number) => string,
): FeedRow[] {
  return rows.map((r, i) => ({ id: makeId(i), ...r }));
}
