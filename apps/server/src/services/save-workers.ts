/**
 * Worker threads for feed and list saves (SAVE_WORKERS). A save's body is passed to a worker
 * piece by piece as it arrives; the worker checks and prepares it (save-body.ts) while the event
 * loop serves everyone else, and hands back the stored documents without a copy. A worker that
 * prepared a large body ends afterwards (its heap, grown to the body's size, goes with it) and a
 * new one starts when next needed. With no workers (SAVE_WORKERS=0) the same preparation runs
 * on the event loop.
 */
import { Worker } from 'node:worker_threads';
import { LARGE_SAVE_MIN_BYTES } from '../http/large-saves.ts';
import { prepareSaveBody, refusalError, type SaveBodyRefusal } from './save-body.ts';
import type { PreparedSave, SaveKind } from './save-rows.ts';

/** What the event loop sends a save worker. */
export type SaveWorkerMessage =
  | { type: 'start'; kind: SaveKind; length: number | undefined }
  | { type: 'piece'; bytes: Uint8Array }
  | { type: 'end' }
  | { type: 'cancel' };

/** What a save worker answers a save with. */
export type SaveWorkerAnswer =
  | { type: 'prepared'; save: PreparedSave }
  | { type: 'refused'; refusal: SaveBodyRefusal }
  | { type: 'failed'; message: string };

/** The 500 of a save whose worker ended before answering: nothing was stored. */
export const SAVE_WORKER_LOST_MESSAGE =
  'The save could not be finished on the server. Nothing was changed; please try again.';

/** A worker ended (crashed, ran out of memory, was stopped) while it prepared a save. */
export class SaveWorkerLostError extends Error {
  override name = 'SaveWorkerLostError';
}

/** The save worker pool. */
export interface SaveWorkers {
  /** Worker threads at most (0: saves are prepared on the event loop). */
  readonly size: number;
  /** Saves being prepared now. */
  readonly running: number;
  /**
   * Reads `body` (`length` bytes when declared) and prepares it. A refused body rejects with its
   * AppError (4xx), an error of `body` rejects with that error, a worker lost meanwhile with
   * SaveWorkerLostError.
   */
  prepare(
    kind: SaveKind,
    body: AsyncIterable<Uint8Array>,
    length: number | undefined,
  ): Promise<PreparedSave>;
  /** Ends every worker now; saves under way fail with SaveWorkerLostError. */
  stop(): Promise<void>;
}

/**
 * The worker's script: the compiled server's dist/save-worker.js (built beside the chunk this
 * code is in), or from the TypeScript source through tsx.
 */
function startWorker(): Worker {
  // A row's garbage dies young: a small young generation keeps the worker's peak near its data.
  const resourceLimits = { maxYoungGenerationSizeMb: SAVE_WORKER_YOUNG_MB };
  const isSource = import.meta.url.endsWith('.ts');
  if (!isSource)
    return new Worker(new URL('./save-worker.js', import.meta.url), { resourceLimits });
  return new Worker(new URL('./save-worker-source.mjs', import.meta.url), {
    resourceLimits,
    workerData: { entry: new URL('./save-worker.ts', import.meta.url).href },
  });
}

/** A save worker's young generation, MB (V8's default is 3 × 16 MB semi-spaces). */
const SAVE_WORKER_YOUNG_MB = 12;

/** A piece of the body in an ArrayBuffer of its own, so it can be transferred. */
function ownCopy(piece: Uint8Array): Uint8Array {
  return new Uint8Array(piece);
}

/**
 * Reads `body` from now on, whatever the reader does: a save waiting for a worker keeps reading
 * its body (a body left unread for 30 s would be cut off with 408).
 */
function readAhead(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const queue: Uint8Array[] = [];
  let isDone = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  void (async () => {
    try {
      for await (const piece of body) {
        queue.push(piece);
        wake?.();
      }
    } catch (error) {
      failure = { error };
    } finally {
      isDone = true;
      wake?.();
    }
  })();
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const piece = queue.shift();
        if (piece) yield piece;
        else if (failure) throw failure.error;
        else if (isDone) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

async function prepareHere(kind: SaveKind, body: AsyncIterable<Uint8Array>): Promise<PreparedSave> {
  const pieces: Uint8Array[] = [];
  for await (const piece of body) pieces.push(piece);
  return prepareSaveBody(kind, { bytes: Buffer.concat(pieces) });
}

/** A pool of at most `size` save workers, started when needed. */
export function createSaveWorkers(size: number): SaveWorkers {
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const waiting: ((worker: Worker) => void)[] = [];
  let running = 0;

  function acquire(): Promise<Worker> {
    const worker = idle.pop();
    if (worker) return Promise.resolve(worker);
    if (all.size < size) return Promise.resolve(spawn());
    return new Promise((resolve) => waiting.push(resolve));
  }

  function spawn(): Worker {
    const worker = startWorker();
    all.add(worker);
    // A worker that is not working must not keep the process alive.
    worker.unref();
    worker.once('exit', () => {
      all.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      // Its place goes to the next save waiting, if any.
      const next = waiting.shift();
      if (next) next(spawn());
    });
    return worker;
  }

  /** Gives a worker back; one that held a large body ends instead. */
  function release(worker: Worker, isLarge: boolean): void {
    if (isLarge) {
      void worker.terminate();
      return;
    }
    const next = waiting.shift();
    if (next) next(worker);
    else idle.push(worker);
  }

  function run(
    worker: Worker,
    kind: SaveKind,
    body: AsyncIterable<Uint8Array>,
    length: number | undefined,
  ): Promise<PreparedSave> {
    worker.ref();
    return new Promise<PreparedSave>((resolve, reject) => {
      let bytes = 0;
      let isSettled = false;
      function settle(error: unknown, save?: PreparedSave, isLost = false): void {
        if (isSettled) return;
        isSettled = true;
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        worker.off('error', onError);
        worker.unref();
        if (!isLost) release(worker, Math.max(bytes, length ?? 0) >= LARGE_SAVE_MIN_BYTES);
        if (save) resolve(save);
        else reject(error);
      }
      function onMessage(answer: SaveWorkerAnswer): void {
        if (answer.type === 'prepared') settle(undefined, answer.save);
        else if (answer.type === 'refused') settle(refusalError(answer.refusal));
        else settle(new Error(`save worker failed: ${answer.message}`));
      }
      function onError(error: Error): void {
        settle(new SaveWorkerLostError(`save worker failed: ${error.message}`), undefined, true);
      }
      function onExit(code: number): void {
        settle(new SaveWorkerLostError(`save worker exited with ${code}`), undefined, true);
      }
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.once('error', onError);
      worker.postMessage({ type: 'start', kind, length } satisfies SaveWorkerMessage);
      void (async () => {
        try {
          for await (const piece of body) {
            if (isSettled) return;
            bytes += piece.length;
            const own = ownCopy(piece);
            worker.postMessage({ type: 'piece', bytes: own } satisfies SaveWorkerMessage, [
              own.buffer as ArrayBuffer,
            ]);
          }
          if (!isSettled) worker.postMessage({ type: 'end' } satisfies SaveWorkerMessage);
        } catch (error) {
          if (isSettled) return;
          worker.postMessage({ type: 'cancel' } satisfies SaveWorkerMessage);
          settle(error);
        }
      })();
    });
  }

  return {
    size,
    get running() {
      return running;
    },
    async prepare(kind, body, length) {
      running += 1;
      try {
        if (size === 0) return await prepareHere(kind, body);
        const read = readAhead(body);
        return await run(await acquire(), kind, read, length);
      } finally {
        running -= 1;
      }
    },
    async stop() {
      await Promise.all([...all].map((worker) => worker.terminate()));
    },
  };
}
