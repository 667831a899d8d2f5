import type { CampaignTemplate } from '@adloom/engine';
import type {
  EngineJobInput,
  EngineJobKind,
  EngineJobOutput,
  FromWorkerMessage,
  JobPart,
  JobProgress,
  ToWorkerMessage,
} from './jobTypes.ts';
import { sendSelectedRows, type RowsSource } from './selectedRows.ts';
import { restoreLongStrings } from './transferables.ts';
import { partMessages, splitInput } from './inputParts.ts';
import { yieldToPage } from '../../state/yieldToPage.ts';
import { keptForPage } from '../../state/pageState.ts';

/** Options of `runEngineJob`. */
export interface RunEngineJobOptions {
  /** The rows the job works on (the handler's `ctx.rows`). */
  rows?: RowsSource;
  onProgress?: (progress: JobProgress) => void;
  /** Aborting cancels the job (a running one ends its lane's worker). */
  signal?: AbortSignal;
  /** Jobs of one lane run one at a time in one worker; lanes run side by side. */
  lane?: string;
  /**
   * Runs the job on one part of the rows (enginePool.ts): the worker answers null for a part
   * other than the first that gets no row.
   */
  part?: JobPart & { campaign: CampaignTemplate };
}

/** The rejection of a cancelled job. */
export class JobCancelledError extends Error {
  override readonly name = 'JobCancelledError';
  constructor() {
    super('Cancelled');
  }
}

/** The rejection of a job whose handler threw (`isForPerson`: a JobError meant to be shown). */
export class JobFailedError extends Error {
  override readonly name = 'JobFailedError';
  constructor(
    message: string,
    readonly isForPerson: boolean,
  ) {
    super(message);
  }
}

/** True when the job was cancelled (not a failure to report). */
export function isJobCancelled(error: unknown): boolean {
  return error instanceof JobCancelledError;
}

interface QueuedJob {
  kind: string;
  input: unknown;
  options: RunEngineJobOptions;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  id: number;
  isStarted: boolean;
  isDone: boolean;
  /** Long strings of the result, arrived ahead of it (see takeLongStrings). */
  parts: string[];
}

/** Makes the worker: installed by the app at start (worker/), replaced in tests. */
export type WorkerFactory = () => Worker;

const noWorkerFactory: WorkerFactory = () => {
  throw new Error('No engine worker factory is installed');
};

let makeWorker: WorkerFactory = noWorkerFactory;

/** Sets how workers are made (the app at start, tests). */
export function setEngineWorkerFactory(factory: WorkerFactory): void {
  makeWorker = factory;
}

let nextJobId = 1;

class Lane {
  private worker: Worker | null = null;
  /** The rows key the worker holds. */
  private workerRowsKey: string | null = null;
  private readonly queue: QueuedJob[] = [];
  private running: QueuedJob | null = null;

  /** Starts the worker now, so the first job does not wait for it to load. */
  warm(): void {
    this.ensureWorker();
  }

  enqueue(job: QueuedJob): void {
    this.queue.push(job);
    const signal = job.options.signal;
    if (signal) {
      signal.addEventListener('abort', () => this.cancel(job), { once: true });
    }
    this.pump();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = makeWorker();
    worker.onmessage = (event: MessageEvent<FromWorkerMessage>) => this.handleMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.failRunning(new JobFailedError(event.message || 'The engine worker failed', false));
      this.restart();
    };
    this.worker = worker;
    this.workerRowsKey = null;
    return worker;
  }

  private restart(): void {
    this.worker?.terminate();
    this.worker = null;
    this.workerRowsKey = null;
  }

  /** Ends the worker and forgets every job (the page starts again: see keptForPage). */
  dispose(): void {
    this.restart();
    this.queue.length = 0;
    this.running = null;
  }

  private post(message: ToWorkerMessage, transfer: Transferable[] = []): void {
    this.ensureWorker().postMessage(message, transfer);
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const job = this.queue.shift() as QueuedJob;
    this.running = job;
    job.isStarted = true;
    void this.start(job);
  }

  private async start(job: QueuedJob): Promise<void> {
    const source = job.options.rows;
    let rowsKey: string | null = null;
    if (source) {
      rowsKey = source.key();
      if (rowsKey !== this.workerRowsKey) {
        this.workerRowsKey = null;
        const store = source.store;
        performance.mark('adloom:rows-start');
        this.post({ type: 'rows-begin', key: rowsKey, total: store.selectedCount });
        const isComplete = await sendSelectedRows(
          store,
          rowsKey,
          (message, transfer) => this.post(message, transfer),
          (fraction) => job.options.onProgress?.({ phase: 'rows', fraction }),
          () => job.isDone || source.key() !== rowsKey,
        );
        if (job.isDone) return;
        if (!isComplete) {
          // The rows changed while they were being sent: start over with the new ones.
          this.running = null;
          this.queue.unshift(job);
          this.pump();
          return;
        }
        this.post({ type: 'rows-end', key: rowsKey });
        performance.mark('adloom:rows-end');
        this.workerRowsKey = rowsKey;
      }
    }
    job.options.onProgress?.({ phase: 'work', fraction: 0 });
    const { input, parts } = splitInput(job.input);
    for (const values of partMessages(parts)) {
      this.post({ type: 'input-parts', id: job.id, values });
      await yieldToPage();
      if (job.isDone) return;
    }
    const { part } = job.options;
    this.post({
      type: 'job',
      id: job.id,
      kind: job.kind,
      input,
      rowsKey,
      ...(part ? { part } : {}),
    });
  }

  private handleMessage(message: FromWorkerMessage): void {
    const job = this.running;
    if (!job || message.id !== job.id) return;
    if (message.type === 'progress') {
      job.options.onProgress?.({ phase: 'work', fraction: message.fraction });
      return;
    }
    if (message.type === 'part') {
      job.parts[message.index] = message.text;
      return;
    }
    this.finish(job);
    performance.mark(`adloom:job-${message.type}`);
    // The result reaches its caller in a task of its own: taking a big message off the wire
    // (its strings) and rendering what it holds stay two shorter tasks instead of one long one.
    if (message.type === 'done') {
      const { result } = message;
      const { parts } = job;
      job.parts = [];
      setTimeout(() => {
        try {
          restoreLongStrings(result, parts);
          job.resolve(result);
        } catch (error) {
          job.reject(error);
        }
      }, 0);
    } else job.reject(new JobFailedError(message.message, message.isJobError));
  }

  private finish(job: QueuedJob): void {
    job.isDone = true;
    if (this.running === job) this.running = null;
    queueMicrotask(() => this.pump());
  }

  private failRunning(error: Error): void {
    const job = this.running;
    if (!job) return;
    this.finish(job);
    job.reject(error);
  }

  private cancel(job: QueuedJob): void {
    if (job.isDone) return;
    if (!job.isStarted) {
      const index = this.queue.indexOf(job);
      if (index >= 0) this.queue.splice(index, 1);
      job.isDone = true;
      job.reject(new JobCancelledError());
      return;
    }
    // A running job cannot be interrupted inside the worker: end the worker.
    this.restart();
    this.finish(job);
    job.reject(new JobCancelledError());
  }
}

const lanes = new Map<string, Lane>();
keptForPage(() => {
  for (const lane of lanes.values()) lane.dispose();
  lanes.clear();
  makeWorker = noWorkerFactory;
  nextJobId = 1;
});

function findLane(name: string): Lane {
  let lane = lanes.get(name);
  if (!lane) lanes.set(name, (lane = new Lane()));
  return lane;
}

/** Starts a lane's worker ahead of its first job (e.g. when a tab that generates opens). */
export function warmEngineLane(lane = 'generate'): void {
  findLane(lane).warm();
}

/**
 * Runs an engine job in a Web Worker. Jobs of one lane (default 'generate') run in order; the
 * rows are sent only when the worker does not already hold the same ones.
 */
export function runEngineJob<K extends EngineJobKind>(
  kind: K,
  input: EngineJobInput<K>,
  options: RunEngineJobOptions = {},
): Promise<EngineJobOutput<K>> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new JobCancelledError());
      return;
    }
    findLane(options.lane ?? 'generate').enqueue({
      kind,
      input,
      options,
      resolve: resolve as (value: unknown) => void,
      reject,
      id: nextJobId++,
      isStarted: false,
      parts: [],
      isDone: false,
    });
  });
}
