import { strToU8, zipSync } from 'fflate';
import { formatCsv, startsLikeFormula, type Table } from '@adloom/engine';
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import {
  readPackedCell,
  unpackTable,
  type PackedColumn,
  type PackedTable,
} from '../generation/packTable.ts';

/** Input of the formatting job. */
export interface FormatPackedInput {
  table: PackedTable;
  /** 'tsv': the clipboard text; 'csv': the Google Ads Editor file (UTF-8 with BOM, CRLF). */
  format: 'tsv' | 'csv';
}

/** The UTF-8 byte order mark Editor and Excel read as "this is UTF-8" (see decisions). */
const BOM = '\uFEFF';

/**
 * Formats a packed table off the main thread as a Blob: TSV text for the clipboard, or the
 * Editor CSV. A Blob crosses to the page without copying its bytes through the main thread.
 */
export const formatPackedJob: EngineJobHandler<FormatPackedInput, { blob: Blob }> = (input) => {
  if (input.format === 'tsv')
    return { blob: new Blob(formatPackedTsvParts(input.table), { type: 'text/plain' }) };
  const table = unpackTable(input.table);
  const parts: string[] = [BOM];
  for (const chunk of formatCsv(table)) parts.push(chunk);
  return { blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }) };
};

/** Input of the zip job: one Editor CSV per table. */
export interface ZipPackedInput {
  files: { name: string; table: PackedTable }[];
}

/** Every table as an Editor CSV (as `formatPackedJob` makes them) in one zip. */
export const zipPackedJob: EngineJobHandler<ZipPackedInput, { blob: Blob }> = (input) => ({
  blob: zipFiles(input.files.map((file) => ({ name: file.name, table: unpackTable(file.table) }))),
});

/**
 * One zip, one entry per file under its name: a table as its Editor CSV (BOM, then the engine's
 * `formatCsv`: the bytes of each table's own 'Download for Google Ads Editor'), a text as it is
 * (UTF-8). Run it in the worker: it formats every row.
 */
export function zipFiles(
  files: readonly ({ name: string; table: Table } | { name: string; text: string })[],
): Blob {
  const entries: Record<string, Uint8Array> = {};
  for (const file of files) {
    if ('text' in file) {
      entries[file.name] = strToU8(file.text);
      continue;
    }
    let text = BOM;
    for (const chunk of formatCsv(file.table)) text += chunk;
    entries[file.name] = strToU8(text);
  }
  const zipped = zipSync(entries, { level: 6 });
  return new Blob([zipped as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}

/** Lines per part of the clipboard text: each part a short string, never one of many MB. */
export const TSV_LINES_PER_PART = 8192;

/** What `formatTsv` turns into one space inside a cell. */
const TSV_BREAKS = /[\t\r\n]+/g;
const HAS_TSV_BREAK = /[\t\r\n]/;

/**
 * The clipboard text of a packed table (exactly the engine's `formatTsv`: a header line, cells
 * joined by tabs, lines by '\n', tabs and line breaks inside a cell made one space) as parts of
 * `TSV_LINES_PER_PART` lines, read straight from the packed columns. Joined they are the text;
 * given to a Blob they never form one big string, so a 600k-line copy stays light on the worker
 * and leaves the page's thread alone. `neutraliseFormulas` (for a spreadsheet, never for Editor)
 * puts an apostrophe before a cell starting with = + - @, as `formatTsv`'s option does.
 */
export function formatPackedTsvParts(table: PackedTable, neutraliseFormulas = false): string[] {
  const tidy = (value: string): string =>
    HAS_TSV_BREAK.test(value) ? value.replace(TSV_BREAKS, ' ') : value;
  const clean = neutraliseFormulas
    ? (value: string): string => {
        const s = tidy(value);
        return startsLikeFormula(s) ? `'${s}` : s;
      }
    : tidy;
  // A column without any tab or line break needs no cleaning cell by cell.
  const hasBreak = (column: PackedColumn | undefined): boolean =>
    !!column && column.texts.some((t) => HAS_TSV_BREAK.test(t));
  const needsClean = table.columns.map(
    (column) =>
      neutraliseFormulas ||
      (column.field === undefined ? hasBreak(column) : hasBreak(table.records)),
  );
  const parts: string[] = [];
  let lines: string[] = [table.headers.map(clean).join('\t')];
  const cells = new Array<string>(table.columns.length);
  for (let r = 0; r < table.rowCount; r += 1) {
    for (let c = 0; c < cells.length; c += 1) {
      const value = readPackedCell(table, r, c);
      cells[c] = needsClean[c] ? clean(value) : value;
    }
    lines.push(cells.join('\t'));
    if (lines.length === TSV_LINES_PER_PART) {
      // Every part but the first starts with the line break that ends the previous line.
      parts.push((parts.length > 0 ? '\n' : '') + lines.join('\n'));
      lines = [];
    }
  }
  if (lines.length > 0 || parts.length === 0)
    parts.push((parts.length > 0 ? '\n' : '') + lines.join('\n'));
  return parts;
}

/** Input of the clipboard job. */
export interface ClipboardTextInput {
  table: PackedTable;
  /** For a spreadsheet: an apostrophe before cells starting with = + - @. */
  neutraliseFormulas?: boolean;
}

/** A character outside Latin-1: joined in front, it makes the whole text two-byte. */
const TWO_BYTE_MARK = '\u20AC';

/**
 * The clipboard text of a packed table (as `formatPackedTsvParts`), held as a two-byte string.
 * Chromium's clipboard write widens a one-byte (Latin-1) string character by character on the
 * page's thread (about 60 ms for 22 MB here) but copies a two-byte one (about 18 ms), so the text
 * is made two-byte here, in the worker: joined behind one non-Latin-1 character that is then cut
 * off (the slice keeps its parent's two-byte form and reaches the page as such).
 */
export const clipboardTextJob: EngineJobHandler<ClipboardTextInput, { text: string }> = (input) => {
  const parts = formatPackedTsvParts(input.table, input.neutraliseFormulas);
  parts.unshift(TWO_BYTE_MARK);
  return { text: parts.join('').slice(TWO_BYTE_MARK.length) };
};

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    formatPacked: typeof formatPackedJob;
    clipboardText: typeof clipboardTextJob;
    zipPacked: typeof zipPackedJob;
  }
}
