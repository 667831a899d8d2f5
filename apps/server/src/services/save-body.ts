/**
 * The heavy part of a feed or list save: from the body's bytes to rows ready to store. The
 * bytes are checked (UTF-8, JSON, the text rule, the contract's schema), each feed's rows get
 * their ids, and its stored document is written straight into the COPY input that inserts it,
 * with its hash and the rows as answered. Runs in a save worker thread (save-worker.ts), or on
 * the event loop when SAVE_WORKERS=0; the answer is plain data either way (it crosses threads).
 */
import { isUtf8 } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import { FEED_COLUMNS } from '@adloom/engine';
import {
  SaveFeedsBodySchema,
  SaveListsBodySchema,
  findBadText,
  mayHoldBadText,
  type ErrorCode,
  type FieldError,
  type ParsedFeedRow,
} from '@adloom/contract';
import { FIRST_FIELD_AT } from '../db/copy-binary.ts';
import { STORED_ROW_LAYOUT, openFeedRowsCopy } from '../db/feed-rows.ts';
import { AppError, fieldErrorsFromZod, validationError } from '../errors.ts';
import { INVALID_UTF8_MESSAGE } from '../http/json-body.ts';

/** The two saves whose bodies are prepared here: a client's feeds, the user's lists. */
export type SaveKind = 'feeds' | 'lists';

/** 400 of an empty body (as Fastify's own JSON parser words it, see errors.ts). */
const EMPTY_BODY_MESSAGE = 'The request body is empty but the content type says JSON.';
/** 400 of a body that is not JSON. */
const INVALID_JSON_MESSAGE = 'The request body is not valid JSON.';

/** One feed of a save, checked, its rows ready to store. */
export interface PreparedFeed {
  /** The server's id the feed was sent with, if any. */
  _id?: string | undefined;
  name: string;
  dataType: 'table' | 'list';
  sheetUrl: string;
  sheetName: string;
  rowCount: number;
  /** The rows as answered: objects `{ id, ...FEED_COLUMNS }`, ids made where missing. */
  rowsJson: string;
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

/** A refusal as plain data: an AppError's code, message and field errors. */
export interface SaveBodyRefusal {
  code: ErrorCode;
  message: string;
  errors?: FieldError[] | undefined;
}

/** The AppError a refusal stands for. */
export function refusalError(refusal: SaveBodyRefusal): AppError {
  return new AppError(
    refusal.code,
    refusal.message,
    undefined,
    refusal.errors ? { errors: refusal.errors } : {},
  );
}

/**
 * Ids for the rows of one save: a random prefix (64 bits) and a counter, as unique as a UUID
 * within and across saves, yet cheap to compress: 100k random UUIDs alone are 1.6 MB of brotli in
 * a client bundle, these a few kilobytes (the web app makes its row ids the same way).
 */
function rowIdMaker(): () => string {
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
 * Parses and checks a save's body, in the order the event loop's path did: UTF-8, JSON, the text
 * rule (NUL, lone surrogates), the contract's schema. `body.bytes` is let go as soon as it is
 * read, the parsed value once checked, each feed's parsed rows once prepared: the largest of
 * them is what the save costs at its peak.
 */
export function prepareSaveBody(kind: SaveKind, body: { bytes?: Uint8Array }): PreparedSave {
  const bytes = body.bytes ?? new Uint8Array(0);
  delete body.bytes;
  if (!isUtf8(bytes)) throw new AppError('bad_request', INVALID_UTF8_MESSAGE);
  let text: string | undefined = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString(
    'utf8',
  );
  if (text.trim() === '') throw new AppError('bad_request', EMPTY_BODY_MESSAGE);
  const isClean = !mayHoldBadText(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('bad_request', INVALID_JSON_MESSAGE);
  }
  text = undefined;
  // The one text rule (http/text-rule.ts) on the body, as its preValidation hook did.
  const problem = isClean ? undefined : findBadText(value);
  if (problem)
    throw validationError([
      problem.path ? { msg: problem.msg, path: problem.path } : { msg: problem.msg },
    ]);
  const schema = kind === 'feeds' ? SaveFeedsBodySchema : SaveListsBodySchema;
  const parsed = schema.safeParse(value ?? {});
  value = undefined;
  if (!parsed.success) throw validationError(fieldErrorsFromZod(parsed.error));
  const input = parsed.data;
  const feeds = input.feeds.map((feed): PreparedFeed => {
    // Ids are filled in place, and the same objects are serialised for the answer.
    const storedJson = storedRowsJson(feed.rows);
    const rowsJson = JSON.stringify(feed.rows);
    const rowCount = feed.rows.length;
    feed.rows = [];
    const storedBytes = Buffer.byteLength(storedJson, 'utf8');
    const storedFrame = openFeedRowsCopy(storedBytes);
    const target = new Uint8Array(storedFrame, FIRST_FIELD_AT, storedBytes);
    new TextEncoder().encodeInto(storedJson, target);
    return {
      _id: feed._id,
      name: feed.name,
      dataType: feed.dataType,
      sheetUrl: feed.sheetUrl,
      sheetName: feed.sheetName,
      rowCount,
      rowsJson,
      rowsHash: hashRows(target),
      storedFrame,
      storedBytes,
    };
  });
  return {
    name: (input as { name?: string }).name,
    revision: input.revision,
    feeds,
  };
}
