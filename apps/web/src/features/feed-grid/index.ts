// The feed grid: a virtualized spreadsheet over a columnar FeedStore, with CSV import in a worker.
export { FeedGrid } from './FeedGrid.tsx';
export { formatRows, type FeedGridNotice } from './gridLayout.ts';
export { FeedStore, type BulkAppend, type PasteResult } from './feedStore.ts';
export { FEED_COLUMN_LABELS, normalizeCell } from './feedColumns.ts';
