import { FEED_COLUMNS, type FeedRow } from '@adloom/engine';
import { feedRowAt } from '../feed-grid/feedColumns.ts';

/** The fields of a row as a packed draft keeps them, in this order: the id, then every column. */
export const PACKED_FIELDS: readonly string[] = ['id', ...FEED_COLUMNS];
const FIELD_COUNT = PACKED_FIELDS.length;

/** The fields of drafts packed before they recorded theirs (`PackedRows.fields`). */
const FIRST_PACKED_FIELDS: readonly string[] = ['id', 'root', 'mod', 'var1', 'var2', 'var3', 'url'];

/** Rows packed per block of this many. */
export const PACK_BLOCK_ROWS = 8_192;

/**
 * A feed's rows kept by column: for each field, the cells of each block of rows joined into one
 * string, and every cell's length. No separator and no escape: any text comes back exactly.
 * Structured clone (IndexedDB) copies a few hundred strings and typed arrays, not a million
 * objects.
 */
export interface PackedRows {
  /**
   * The field of each position of `text` and `lengths` (PACKED_FIELDS when packed): a draft is
   * read back by field name, so a column added later never shifts a kept draft. Drafts packed
   * before it was recorded have none: theirs were FIRST_PACKED_FIELDS.
   */
  fields?: string[];
  rowCount: number;
  /** Rows in each block (every field has the same blocks). */
  blockRows: number[];
  /** Per field (PACKED_FIELDS order), per block: the cells joined. */
  text: string[][];
  /** Per field: each cell's length in UTF-16 code units, in row order. */
  lengths: (Uint16Array | Uint32Array)[];
}

/** Where packed rows come from: cells of rows [start, end) of one field, in row order. */
export interface RowColumns {
  readonly rowCount: number;
  /** `field` indexes PACKED_FIELDS. */
  cells(field: number, start: number, end: number): string[];
}

/** Row objects read by field. */
export function rowObjectColumns(rows: readonly FeedRow[]): RowColumns {
  return {
    rowCount: rows.length,
    cells(field, start, end) {
      const name = PACKED_FIELDS[field] as keyof FeedRow;
      const out = new Array<string>(end - start);
      for (let i = start; i < end; i += 1) {
        const value = rows[i]![name] as unknown;
        out[i - start] = typeof value === 'string' ? value : String(value ?? '');
      }
      return out;
    },
  };
}

/** Packs rows a block at a time, so a caller can yield to the browser between steps. */
export class RowPacker {
  private readonly source: RowColumns;
  private readonly blockSize: number;
  private readonly packed: PackedRows;
  private position = 0;

  constructor(source: RowColumns, blockSize = PACK_BLOCK_ROWS, packed?: PackedRows) {
    this.source = source;
    this.blockSize = Math.max(1, blockSize);
    this.packed = packed ?? {
      fields: [...PACKED_FIELDS],
      rowCount: source.rowCount,
      blockRows: [],
      text: PACKED_FIELDS.map(() => []),
      lengths: PACKED_FIELDS.map(() => new Uint16Array(source.rowCount)),
    };
    if (packed) this.position = source.rowCount;
  }

  /** A packer that is already done, with rows packed earlier. */
  static done(packed: PackedRows): RowPacker {
    return new RowPacker({ rowCount: packed.rowCount, cells: () => [] }, PACK_BLOCK_ROWS, packed);
  }

  /** Whether every row is packed. */
  get isDone(): boolean {
    return this.position >= this.source.rowCount;
  }

  /** Packs blocks until done or `now()` passes `deadline`; returns whether done. */
  step(deadline = Number.POSITIVE_INFINITY, now: () => number = () => performance.now()): boolean {
    while (!this.isDone) {
      this.packBlock();
      if (!this.isDone && now() >= deadline) return false;
    }
    return true;
  }

  /** The packed rows (once done). */
  get result(): PackedRows {
    if (!this.isDone) throw new Error('The rows are not packed yet');
    return this.packed;
  }

  private packBlock(): void {
    const start = this.position;
    const end = Math.min(this.source.rowCount, start + this.blockSize);
    for (let f = 0; f < FIELD_COUNT; f += 1) {
      const cells = this.source.cells(f, start, end);
      let lengths = this.packed.lengths[f]!;
      for (let i = 0; i < cells.length; i += 1) {
        const length = cells[i]!.length;
        if (length > 0xffff && lengths instanceof Uint16Array) {
          lengths = Uint32Array.from(lengths);
          this.packed.lengths[f] = lengths;
        }
        lengths[start + i] = length;
      }
      this.packed.text[f]!.push(cells.join(''));
    }
    this.packed.blockRows.push(end - start);
    this.position = end;
  }
}

/** Packs every row at once. */
export function packRows(source: RowColumns): PackedRows {
  const packer = new RowPacker(source);
  packer.step();
  return packer.result;
}

/**
 * The rows back as objects, exactly as packed, each field by its name (a column the draft does
 * not hold is ''; a field no column has any more is dropped). Throws when the packed data does
 * not add up.
 */
export function unpackRows(packed: PackedRows): FeedRow[] {
  const { rowCount, blockRows } = packed;
  if (blockRows.reduce((sum, n) => sum + n, 0) !== rowCount)
    throw new Error('A kept draft is damaged (row count)');
  const fields = packed.fields ?? FIRST_PACKED_FIELDS;
  const byField = new Map(fields.map((name, f) => [name, unpackField(packed, f)]));
  const ids = byField.get('id');
  if (!ids) throw new Error('A kept draft is damaged (ids)');
  let empty: string[] | undefined;
  const cells = FEED_COLUMNS.map(
    (column) => byField.get(column) ?? (empty ??= new Array<string>(rowCount).fill('')),
  );
  const rows = new Array<FeedRow>(rowCount);
  for (let i = 0; i < rowCount; i += 1) rows[i] = feedRowAt(ids[i]!, cells, i);
  return rows;
}

function unpackField(packed: PackedRows, field: number): string[] {
  const texts = packed.text[field];
  const lengths = packed.lengths[field];
  if (
    !texts ||
    !lengths ||
    texts.length !== packed.blockRows.length ||
    lengths.length < packed.rowCount
  )
    throw new Error('A kept draft is damaged (columns)');
  const cells = new Array<string>(packed.rowCount);
  let row = 0;
  for (let b = 0; b < texts.length; b += 1) {
    const text = texts[b]!;
    const end = row + packed.blockRows[b]!;
    let offset = 0;
    for (; row < end; row += 1) {
      const next = offset + lengths[row]!;
      cells[row] = text.slice(offset, next);
      offset = next;
    }
    if (offset !== text.length) throw new Error('A kept draft is damaged (cell lengths)');
  }
  return cells;
}
