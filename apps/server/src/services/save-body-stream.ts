/**
 * A save's body prepared row by row: the body's bytes are scanned for the JSON structure, and
 * only small pieces are parsed at a time (each row, each other field), so neither the whole text
 * nor the whole parsed value is ever held. Each row is checked (`parseFeedRow`), given its id
 * and written out as its stored and its answered JSON at once. What it cannot take as a good
 * body (any problem, a `\u` escape the text rule would have to look at, a repeated key) it hands
 * back undefined, and the caller runs the whole-body path, which words the answer.
 */
import {
  FEED_MAX_ROWS,
  SaveFeedsBodySchema,
  SaveListsBodySchema,
  parseFeedRow,
  type FeedRowIssue,
} from '@adloom/contract';
import { FEED_COLUMNS } from '@adloom/engine';
import { FIRST_FIELD_AT, Utf8Writer, resizeCopyRowFirst } from '../db/copy-binary.ts';
import { STORED_ROW_LAYOUT, openFeedRowsCopy } from '../db/feed-rows.ts';
import {
  hashRows,
  rowIdMaker,
  type PreparedFeed,
  type PreparedSave,
  type SaveKind,
} from './save-rows.ts';

/** Thrown inside the scan: not a body this path takes (the whole-body path answers it). */
const NOT_TAKEN = Symbol('not taken');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * A feed's rows as they are prepared: the stored document written into its COPY input (from
 * `FIRST_FIELD_AT`), the answered JSON into a buffer of its own, both growing in place.
 */
interface StreamedRows {
  stored: Utf8Writer;
  answered: Utf8Writer;
  count: number;
}

/**
 * Room for a feed's written rows: a row of the body may grow (a 3-byte `{},` gets a made id and
 * every column as `""`, about 30 times as long as answered); past the room the whole-body path
 * takes the save. Reserved address space only: memory is taken as the rows are written.
 */
function roomFor(bodyBytes: number): number {
  return Math.min(2 ** 31 - 1, bodyBytes * 40 + 1024 * 1024);
}

class Scanner {
  at = 0;
  constructor(private readonly bytes: Buffer) {}

  private newRows(): StreamedRows {
    const room = roomFor(this.bytes.length);
    return {
      stored: new Utf8Writer(openFeedRowsCopy(0, room), FIRST_FIELD_AT),
      answered: Utf8Writer.ofRoom(room),
      count: 0,
    };
  }

  space(): void {
    const { bytes } = this;
    while (this.at < bytes.length && isSpace(bytes[this.at])) this.at += 1;
  }

  peek(): number | undefined {
    this.space();
    return this.bytes[this.at];
  }

  expect(c: number): void {
    if (this.peek() !== c) throw NOT_TAKEN;
    this.at += 1;
  }

  /** After a member or an element: true at a comma (taken), false at `close` (taken). */
  next(close: number): boolean {
    const c = this.peek();
    this.at += 1;
    if (c === COMMA) return true;
    if (c === close) return false;
    throw NOT_TAKEN;
  }

  /** The end of the string starting at `start` (its opening quote). */
  private stringEnd(start: number): number {
    const { bytes } = this;
    let at = start + 1;
    for (;;) {
      const quote = bytes.indexOf(QUOTE, at);
      if (quote < 0) throw NOT_TAKEN;
      let slashes = 0;
      while (bytes[quote - 1 - slashes] === BACKSLASH) slashes += 1;
      if (slashes % 2 === 0) return quote + 1;
      at = quote + 1;
    }
  }

  /** The end of the value starting at `at`: JSON.parse of the slice checks what lies between. */
  private valueEnd(): number {
    const { bytes } = this;
    const first = bytes[this.at];
    if (first === QUOTE) return this.stringEnd(this.at);
    let at = this.at;
    if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      let depth = 0;
      while (at < bytes.length) {
        const c = bytes[at]!;
        if (c === QUOTE) {
          at = this.stringEnd(at);
          continue;
        }
        if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
        else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          depth -= 1;
          if (depth === 0) return at + 1;
        }
        at += 1;
      }
      throw NOT_TAKEN;
    }
    while (at < bytes.length) {
      const c = bytes[at];
      if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c)) break;
      at += 1;
    }
    return at;
  }

  /** The value at `at`, parsed (a small one: a row, a name, a number). */
  value(): unknown {
    this.space();
    const start = this.at;
    const end = this.valueEnd();
    this.at = end;
    try {
      return JSON.parse(this.bytes.toString('utf8', start, end));
    } catch {
      throw NOT_TAKEN;
    }
  }

  /** An object's members; `special` takes the members it names (their value unread). */
  members(special: (key: string) => boolean, take: (key: string) => void): Map<string, unknown> {
    const members = new Map<string, unknown>();
    this.expect(OPEN_OBJECT);
    if (this.peek() === CLOSE_OBJECT) {
      this.at += 1;
      return members;
    }
    do {
      if (this.peek() !== QUOTE) throw NOT_TAKEN;
      const key = this.value() as string;
      // A repeated key: JSON.parse keeps the last; the whole-body path does the same.
      if (members.has(key) || key === '__proto__') throw NOT_TAKEN;
      this.expect(COLON);
      if (special(key)) {
        take(key);
        members.set(key, undefined);
      } else members.set(key, this.value());
    } while (this.next(CLOSE_OBJECT));
    return members;
  }

  /** The body: `{ ..., "feeds": [ { ..., "rows": [ row, ... ] }, ... ] }`. */
  body(): { input: Record<string, unknown>; rows: StreamedRows[] } {
    const rows: StreamedRows[] = [];
    const feeds: Record<string, unknown>[] = [];
    const top = this.members(
      (key) => key === 'feeds',
      () => {
        this.expect(OPEN_ARRAY);
        if (this.peek() === CLOSE_ARRAY) {
          this.at += 1;
          return;
        }
        do {
          let feedRows: StreamedRows | undefined;
          const feed = this.members(
            (key) => key === 'rows',
            () => (feedRows = this.rows()),
          );
          feed.delete('rows');
          feeds.push(Object.fromEntries(feed));
          rows.push(feedRows ?? this.closed(this.newRows()));
        } while (this.next(CLOSE_ARRAY));
      },
    );
    this.space();
    if (this.at !== this.bytes.length) throw NOT_TAKEN;
    const input = Object.fromEntries(top);
    if (top.has('feeds')) input.feeds = feeds;
    return { input, rows };
  }

  /** Ends both JSON arrays. */
  private closed(rows: StreamedRows): StreamedRows {
    if (rows.count === 0) {
      rows.stored.byte(OPEN_ARRAY);
      rows.answered.byte(OPEN_ARRAY);
    }
    rows.stored.byte(CLOSE_ARRAY);
    rows.answered.byte(CLOSE_ARRAY);
    return rows;
  }

  /** A feed's rows, each checked, given its id and written out as stored and answered JSON. */
  private rows(): StreamedRows {
    const rows = this.newRows();
    const { stored, answered } = rows;
    this.expect(OPEN_ARRAY);
    if (this.peek() === CLOSE_ARRAY) {
      this.at += 1;
      return this.closed(rows);
    }
    const issues: FeedRowIssue[] = [];
    const seen = new Set<string>();
    const makeId = rowIdMaker();
    const cells = new Array<string>(STORED_ROW_LAYOUT.length);
    do {
      if (rows.count >= FEED_MAX_ROWS) throw NOT_TAKEN;
      const row = parseFeedRow(this.value(), rows.count, issues);
      if (issues.length > 0) throw NOT_TAKEN;
      if (row.id === '' || seen.has(row.id)) row.id = makeId();
      seen.add(row.id);
      cells[0] = row.id;
      for (let c = 0; c < FEED_COLUMNS.length; c++) cells[c + 1] = row[FEED_COLUMNS[c]!] ?? '';
      const separator = rows.count === 0 ? OPEN_ARRAY : COMMA;
      stored.byte(separator);
      stored.write(JSON.stringify(cells));
      answered.byte(separator);
      answered.write(JSON.stringify(row));
      rows.count += 1;
    } while (this.next(CLOSE_ARRAY));
    return this.closed(rows);
  }
}

/** The scanned body, or undefined when this path does not take it. */
function scan(bytes: Buffer): ReturnType<Scanner['body']> | undefined {
  // A `\u` escape may hide a NUL or a lone surrogate: the whole-body path applies the text rule.
  if (bytes.indexOf('\\u') >= 0) return undefined;
  try {
    return new Scanner(bytes).body();
  } catch (error) {
    // Out of room (see roomFor): the whole-body path takes it.
    if (error === NOT_TAKEN || error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * Prepares a good body row by row (see the file's comment); undefined when the body is not one
 * this path takes (`body.bytes` is then kept for the whole-body path, else let go).
 */
export function prepareStreamed(
  kind: SaveKind,
  body: { bytes?: Buffer },
): PreparedSave | undefined {
  const scanned = scan(body.bytes!);
  if (!scanned) return undefined;
  const schema = kind === 'feeds' ? SaveFeedsBodySchema : SaveListsBodySchema;
  const parsed = schema.safeParse(scanned.input);
  if (!parsed.success) return undefined;
  delete body.bytes;
  const input = parsed.data;
  const feeds = input.feeds.map((feed, index): PreparedFeed => {
    const { stored, answered, count } = scanned.rows[index]!;
    const frame = stored.buffer;
    const storedBytes = stored.end - FIRST_FIELD_AT;
    resizeCopyRowFirst(frame, storedBytes);
    return {
      _id: feed._id,
      name: feed.name,
      dataType: feed.dataType,
      sheetUrl: feed.sheetUrl,
      sheetName: feed.sheetName,
      rowCount: count,
      answered: answered.buffer,
      answeredBytes: answered.end,
      rowsHash: hashRows(new Uint8Array(frame, FIRST_FIELD_AT, storedBytes)),
      storedFrame: frame,
      storedBytes,
    };
  });
  return { name: (input as { name?: string }).name, revision: input.revision, feeds };
}
