import { describe, expect, it } from 'vitest';
import { runChunkTask, serveChunkTask, type ChunkTaskContext } from './chunkTask.ts';
import { encodeColumnChunk, type ColumnChunk } from './columnChunk.ts';

/** A worker and its scope in one thread: each side's posts reach the other's onmessage. */
function pair<Input, Result>(
  run: (input: Input, ctx: ChunkTaskContext) => Result | Promise<Result>,
) {
  const scope = {
    onmessage: null as ((event: MessageEvent) => unknown) | null,
    transferred: [] as Transferable[],
    postMessage(message: unknown, transfer: Transferable[]) {
      scope.transferred.push(...transfer);
      queueMicrotask(() => worker.onmessage?.({ data: message } as MessageEvent));
    },
  };
  const worker = {
    onmessage: null as ((event: MessageEvent) => unknown) | null,
    onerror: null as ((event: ErrorEvent) => unknown) | null,
    isTerminated: false,
    postMessage(message: unknown) {
      queueMicrotask(() => scope.onmessage?.({ data: message } as MessageEvent));
    },
    terminate() {
      worker.isTerminated = true;
    },
  };
  serveChunkTask(scope, run);
  return { scope, worker };
}

describe('chunk tasks (the row-making workers)', () => {
  it('hands over chunks and progress in order, then the result, and ends the worker', async () => {
    const { scope, worker } = pair<number, string>((count, ctx) => {
      for (let i = 0; i < count; i += 1) {
        ctx.sendChunk(encodeColumnChunk([[`row ${i}`, '', '', '', '', '']]));
        ctx.progress((i + 1) / count);
      }
      return `made ${count}`;
    });
    const seen: string[] = [];
    const chunks: ColumnChunk[] = [];
    const result = await runChunkTask<number, string>(worker, 2, {
      onChunk: (chunk) => {
        chunks.push(chunk);
        seen.push('chunk');
      },
      onProgress: (fraction) => seen.push(`progress ${fraction}`),
    });
    expect(result).toBe('made 2');
    expect(seen).toEqual(['chunk', 'progress 0.5', 'chunk', 'progress 1']);
    expect(chunks.map((chunk) => chunk.rowCount)).toEqual([1, 1]);
    expect(scope.transferred.length).toBeGreaterThan(0);
    expect(worker.isTerminated).toBe(true);
  });

  it('rejects with the worker error, its name kept', async () => {
    const { worker } = pair<null, never>(() => {
      throw Object.assign(new Error('No rows under the header'), { name: 'CsvImportError' });
    });
    const failure = runChunkTask(worker, null, { onChunk: () => undefined });
    await expect(failure).rejects.toMatchObject({
      name: 'CsvImportError',
      message: 'No rows under the header',
    });
    expect(worker.isTerminated).toBe(true);
  });
});
