/**
 * CSV written straight into UTF-8 bytes, for outputs of millions of lines: each character is
 * copied into a large buffer as it is scanned (ASCII byte by byte), so no line becomes a string
 * and nothing is encoded twice. The bytes equal `formatCsvLine`'s text encoded as UTF-8 (a lone
 * surrogate becomes U+FFFD, as TextEncoder and Node write it).
 */

/** Bytes gathered before they are handed over. */
const DEFAULT_BUFFER_BYTES = 1 << 20;

/**
 * The first hand-over comes after this many bytes, the next ones when the buffer is full: the
 * writers' code is optimised once their first lines are written, and a hand-over first met after
 * that threw the optimised code away (compiled again, several milliseconds each writer).
 */
const FIRST_HANDOVER_BYTES = 1 << 14;

/** Texts at least this long go to `encodeInto` when there is one. */
const NATIVE_TEXT_CHARS = 256;

/** What TextEncoder's encodeInto answers: UTF-16 code units read, bytes written. */
export interface EncodeIntoResult {
  read: number;
  written: number;
}

const QUOTE = 34;
const COMMA = 44;
const SPACE = 32;

/** Up to this many bytes, a repeated block is copied byte by byte (see `copyBack`). */
const SHORT_COPY_BYTES = 32;

/** How `write` treats `"` , CR and LF: as they are, doubling quotes, or stopping (plain cells). */
const RAW = 0;
const QUOTED = 1;
const PLAIN = 2;

export class CsvBytes {
  private buffer: Uint8Array;
  private at = 0;
  /** Bytes gathered before the next hand-over (`FIRST_HANDOVER_BYTES`, then the buffer's size). */
  private room: number;
  /** Times the buffer was handed over. */
  private flushes = 0;
  /** The last line's cells, where each one's bytes start and end, and `flushes` after it. */
  private readonly lastCells: string[] = [];
  private lastStarts = new Int32Array(64);
  private lastEnds = new Int32Array(64);
  private lastLineFlushes = -1;

  /**
   * `flush` gets the bytes gathered so far: a view of the writer's buffer, valid until it
   * returns (the buffer is filled again afterwards). `encodeInto`, when given, writes long texts
   * (`text`) as TextEncoder's encodeInto does: the platform's encoder is faster than a
   * character loop once a text is a few hundred characters long.
   */
  constructor(
    private readonly flush: (bytes: Uint8Array) => void,
    bufferBytes = DEFAULT_BUFFER_BYTES,
    private readonly encodeInto?: (text: string, into: Uint8Array) => EncodeIntoResult,
  ) {
    this.buffer = new Uint8Array(bufferBytes);
    this.room = Math.min(FIRST_HANDOVER_BYTES, bufferBytes);
  }

  /**
   * One CSV line of `cells` (each quoted when `formatCsvCell` would), then CRLF. Cells equal to
   * those in their columns on the line before (a template's fixed texts) are copied from that
   * line's bytes instead of scanned again, a run of such neighbours as one block, unless the
   * buffer was handed over in between.
   */
  line(cells: readonly string[]): void {
    const n = cells.length;
    if (n > this.lastStarts.length) {
      this.lastStarts = new Int32Array(2 * n);
      this.lastEnds = new Int32Array(2 * n);
      this.lastCells.length = 0;
    }
    const last = this.lastCells;
    const lastCount = last.length;
    const starts = this.lastStarts;
    const ends = this.lastEnds;
    const flushes = this.flushes;
    for (let i = 0; i < n;) {
      if (i > 0) this.byte(COMMA);
      const s = cells[i] ?? '';
      const at = this.at;
      // The bytes noted for the line before are there while nothing was handed over since.
      if (this.flushes === this.lastLineFlushes && i < lastCount && s === last[i]) {
        // Cells i..j-1 repeat the line before: their bytes there, commas between included,
        // are one block.
        let j = i + 1;
        while (j < n && j < lastCount && (cells[j] ?? '') === last[j]) j++;
        const from = starts[i] as number;
        const to = ends[j - 1] as number;
        if (at + (to - from) <= this.buffer.length) {
          this.copyBack(from, to);
          const shift = at - from;
          for (let k = i; k < j; k++) {
            starts[k] = (starts[k] as number) + shift;
            ends[k] = (ends[k] as number) + shift;
          }
          i = j;
          continue;
        }
      }
      this.cell(s);
      starts[i] = at;
      ends[i] = this.at;
      last[i] = s;
      i++;
    }
    last.length = n;
    this.byte(13);
    this.byte(10);
    // The offsets just noted hold only when the buffer was not handed over during the line.
    this.lastLineFlushes = this.flushes === flushes ? flushes : -1;
  }

  /** Appends the buffer's bytes `from..to` (written earlier, with room checked by the caller). */
  private copyBack(from: number, to: number): void {
    const b = this.buffer;
    const at = this.at;
    // The platform's copy pays off beyond a few words; a short cell is quicker copied here.
    if (to - from > SHORT_COPY_BYTES) b.copyWithin(at, from, to);
    else for (let j = from; j < to; j++) b[at + j - from] = b[j] as number;
    this.at = at + to - from;
  }

  /** One cell, quoted when it holds `"`, `,`, CR or LF, or starts or ends with a space. */
  cell(s: string): void {
    const n = s.length;
    if (n === 0) return;
    if (s.charCodeAt(0) !== SPACE && s.charCodeAt(n - 1) !== SPACE && this.write(s, PLAIN)) return;
    this.byte(QUOTE);
    this.write(s, QUOTED);
    this.byte(QUOTE);
  }

  /**
   * Bytes made beforehand (a line's fixed pieces, see `csvBytesOf`), as they are. The line
   * before is then no longer the one `line` compares with. `n`: only the first `n` bytes.
   */
  bytes(b: Uint8Array, n = b.length): void {
    this.lastLineFlushes = -1;
    if (n === 0) return;
    if (!this.makeRoom(n)) {
      this.flush(b.subarray(0, n));
      return;
    }
    const buffer = this.buffer;
    const at = this.at;
    // As in `copyBack`: a short piece is quicker copied here than by the platform (and a part
    // of an array without making a view of it).
    if (n > SHORT_COPY_BYTES && n === b.length) buffer.set(b, at);
    else for (let j = 0; j < n; j++) buffer[at + j] = b[j] as number;
    this.at = at + n;
  }

  /** Text as it is (UTF-8). */
  text(s: string): void {
    if (this.encodeInto === undefined || s.length < NATIVE_TEXT_CHARS) {
      this.write(s, RAW);
      return;
    }
    let rest = s;
    for (;;) {
      const { read, written } = this.encodeInto(rest, this.buffer.subarray(this.at));
      this.at += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      this.end();
    }
  }

  /** Hands over what is gathered. */
  end(): void {
    if (this.at > 0) this.flush(this.buffer.subarray(0, this.at));
    this.at = 0;
    this.flushes++;
    this.room = this.buffer.length;
  }

  /**
   * Makes room for `n` more bytes, handing the buffer over when they would pass `room`; false when
   * they exceed even an empty buffer. Every writer checks here: V8 keeps what a function has run in
   * the function, so once any writer has met a hand-over, the others' optimised code (with this
   * inlined) has too, and is not thrown away at their first.
   */
  private makeRoom(n: number): boolean {
    if (this.at + n <= this.room) return true;
    this.end();
    return n <= this.buffer.length;
  }

  private byte(b: number): void {
    this.makeRoom(1);
    this.buffer[this.at++] = b;
  }

  /**
   * Encodes `s` (see RAW, QUOTED, PLAIN). PLAIN stops at the first character that needs the cell
   * quoted, leaves the buffer as it was and returns false.
   */
  private write(s: string, mode: number): boolean {
    const n = s.length;
    // A UTF-16 code unit is at most 3 bytes of UTF-8, a doubled quote 2.
    if (!this.makeRoom(3 * n)) {
      if (mode !== PLAIN) return this.writeLong(s, mode);
      // A plain cell is written whole into the buffer, so that it can be taken back.
      this.buffer = new Uint8Array(3 * n);
      this.room = this.buffer.length;
    }
    const b = this.buffer;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (mode !== RAW && c <= COMMA && (c === QUOTE || c === COMMA || c === 10 || c === 13)) {
          if (mode === PLAIN) return false;
          if (c === QUOTE) b[at++] = QUOTE;
        }
        b[at++] = c;
      } else if (c < 0x800) {
        b[at++] = 0xc0 | (c >> 6);
        b[at++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = s.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          b[at++] = 0xf0 | (cp >> 18);
          b[at++] = 0x80 | ((cp >> 12) & 0x3f);
          b[at++] = 0x80 | ((cp >> 6) & 0x3f);
          b[at++] = 0x80 | (cp & 0x3f);
          i++;
        } else {
          // A lone surrogate: U+FFFD.
          b[at++] = 0xef;
          b[at++] = 0xbf;
          b[at++] = 0xbd;
        }
      } else {
        b[at++] = 0xe0 | (c >> 12);
        b[at++] = 0x80 | ((c >> 6) & 0x3f);
        b[at++] = 0x80 | (c & 0x3f);
      }
    }
    this.at = at;
    return true;
  }

  /** Text longer than the buffer's room, written in pieces (split between code points). */
  private writeLong(s: string, mode: number): boolean {
    const piece = Math.max(1, Math.floor(this.buffer.length / 6));
    for (let from = 0; from < s.length;) {
      let to = Math.min(s.length, from + piece);
      // Keep a surrogate pair whole.
      const last = s.charCodeAt(to - 1);
      if (to < s.length && last >= 0xd800 && last <= 0xdbff) to++;
      this.end();
      this.write(s.slice(from, to), mode);
      from = to;
    }
    return true;
  }
}

/** The bytes `write` puts into a CsvBytes of its own (pieces of lines made once, for `bytes`). */
export function csvBytesOf(write: (csv: CsvBytes) => void): Uint8Array {
  const parts: Uint8Array[] = [];
  // A small buffer: the pieces are short (a longer one is handed over in parts).
  const csv = new CsvBytes((bytes) => parts.push(bytes.slice()), 1024);
  write(csv);
  csv.end();
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
