/**
 * How a feed's rows document is written: its layout, and the binary COPY row that inserts a
 * feed with it. Free of database drivers, so a save worker thread (services/save-worker.ts) can
 * write the document straight into the COPY input.
 */
import { FEED_COLUMNS } from '@adloom/engine';
import { binaryField, closeCopyRow, openCopyRow } from './copy-binary.ts';

/**
 * The layout rows are written in: a feed's rows are one JSON document, an array of rows, each an
 * array of cells in this order (a third smaller and faster to write than objects with keys). The
 * layout is stored with the rows (`rows_layout`, migration 0010), so rows read later are mapped by
 * key: a column added to the engine's `FEED_COLUMNS` never shifts rows stored before it.
 */
export const STORED_ROW_LAYOUT: readonly string[] = ['id', ...FEED_COLUMNS];

/**
 * Inserts one feed with its rows. The rows document comes first, so a worker can write it into
 * the input before the feed's id, name and position are decided (`openFeedRowsCopy`).
 */
export const INSERT_FEED_COPY_SQL = `copy feeds (rows, id, user_id, client_id, position, name,
  data_type, sheet_url, sheet_name, row_count, rows_hash, rows_version, sheet_synced_at,
  sheet_sync_direction, sheet_rows_moved, rows_layout) from stdin with (format binary)`;
const INSERT_FEED_FIELDS = 16;

/** A COPY input of `INSERT_FEED_COPY_SQL` with room for a rows document of `length` bytes. */
export function openFeedRowsCopy(length: number, room = length): ArrayBuffer {
  return openCopyRow(INSERT_FEED_FIELDS, length, room);
}

/** The feed's fields after its rows, for `closeFeedRowsCopy`. */
export interface FeedCopyFields {
  id: string;
  userId: string;
  clientId: string | null;
  position: number;
  name: string;
  dataType: string;
  sheetUrl: string;
  sheetName: string;
  rowCount: number;
  rowsHash: string;
  rowsVersion: string;
  sync: { at: string; direction: string; rows: number } | null;
}

/** Completes an `openFeedRowsCopy` input whose document has `length` bytes; answers the input. */
export function closeFeedRowsCopy(
  frame: ArrayBuffer,
  length: number,
  feed: FeedCopyFields,
): Uint8Array {
  const { sync } = feed;
  return closeCopyRow(frame, length, [
    binaryField.uuid(feed.id),
    binaryField.uuid(feed.userId),
    feed.clientId === null ? null : binaryField.uuid(feed.clientId),
    binaryField.int4(feed.position),
    binaryField.text(feed.name),
    binaryField.text(feed.dataType),
    binaryField.text(feed.sheetUrl),
    binaryField.text(feed.sheetName),
    binaryField.int4(feed.rowCount),
    binaryField.text(feed.rowsHash),
    binaryField.uuid(feed.rowsVersion),
    sync ? binaryField.timestamptz(new Date(sync.at)) : null,
    sync ? binaryField.text(sync.direction) : null,
    sync ? binaryField.int4(sync.rows) : null,
    binaryField.textArray(STORED_ROW_LAYOUT),
  ]);
}
