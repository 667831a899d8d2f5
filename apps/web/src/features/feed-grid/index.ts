// The feed grid: a virtualized spreadsheet over a columnar FeedStore, with CSV import in a worker.
export { FeedGrid, type FeedGridProps } from './FeedGrid.tsx';
export { FEED_ROW_HEIGHT_PX, MAX_SCROLL_HEIGHT_PX, type FeedGridNotice } from './gridLayout.ts';
export {
  FeedStore,
  type BulkAppend,
  type FeedStoreOptions,
  type HistoryKind,
} from './feedStore.ts';
export { FEED_HISTORY_LIMIT } from './feedHistory.ts';
export { importCsvFile, type CsvImportOutcome } from './importCsvFile.ts';
export {
  parseCsvText,
  describeCsvImport,
  CsvImportError,
  CSV_MESSAGES,
  type CsvImportSummary,
} from './csvImport.ts';
export {
  FEED_CELL_MAX_CHARS,
  FEED_URL_MAX_CHARS,
  FEED_COLUMN_LABELS,
  findColumnForHeader,
  normalizeCell,
} from './feedColumns.ts';
export { parseTsvBlock, formatTsvLines } from './tsv.ts';
export type { ColumnChunk } from './columnChunk.ts';
