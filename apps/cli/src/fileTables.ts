/**
 * The command's own Editor files read back as the engine's export tables, so a build record and
 * a change plan are made from exactly what was written. A file is read in 1 MB pieces each time
 * its rows are asked for: a 1M-row file never becomes one string.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { ExportTable, ExportTableKind } from '@adloom/engine';

/** Bytes read at a time. */
const PIECE_BYTES = 1 << 20;

/**
 * The records of a CSV file the command wrote (UTF-8, a BOM, commas, CRLF, quotes doubled):
 * one array of cells per record, header first. Quoted cells may hold commas and line breaks.
 */
export function* csvRecordsOfFile(file: string): Generator<string[]> {
  let text = '';
  for (const [piece, done] of decodedPieces(file)) {
    const parsed = csvRecordsAfter(text, piece, done);
    text = parsed.rest;
    yield* parsed.records;
  }
}

/**
 * The text of a file in pieces of about PIECE_BYTES, decoded from UTF-8 without its BOM, each
 * with whether it is the last (an empty last piece ends every file). A piece ends after its last
 * line break, the bytes after it beginning the next: the readers then seldom join a piece to the
 * text before it (a joined string is read through the join, several times slower).
 */
function* decodedPieces(file: string): Generator<readonly [string, boolean]> {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(PIECE_BYTES);
    // TextDecoder drops the BOM.
    const decoder = new TextDecoder('utf-8');
    let kept = 0;
    for (;;) {
      const n = readSync(fd, buf, kept, buf.length - kept, null);
      const filled = kept + n;
      if (n === 0) {
        yield [decoder.decode(buf.subarray(0, filled)), true] as const;
        return;
      }
      const lf = buf.lastIndexOf(0x0a, filled - 1);
      const end = lf >= 0 ? lf + 1 : filled;
      yield [decoder.decode(buf.subarray(0, end), { stream: true }), false] as const;
      buf.copyWithin(0, end, filled);
      kept = filled - end;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole records of a piece of CSV text (a streamed file's chunk), and the text after the
 * last (to be put before the next piece); `final`: the last piece, every record is whole.
 */
export function csvRecordsOfPiece(
  text: string,
  final: boolean,
): { records: string[][]; rest: string } {
  const { records, end } = parseFrom(text, 0, final, Infinity);
  return { records, rest: end >= text.length ? '' : text.slice(end) };
}

/**
 * `csvRecordsOfPiece(carry + text, final)`, with `text` read as it is: the record the carry
 * begins is completed from `text`'s first line (or lines, while a quoted cell runs on), the rest
 * read from `text` itself (a joined string is read through the join, several times slower).
 */
export function csvRecordsAfter(
  carry: string,
  text: string,
  final: boolean,
): { records: string[][]; rest: string } {
  if (carry === '') return csvRecordsOfPiece(text, final);
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
    const head = parseFrom(carry + text.slice(0, nl + 1), 0, false, Infinity);
    if (head.end < carry.length + nl + 1) continue; // a quoted cell runs on past this line
    const { records, end } = parseFrom(text, nl + 1, final, Infinity);
    for (const r of records) head.records.push(r);
    return { records: head.records, rest: end >= text.length ? '' : text.slice(end) };
  }
  return csvRecordsOfPiece(carry + text, final);
}

/**
 * The whole records of `text` from `from` (at most `max`), and where the text after the last
 * begins.
 */
function parseFrom(
  text: string,
  from: number,
  final: boolean,
  max: number,
): { records: string[][]; end: number } {
  const records: string[][] = [];
  const n = text.length;
  let i = from;
  let start = from;
  // The next quote and CR at or after `i` (n: none), found once and moved on.
  let quote = -1;
  let cr = -1;
  outer: while (i < n && records.length < max) {
    start = i;
    // A record without a quote or a lone CR, up to its line break: its cells between commas.
    // Only when reading many records: the search for the next quote may run to the text's end,
    // paid once per call (a caller reading one record at a time has found its quotes itself).
    if (max > 1 && quote < i) quote = indexOrEnd(text, '"', i);
    if (max > 1 && cr < i) cr = indexOrEnd(text, '\r', i);
    const nl = max > 1 ? text.indexOf('\n', i) : -1;
    if (nl >= 0 && quote > nl && cr >= nl - 1) {
      const end = cr === nl - 1 ? cr : nl;
      const plain: string[] = [];
      for (let at = i; ;) {
        const comma = text.indexOf(',', at);
        if (comma < 0 || comma >= end) {
          plain.push(text.slice(at, end));
          break;
        }
        plain.push(text.slice(at, comma));
        at = comma + 1;
      }
      records.push(plain);
      i = nl + 1;
      start = i;
      continue;
    }
    const cells: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === 0x22) {
        // A quoted cell: up to the quote not followed by another.
        let value = '';
        let from = i + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q < 0 || (q + 1 >= n && !final)) {
            if (!final) break outer;
            value += text.slice(from);
            i = n;
            break;
          }
          if (text.charCodeAt(q + 1) === 0x22) {
            value += text.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          value += text.slice(from, q);
          i = q + 1;
          break;
        }
        cells.push(value);
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === 0x2c || c === 0x0a || c === 0x0d) break;
          j++;
        }
        if (j >= n && !final) break outer;
        cells.push(text.slice(i, j));
        i = j;
      }
      if (i >= n) {
        if (!final) break outer;
        records.push(cells);
        start = n;
        break outer;
      }
      const c = text.charCodeAt(i);
      if (c === 0x2c) {
        i++;
        if (i >= n && !final) break outer;
        continue;
      }
      // The end of the record: CRLF or LF.
      if (c === 0x0d) {
        if (i + 1 >= n && !final) break outer;
        i += text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      } else i++;
      records.push(cells);
      start = i;
      break;
    }
  }
  return { records, end: start };
}

/** The index of `search` in `text` at or after `from`, or the text's length. */
function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? text.length : at;
}

/**
 * The records of a file the command wrote that `wanted` takes (by index, header not counted),
 * each with its index, header first (index -1). A record not wanted is passed over up to its
 * line break when it holds no quote, without making its cells.
 */
export function* someCsvRecordsOfFile(
  file: string,
  wanted: (row: number) => boolean,
): Generator<readonly [number, string[]]> {
  let text = '';
  let row = -1;
  for (const [piece, done] of decodedPieces(file)) {
    text += piece;
    let at = 0;
    // The next quote at or after `at` (text.length: none): found once per piece and moved on.
    let quote = -1;
    while (at < text.length) {
      if (row >= 0 && !wanted(row)) {
        const nl = text.indexOf('\n', at);
        if (nl < 0 && !done) break; // the record ends in the next piece
        if (quote < at) {
          quote = text.indexOf('"', at);
          if (quote < 0) quote = text.length;
        }
        if (nl >= 0 && quote > nl) {
          at = nl + 1;
          row++;
          continue;
        }
      }
      // A record with a quoted cell (it may hold line breaks), a wanted one or the header.
      const parsed = parseFrom(text, at, done, 1);
      if (parsed.records.length === 0) break;
      at = parsed.end;
      if (row < 0 || wanted(row)) yield [row, parsed.records[0]!] as const;
      row++;
    }
    text = text.slice(at);
  }
}

/** One file of a build and what its rows are. */
export interface BuildFile {
  kind: ExportTableKind;
  /** Where the file is. */
  file: string;
  /** The feed line of each row, in file order (made when first asked for). */
  lines?: () => ArrayLike<number>;
}

/** The files as export tables, read from disk each time a table is read. */
export function fileTables(files: readonly BuildFile[]): ExportTable[] {
  return files.map(({ kind, file, lines }) => ({
    kind,
    read: () => {
      const records = csvRecordsOfFile(file);
      const first = records.next();
      const headers = first.done ? [] : first.value;
      return {
        headers,
        rows: {
          [Symbol.iterator]: () => records,
        },
      };
    },
    readSome: (wanted: (row: number) => boolean) => {
      const records = someCsvRecordsOfFile(file, wanted);
      const first = records.next();
      const headers = first.done ? [] : first.value[1];
      return { headers, rows: { [Symbol.iterator]: () => records } };
    },
    ...(lines ? { lines: memo(lines) } : {}),
  }));
}

/** `make`, called once. */
function memo<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}
