/**
 * What a prepared save is (see save-body.ts), and the rows' ids, stored JSON and hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import { FEED_COLUMNS } from '@adloom/engine';
import type { ParsedFeedRow } from '@adloom/contract';
import { shrinkInPlace } from '../db/copy-binary.ts';
import { STORED_ROW_LAYOUT } from '../db/feed-rows.ts';

/** The two saves whose bodies are prepared here: a client's feeds, the user's lists. */
export type SaveKind = 'feeds' | 'lists';

/** One feed of a save, checked, its rows ready to store. */
export interface PreparedFeed {
  /** The server's id the feed was sent with, if any. */
  _id?: string | undefined;
  name: string;
  dataType: 'table' | 'list';
  sheetUrl: string;
  sheetName: string;
  rowCount: number;
  /**
   * The rows as answered, as UTF-8 JSON (`answeredBytes` long: see `answeredRowsBytes`): objects
   * `{ id, ...FEED_COLUMNS }`, ids made where missing. Bytes, so they cross threads without a copy.
   */
  answered: ArrayBuffer;
  answeredBytes: number;
  /** sha256 (base64) of the stored document. */
  rowsHash: string;
  /**
   * The insert of the feed (`openFeedRowsCopy`) with the stored document (arrays in
   * `STORED_ROW_LAYOUT`) already in place: `storedBytes` long.
   */
  storedFrame: ArrayBuffer;
  storedBytes: number;
}

/** A save's body, checked and prepared. */
export interface PreparedSave {
  /** The client's name (feed saves only). */
  name?: string | undefined;
  revision?: number | undefined;
  feeds: PreparedFeed[];
}

/**
 * Ids for the rows of one save: a random prefix (64 bits) and a counter, as unique as a UUID
 * within and across saves, yet cheap to compress: 100k random UUIDs alone are 1.6 MB of brotli in
 * a client bundle, these a few kilobytes (the web app makes its row ids the same way).
 */
export function rowIdMaker(): () => string {
  const prefix = `row-${randomBytes(8).toString('base64url')}-`;
  let count = 0;
  return () => prefix + (count += 1).toString(36);
}

/** The rows' stored JSON (arrays in `STORED_ROW_LAYOUT`), ids made in place when missing or repeated. */
export function storedRowsJson(rows: ParsedFeedRow[]): string {
  const seen = new Set<string>();
  const stored = new Array<string[]>(rows.length);
  const makeId = rowIdMaker();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.id === '' || seen.has(row.id)) row.id = makeId();
    seen.add(row.id);
    const cells = new Array<string>(STORED_ROW_LAYOUT.length);
    cells[0] = row.id;
    for (let c = 0; c < FEED_COLUMNS.length; c++) cells[c + 1] = row[FEED_COLUMNS[c]!] ?? '';
    stored[i] = cells;
  }
  return JSON.stringify(stored);
}

/** sha256 of a stored rows document (a save of unchanged rows does not rewrite them). */
export function hashRows(stored: string | Uint8Array): string {
  return createHash('sha256').update(stored).digest('base64');
}

/**
 * A prepared feed's answered rows as UTF-8 JSON bytes, without a copy: they leave in the
 * answer as they are (decoding a 50 MB answer held the event loop for a quarter of a second).
 * A buffer grown in place is shrunk to them first.
 */
export function answeredRowsBytes(
  feed: Pick<PreparedFeed, 'answered' | 'answeredBytes'>,
): Uint8Array {
  shrinkInPlace(feed.answered, feed.answeredBytes);
  return new Uint8Array(feed.answered, 0, feed.answeredBytes);
}
