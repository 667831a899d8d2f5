/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { getChunkTransferables, type ColumnChunk } from '../feed-grid/columnChunk.ts';
import { generateCombinationChunks, type CombineInput } from './combine.ts';

/** Makes combinations off the main thread, sending them back in transferable chunks. */
const api = {
  async combine(input: CombineInput, onChunk: (chunk: ColumnChunk) => unknown): Promise<number> {
    const sends: unknown[] = [];
    let rows = 0;
    for (const chunk of generateCombinationChunks(input)) {
      rows += chunk.rowCount;
      sends.push(onChunk(Comlink.transfer(chunk, getChunkTransferables(chunk))));
    }
    await Promise.all(sends);
    return rows;
  },
};

/** The combine worker's typed surface. */
export type CombineWorkerApi = typeof api;

Comlink.expose(api);
