/**
 * The rows of a `rows-chunk` message as the worker reads them: per feed column (FEED_COLUMNS
 * order, Status included) the cells joined, then the row ids; `sendSelectedRows` writes them.
 */
import { FEED_COLUMNS, identifiedFeedCellsFrom, type FeedRow } from '@adloom/engine';
import type { RowsChunkMessage } from './jobTypes.ts';

/** The index of the rows' ids among a chunk's texts: after every feed column. */
export const ROWS_CHUNK_ID_TEXT = FEED_COLUMNS.length;

/** Calls `take` with each row of the chunk and its feed position, in order. */
export function readRowsChunk(
  message: RowsChunkMessage,
  take: (row: FeedRow, position: number) => void,
): void {
  const cursors = message.lengths.map(() => 0);
  const count = message.positions.length;
  const cell = (c: number, i: number): string => {
    const start = cursors[c] as number;
    const end = start + ((message.lengths[c] as Uint32Array)[i] as number);
    cursors[c] = end;
    return (message.texts[c] as string).slice(start, end);
  };
  const cells = new Array<string>(ROWS_CHUNK_ID_TEXT);
  for (let i = 0; i < count; i += 1) {
    for (let c = 0; c < ROWS_CHUNK_ID_TEXT; c += 1) cells[c] = cell(c, i);
    take(
      identifiedFeedCellsFrom(cell(ROWS_CHUNK_ID_TEXT, i), cells),
      message.positions[i] as number,
    );
  }
}
