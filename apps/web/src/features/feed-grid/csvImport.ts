import Papa from 'papaparse';
import { encodeColumnChunk, type ColumnChunk } from './columnChunk.ts';
import { FEED_COLUMNS, describeCsvReading, detectCsvDelimiter } from '@adloom/engine';
import {
  FEED_COLUMN_COUNT,
  FEED_COLUMN_LABELS,
  URL_COLUMN_INDEX,
  findColumnForHeader,
  getColumnMaxChars,
} from './feedColumns.ts';
import { formatCount, formatRows } from './gridLayout.ts';

/** Rows per chunk sent from the import worker to the page. */
export const CSV_CHUNK_ROWS = 10_000;
/** Text read per parse step (and progress report). */
const CSV_PARSE_STEP_BYTES = 512 * 1024;

/** A cell cut to its column's limit: the imported row (0 = the first imported) and the column. */
export interface CsvCut {
  row: number;
  column: number;
}

/** What an import brought in, for the notice. */
export interface CsvImportSummary {
  rowCount: number;
  /** Root, modifier and var cells cut to 30 characters (a Final URL is never cut). */
  cellsCut: number;
  /** The first CSV_CUTS_NAMED cuts, in file order, for the notice to name. */
  cuts: CsvCut[];
  /** Headers of columns that map to no feed column, as the file spells them. */
  unrecognisedColumns: string[];
  /** How the file was read when not UTF-8 with commas ("Read as UTF-16, tab-separated"), else ''. */
  reading: string;
  /** Whether a file column gives the Final URL. */
  hasUrlColumn: boolean;
  /** Rows with no Final URL: they make keywords but no ad. */
  rowsWithoutUrl: number;
  /** The first CSV_CUTS_NAMED of them (0 = the first imported row), for the notice to name. */
  withoutUrl: number[];
}

/** Cuts the import notice names by row and column (the rest are counted). */
export const CSV_CUTS_NAMED = 10;

const NO_SOURCES: readonly number[] = [];

/** Rows under the header shown in the column mapping dialog. */
export const CSV_PREVIEW_ROWS = 5;

/**
 * Where each feed column (FEED_COLUMNS order) takes its cell from: file column indexes, the
 * first non-empty one wins; and whether the file's first row names the columns (then it is
 * not imported).
 */
export interface CsvColumnMapping {
  sources: readonly (readonly number[])[];
  hasHeader: boolean;
}

/** The first rows of a file, for a person to map its columns. */
export interface CsvHead {
  /** The cells of the first row. */
  firstRow: string[];
  /** Up to CSV_PREVIEW_ROWS rows after it. */
  rows: string[][];
  /** The widest row's cell count. */
  columnCount: number;
}

/** How to import a file: by its recognised headers, or by a mapping a person chooses first. */
export type CsvImportPlan = { mapping: CsvColumnMapping } | { head: CsvHead };

/** A file the import refuses; `message` is shown to the person as is. */
export class CsvImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvImportError';
  }
}

/** The refusal messages. */
export const CSV_MESSAGES = {
  empty: 'This file is empty. Nothing was imported.',
  notText: 'This file is not a CSV text file. Nothing was imported.',
} as const;

/**
 * What windows-1252 puts at 0x80-0x9F (WHATWG's table; the five unassigned bytes stay C1
 * controls). Browsers' TextDecoder maps them already; Node's decodes them as Latin-1 control
 * characters (nodejs/node#60888), so the decoded text is mapped once more and comes out the
 * same in both.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const C1_CONTROLS = /[\u0080-\u009F]/g;

/** Windows-1252 bytes as text, € – — “ ” ™ included (whatever the TextDecoder does with them). */
export function decodeWindows1252(bytes: Uint8Array): string {
  const text = new TextDecoder('windows-1252').decode(bytes);
  return text.replace(C1_CONTROLS, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] as string);
}

/** A file's text and the encoding it was read in ('utf-8', 'utf-16le', 'windows-1252', ...). */
export interface DecodedCsv {
  text: string;
  encoding: string;
}

/**
 * Decodes file bytes: UTF-16 when they start with its byte order mark (Excel's "Unicode text",
 * Google Ads Editor's export), else UTF-8 (or Windows-1252 when they are not valid UTF-8).
 * Refuses bytes that are not text: NUL bytes in the first 64 KB mean a binary file.
 */
export function decodeCsvBytes(bytes: Uint8Array): DecodedCsv {
  if (bytes.length === 0) throw new CsvImportError(CSV_MESSAGES.empty);
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : undefined;
  if (utf16 !== undefined) {
    const text = new TextDecoder(utf16).decode(bytes);
    if (text.slice(0, 32 * 1024).includes('\0')) throw new CsvImportError(CSV_MESSAGES.notText);
    return { text, encoding: utf16 };
  }
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) throw new CsvImportError(CSV_MESSAGES.notText);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    const text = decodeWindows1252(bytes);
    let controls = 0;
    const head = Math.min(text.length, 65536);
    for (let i = 0; i < head; i += 1) {
      const code = text.charCodeAt(i);
      if ((code >= 1 && code <= 8) || (code >= 14 && code <= 31)) controls += 1;
    }
    if (controls > 8) throw new CsvImportError(CSV_MESSAGES.notText);
    return { text, encoding: 'windows-1252' };
  }
}

/**
 * The mapping a file's first row names (see findColumnForHeader; a column named twice takes
 * its first non-empty cell, as the engine's importCsvRows), or null when it names no feed column.
 */
export function findHeaderMapping(firstRow: readonly string[]): CsvColumnMapping | null {
  const sources: number[][] = Array.from({ length: FEED_COLUMN_COUNT }, () => []);
  firstRow.forEach((header, i) => {
    const column = findColumnForHeader(header);
    if (column !== undefined) sources[column]!.push(i);
  });
  return sources.some((list) => list.length > 0) ? { sources, hasHeader: true } : null;
}

/** The first row and up to `rowCount` rows after it (blank lines skipped). */
export function readCsvHead(text: string, rowCount = CSV_PREVIEW_ROWS): CsvHead {
  const source = stripBom(text);
  if (source.trim() === '') throw new CsvImportError(CSV_MESSAGES.empty);
  const { data } = Papa.parse<string[]>(source, {
    header: false,
    dynamicTyping: false,
    skipEmptyLines: true,
    preview: rowCount + 1,
    delimiter: detectCsvDelimiter(source),
  });
  const [firstRow = [], ...rows] = data;
  return {
    firstRow,
    rows,
    columnCount: Math.max(firstRow.length, ...rows.map((row) => row.length)),
  };
}

/** Imports by the file's headers when they name a feed column; otherwise asks for a mapping. */
export function planCsvImport(text: string): CsvImportPlan {
  const head = readCsvHead(text);
  const mapping = findHeaderMapping(head.firstRow);
  return mapping ? { mapping } : { head };
}

/** Options for parseCsvText. */
export interface ParseCsvInput {
  text: string;
  /** The encoding the text was read in (`decodeCsvBytes`), for the notice; UTF-8 when not given. */
  encoding?: string;
  mapping: CsvColumnMapping;
  onChunk: (chunk: ColumnChunk) => void;
  onProgress?: (fraction: number) => void;
  chunkRows?: number;
}

/**
 * Parses CSV text, takes each feed column's cell from the file columns the mapping names,
 * normalizes cells (trimmed, cut to their limit), skips blank rows and hands rows out in
 * ColumnChunks. Throws CsvImportError for an empty file.
 */
export function parseCsvText({
  text,
  encoding = 'utf-8',
  mapping,
  onChunk,
  onProgress,
  chunkRows = CSV_CHUNK_ROWS,
}: ParseCsvInput): CsvImportSummary {
  const source = stripBom(text);
  if (source.trim() === '') throw new CsvImportError(CSV_MESSAGES.empty);
  const { sources } = mapping;
  // Commas, semicolons (Excel in European locales) or tabs, as the first row shows.
  const delimiter = detectCsvDelimiter(source);
  const hasUrlColumn = sources[URL_COLUMN_INDEX]!.length > 0;
  const summary: CsvImportSummary = {
    rowCount: 0,
    cellsCut: 0,
    cuts: [],
    unrecognisedColumns: [],
    reading: describeCsvReading(encoding, delimiter),
    hasUrlColumn,
    rowsWithoutUrl: 0,
    withoutUrl: [],
  };
  let isHeaderPending = mapping.hasHeader;
  let pending: string[][] = [];

  const flush = () => {
    if (pending.length === 0) return;
    onChunk(encodeColumnChunk(pending));
    pending = [];
  };

  const takeHeader = (fields: string[]) => {
    const used = new Set(sources.flat());
    fields.forEach((header, i) => {
      if (!used.has(i) && header.trim() !== '') summary.unrecognisedColumns.push(header.trim());
    });
  };

  const takeRow = (fields: string[]) => {
    const row: string[] = new Array<string>(FEED_COLUMN_COUNT).fill('');
    let isBlank = true;
    for (let column = 0; column < FEED_COLUMN_COUNT; column += 1) {
      // A mapping that names no source for a column (one made before the column existed) leaves it empty.
      const value = firstFilled(fields, sources[column] ?? NO_SOURCES);
      if (value === '') continue;
      isBlank = false;
      const max = getColumnMaxChars(column);
      // A Final URL is never cut (a cut URL is another page): the engine reports one too long.
      if (value.length > max && column !== URL_COLUMN_INDEX) {
        summary.cellsCut += 1;
        if (summary.cuts.length < CSV_CUTS_NAMED)
          summary.cuts.push({ row: summary.rowCount, column });
        row[column] = value.slice(0, max).trimEnd();
      } else {
        row[column] = value;
      }
    }
    if (isBlank) return;
    if (row[URL_COLUMN_INDEX] === '') {
      if (summary.withoutUrl.length < CSV_CUTS_NAMED) summary.withoutUrl.push(summary.rowCount);
      summary.rowsWithoutUrl += 1;
    }
    pending.push(row);
    summary.rowCount += 1;
    if (pending.length >= chunkRows) flush();
  };

  parseInSteps(source, {
    delimiter,
    header: false,
    dynamicTyping: false,
    skipEmptyLines: true,
    chunkSize: CSV_PARSE_STEP_BYTES,
    chunk: (results) => {
      for (const fields of results.data) {
        if (isHeaderPending) {
          isHeaderPending = false;
          takeHeader(fields);
        } else {
          takeRow(fields);
        }
      }
      onProgress?.(Math.min(1, results.meta.cursor / source.length));
    },
  });
  flush();
  onProgress?.(1);
  return summary;
}

/** The first non-empty (trimmed) cell of `fields` at the given indexes, or ''. */
export function firstFilled(fields: readonly string[], indexes: readonly number[]): string {
  for (const i of indexes) {
    const value = fields[i]?.trim() ?? '';
    if (value !== '') return value;
  }
  return '';
}

function stripBom(text: string): string {
  return text.replace(/^\uFEFF/, '');
}

interface StringChunkConfig {
  delimiter: string;
  header: false;
  dynamicTyping: false;
  skipEmptyLines: boolean;
  chunkSize: number;
  chunk: (results: Papa.ParseResult<string[]>) => void;
}

// Papa parses strings in chunks at run time (its StringStreamer), but its types only allow
// `chunk` for files and URLs.
const parseInSteps = Papa.parse as unknown as (input: string, config: StringChunkConfig) => void;

/**
 * The notice after an import: rows in, the cells cut (named by grid row and column, the first
 * CSV_CUTS_NAMED of them), how the file was read when not UTF-8 with commas, unrecognised
 * columns, the rows that make no ad for want of a Final URL. `firstRowNumber`: the grid's number of the
 * first imported row.
 */
export function describeCsvImport(summary: CsvImportSummary, firstRowNumber = 1): string {
  const parts = [`Imported ${formatRows(summary.rowCount)}.`];
  if (summary.reading !== '') parts.push(`${summary.reading}.`);
  const count = summary.cellsCut;
  if (count > 0) {
    const named = summary.cuts.map(
      (cut) =>
        `${FEED_COLUMN_LABELS[FEED_COLUMNS[cut.column]!]} in row ${formatCount(firstRowNumber + cut.row)}`,
    );
    const more = count - named.length;
    parts.push(
      `${formatCount(count)} ${count === 1 ? 'cell was' : 'cells were'} cut to ${formatCount(getColumnMaxChars(0))} characters: ${named.join(', ')}${more > 0 ? ` and ${formatCount(more)} more` : ''}.`,
    );
  }
  if (summary.unrecognisedColumns.length > 0)
    parts.push(`Not recognised: ${summary.unrecognisedColumns.join(', ')}.`);
  describeRowsWithoutUrl(summary, firstRowNumber, parts);
  return parts.join(' ');
}

/**
 * The warning about rows that cannot make an ad (no Final URL: Google needs one for every ad),
 * added to `parts`: the rows named by grid row, the first CSV_CUTS_NAMED of them.
 */
function describeRowsWithoutUrl(
  summary: CsvImportSummary,
  firstRowNumber: number,
  parts: string[],
): void {
  const count = summary.rowsWithoutUrl;
  if (count === 0) return;
  if (!summary.hasUrlColumn) {
    parts.push('No Final URL column: the rows make keywords but no ads.');
    return;
  }
  const named = summary.withoutUrl.map((row) => formatCount(firstRowNumber + row));
  const more = count - named.length;
  const list = more > 0 ? `${named.join(', ')} and ${formatCount(more)} more` : joinWithAnd(named);
  parts.push(
    count === 1
      ? `1 row has no Final URL, so it makes no ad: row ${list}.`
      : `${formatCount(count)} rows have no Final URL, so they make no ad: rows ${list}.`,
  );
}

function joinWithAnd(items: readonly string[]): string {
  return items.length < 2
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1) as string}`;
}
