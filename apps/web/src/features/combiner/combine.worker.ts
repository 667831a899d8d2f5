/// <reference lib="webworker" />
import { serveChunkTask } from '../feed-grid/chunkTask.ts';
import { generateCombinationChunks, type CombineInput } from './combine.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Makes combinations off the main thread, sending them back in transferable chunks. */
serveChunkTask<CombineInput, number>(self, (input, ctx) => {
  let rows = 0;
  for (const chunk of generateCombinationChunks(input)) {
    rows += chunk.rowCount;
    ctx.sendChunk(chunk);
  }
  return rows;
});
