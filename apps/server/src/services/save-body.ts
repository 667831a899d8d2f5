/**
 * The heavy part of a feed or list save: from the body's bytes to rows ready to store. The
 * bytes are checked (UTF-8, JSON, the text rule, the contract's schema), each feed's rows get
 * their ids, and its stored document is written straight into the COPY input that inserts it,
 * with its hash and the rows as answered. Runs in a save worker thread (save-worker.ts), or on
 * the event loop when SAVE_WORKERS=0; the answer is plain data either way (it crosses threads).
 */
import { isUtf8 } from 'node:buffer';
import {
  SaveFeedsBodySchema,
  SaveListsBodySchema,
  findBadText,
  mayHoldBadText,
  type ErrorCode,
  type FieldError,
} from '@adloom/contract';
import { FIRST_FIELD_AT } from '../db/copy-binary.ts';
import { openFeedRowsCopy } from '../db/feed-rows.ts';
import { AppError, fieldErrorsFromZod, validationError } from '../errors.ts';
import { INVALID_UTF8_MESSAGE } from '../http/json-body.ts';
import { prepareStreamed } from './save-body-stream.ts';
import {
  hashRows,
  storedRowsJson,
  type PreparedFeed,
  type PreparedSave,
  type SaveKind,
} from './save-rows.ts';

/** 400 of an empty body (as Fastify's own JSON parser words it, see errors.ts). */
const EMPTY_BODY_MESSAGE = 'The request body is empty but the content type says JSON.';
/** 400 of a body that is not JSON. */
const INVALID_JSON_MESSAGE = 'The request body is not valid JSON.';

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

/** The body's bytes, in a holder of their own, once checked to be UTF-8. */
function takeUtf8(body: { bytes?: Uint8Array }): { bytes?: Buffer } {
  const bytes = body.bytes ?? new Uint8Array(0);
  delete body.bytes;
  if (!isUtf8(bytes)) throw new AppError('bad_request', INVALID_UTF8_MESSAGE);
  return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) };
}

/** The body's JSON value (its bytes let go once decoded), with whether it may hold bad text. */
function parseJson(holder: { bytes?: Buffer }): { value: unknown; isClean: boolean } {
  const text = holder.bytes!.toString('utf8');
  delete holder.bytes;
  if (text.trim() === '') throw new AppError('bad_request', EMPTY_BODY_MESSAGE);
  try {
    return { value: JSON.parse(text), isClean: !mayHoldBadText(text) };
  } catch {
    throw new AppError('bad_request', INVALID_JSON_MESSAGE);
  }
}

/** The text rule (http/text-rule.ts, as its preValidation hook did), then the schema. */
function checkBody(kind: SaveKind, parsed: { value: unknown; isClean: boolean }) {
  const problem = parsed.isClean ? undefined : findBadText(parsed.value);
  if (problem)
    throw validationError([
      problem.path ? { msg: problem.msg, path: problem.path } : { msg: problem.msg },
    ]);
  const schema = kind === 'feeds' ? SaveFeedsBodySchema : SaveListsBodySchema;
  const checked = schema.safeParse(parsed.value ?? {});
  parsed.value = undefined;
  if (!checked.success) throw validationError(fieldErrorsFromZod(checked.error));
  return checked.data;
}

/**
 * Parses and checks a save's body, in the order the event loop's path did: UTF-8, JSON, the text
 * rule (NUL, lone surrogates), the contract's schema. `body.bytes` is let go as soon as it is
 * read, the parsed value once checked, each feed's parsed rows once prepared: the largest of
 * them is what the save costs at its peak.
 */
export function prepareSaveBody(kind: SaveKind, body: { bytes?: Uint8Array }): PreparedSave {
  const holder = takeUtf8(body);
  // A good body is prepared row by row, never held whole as text or as parsed objects.
  const streamed = prepareStreamed(kind, holder);
  if (streamed) return streamed;
  // The text and the parsed value live only in these calls: each is let go once used.
  const input = checkBody(kind, parseJson(holder));
  const feeds = input.feeds.map((feed): PreparedFeed => {
    // Ids are filled in place, and the same objects are serialised for the answer.
    const storedJson = storedRowsJson(feed.rows);
    const answered = Buffer.from(JSON.stringify(feed.rows), 'utf8');
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
      answered: answered.buffer.slice(answered.byteOffset, answered.byteOffset + answered.length),
      answeredBytes: answered.length,
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
