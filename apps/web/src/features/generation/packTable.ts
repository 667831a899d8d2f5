import type { RowIssue, Table } from '@adloom/engine';

/**
 * One column of a packed table: its distinct values concatenated, `offsets` marking where each
 * value starts in that concatenation (value k runs from offsets[k] to offsets[k + 1]), and per
 * row the index of its value (`codes`), or null when row i holds value i. The concatenation is
 * kept in pieces of at most PIECE_CHARS (longer only for one longer value) that never split a
 * value: `texts[p]` starts at `pieceStarts[p]`. Strings cross between threads as one memory copy
 * each and the arrays are transferred, so a 600k-line output reaches the page without cloning
 * 600k objects, and no one string is so big that taking it off the wire is a long task.
 */
export interface PackedColumn {
  texts: string[];
  pieceStarts: number[];
  offsets: Uint32Array;
  codes: Uint32Array | null;
  /** Indexed by each row's source (`PackedTable.sources`) instead of by row. */
  bySource?: boolean;
  /** The cells are field `field` of the table's `records` (the column holds no text itself). */
  field?: number;
}

/**
 * Characters per piece of a column's text. Receiving a string costs the page a copy into fresh
 * memory: 10 MB of one column in one string was a 70 ms task on a 2-core machine. (Pieces of 64K
 * characters, small heap objects, made posting 300k ads' 1,163 pieces take 0.75 s instead of
 * 0.38 s for 144 pieces of 512K.)
 */
export const PIECE_CHARS = 1 << 19;

/** A generated output table as it travels from the worker to the page. */
export interface PackedTable {
  headers: string[];
  rowCount: number;
  columns: PackedColumn[];
  /**
   * Per row, the index of the source its `bySource` columns read (rows made from one source,
   * such as the ad groups' ads of one feed row, share those cells and pack them once).
   */
  sources?: Uint32Array;
  /**
   * Per source, all its `field` columns' cells in one value (see `encodeRecord`): a source's
   * dozens of cells are packed as one value instead of one value per column.
   */
  records?: PackedColumn;
  /**
   * Per row, the feed line (grid row number, from 1; 0 for none) that made it: the export step's
   * `ExportTable.lines`. Given by the generation jobs; a table without it names no lines.
   */
  lines?: Uint32Array;
}

/**
 * One record of fields: the field count and each field's length as one character each, then
 * the fields' texts. No separator, so a field may hold any character. Fields and their count must
 * stay under 65,536 (ad texts are far shorter).
 */
export function encodeRecord(fields: readonly string[]): string {
  const head = new Array<number>(fields.length + 1);
  head[0] = fields.length;
  for (let i = 0; i < fields.length; i += 1) head[i + 1] = (fields[i] as string).length;
  return String.fromCharCode(...head) + fields.join('');
}

/** The fields of a record made by `encodeRecord`. */
export function decodeRecord(record: string): string[] {
  const count = record.charCodeAt(0) || 0;
  const fields = new Array<string>(count);
  let at = count + 1;
  for (let i = 0; i < count; i += 1) {
    const length = record.charCodeAt(i + 1);
    fields[i] = record.slice(at, at + length);
    at += length;
  }
  return fields;
}

/** Values joined into one string at a time while a piece fills (see ColumnPacker.closeRun). */
const RUN_VALUES = 256;

/** Columns whose distinct values stay under this share of the rows keep a full dictionary. */
const DICTIONARY_SHARE = 0.5;
/** Rows seen before a column may give up its dictionary. */
const DICTIONARY_TRIAL_ROWS = 2048;
/**
 * Values a column's dictionary holds at the most. Repeating columns (campaigns, match types,
 * positions, paths) have far fewer distinct values; a column of ad texts, where every repeat is
 * a neighbour's, would otherwise keep a Map of every text it saw (hashing and holding 100k
 * strings per column was most of the time of packing 300k ads).
 */
export const DICTIONARY_MAX_ENTRIES = 4096;
/** Lookups in a full dictionary before a column that rarely finds anything stops looking. */
const FULL_DICTIONARY_TRIAL_LOOKUPS = 4096;
/** A full dictionary keeps being asked while at least this share of its lookups find a value. */
const FULL_DICTIONARY_MIN_HIT_SHARE = 1 / 32;

/** A growable Uint32Array. */
export class Uint32Builder {
  private data = new Uint32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  finish(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * Packs one column. Every row gets a code. A value equal to the previous row's reuses its code
 * (outputs repeat campaign and group names line after line); other values are looked up in a
 * dictionary of the column's first distinct values (at most DICTIONARY_MAX_ENTRIES) while the
 * column repeats enough to be worth one, else simply appended.
 */
export class ColumnPacker {
  /** Distinct values so far. */
  private valueCount = 0;
  /** Finished pieces of the text, where each starts, and the values of the open piece. */
  private readonly texts: string[] = [];
  private readonly pieceStarts: number[] = [];
  private piece: string[] = [];
  private pieceLength = 0;
  /** Values not yet joined into a run of the open piece (joined every RUN_VALUES). */
  private run: string[] = [];
  private readonly starts = new Uint32Builder();
  private length = 0;
  private index: Map<string, number> | null = new Map();
  private readonly codes = new Uint32Builder();
  private lastValue: string | undefined;
  private lastCode = 0;
  /** Lookups and hits since the dictionary became full. */
  private fullLookups = 0;
  private fullHits = 0;

  constructor() {
    this.starts.push(0);
  }

  add(value: string): void {
    if (value === this.lastValue) {
      this.codes.push(this.lastCode);
      return;
    }
    const index = this.index;
    let code = index?.get(value);
    if (index && index.size >= DICTIONARY_MAX_ENTRIES) this.countFullLookup(code !== undefined);
    if (code === undefined) {
      code = this.appendValue(value);
      if (index && index.size < DICTIONARY_MAX_ENTRIES) {
        index.set(value, code);
        const rows = this.codes.length + 1;
        if (rows > DICTIONARY_TRIAL_ROWS && this.valueCount > rows * DICTIONARY_SHARE)
          this.index = null;
      }
    }
    this.codes.push(code);
    this.lastValue = value;
    this.lastCode = code;
  }

  /**
   * Appends a value to the column's values (never looked up) and returns its code, adding no row:
   * for values that rows of other tables pick by code (see `finishValues`).
   */
  appendValue(value: string): number {
    // Pieces are joined as they fill, so the values need not all be held until the end.
    if (this.pieceLength > 0 && this.pieceLength + value.length > PIECE_CHARS) this.closePiece();
    this.run.push(value);
    if (this.run.length === RUN_VALUES) this.closeRun();
    this.pieceLength += value.length;
    this.length += value.length;
    this.starts.push(this.length);
    return this.valueCount++;
  }

  /** The values alone (a column of them needs its rows' codes). */
  finishValues(): PackedValues {
    if (this.pieceLength > 0 || this.texts.length === 0) this.closePiece();
    return { texts: this.texts, pieceStarts: this.pieceStarts, offsets: this.starts.finish() };
  }

  /** A full dictionary that seldom finds a value is dropped: its lookups cost more than they save. */
  private countFullLookup(isHit: boolean): void {
    this.fullLookups += 1;
    if (isHit) this.fullHits += 1;
    if (
      this.fullLookups >= FULL_DICTIONARY_TRIAL_LOOKUPS &&
      this.fullHits < this.fullLookups * FULL_DICTIONARY_MIN_HIT_SHARE
    )
      this.index = null;
  }

  finish(): PackedColumn {
    const codes = this.codes.finish();
    // One value per row in order: the codes say nothing.
    const isIdentity = this.valueCount === codes.length;
    return { ...this.finishValues(), codes: isIdentity ? null : codes };
  }

  /**
   * Joins the open run: the values (often strings made by `+`, trees of pieces) become one flat
   * string while they are young, so they need not survive until their piece is joined.
   */
  private closeRun(): void {
    this.piece.push(this.run.join(''));
    this.run = [];
  }

  private closePiece(): void {
    if (this.run.length > 0) this.closeRun();
    this.texts.push(this.piece.join(''));
    this.pieceStarts.push(this.length - this.pieceLength);
    this.piece = [];
    this.pieceLength = 0;
  }
}

/** Packs an engine table (run it in the worker: it walks every row). */
export function packTable(table: Table): PackedTable {
  const packer = new TablePacker(table.headers);
  for (const row of table.rows) packer.addRow(row);
  return packer.finish();
}

/**
 * Packs a table row by row as its rows are made, so no row needs to outlive its `addRow`: pass
 * one reused array.
 */
export class TablePacker {
  private readonly packers: ColumnPacker[];
  rowCount = 0;

  constructor(private readonly headers: readonly string[]) {
    this.packers = headers.map(() => new ColumnPacker());
  }

  addRow(cells: readonly string[]): void {
    const packers = this.packers;
    for (let c = 0; c < packers.length; c += 1) (packers[c] as ColumnPacker).add(cells[c] ?? '');
    this.rowCount += 1;
  }

  finish(): PackedTable {
    return {
      headers: [...this.headers],
      rowCount: this.rowCount,
      columns: this.packers.map((p) => p.finish()),
    };
  }
}

/** A table read column by column: `readers[c](row)` is the cell at (row, c). */
export interface ColumnSource {
  headers: readonly string[];
  rowCount: number;
  readers: readonly ((row: number) => string)[];
}

/**
 * Packs a table column by column, every row of column 0, then of column 1, and so on. For an
 * output kept as objects (ads) this makes no row arrays at all.
 */
export function packColumns(source: ColumnSource): PackedTable {
  const columns = source.readers.map((read) => {
    const packer = new ColumnPacker();
    for (let r = 0; r < source.rowCount; r += 1) packer.add(read(r));
    return packer.finish();
  });
  return { headers: [...source.headers], rowCount: source.rowCount, columns };
}

/** An empty table with these headers. */
export function emptyPackedTable(headers: readonly string[]): PackedTable {
  return packTable({ headers, rows: [] });
}

/** The cell at (row, column). */
export function readPackedCell(table: PackedTable, row: number, column: number): string {
  const c = table.columns[column];
  if (!c || row < 0 || row >= table.rowCount) return '';
  const at = c.bySource && table.sources ? (table.sources[row] as number) : row;
  if (c.field !== undefined) return readRecord(table, at)[c.field] ?? '';
  return readColumnValue(c, at);
}

/** Per table, the last record read, split (a row's cells are read one after another). */
const lastRecords = new WeakMap<PackedTable, { at: number; fields: string[] }>();

/** The fields of the record at `at` (a source, or a row when the table has no sources). */
function readRecord(table: PackedTable, at: number): string[] {
  const last = lastRecords.get(table);
  if (last?.at === at) return last.fields;
  const records = table.records;
  if (!records) return [];
  const fields = decodeRecord(readColumnValue(records, at));
  lastRecords.set(table, { at, fields });
  return fields;
}

/** Value `at` (a row, or a source) of a column that holds its own text. */
function readColumnValue(c: PackedColumn, at: number): string {
  return readPackedValue(c, c.codes ? (c.codes[at] as number) : at);
}

/** The values of a column without its rows' codes (see `ColumnPacker.finishValues`). */
export type PackedValues = Pick<PackedColumn, 'texts' | 'pieceStarts' | 'offsets'>;

/** Value number `k` of a column's values. */
export function readPackedValue(c: PackedValues, k: number): string {
  const start = c.offsets[k] as number;
  const end = c.offsets[k + 1] as number;
  if (start === end) return '';
  // The last piece that starts at or before the value (pieces never split a value).
  const starts = c.pieceStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= start) lo = mid;
    else hi = mid - 1;
  }
  const base = starts[lo] as number;
  return (c.texts[lo] as string).slice(start - base, end - base);
}

/**
 * The longest text of column `column` ('' for none): of its distinct values when it holds its own
 * text (their lengths are in `offsets`, nothing is read but the winner), else of its rows' cells.
 */
export function longestPackedCell(table: PackedTable, column: number): string {
  const c = table.columns[column];
  if (!c) return '';
  if (c.field !== undefined) {
    let longest = '';
    for (let r = 0; r < table.rowCount; r += 1) {
      const text = readPackedCell(table, r, column);
      if (text.length > longest.length) longest = text;
    }
    return longest;
  }
  let best = -1;
  let bestLength = -1;
  for (let k = 0; k + 1 < c.offsets.length; k += 1) {
    const length = (c.offsets[k + 1] as number) - (c.offsets[k] as number);
    if (length > bestLength) [best, bestLength] = [k, length];
  }
  return best < 0 ? '' : readPackedValue(c, best);
}

/** A column whose cells are field `field` of the table's records. */
export function fieldColumn(field: number, bySource: boolean): PackedColumn {
  return {
    texts: [''],
    pieceStarts: [0],
    offsets: new Uint32Array(0),
    codes: null,
    bySource,
    field,
  };
}

/** The packed table as an engine Table (rows made lazily; one reused array per row). */
export function unpackTable(table: PackedTable): Table {
  return {
    headers: table.headers,
    rows: {
      *[Symbol.iterator]() {
        const row = new Array<string>(table.headers.length).fill('');
        for (let r = 0; r < table.rowCount; r += 1) {
          for (let c = 0; c < row.length; c += 1) row[c] = readPackedCell(table, r, c);
          yield row;
        }
      },
    },
  };
}

/** Headers of the skipped-and-cleaned list. */
export const ISSUE_HEADERS = ['Row', 'What happened', 'Reason'] as const;

const ISSUE_KIND_LABELS: Record<RowIssue['kind'], string> = {
  skipped: 'Skipped',
  cleaned: 'Cleaned',
  warning: 'Warning',
};

/**
 * The grid row (from 1) of the selected row numbered `rowNumber` (from 1, as the engine numbers
 * the rows it is given), from `rowPositions`; undefined for 0 (no row) or a number past them.
 */
export function gridRowOf(rowPositions: Uint32Array, rowNumber: number): number | undefined {
  const position = rowNumber > 0 ? rowPositions[rowNumber - 1] : undefined;
  return position === undefined ? undefined : position + 1;
}

/**
 * The feed line (grid row number, from 1) of each row id of the run's rows, for the tables whose
 * items name the row that made them by id (campaigns, groups, ads, assets); 0 for an id that is
 * none of them (an account-level asset).
 */
export function lineOfRowIdOf(
  rows: readonly { id: string }[],
  rowPositions: Uint32Array,
): (rowId: string) => number {
  let byId: Map<string, number> | undefined;
  return (rowId) => {
    if (!byId) {
      byId = new Map();
      for (let i = 0; i < rows.length; i += 1)
        if (!byId.has(rows[i]!.id)) byId.set(rows[i]!.id, (rowPositions[i] ?? i) + 1);
    }
    return byId.get(rowId) ?? 0;
  };
}

/**
 * Row problems as a packed table: the feed row number (from `rowPositions`, the feed position of
 * each selected row), what happened and why.
 */
export function packIssues(
  issues: readonly RowIssue[],
  ctx: { rowPositions: Uint32Array },
): PackedTable {
  return packTable({
    headers: ISSUE_HEADERS,
    rows: {
      *[Symbol.iterator]() {
        for (const issue of issues) {
          const gridRow = gridRowOf(ctx.rowPositions, issue.rowNumber);
          yield [
            gridRow === undefined ? '' : String(gridRow),
            ISSUE_KIND_LABELS[issue.kind],
            issue.message,
          ];
        }
      },
    },
  });
}
