/**
 * The build record, `adloom-build.json`, written while the build is made: each streamed file's
 * lines become items as they are written (keywords and negatives from their CSV chunks, ad
 * groups and responsive search ads from their cells), whole tables (campaigns, extensions,
 * asset groups) when they are, and the ads' thread's items as a part of the record it wrote
 * itself. No file is read back.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  BuildRecordWriter,
  readBuildItems,
  RowItemReader,
  type BuildRecordInfo,
  type ExportTable,
  type ExportTableKind,
  type RecordItem,
} from '@adloom/engine';
import { csvRecordsAfter } from './fileTables.ts';
import type { OutputSink } from './files.ts';

/** What a part of the record holds (`BuildRecordWriter.partCounts`). */
export type RecordPartCounts = ReturnType<BuildRecordWriter['partCounts']>;

/** Rows of one streamed file, handed over as the file is written. */
export class RecordRows {
  constructor(
    private readonly writer: RecordWriter,
    private readonly reader: RowItemReader,
  ) {}

  /** The next row's cells and its feed line. */
  row(cells: readonly string[], line: number): void {
    this.writer.add(this.reader, cells, line);
  }
}

/**
 * A streamed CSV file's chunks (its header line first; a chunk may end inside a line), each
 * line's feed line from `lineOf`.
 */
export class RecordCsvChunks {
  private reader: RowItemReader | undefined;
  private lines = 0;
  private carry = '';

  constructor(
    private readonly writer: RecordWriter,
    private readonly kind: ExportTableKind,
    private readonly lineOf: (index: number) => number,
  ) {}

  /** The next chunk, as written to the file. */
  chunk(text: string, final = false): void {
    const { records, rest } = csvRecordsAfter(this.carry, text, final);
    this.carry = rest;
    for (const cells of records) {
      if (!this.reader) this.reader = this.writer.rowReader(this.kind, cells);
      else this.writer.add(this.reader, cells, this.lineOf(this.lines++));
    }
  }

  /** The last line, when the file does not end with a line break. */
  end(): void {
    if (this.carry !== '') this.chunk('', true);
  }
}

/** Writes a record into its file as items come. */
export class RecordWriter {
  private readonly writer: BuildRecordWriter;
  /** The client label, left out of the labels compared. */
  private readonly label: string;

  constructor(
    private readonly sink: OutputSink,
    info: BuildRecordInfo,
  ) {
    this.writer = new BuildRecordWriter(info);
    this.label = info.label;
  }

  /** A reader of a streamed table's rows, under its header. */
  rowReader(kind: ExportTableKind, headers: readonly string[]): RowItemReader {
    return new RowItemReader(kind, headers, this.label);
  }

  /** The rows of a streamed table with this header. */
  rows(kind: ExportTableKind, headers: readonly string[]): RecordRows {
    return new RecordRows(this, this.rowReader(kind, headers));
  }

  /** The item of a row read by `reader`. */
  add(reader: RowItemReader, cells: readonly string[], line: number): void {
    this.writer.addBuildItem(reader.read(cells, line));
    this.flush();
  }

  /** Every item of a whole table. */
  table(table: ExportTable): void {
    for (const item of readBuildItems([table], { label: this.label })) {
      this.writer.addBuildItem(item);
      this.flush();
    }
  }

  /** A part written elsewhere (its bytes, starting with its `T` line), and what it holds. */
  part(bytes: Iterable<Uint8Array>, counts: RecordPartCounts): void {
    for (const c of this.writer.part()) this.sink.text(c);
    for (const b of bytes) this.sink.bytes(b);
    for (const c of this.writer.part(counts)) this.sink.text(c);
  }

  /** The end of the record. */
  end(): void {
    for (const c of this.writer.end()) this.sink.text(c);
    this.sink.end();
  }

  private flush(): void {
    for (const c of this.writer.take()) this.sink.text(c);
  }
}

/** A part of a record written on another thread into its own file (`RecordWriter.part`). */
export class RecordPartWriter {
  private readonly writer = BuildRecordWriter.part();

  constructor(
    private readonly sink: OutputSink,
    private readonly label: string,
  ) {}

  /** The rows of a streamed table with this header. */
  rowReader(kind: ExportTableKind, headers: readonly string[]): RowItemReader {
    return new RowItemReader(kind, headers, this.label);
  }

  add(reader: RowItemReader, cells: readonly string[], line: number): void {
    this.writer.addBuildItem(reader.read(cells, line));
    for (const c of this.writer.take()) this.sink.text(c);
  }

  /** Writes what is left; returns what the part holds. */
  end(): RecordPartCounts {
    for (const c of this.writer.endPart()) this.sink.text(c);
    this.sink.end();
    return this.writer.partCounts();
  }
}

/** Bytes read at a time from a record file. */
const PIECE_BYTES = 1 << 20;

/**
 * A record file's end line (`E{…}`, the last line of a version 2 or 3 record): where it starts
 * and what it says, or undefined when the file ends otherwise.
 */
function endLineOf(fd: number, size: number): { at: number; end: RecordPartCounts } | undefined {
  const tailBytes = Math.min(size, 1 << 16);
  const tail = Buffer.alloc(tailBytes);
  readSync(fd, tail, 0, tailBytes, size - tailBytes);
  const endAt = tail.lastIndexOf('\nE{');
  if (endAt < 0) return undefined;
  try {
    const end = JSON.parse(tail.subarray(endAt + 2).toString('utf8')) as RecordPartCounts;
    return { at: size - tailBytes + endAt + 1, end };
  } catch {
    return undefined;
  }
}

/**
 * The number of items a record file says it holds (its end line), or 0 when it does not say
 * (a damaged record, or one of version 1): a reader's `expectedItems`. At most one item per 16
 * bytes of the file (an item's line is longer), so a damaged end line cannot make a reader
 * set aside more than about twice the file.
 */
export function recordItemCount(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const items = endLineOf(fd, size)?.end.items;
    if (typeof items !== 'number' || !Number.isSafeInteger(items) || items <= 0) return 0;
    return Math.min(items, Math.floor(size / 16));
  } finally {
    closeSync(fd);
  }
}

/** The items per kind a record file says it holds (its end line; {} when it does not say). */
export function recordCounts(file: string): RecordPartCounts['counts'] {
  const fd = openSync(file, 'r');
  try {
    return endLineOf(fd, fstatSync(fd).size)?.end.counts ?? {};
  } finally {
    closeSync(fd);
  }
}

/**
 * A record of `info` holding the items of the record file `buildRecord` (a build's own, as
 * `generate` writes it), then `extra` items: the record after a plan, made without reading the
 * build's items again. The file's items are copied as a part of the new record.
 */
export function writeRecordWithExtra(
  sink: OutputSink,
  info: BuildRecordInfo,
  buildRecord: string,
  extra: Iterable<RecordItem>,
): void {
  const fd = openSync(buildRecord, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(PIECE_BYTES);
    // The header line's end.
    let bodyStart = -1;
    for (let at = 0; bodyStart < 0 && at < size; at += PIECE_BYTES) {
      const n = readSync(fd, buf, 0, PIECE_BYTES, at);
      const nl = buf.subarray(0, n).indexOf(0x0a);
      if (nl >= 0) bodyStart = at + nl + 1;
    }
    const last = endLineOf(fd, size);
    if (bodyStart < 0 || !last) throw new Error(`${buildRecord} is not a whole build record`);
    const { at: bodyEnd, end } = last;
    const writer = new BuildRecordWriter(info);
    for (const c of writer.part()) sink.text(c);
    sink.text('T\n');
    for (let at = bodyStart; at < bodyEnd;) {
      const n = readSync(fd, buf, 0, Math.min(PIECE_BYTES, bodyEnd - at), at);
      if (n === 0) break;
      sink.bytes(buf, n);
      at += n;
    }
    for (const c of writer.part({ items: end.items, counts: end.counts ?? {} })) sink.text(c);
    for (const item of extra) {
      writer.add(item);
      for (const c of writer.take()) sink.text(c);
    }
    for (const c of writer.end()) sink.text(c);
  } finally {
    closeSync(fd);
  }
}
