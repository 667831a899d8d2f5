import { formatCsv, type Table } from '@adloom/engine';

/** The UTF-8 byte order mark Google Ads Editor and Excel read as "this is UTF-8" (see decisions). */
const BOM = '\uFEFF';

/**
 * A table as Google Ads Editor imports it: the BOM, then the engine's `formatCsv` (header line,
 * CRLF, quoting) in its chunks. `neutraliseFormulas`: for a spreadsheet (the skipped-and-cleaned
 * report), never for Editor.
 */
export function editorCsvParts(table: Table, options?: { neutraliseFormulas?: boolean }): string[] {
  const parts = [BOM];
  for (const chunk of formatCsv(table, options)) parts.push(chunk);
  return parts;
}

/** The Editor CSV of a table as a Blob (its parts never joined into one string). */
export function editorCsvBlob(table: Table): Blob {
  return new Blob(editorCsvParts(table), { type: 'text/csv;charset=utf-8' });
}
