import { strToU8, zipSync } from 'fflate';
import { formatCsv, formatTsv } from '@adloom/engine';
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import { unpackTable, type PackedTable } from './packTable.ts';

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
  const table = unpackTable(input.table);
  if (input.format === 'tsv') return { blob: new Blob([formatTsv(table)], { type: 'text/plain' }) };
  const parts: string[] = [BOM];
  for (const chunk of formatCsv(table)) parts.push(chunk);
  return { blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }) };
};

/** Input of the zip job: one Editor CSV per table. */
export interface ZipPackedInput {
  files: { name: string; table: PackedTable }[];
}

/** Every table as an Editor CSV (as `formatPackedJob` makes them) in one zip. */
export const zipPackedJob: EngineJobHandler<ZipPackedInput, { blob: Blob }> = (input) => {
  const entries: Record<string, Uint8Array> = {};
  for (const file of input.files) {
    let text = BOM;
    for (const chunk of formatCsv(unpackTable(file.table))) text += chunk;
    entries[file.name] = strToU8(text);
  }
  const zipped = zipSync(entries, { level: 6 });
  return { blob: new Blob([zipped as Uint8Array<ArrayBuffer>], { type: 'application/zip' }) };
};
