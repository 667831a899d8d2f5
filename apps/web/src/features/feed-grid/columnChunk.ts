import { FEED_COLUMN_COUNT } from './feedColumns.ts';

/**
 * A block of feed rows as workers send them to the main thread: per column a small dictionary of
 * distinct values and one code per row (an index into the dictionary), so the bulk of the data
 * travels as transferable Uint32Array buffers instead of a structured clone of row objects.
 * A column whose codes are empty holds '' in every row.
 */
export interface ColumnChunk {
  rowCount: number;
  dicts: string[][];
  codes: Uint32Array[];
}

/** Dictionary-encodes rows of cells (already normalized) into a ColumnChunk. */
export function encodeColumnChunk(rows: readonly (readonly string[])[]): ColumnChunk {
  const rowCount = rows.length;
  const dicts: string[][] = [];
  const codes: Uint32Array[] = [];
  for (let c = 0; c < FEED_COLUMN_COUNT; c += 1) {
    const dict: string[] = [''];
    const index = new Map<string, number>([['', 0]]);
    const column = new Uint32Array(rowCount);
    let isEmpty = true;
    for (let r = 0; r < rowCount; r += 1) {
      const value = rows[r]![c] ?? '';
      if (value === '') continue;
      isEmpty = false;
      let code = index.get(value);
      if (code === undefined) {
        code = dict.length;
        dict.push(value);
        index.set(value, code);
      }
      column[r] = code;
    }
    dicts.push(isEmpty ? [] : dict);
    codes.push(isEmpty ? new Uint32Array(0) : column);
  }
  return { rowCount, dicts, codes };
}

/** The buffers of a chunk, for postMessage's transfer list. */
export function getChunkTransferables(chunk: ColumnChunk): ArrayBuffer[] {
  return chunk.codes
    .filter((codes) => codes.length > 0)
    .map((codes) => codes.buffer as ArrayBuffer);
}

/** The cell at (row, column) of a chunk. */
export function readChunkCell(chunk: ColumnChunk, row: number, column: number): string {
  const codes = chunk.codes[column];
  if (!codes || codes.length === 0) return '';
  return chunk.dicts[column]![codes[row]!] ?? '';
}
