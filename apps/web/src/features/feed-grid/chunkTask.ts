import { getChunkTransferables, type ColumnChunk } from './columnChunk.ts';

// The protocol of a worker that makes feed rows (the combiner, the CSV import, the grid
// harness's sample): one task per worker. The page posts the input once; the worker answers,
// in order, with chunks of rows (transferred, not copied), progress, then `done` with the
// result or `error`. The engine worker speaks the same vocabulary (jobTypes.ts: progress, done,
// error) with job ids and lanes on top.

/** What the worker of a chunk task posts to the page. */
export type ChunkTaskMessage<Result> =
  | { type: 'chunk'; chunk: ColumnChunk }
  | { type: 'progress'; fraction: number }
  | { type: 'done'; result: Result }
  | { type: 'error'; name: string; message: string };

/** What a task's handler reports through, in the worker. */
export interface ChunkTaskContext {
  /** Sends a chunk of rows to the page, transferring its buffers. */
  sendChunk(chunk: ColumnChunk): void;
  progress(fraction: number): void;
}

/** The part of a worker's global scope the protocol uses. */
interface TaskScope {
  onmessage: ((event: MessageEvent) => unknown) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

/** In a worker: runs `run` on the input the page posts, answering by the protocol. */
export function serveChunkTask<Input, Result>(
  scope: TaskScope,
  run: (input: Input, ctx: ChunkTaskContext) => Result | Promise<Result>,
): void {
  const post = (message: ChunkTaskMessage<Result>, transfer: Transferable[] = []) =>
    scope.postMessage(message, transfer);
  const ctx: ChunkTaskContext = {
    sendChunk: (chunk) => post({ type: 'chunk', chunk }, getChunkTransferables(chunk)),
    progress: (fraction) => post({ type: 'progress', fraction }),
  };
  scope.onmessage = async (event: MessageEvent) => {
    try {
      post({ type: 'done', result: await run(event.data as Input, ctx) });
    } catch (error) {
      post({
        type: 'error',
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  };
}

/** The part of a Worker the page side uses. */
interface TaskWorker {
  onmessage: ((event: MessageEvent) => unknown) | null;
  onerror: ((event: ErrorEvent) => unknown) | null;
  postMessage(message: unknown): void;
  terminate(): void;
}

/**
 * On the page: runs one task on `worker` (ended when the task ends), handing each chunk and
 * progress to the handlers as they come; resolves with the result, or rejects with the worker's
 * error (its name kept, e.g. 'CsvImportError').
 */
export function runChunkTask<Input, Result>(
  worker: TaskWorker,
  input: Input,
  handlers: { onChunk(chunk: ColumnChunk): void; onProgress?(fraction: number): void },
): Promise<Result> {
  return new Promise<Result>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent) => {
      const message = event.data as ChunkTaskMessage<Result>;
      try {
        if (message.type === 'chunk') handlers.onChunk(message.chunk);
        else if (message.type === 'progress') handlers.onProgress?.(message.fraction);
        else if (message.type === 'done') resolve(message.result);
        else reject(Object.assign(new Error(message.message), { name: message.name }));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    worker.onerror = (event: ErrorEvent) => reject(new Error(event.message || 'The worker failed'));
    worker.postMessage(input);
  }).finally(() => {
    worker.onmessage = null;
    worker.terminate();
  });
}
