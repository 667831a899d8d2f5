import type { CampaignTemplate, FeedRow } from '@adloom/engine';
import type { CampaignGroups } from './campaignGroups.ts';
import type { InputPart } from './inputParts.ts';

/** A job run as one part of a pool's (see enginePool.ts): its number and the pool's parts. */
export interface JobPart {
  index: number;
  count: number;
}

/** What a job handler gets besides its input (inside the worker). */
export interface EngineJobContext {
  /**
   * The selected feed rows ([] when the job was run without a rows source); a part's job
   * (`part`) gets its part's rows only, in feed order.
   */
  readonly rows: readonly FeedRow[];
  /** The feed position (row number - 1) of each row of `rows`. */
  readonly rowPositions: Uint32Array;
  /** Reports progress, 0..1 (sent to the page at most every 50 ms). */
  progress(fraction: number): void;
  /**
   * The ad groups and asset groups of `template` over `rows`, made once and kept while the
   * template and rows stay the same (the Campaigns job hands over its own with
   * `keepCampaignGroups`, so ad jobs after it do not make them again).
   */
  campaignGroups(template: CampaignTemplate): CampaignGroups;
  /** Keeps the groups the Campaigns job made for `template` over `rows`. */
  keepCampaignGroups(template: CampaignTemplate, groups: CampaignGroups): void;
  /**
   * Set when the job runs as one part of a pool's: the result then says how the page merges it
   * with the other parts' (`TableParts`).
   */
  readonly part?: JobPart | undefined;
  /** The context of every selected row (this one when the job is no part). */
  readonly whole: EngineJobContext;
}

/** A job handler: input in, result out (a plain, cloneable value; typed arrays are transferred). */
export type EngineJobHandler<Input, Output> = (
  input: Input,
  ctx: EngineJobContext,
) => Output | Promise<Output>;

/**
 * The engine jobs by kind. Each feature's jobs module adds its own handlers here (a `declare
 * module` block beside them); the worker's job map (worker/jobHandlers.ts) holds exactly these.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the features
export interface EngineJobs {}
/** One job kind. */
export type EngineJobKind = keyof EngineJobs;
/** A job's input. */
export type EngineJobInput<K extends EngineJobKind> = Parameters<EngineJobs[K]>[0];
/** A job's result. */
export type EngineJobOutput<K extends EngineJobKind> = Awaited<ReturnType<EngineJobs[K]>>;

/** An error meant for the person: its message is shown as it is. */
export class JobError extends Error {
  override readonly name = 'JobError';
}

/** Progress of a job as the page sees it. */
export interface JobProgress {
  /** 'rows': the selected rows are being handed to the worker; 'work': the job runs. */
  phase: 'rows' | 'work';
  fraction: number;
}

// ---- the messages between page and worker ----

/** A slice of rows: per column the cells concatenated and their lengths. */
export interface RowsChunkMessage {
  type: 'rows-chunk';
  key: string;
  /** FEED_COLUMNS in order, then id */
  texts: string[];
  lengths: Uint32Array[];
  positions: Uint32Array;
}

export type ToWorkerMessage =
  | { type: 'rows-begin'; key: string; total: number }
  | RowsChunkMessage
  | { type: 'rows-end'; key: string }
  /** Big values of the coming job's input (see splitInput), a few per message, in order. */
  | { type: 'input-parts'; id: number; values: InputPart[] }
  | {
      type: 'job';
      id: number;
      kind: string;
      input: unknown;
      rowsKey: string | null;
      /**
       * Run on one part of the rows (each campaign of `campaign` over the rows in one part: the
       * engine's `campaignParts`); a part other than the first that gets no row answers null.
       */
      part?: JobPart & { campaign: CampaignTemplate };
    };

export type FromWorkerMessage =
  | { type: 'progress'; id: number; fraction: number }
  /** A long string of the coming result (see takeLongStrings), in a message of its own. */
  | { type: 'part'; id: number; index: number; text: string }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string; isJobError: boolean };
