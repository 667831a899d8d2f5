/**
 * The feed of a run, read in pieces and packed: a million rows as objects of seven strings take
 * about 420 MB of heap; packed into one byte store they take what the file does, and each row is
 * made again (a short-lived object) when the engine reads it.
 */
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import {
  FEED_COLUMNS,
  FeedCsvReader,
  forEachCsvRecord,
  type FeedColumn,
  type FeedRow,
  type FeedRowData,
  type FeedRows,
  type TruncatedCell,
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

/** The text columns before the URL, in the order they are packed. */
const PACKED_COLUMNS = ['root', 'mod', 'var1', 'var2', 'var3'] as const;

/**
 * Feed rows packed as UTF-8: per row its five text cells and the URL, one after another, with
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
  /** Per row the lengths of its five text cells in UTF-16 code units (cells are cut to 30 characters). */
  private lengths: Uint16Array;
  /** Per row 1 when every byte is ASCII: such a row is read as Latin-1, Node's fastest decoding. */
  private ascii: Uint8Array;
  /** Per row the physical line of the file it starts on. */
  private lines: Int32Array;
  private lastIndex = -1;
  private last: FeedRow | undefined;
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
    this.lengths = from?.lengths ?? sharedArray(Uint16Array, PACKED_COLUMNS.length << 16);
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

  add(row: FeedRowData, line: number): void {
    const n = this.length;
    if (n === this.starts.length) {
      this.blockOf = grown(this.blockOf, n + 1);
      this.starts = grown(this.starts, n + 1);
      this.ends = grown(this.ends, n + 1);
      this.lengths = grown(this.lengths, PACKED_COLUMNS.length * (n + 1));
      this.ascii = grown(this.ascii, n + 1);
      this.lines = grown(this.lines, n + 1);
    }
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    let chars = row.url.length;
    for (const c of PACKED_COLUMNS) chars += row[c].length;
    const store = this.bytes;
    this.blockOf[n] = store.reserve(3 * chars);
    const bytes = store.current;
    const start = store.used;
    let at = start;
    const { root, mod, var1, var2, var3, url } = row;
    const l = PACKED_COLUMNS.length * n;
    const lengths = this.lengths;
    lengths[l] = root.length;
    lengths[l + 1] = mod.length;
    lengths[l + 2] = var1.length;
    lengths[l + 3] = var2.length;
    lengths[l + 4] = var3.length;
    // Cell by cell: half of a surrogate pair at a cell's end stays apart from the next cell's.
    at = writeUtf8(bytes, at, root);
    at = writeUtf8(bytes, at, mod);
    at = writeUtf8(bytes, at, var1);
    at = writeUtf8(bytes, at, var2);
    at = writeUtf8(bytes, at, var3);
    at = writeUtf8(bytes, at, url);
    this.ascii[n] = at - start === chars ? 1 : 0;
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
    const l = PACKED_COLUMNS.length * index;
    const mod = lengths[l] as number;
    const var1 = mod + (lengths[l + 1] as number);
    const var2 = var1 + (lengths[l + 2] as number);
    const var3 = var2 + (lengths[l + 3] as number);
    const url = var3 + (lengths[l + 4] as number);
    const row: FeedRow = {
      id: String(index + 1),
      root: text.slice(0, mod),
      mod: text.slice(mod, var1),
      var1: text.slice(var1, var2),
      var2: text.slice(var2, var3),
      var3: text.slice(var3, url),
      url: text.slice(url),
    };
    this.lastIndex = index;
    this.last = row;
    return row;
  }

  firstCodeOf(index: number, column: FeedColumn): number {
    if (!(index >= 0 && index < this.length)) return NaN;
    // A row of non-ASCII bytes is made (its cells' offsets are in characters, not bytes).
    if (this.ascii[index] !== 1) return (this.at(index) as FeedRow)[column].charCodeAt(0);
    const lengths = this.lengths;
    const l = PACKED_COLUMNS.length * index;
    const c = FEED_COLUMNS.indexOf(column);
    let at = this.starts[index] as number;
    for (let j = 0; j < c; j++) at += lengths[l + j] as number;
    const end =
      c < PACKED_COLUMNS.length ? at + (lengths[l + c] as number) : (this.ends[index] as number);
    if (at === end) return NaN;
    return (this.bytes.blocks[this.blockOf[index] as number] as Buffer<ArrayBufferLike>)[
      at
    ] as number;
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
    const l = PACKED_COLUMNS.length * index;
    let at = this.starts[index] as number;
    bounds[0] = at;
    for (let j = 0; j < PACKED_COLUMNS.length; j++) bounds[j + 1] = at += lengths[l + j] as number;
    bounds[PACKED_COLUMNS.length + 1] = this.ends[index] as number;
    return this.bytes.blocks[this.blockOf[index] as number];
  }
}

/** Packed feed rows as another thread receives them: views of SharedArrayBuffers. */
export interface SharedFeedRows {
  blocks: Uint8Array[];
  blockOf: Uint16Array;
  starts: Int32Array;
  ends: Int32Array;
  lengths: Uint16Array;
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

/**
 * UTF-8, invalid bytes throwing, the BOM left in the text (`readFeed` skips the file's own). A
 * piece of ASCII bytes is read as Latin-1, the same text several times faster than
 * `TextDecoder`, when the decoder holds no bytes of a character begun before it: when the last
 * byte it was given was ASCII. Otherwise the decoder reads the piece, which throws if a character
 * it holds is not finished.
 */
function utf8Decoder(): PieceDecoder {
  const d = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let isDecoderClear = true;
  return {
    encoding: 'utf-8',
    decode: (bytes) => {
      if (bytes.length === 0) return '';
      if (isDecoderClear && isAscii(bytes))
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
      isDecoderClear = (bytes[bytes.length - 1] as number) < 0x80;
      return d.decode(bytes, { stream: true });
    },
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

  constructor(private readonly onRecord: (cells: string[], line: number) => boolean) {}

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
    forEachCsvRecord(text, this.hold);
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

function readWith(
  fd: number,
  file: string,
  makeDecoder: (firstBytes: Uint8Array) => { decoder: PieceDecoder; skip: number },
): ReadFeed {
  const rows = new PackedFeedRows();
  const reader = new FeedCsvReader((row, line) => rows.add(row, line));
  const pieces = new RecordPieces((cells, line) => reader.record(cells, line));
  let buffer = Buffer.allocUnsafe(READ_BYTES);
  let position = 0;
  let decoder: PieceDecoder | undefined;
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
    let bytes = buffer.subarray(0, read);
    if (!decoder) {
      const made = makeDecoder(bytes);
      decoder = made.decoder;
      bytes = bytes.subarray(made.skip);
    }
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
  const error = reader.finish();
  if (error !== undefined || !reader.mapped) throw new InputError(`Feed ${file}: ${error ?? ''}`);
  return {
    rows,
    truncated: reader.truncated,
    columns: reader.mapped.columns,
    ignoredHeaders: reader.mapped.ignoredHeaders,
    encoding: (decoder as PieceDecoder).encoding,
  };
}

/**
 * Reads a feed CSV in pieces of a few megabytes: UTF-8 with or without BOM; UTF-16 with a BOM;
 * a file that is not valid UTF-8 is read again as windows-1252 (what spreadsheets on Windows
 * save), by iconv-lite, which maps 0x80-0x9F to € ‚ „ … – — ‘ ’ “ ” ™ ... (Node's own decoder
 * turns them into control characters).
 */
export async function readFeed(file: string): Promise<ReadFeed> {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw inputFileError(e, file, 'Feed');
  }
  try {
    try {
      return readWith(fd, file, (b) => {
        if (b[0] === 0xff && b[1] === 0xfe)
          return { decoder: textDecoder('utf-16le', false), skip: 2 };
        if (b[0] === 0xfe && b[1] === 0xff)
          return { decoder: textDecoder('utf-16be', false), skip: 2 };
        // The BOM of UTF-8: TextDecoder would drop it at the start of the bytes it is given,
        // which after pieces read as Latin-1 is not the start of the file.
        return {
          decoder: utf8Decoder(),
          skip: b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0,
        };
      });
    } catch (e) {
      if (!(e instanceof NotUtf8)) throw e;
      const iconv = await loadIconv();
      return readWith(fd, file, () => ({ decoder: windows1252Decoder(iconv), skip: 0 }));
    }
  } finally {
    closeSync(fd);
  }
}
