import { FEED_COLUMN_COUNT, normalizeCell } from './feedColumns.ts';
import { CSV_PREVIEW_ROWS, firstFilled, type CsvColumnMapping, type CsvHead } from './csvImport.ts';

/** The mapping dialog's first guess: file column i fills feed column i (null past the file's). */
export function chooseColumnsByPosition(fileColumnCount: number): (number | null)[] {
  return Array.from({ length: FEED_COLUMN_COUNT }, (_, c) => (c < fileColumnCount ? c : null));
}

/** A file column as the dialog offers it: 'Column 2: Brand' (its header) or 'Column 2'. */
export function describeFileColumn(head: CsvHead, index: number, hasHeader: boolean): string {
  const header = hasHeader ? (head.firstRow[index]?.trim() ?? '') : '';
  return header === '' ? `Column ${index + 1}` : `Column ${index + 1}: ${header}`;
}

/** The head's rows as the mapping would import them (cells trimmed and cut, blank rows kept). */
export function previewMappedRows(head: CsvHead, mapping: CsvColumnMapping): string[][] {
  const rows = mapping.hasHeader ? head.rows : [head.firstRow, ...head.rows];
  return rows
    .slice(0, CSV_PREVIEW_ROWS)
    .map((fields) =>
      mapping.sources.map((indexes, column) => normalizeCell(firstFilled(fields, indexes), column)),
    );
}
