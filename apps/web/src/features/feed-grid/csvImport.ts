import Papa from 'papaparse';
import { encodeColumnChunk, type ColumnChunk } from './columnChunk.ts';
import {
  FEED_CELL_MAX_CHARS,
  FEED_COLUMN_COUNT,
  URL_COLUMN_INDEX,
  findColumnForHeader,
  getColumnMaxChars,
} from './feedColumns.ts';

/** Rows per chunk sent from the import worker to the page. */
export const CSV_CHUNK_ROWS = 10_000;
/** Text read per parse step (and progress report). */
const CSV_PARSE_STEP_BYTES = 512 * 1024;

/** What an import brought in, for the notice. */
export interface CsvImportSummary {
  rowCount: number;
  /** Root, modifier and var cells cut to 30 characters. */
  cellsCut: number;
  /** Final URL cells cut to 2048 characters. */
  urlsCut: number;
  /** Headers of columns that map to no feed column, as the file spells them. */
  unrecognisedColumns: string[];
}

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
  noColumns:
    'No recognised column in this file. Its first row must name at least one of Root, Modifier, Var 1, Var 2, Var 3, Final URL (or root, mod, var1, var2, var3, url). Nothing was imported.',
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

/**
 * Decodes file bytes as UTF-8 (or Windows-1252 when they are not valid UTF-8). Refuses bytes
 * that are not text: NUL bytes in the first 64 KB mean a binary file.
 */
export function decodeCsvBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new CsvImportError(CSV_MESSAGES.empty);
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) throw new CsvImportError(CSV_MESSAGES.notText);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = decodeWindows1252(bytes);
    let controls = 0;
    const head = Math.min(text.length, 65536);
    for (let i = 0; i < head; i += 1) {
      const code = text.charCodeAt(i);
      if ((code >= 1 && code <= 8) || (code >= 14 && code <= 31)) controls += 1;
    }
    if (controls > 8) throw new CsvImportError(CSV_MESSAGES.notText);
    return text;
  }
}

/** Options for parseCsvText. */
export interface ParseCsvInput {
  text: string;
  onChunk: (chunk: ColumnChunk) => void;
  onProgress?: (fraction: number) => void;
  chunkRows?: number;
}

/**
 * Parses CSV text whose first row holds headers, maps the headers to feed columns (see
 * findColumnForHeader), normalizes cells (trimmed, cut to their limit), skips blank rows and
 * hands rows out in ColumnChunks. Throws CsvImportError for an empty file or no recognised column.
 */
export function parseCsvText({
  text,
  onChunk,
  onProgress,
  chunkRows = CSV_CHUNK_ROWS,
}: ParseCsvInput): CsvImportSummary {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') throw new CsvImportError(CSV_MESSAGES.empty);
  let mapping: (number | undefined)[] | null = null;
  const summary: CsvImportSummary = {
    rowCount: 0,
    cellsCut: 0,
    urlsCut: 0,
    unrecognisedColumns: [],
  };
  let pending: string[][] = [];
  let failure: CsvImportError | null = null;

  const flush = () => {
    if (pending.length === 0) return;
    onChunk(encodeColumnChunk(pending));
    pending = [];
  };

  const takeRow = (fields: string[]) => {
    if (!mapping) {
      // As the engine's importCsvRows: a column named twice takes its first non-empty cell.
      mapping = fields.map((header) => findColumnForHeader(header));
      const used = new Set<number>();
      fields.forEach((header, i) => {
        const column = mapping![i];
        if (column === undefined) {
          if (header.trim() !== '') summary.unrecognisedColumns.push(header.trim());
        } else {
          used.add(column);
        }
      });
      if (used.size === 0) failure = new CsvImportError(CSV_MESSAGES.noColumns);
      return;
    }
    const row: string[] = new Array<string>(FEED_COLUMN_COUNT).fill('');
    let isBlank = true;
    for (let i = 0; i < fields.length; i += 1) {
      const column = mapping[i];
      if (column === undefined) continue;
      const value = fields[i]!.trim();
      if (value === '' || row[column] !== '') continue;
      isBlank = false;
      const max = getColumnMaxChars(column);
      if (value.length > max) {
        if (column === URL_COLUMN_INDEX) summary.urlsCut += 1;
        else summary.cellsCut += 1;
        row[column] = value.slice(0, max).trimEnd();
      } else {
        row[column] = value;
      }
    }
    if (isBlank) return;
    pending.push(row);
    summary.rowCount += 1;
    if (pending.length >= chunkRows) flush();
  };

  parseInSteps(source, {
    header: false,
    dynamicTyping: false,
    skipEmptyLines: true,
    chunkSize: CSV_PARSE_STEP_BYTES,
    chunk: (results, parser) => {
      for (const fields of results.data) {
        takeRow(fields);
        if (failure) {
          parser.abort();
          return;
        }
      }
      onProgress?.(Math.min(1, results.meta.cursor / source.length));
    },
  });
  if (failure) throw failure;
  flush();
  onProgress?.(1);
  return summary;
}

interface StringChunkConfig {
  header: false;
  dynamicTyping: false;
  skipEmptyLines: boolean;
  chunkSize: number;
  chunk: (results: Papa.ParseResult<string[]>, parser: Papa.Parser) => void;
}

// Papa parses strings in chunks at run time (its StringStreamer), but its types only allow
// `chunk` for files and URLs.
const parseInSteps = Papa.parse as unknown as (input: string, config: StringChunkConfig) => void;

/** The notice after an import: rows in, cells cut, unrecognised columns. */
export function describeCsvImport(summary: CsvImportSummary): string {
  const parts = [
    `Imported ${summary.rowCount.toLocaleString('en-US')} ${summary.rowCount === 1 ? 'row' : 'rows'}.`,
  ];
  if (summary.cellsCut > 0) {
    parts.push(
      `${summary.cellsCut.toLocaleString('en-US')} ${summary.cellsCut === 1 ? 'cell was' : 'cells were'} cut to ${FEED_CELL_MAX_CHARS} characters.`,
    );
  }
  if (summary.urlsCut > 0)
    parts.push(
      `${summary.urlsCut.toLocaleString('en-US')} Final URL cells were cut to 2048 characters.`,
    );
  if (summary.unrecognisedColumns.length > 0)
    parts.push(`Not recognised: ${summary.unrecognisedColumns.join(', ')}.`);
  return parts.join(' ');
}
