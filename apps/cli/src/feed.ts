/**
 * The feed of a run, read in pieces and packed: a million rows as objects of seven strings take
 * about 420 MB of heap; packed into one byte store they take what the file does, and each row is
 * made again (a short-lived object) when the engine reads it.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import {
  FEED_CELL_MAX_CHARS,
  FEED_COLUMN_MAX_CHARS,
  FEED_COLUMNS,
  FEED_TEXT_COLUMNS,
  FeedCsvReader,
  forEachCsvRecord,
  type FeedColumn,
  type FeedRow,
  type FeedRowData,
  type FeedRows,
  type TruncatedCell,
  type CsvDelimiter,
  detectCsvDelimiter,
  identifiedFeedCellsFrom,
  readRowStatus,
  ROW_PAUSED,
  ROW_UNKNOWN_STATUS,
} from '@adloom/engine';
import type iconvLite from 'iconv-lite';
import { ByteBlocks, grown, sharedArray, writeUtf8 } from './bytes.ts';
import { InputError, inputFileError, loadIconv } from './files.ts';

/**
 * Bytes read from the file at a time (more when a record is longer). Small pieces are short-lived
 * strings that the young generation's collections free; pieces of megabytes were large objects,
 * which only a full collection frees: reading 1M rows left about 110 MB of them.
 */
const READ_BYTES = 1 << 16;

/** The text columns before the URL, in the order they are packed (the feed's: url, status last). */
const PACKED_COLUMNS = FEED_TEXT_COLUMNS;
if (
  FEED_COLUMNS.length !== PACKED_COLUMNS.length + 2 ||
  FEED_COLUMNS.at(-2) !== 'url' ||
  FEED_COLUMNS.at(-1) !== 'status'
)
  throw new Error('PackedFeedRows: the feed columns must be the text columns, url, then status');
/** Per row its lengths: each text column's, then the status's (the URL is what is left). */
const LENGTHS_PER_ROW = PACKED_COLUMNS.length + 1;

/**
 * A text cell's length in UTF-16 code units fits in a byte: `FEED_CELL_MAX_CHARS` characters,
 * each at most two code units. Checked where the module is loaded, as a longer limit would wrap.
 */
const CELL_LENGTH_FITS_A_BYTE = 2 * FEED_CELL_MAX_CHARS <= 0xff;
if (!CELL_LENGTH_FITS_A_BYTE) throw new Error('PackedFeedRows: text cells too long for a byte');

/** The cells a row packs: the text columns, the URL and the status (`FEED_COLUMNS` order). */
const CELLS_PER_ROW = FEED_COLUMNS.length;

/**
 * Feed rows packed as UTF-8: per row its text cells and the URL, one after another, with
 * the cells' lengths in characters beside them. A row's id is its number (from 1). Reading a row
 * decodes its bytes at once and slices the cells from that text (one call into Node per row, not
 * one per cell); the last row read is kept, as the engine often reads one row several times.
 */
export class PackedFeedRows implements FeedRows {
  // Every store is in SharedArrayBuffers: the ads' thread reads the rows without a copy (`share`).
  private readonly bytes: ByteBlocks;
  /** Per row its block, first byte and end. */
  private blockOf: Uint16Array;
  private starts: Int32Array;
  private ends: Int32Array;
  /**
   * Per row the lengths of its text cells in UTF-16 code units: a byte each, as cells are cut
   * to 30 characters, at most 60 code units (`CELL_LENGTH_FITS_A_BYTE`).
   */
  private lengths: Uint8Array;
  /** Per row 1 when every byte is ASCII: such a row is read as Latin-1, Node's fastest decoding. */
  private ascii: Uint8Array;
  /** Per row the physical line of the file it starts on. */
  private lines: Int32Array;
  /** Per row its status code (`rowStatusCodes`), once a row has a status other than active. */
  private statuses: Uint8Array | undefined;
  private lastIndex = -1;
  private last: FeedRow | undefined;
  /** The cells of the row being made (`at`), in FEED_COLUMNS order. */
  private readonly cells: string[] = [];
  length: number;

  /** Empty rows to add to, or (`from`) the rows another thread shared. */
  constructor(from?: SharedFeedRows) {
    this.bytes = new ByteBlocks(true);
    // A Buffer arrives at another thread as a plain Uint8Array of the same memory.
    if (from)
      for (const b of from.blocks)
        this.bytes.blocks.push(Buffer.from(b.buffer, b.byteOffset, b.length));
    this.blockOf = from?.blockOf ?? sharedArray(Uint16Array, 1 << 16);
    this.starts = from?.starts ?? sharedArray(Int32Array, 1 << 16);
    this.ends = from?.ends ?? sharedArray(Int32Array, 1 << 16);
    this.lengths = from?.lengths ?? sharedArray(Uint8Array, LENGTHS_PER_ROW << 16);
    this.ascii = from?.ascii ?? sharedArray(Uint8Array, 1 << 16);
    this.lines = from?.lines ?? sharedArray(Int32Array, 1 << 16);
    this.length = from?.length ?? 0;
  }

  /** What another thread needs to read these rows (`new PackedFeedRows(shared)`); no copy. */
  share(): SharedFeedRows {
    return {
      blocks: this.bytes.blocks,
      blockOf: this.blockOf,
      starts: this.starts,
      ends: this.ends,
      lengths: this.lengths,
      ascii: this.ascii,
      lines: this.lines,
      length: this.length,
    };
  }

  /** Makes room for row `n` in the per-row stores. */
  private growFor(n: number): void {
    if (n < this.starts.length) return;
    this.blockOf = grown(this.blockOf, n + 1);
    this.starts = grown(this.starts, n + 1);
    this.ends = grown(this.ends, n + 1);
    this.lengths = grown(this.lengths, LENGTHS_PER_ROW * (n + 1));
    this.ascii = grown(this.ascii, n + 1);
    this.lines = grown(this.lines, n + 1);
  }

  add(row: FeedRowData, line: number): void {
    const n = this.length;
    this.growFor(n);
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    const status = row.status ?? '';
    let chars = row.url.length + status.length;
    for (const c of PACKED_COLUMNS) chars += row[c].length;
    const store = this.bytes;
    this.blockOf[n] = store.reserve(3 * chars);
    const bytes = store.current;
    const start = store.used;
    let at = start;
    const l = LENGTHS_PER_ROW * n;
    const lengths = this.lengths;
    // Cell by cell: half of a surrogate pair at a cell's end stays apart from the next cell's.
    for (let c = 0; c < PACKED_COLUMNS.length; c++) {
      const cell = row[PACKED_COLUMNS[c]!];
      lengths[l + c] = cell.length;
      at = writeUtf8(bytes, at, cell);
    }
    at = writeUtf8(bytes, at, row.url);
    lengths[l + PACKED_COLUMNS.length] = status.length;
    at = writeUtf8(bytes, at, status);
    this.noteStatus(n, status);
    this.ascii[n] = at - start === chars ? 1 : 0;
    this.starts[n] = start;
    this.ends[n] = at;
    store.used = at;
    this.lines[n] = line;
    this.length = n + 1;
  }

  /**
   * Adds a row whose cells are UTF-8 bytes of `source`, each already what `add` would store (no
   * space to trim, within its limit): for the feed column `FEED_COLUMNS[c]`, `cells[3c]` and
   * `cells[3c + 1]` are its first byte and end, `cells[3c + 2]` its length in UTF-16 code units.
   * The bytes are copied as they are, with no string made.
   */
  addUtf8(source: Uint8Array, cells: Int32Array, line: number): void {
    const n = this.length;
    this.growFor(n);
    let size = 0;
    let chars = 0;
    for (let c = 0; c < CELLS_PER_ROW; c++) {
      size += (cells[3 * c + 1] as number) - (cells[3 * c] as number);
      chars += cells[3 * c + 2] as number;
    }
    const store = this.bytes;
    this.blockOf[n] = store.reserve(size);
    const bytes = store.current;
    const start = store.used;
    let at = start;
    // Cells are short (a few bytes to a few dozen): a loop copies them faster than a call into
    // Node with a subarray per cell.
    for (let c = 0; c < CELLS_PER_ROW; c++) {
      const end = cells[3 * c + 1] as number;
      for (let k = cells[3 * c] as number; k < end; k++) bytes[at++] = source[k] as number;
    }
    const l = LENGTHS_PER_ROW * n;
    const lengths = this.lengths;
    for (let c = 0; c < PACKED_COLUMNS.length; c++) lengths[l + c] = cells[3 * c + 2] as number;
    const s = CELLS_PER_ROW - 1;
    lengths[l + PACKED_COLUMNS.length] = cells[3 * s + 2] as number;
    // A status cell is short and rare: it is read as text (`noteStatus`) only when there is one.
    if ((cells[3 * s + 1] as number) > (cells[3 * s] as number))
      this.noteStatus(
        n,
        Buffer.from(source.buffer, source.byteOffset, source.length).toString(
          'utf8',
          cells[3 * s],
          cells[3 * s + 1],
        ),
      );
    // Every UTF-8 sequence of a non-ASCII character is longer than its UTF-16 code units.
    this.ascii[n] = size === chars ? 1 : 0;
    this.starts[n] = start;
    this.ends[n] = at;
    store.used = at;
    this.lines[n] = line;
    this.length = n + 1;
  }

  at(index: number): FeedRow | undefined {
    if (index === this.lastIndex) return this.last;
    if (!(index >= 0 && index < this.length)) return undefined;
    const bytes = this.bytes.blocks[this.blockOf[index] as number] as Buffer<ArrayBufferLike>;
    const text = bytes.toString(
      this.ascii[index] === 1 ? 'latin1' : 'utf8',
      this.starts[index],
      this.ends[index],
    );
    const lengths = this.lengths;
    const l = LENGTHS_PER_ROW * index;
    const cells = this.cells;
    let from = 0;
    for (let c = 0; c < PACKED_COLUMNS.length; c++) {
      const end = from + (lengths[l + c] as number);
      cells[c] = text.slice(from, end);
      from = end;
    }
    const statusLength = lengths[l + PACKED_COLUMNS.length] as number;
    if (statusLength === 0) {
      cells[PACKED_COLUMNS.length] = text.slice(from);
      cells[PACKED_COLUMNS.length + 1] = '';
    } else {
      const urlEnd = text.length - statusLength;
      cells[PACKED_COLUMNS.length] = text.slice(from, urlEnd);
      cells[PACKED_COLUMNS.length + 1] = text.slice(urlEnd);
    }
    const row: FeedRow = identifiedFeedCellsFrom(String(index + 1), cells);
    this.lastIndex = index;
    this.last = row;
    return row;
  }

  firstCodeOf(index: number, column: FeedColumn): number {
    if (!(index >= 0 && index < this.length)) return NaN;
    // A row of non-ASCII bytes is made (its cells' offsets are in characters, not bytes).
    if (this.ascii[index] !== 1) return ((this.at(index) as FeedRow)[column] ?? '').charCodeAt(0);
    const lengths = this.lengths;
    const l = LENGTHS_PER_ROW * index;
    const c = FEED_COLUMNS.indexOf(column);
    const statusLength = lengths[l + PACKED_COLUMNS.length] as number;
    let at = this.starts[index] as number;
    for (let j = 0; j < Math.min(c, PACKED_COLUMNS.length); j++) at += lengths[l + j] as number;
    if (c > PACKED_COLUMNS.length) at = (this.ends[index] as number) - statusLength;
    const end =
      c < PACKED_COLUMNS.length
        ? at + (lengths[l + c] as number)
        : c === PACKED_COLUMNS.length
          ? (this.ends[index] as number) - statusLength
          : (this.ends[index] as number);
    if (at === end) return NaN;
    return (this.bytes.blocks[this.blockOf[index] as number] as Buffer<ArrayBufferLike>)[
      at
    ] as number;
  }

  /** Notes row `n`'s status code when its cell is not empty (`rowStatusCodes`). */
  private noteStatus(n: number, cell: string): void {
    if (cell === '') return;
    const read = readRowStatus(cell);
    const code = !read.known ? ROW_UNKNOWN_STATUS : read.status === 'paused' ? ROW_PAUSED : -1;
    if (code < 0) return;
    if (!this.statuses || this.statuses.length <= n)
      this.statuses = grown(this.statuses ?? new Uint8Array(1 << 10), n + 1);
    this.statuses[n] = code;
  }

  statusCodes(): Uint8Array | undefined {
    if (!this.statuses) return undefined;
    const out = new Uint8Array(this.length);
    out.set(this.statuses.subarray(0, Math.min(this.length, this.statuses.length)));
    return out;
  }

  indexOfId(id: string): number {
    const n = Number(id);
    return Number.isInteger(n) && n >= 1 && n <= this.length && String(n) === id ? n - 1 : -1;
  }

  /** The physical line of the file where row `n` (from 1) starts (0 for none). */
  lineOfRow(n: number): number {
    return n >= 1 && n <= this.length ? (this.lines[n - 1] as number) : 0;
  }

  asciiCells(index: number, bounds: Int32Array): Uint8Array | undefined {
    if (!(index >= 0 && index < this.length) || this.ascii[index] !== 1) return undefined;
    // An ASCII row's cell lengths in code units are its lengths in bytes.
    const lengths = this.lengths;
    const l = LENGTHS_PER_ROW * index;
    let at = this.starts[index] as number;
    bounds[0] = at;
    for (let j = 0; j < PACKED_COLUMNS.length; j++) bounds[j + 1] = at += lengths[l + j] as number;
    const end = this.ends[index] as number;
    bounds[PACKED_COLUMNS.length + 1] = end - (lengths[l + PACKED_COLUMNS.length] as number);
    bounds[PACKED_COLUMNS.length + 2] = end;
    return this.bytes.blocks[this.blockOf[index] as number];
  }
}

/** Packed feed rows as another thread receives them: views of SharedArrayBuffers. */
export interface SharedFeedRows {
  blocks: Uint8Array[];
  blockOf: Uint16Array;
  starts: Int32Array;
  ends: Int32Array;
  lengths: Uint8Array;
  ascii: Uint8Array;
  lines: Int32Array;
  length: number;
}

/** A feed as read: its packed rows and what the import noted. */
export interface ReadFeed {
  rows: PackedFeedRows;
  truncated: TruncatedCell[];
  columns: FeedColumn[];
  ignoredHeaders: string[];
  encoding: string;
  /** The cell separator, found from the header (`detectCsvDelimiter`). */
  delimiter: CsvDelimiter;
}

/** Text from bytes read in pieces (a character split between two pieces is kept whole). */
interface PieceDecoder {
  encoding: string;
  /** The text of `bytes`; throws TypeError on bytes that are not valid in the encoding. */
  decode(bytes: Uint8Array): string;
  end(): string;
}

function textDecoder(encoding: string, fatal: boolean): PieceDecoder {
  const d = new TextDecoder(encoding, { fatal });
  return {
    encoding,
    decode: (bytes) => d.decode(bytes, { stream: true }),
    end: () => d.decode(),
  };
}

function windows1252Decoder(iconv: typeof iconvLite): PieceDecoder {
  const d = iconv.getDecoder('windows-1252');
  return {
    encoding: 'windows-1252',
    decode: (bytes) => d.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    end: () => d.end() ?? '',
  };
}

/**
 * Records from text handed over in pieces: each piece is parsed after what was left of the one
 * before, and its last record, which may go on in the next piece, is left for it.
 */
class RecordPieces {
  private carry = '';
  /** The physical line where `carry` starts. */
  private carryLine = 1;
  private stopped = false;
  /** The record parsed last in the current piece: it is handed on once the next one is read. */
  private held: string[] | undefined;
  private heldLine = 0;
  private heldStart = 0;
  /** The physical line before the current text's first. */
  private base = 0;

  /** The characters of the record left for the next piece. */
  get carryLength(): number {
    return this.carry.length;
  }

  constructor(
    private readonly onRecord: (cells: string[], line: number) => boolean,
    private readonly delimiter: CsvDelimiter,
  ) {}

  /**
   * `forEachCsvRecord`'s callback, one function for every piece: a new one per piece was a new
   * call target each time, which threw away the parser's optimised code.
   */
  private readonly hold = (cells: string[], line: number, start: number): boolean => {
    const held = this.held;
    if (held && !this.onRecord(held, this.heldLine)) {
      this.stopped = true;
      return false;
    }
    this.held = cells;
    this.heldLine = this.base + line;
    this.heldStart = start;
    return true;
  };

  push(piece: string, isLast: boolean): boolean {
    if (this.stopped) return false;
    const text = this.carry + piece;
    this.base = this.carryLine - 1;
    this.held = undefined;
    forEachCsvRecord(text, this.hold, this.delimiter);
    if (this.stopped) return false;
    const held = this.held;
    this.held = undefined;
    if (isLast) {
      if (held && !this.onRecord(held, this.heldLine)) this.stopped = true;
      this.carry = '';
      return !this.stopped;
    }
    if (held) {
      this.carry = text.slice(this.heldStart);
      this.carryLine = this.heldLine;
    } else {
      this.carry = text;
    }
    return true;
  }
}

/** Thrown inside `readWith` when the file is not valid UTF-8: it is read again as windows-1252. */
class NotUtf8 extends Error {}

/** The feed once every record is read; throws InputError for a header naming no column or none. */
function readFeedOf(
  reader: FeedCsvReader,
  rows: PackedFeedRows,
  file: string,
  encoding: string,
  delimiter: CsvDelimiter,
): ReadFeed {
  const error = reader.finish();
  if (error !== undefined || !reader.mapped) throw new InputError(`Feed ${file}: ${error ?? ''}`);
  return {
    rows,
    truncated: reader.truncated,
    columns: reader.mapped.columns,
    ignoredHeaders: reader.mapped.ignoredHeaders,
    encoding,
    delimiter,
  };
}

function readWith(
  fd: number,
  file: string,
  pieceBytes: number,
  decoder: PieceDecoder,
  skip: number,
  delimiter: CsvDelimiter,
): ReadFeed {
  const rows = new PackedFeedRows();
  const reader = new FeedCsvReader((row, line) => rows.add(row, line));
  const pieces = new RecordPieces((cells, line) => reader.record(cells, line), delimiter);
  let buffer = Buffer.allocUnsafe(pieceBytes);
  let position = skip;
  for (;;) {
    // A record longer than a piece is parsed again with each piece: the piece grows with it, so
    // a long record is parsed a few times, not once per 64 KB.
    if (pieces.carryLength > buffer.length) buffer = Buffer.allocUnsafe(2 * pieces.carryLength);
    let read;
    try {
      read = readSync(fd, buffer, 0, buffer.length, position);
    } catch (e) {
      throw inputFileError(e, file, 'Feed');
    }
    const bytes = buffer.subarray(0, read);
    position += read;
    let text;
    try {
      text = read === 0 ? decoder.end() : decoder.decode(bytes);
    } catch (e) {
      if (e instanceof TypeError) throw new NotUtf8();
      throw e;
    }
    if (!pieces.push(text, read === 0) || read === 0) break;
  }
  return readFeedOf(reader, rows, file, decoder.encoding, delimiter);
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** What a byte is to a record of plain cells (`Utf8Records.plainRecord`). */
const ASCII_BYTE = 0;
const NON_ASCII_BYTE = 1;
const QUOTE_BYTE = 2;
const CELL_END_BYTE = 3;
const BYTE_KINDS = Uint8Array.from({ length: 256 }, (_, b) =>
  b === COMMA || b === LF || b === CR
    ? CELL_END_BYTE
    : b === QUOTE
      ? QUOTE_BYTE
      : b >= 0x80
        ? NON_ASCII_BYTE
        : ASCII_BYTE,
);

/** `plainRecord`: the record is not plain, `textRecord` reads it. */
const NOT_PLAIN = -2;
/** The record may go on past the bytes given: it is read again with the next piece. */
const UNFINISHED = -1;

/**
 * Feed rows straight from UTF-8 bytes. A record of plain cells (no quote, nothing for `trim` to
 * remove, none over its column's limit) is copied cell by cell into the packed rows, no string
 * made. Any other record, and the header, is made text and read by the engine
 * (`forEachCsvRecord`, `FeedCsvReader`), which keeps every rule of the import: the plain path
 * only takes records where those rules change nothing but which non-empty cell a column named
 * twice takes, and blank records, which it skips as the reader does.
 */
class Utf8Records {
  /** The physical line of the next record. */
  line = 1;
  /** True once the reader refused a record (see `FeedCsvReader.error`). */
  stopped = false;
  /** Per header cell the index in `FEED_COLUMNS` of the column it names or -1, once read. */
  private slots: Int8Array | undefined;
  /** Per header cell the most characters its column keeps. */
  private limits = new Int32Array(0);
  /** The cells of the record being read, as `PackedFeedRows.addUtf8` takes them. */
  private readonly cells = new Int32Array(3 * CELLS_PER_ROW);
  /** In the text of the bytes being read, the next line feed, CR, quote and comma (`plainAsciiRecord`). */
  private nextLf = -1;
  private nextCr = -1;
  private nextQuote = -1;
  private nextComma = -1;
  /** The cells of the record `textRecord` parsed. */
  private textCells: string[] = [];

  constructor(
    private readonly rows: PackedFeedRows,
    private readonly reader: FeedCsvReader,
  ) {}

  /**
   * Reads the records of bytes[from, end); returns the offset of the first one not read, which
   * may go on past `end` (none is left when `isLast` or once `stopped`). `bytes[end]` must exist;
   * it is overwritten. `text`: bytes[0, end) as Latin-1 text when they are all ASCII (`asciiText`).
   */
  read(
    bytes: Buffer,
    from: number,
    end: number,
    isLast: boolean,
    text: string | undefined,
  ): number {
    // A line break after the bytes ends every search for the end of a cell (`plainRecord`).
    bytes[end] = LF;
    this.nextLf = -1;
    this.nextCr = -1;
    this.nextQuote = -1;
    this.nextComma = -1;
    let i = from;
    while (i < end && !this.stopped) {
      let next = NOT_PLAIN;
      if (this.slots)
        next =
          text === undefined
            ? this.plainRecord(bytes, i, end, isLast)
            : this.plainAsciiRecord(text, bytes, i, isLast);
      if (next === NOT_PLAIN) next = this.textRecord(bytes, i, end, isLast);
      if (next === UNFINISHED) return i;
      i = next;
    }
    return end;
  }

  /**
   * `plainRecord` for bytes all ASCII, searched in `text`, their Latin-1 text. The offsets of the
   * next line feed, carriage return, quote and comma at or after a place are kept, each searched
   * again only once passed (as `forEachCsvRecord` does), so the text is searched once for each.
   */
  private plainAsciiRecord(text: string, bytes: Buffer, start: number, isLast: boolean): number {
    const end = text.length;
    if (this.nextLf < start) this.nextLf = indexOrEnd(text, '\n', start);
    if (this.nextCr < start) this.nextCr = indexOrEnd(text, '\r', start);
    if (this.nextQuote < start) this.nextQuote = indexOrEnd(text, '"', start);
    const recordEnd = this.nextLf < this.nextCr ? this.nextLf : this.nextCr;
    if (this.nextQuote < recordEnd) return NOT_PLAIN;
    if (!isLast && (recordEnd === end || (recordEnd + 1 === end && bytes[recordEnd] === CR)))
      return UNFINISHED;
    const slots = this.slots as Int8Array;
    const limits = this.limits;
    const cells = this.cells;
    cells.fill(0);
    let isBlank = true;
    let cellStart = start;
    for (let cell = 0; ; cell++) {
      if (this.nextComma < cellStart) this.nextComma = indexOrEnd(text, ',', cellStart);
      const cellEnd = this.nextComma < recordEnd ? this.nextComma : recordEnd;
      if (cellEnd > cellStart) {
        isBlank = false;
        // Conservative: any control character at either end, not only the ones trim removes.
        if ((bytes[cellStart] as number) <= 0x20 || (bytes[cellEnd - 1] as number) <= 0x20)
          return NOT_PLAIN;
        const slot = cell < slots.length ? (slots[cell] as number) : -1;
        if (slot >= 0) {
          const chars = cellEnd - cellStart;
          if (chars > (limits[cell] as number)) return NOT_PLAIN;
          // A column named twice takes its first non-empty cell (an unset cell ends at 0).
          if (cells[3 * slot + 1] === 0) {
            cells[3 * slot] = cellStart;
            cells[3 * slot + 1] = cellEnd;
            cells[3 * slot + 2] = chars;
          }
        }
      }
      if (cellEnd === recordEnd) break;
      cellStart = cellEnd + 1;
    }
    const line = this.line++;
    if (!isBlank) this.rows.addUtf8(bytes, cells, line);
    return nextRecordStart(bytes, recordEnd, end);
  }

  /**
   * The record at `start` if its cells are plain: packed (or skipped when blank); returns where
   * the next record starts, `NOT_PLAIN` or `UNFINISHED`. The bytes are valid UTF-8.
   */
  private plainRecord(bytes: Buffer, start: number, end: number, isLast: boolean): number {
    const slots = this.slots as Int8Array;
    const limits = this.limits;
    const cells = this.cells;
    cells.fill(0);
    let cell = 0;
    let cellStart = start;
    // A cell's length in UTF-16 code units is its bytes plus this: one code unit per UTF-8
    // sequence (a lead byte and its continuation bytes), two for a sequence of four bytes.
    let extra = 0;
    let isBlank = true;
    let j = start;
    let b;
    for (; ; j++) {
      let kind;
      // The bytes end with a line break (`read`): no test of `end` for each byte.
      while ((kind = BYTE_KINDS[(b = bytes[j] as number)]) === ASCII_BYTE) j++;
      if (kind === NON_ASCII_BYTE) {
        if ((b & 0xc0) === 0x80) extra--;
        else if (b >= 0xf0) extra++;
        continue;
      }
      if (kind === QUOTE_BYTE) return NOT_PLAIN;
      if (j === end) {
        if (!isLast) return UNFINISHED;
        b = -1;
      }
      // The cell bytes[cellStart, j) ends here.
      if (j > cellStart) {
        isBlank = false;
        const first = bytes[cellStart] as number;
        const last = bytes[j - 1] as number;
        // Conservative: any control character at either end, not only the ones trim removes.
        if (first <= 0x20 || last <= 0x20) return NOT_PLAIN;
        if ((first >= 0x80 || last >= 0x80) && hasNonAsciiSpaceAtEnds(bytes, cellStart, j))
          return NOT_PLAIN;
        const slot = cell < slots.length ? (slots[cell] as number) : -1;
        if (slot >= 0) {
          const chars = j - cellStart + extra;
          if (chars > (limits[cell] as number)) return NOT_PLAIN;
          // A column named twice takes its first non-empty cell (an unset cell ends at 0).
          if (cells[3 * slot + 1] === 0) {
            cells[3 * slot] = cellStart;
            cells[3 * slot + 1] = j;
            cells[3 * slot + 2] = chars;
          }
        }
      }
      if (b !== COMMA) break;
      cell++;
      cellStart = j + 1;
      extra = 0;
    }
    // A CR that ends the bytes may be the first half of a CRLF.
    if (b === CR && j + 1 === end && !isLast) return UNFINISHED;
    const line = this.line++;
    if (!isBlank) this.rows.addUtf8(bytes, cells, line);
    return nextRecordStart(bytes, j, end);
  }

  /**
   * The record at `start` made text and read by `FeedCsvReader`; returns where the next record
   * starts or `UNFINISHED`.
   */
  private textRecord(bytes: Buffer, start: number, end: number, isLast: boolean): number {
    const { recordEnd, breaks } = measureRecord(bytes, start, end);
    if (!isLast && (recordEnd === end || (bytes[recordEnd] === CR && recordEnd + 1 === end)))
      return UNFINISHED;
    if (recordEnd === start) {
      // A blank line is a record of one empty cell.
      this.textCells = [''];
    } else {
      const text = bytes.toString('utf8', start, recordEnd);
      // The parser drops a U+FEFF that starts its text, as the file's BOM: this one is text.
      forEachCsvRecord(text.charCodeAt(0) === 0xfeff ? `\ufeff${text}` : text, this.takeCells);
    }
    const line = this.line;
    this.line += breaks + 1;
    const reader = this.reader;
    // The reader numbers the rows it reports truncated by its count, which plain rows skip.
    reader.count = this.rows.length;
    if (!reader.record(this.textCells, line)) {
      this.stopped = true;
      return end;
    }
    if (!this.slots && reader.mapped) {
      const mapping = reader.mapped.mapping;
      this.slots = Int8Array.from(mapping, (c) => (c === undefined ? -1 : FEED_COLUMNS.indexOf(c)));
      this.limits = Int32Array.from(mapping, (c) => (c ? FEED_COLUMN_MAX_CHARS[c] : 0));
    }
    return nextRecordStart(bytes, recordEnd, end);
  }

  /** `forEachCsvRecord`'s callback for `textRecord`: one function, made once. */
  private readonly takeCells = (cells: string[]): boolean => {
    this.textCells = cells;
    return false;
  };
}

/** The offset of `search` in `text` from `from`, or the text's length when it is not there. */
function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? text.length : at;
}

/** Where the record after the line break at `at` starts (`end` when the bytes end at `at`). */
function nextRecordStart(bytes: Uint8Array, at: number, end: number): number {
  if (at >= end) return end;
  return at + (bytes[at] === CR && at + 1 < end && bytes[at + 1] === LF ? 2 : 1);
}

/**
 * Where the record at `start` ends (its line break, or `end`) and the line breaks inside its
 * quoted cells: the engine's CSV parser (`readQuotedRecord`) on bytes, which it can be on as
 * quotes, commas and line breaks are ASCII and no byte of a longer UTF-8 sequence is. A quote
 * opens a quoted cell only at the cell's start; what follows the closing quote is kept up to the
 * next comma or line break; a quoted cell never closed runs to the end.
 */
function measureRecord(
  bytes: Uint8Array,
  start: number,
  end: number,
): { recordEnd: number; breaks: number } {
  let breaks = 0;
  let isAtCellStart = true;
  let i = start;
  while (i < end) {
    const c = bytes[i];
    if (isAtCellStart && c === QUOTE) {
      for (i++; i < end; i++) {
        const e = bytes[i];
        if (e === QUOTE) {
          if (i + 1 < end && bytes[i + 1] === QUOTE) i++;
          else break;
        } else if (e === LF) {
          breaks++;
        } else if (e === CR) {
          breaks++;
          if (i + 1 < end && bytes[i + 1] === LF) i++;
        }
      }
      if (i < end) i++;
    } else if (c === COMMA) {
      isAtCellStart = true;
      i++;
      continue;
    } else if (c === LF || c === CR) {
      break;
    }
    while (i < end) {
      const e = bytes[i];
      if (e === COMMA || e === LF || e === CR) break;
      i++;
    }
    isAtCellStart = false;
  }
  return { recordEnd: i, breaks };
}

/**
 * True when the cell bytes[start, end) starts or ends with a character other than ASCII that
 * `String.prototype.trim` removes (U+00A0, U+2000-U+200A, U+3000, U+FEFF, ...): trim itself
 * decides, so the two cannot disagree.
 */
function hasNonAsciiSpaceAtEnds(bytes: Uint8Array, start: number, end: number): boolean {
  if ((bytes[start] as number) >= 0x80 && isSpace(codeUnitAt(bytes, start))) return true;
  let k = end - 1;
  if ((bytes[k] as number) < 0x80) return false;
  while (k > start && ((bytes[k] as number) & 0xc0) === 0x80) k--;
  return isSpace(codeUnitAt(bytes, k));
}

/** The character whose UTF-8 sequence starts at `at`, or -1 for one beyond U+FFFF. */
function codeUnitAt(bytes: Uint8Array, at: number): number {
  const b = bytes[at] as number;
  const b1 = (bytes[at + 1] as number) & 0x3f;
  if (b < 0xe0) return ((b & 0x1f) << 6) | b1;
  if (b < 0xf0) return ((b & 0x0f) << 12) | (b1 << 6) | ((bytes[at + 2] as number) & 0x3f);
  return -1;
}

function isSpace(code: number): boolean {
  return code >= 0 && String.fromCharCode(code).trim() === '';
}

/** The bytes at the end of bytes[0, end) of a UTF-8 sequence that is not finished there. */
function unfinishedSequence(bytes: Uint8Array, end: number): number {
  for (let k = end - 1; k >= 0 && k >= end - 3; k--) {
    const b = bytes[k] as number;
    if (b < 0x80) return 0;
    if (b >= 0xc0) {
      const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return end - k < size ? end - k : 0;
    }
  }
  return 0;
}

/** True when bytes[at, at + 3) are U+FEFF, the BOM. */
function isUtf8Bom(bytes: Uint8Array, at: number, end: number): boolean {
  return at + 3 <= end && bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf;
}

/**
 * Reads a UTF-8 feed in pieces of bytes (`Utf8Records`); throws `NotUtf8` when the file is not
 * valid UTF-8. Each piece is checked before its records are read (as the text decoder did), but
 * for a character cut at its end, checked with the next piece.
 */
function readUtf8(fd: number, file: string, pieceBytes: number): ReadFeed {
  const rows = new PackedFeedRows();
  const reader = new FeedCsvReader((row, line) => rows.add(row, line));
  const records = new Utf8Records(rows, reader);
  // One byte more than is read, for the line break `Utf8Records.read` puts after the bytes.
  let buffer = Buffer.allocUnsafe(pieceBytes + 1);
  let position = 0;
  /** Bytes kept at the buffer's start from the pieces before: the record not read yet. */
  let kept = 0;
  /** How many of those are known to be valid UTF-8. */
  let checked = 0;
  let isAtFileStart = true;
  for (;;) {
    // A record longer than a piece is read again with each piece: the piece grows with it, so a
    // long record is scanned a few times, not once per piece.
    const room = Math.max(pieceBytes, kept);
    if (buffer.length - 1 - kept < room) {
      const bigger = Buffer.allocUnsafe(kept + room + 1);
      buffer.copy(bigger, 0, 0, kept);
      buffer = bigger;
    }
    let read;
    try {
      read = readSync(fd, buffer, kept, room, position);
    } catch (e) {
      throw inputFileError(e, file, 'Feed');
    }
    position += read;
    const end = kept + read;
    const isLast = read === 0;
    let from = 0;
    if (isAtFileStart) {
      // Up to two BOMs are dropped: the file's own, and one more, as the CSV parser drops a
      // U+FEFF that starts its text.
      if (end < 6 && !isLast) {
        kept = end;
        continue;
      }
      isAtFileStart = false;
      if (isUtf8Bom(buffer, 0, end)) from = 3;
      if (isUtf8Bom(buffer, from, end)) from += 3;
    }
    const whole = isLast ? end : end - unfinishedSequence(buffer, end);
    if (!isUtf8(buffer.subarray(checked, whole))) throw new NotUtf8();
    const next = records.read(buffer, from, end, isLast, asciiText(buffer, end));
    if (isLast || records.stopped) break;
    buffer.copyWithin(0, next, end);
    kept = end - next;
    checked = Math.max(0, whole - next);
  }
  return readFeedOf(reader, rows, file, 'utf-8', ',');
}

/**
 * bytes[0, end) as Latin-1 text when they are all ASCII (most pieces of most feeds), else
 * undefined: `Utf8Records` searches such text with String.prototype.indexOf, far faster than a
 * loop over the bytes, most of all before the loop is compiled. Called from the loop over pieces,
 * not inside `Utf8Records.read`: inlined there, Node's `isAscii` (whose own feedback V8 allocates
 * late) threw the optimised reader away at a later piece.
 */
function asciiText(bytes: Buffer, end: number): string | undefined {
  return isAscii(bytes.subarray(0, end)) ? bytes.toString('latin1', 0, end) : undefined;
}

/** Bytes at the file's start read to find its separator: the header is in them. */
const HEAD_BYTES = 1 << 16;

/**
 * Reads a feed CSV in pieces of `pieceBytes`: UTF-8 with or without BOM; UTF-16 with a BOM (what
 * Excel saves as "Unicode text", and Google Ads Editor exports); a file that is not valid UTF-8 is
 * read again as windows-1252 (what spreadsheets on Windows save), by iconv-lite, which maps
 * 0x80-0x9F to € ‚ „ … – — ‘ ’ “ ” ™ ... (Node's own decoder turns them into control characters).
 * Cells are separated by commas, semicolons (Excel in European locales) or tabs, as the header
 * shows (`detectCsvDelimiter`).
 */
export async function readFeed(file: string, pieceBytes = READ_BYTES): Promise<ReadFeed> {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw inputFileError(e, file, 'Feed');
  }
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    let headBytes;
    try {
      headBytes = readSync(fd, head, 0, HEAD_BYTES, 0);
    } catch (e) {
      throw inputFileError(e, file, 'Feed');
    }
    const start = head.subarray(0, headBytes);
    for (const [bom0, bom1, encoding] of UTF16_BOMS) {
      if (start[0] !== bom0 || start[1] !== bom1) continue;
      const delimiter = detectCsvDelimiter(new TextDecoder(encoding).decode(start.subarray(2)));
      return readWith(fd, file, pieceBytes, textDecoder(encoding, false), 2, delimiter);
    }
    // The header is ASCII in any file it names a column of: a lenient decoding finds its separator.
    const delimiter = detectCsvDelimiter(start.toString('utf8'));
    try {
      if (delimiter !== ',')
        return readWith(fd, file, pieceBytes, textDecoder('utf-8', true), 0, delimiter);
      return readUtf8(fd, file, pieceBytes);
    } catch (e) {
      if (!(e instanceof NotUtf8)) throw e;
      const iconv = await loadIconv();
      return readWith(fd, file, pieceBytes, windows1252Decoder(iconv), 0, delimiter);
    }
  } finally {
    closeSync(fd);
  }
}

/** The byte order marks of UTF-16 and the encoding each starts. */
const UTF16_BOMS: ReadonlyArray<[number, number, string]> = [
  [0xff, 0xfe, 'utf-16le'],
  [0xfe, 0xff, 'utf-16be'],
];
