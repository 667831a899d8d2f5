/**
 * Generation across a pool of engine workers (issue 39, "Every core in the browser"): a job that
 * generates runs once per worker, each over its part of the selected rows (every row of a
 * campaign in one part: the engine's `campaignParts`), and the page merges the parts' packed
 * tables by row (mergeParts.ts) into what one worker makes. One worker (today's path) unless the
 * browser asks for more: a size, or 0 for `min(navigator.hardwareConcurrency - 1, 4)` and at least
 * 1 (a core is left to the page, which sends the rows and renders the output). Each worker of the pool
 * is a lane of runEngineJob (the first the job's own lane) and keeps the rows it was sent.
 */
import type { CampaignTemplate } from '@adloom/engine';
import type { EngineJobInput, EngineJobOutput, JobProgress } from './jobTypes.ts';
import {
  isJobCancelled,
  runEngineJob,
  warmEngineLane,
  type RunEngineJobOptions,
} from './runEngineJob.ts';
import type { RowsSource } from './selectedRows.ts';
import { keptForPage } from '../../state/pageState.ts';

/** The most workers the pool has by itself. */
export const MAX_POOL_WORKERS = 4;
/** Where this browser may set its own pool size (`localStorage`; 1 to 8, or 0: sized to the machine). */
export const POOL_WORKERS_KEY = 'adloom.engineWorkers';
const MOST_POOL_WORKERS = 8;

let setSize: number | null = null;
keptForPage(() => {
  setSize = null;
});

/** Sets the pool's size (tests), or null to size it to the machine again. */
export function setEnginePoolSize(size: number | null): void {
  setSize = size;
}

function storedSize(): number | undefined {
  try {
    const text = globalThis.localStorage?.getItem(POOL_WORKERS_KEY) ?? '';
    const stored = Number(text);
    return text !== '' && Number.isInteger(stored) && stored >= 0
      ? Math.min(stored, MOST_POOL_WORKERS)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The pool's size sized to the machine, for a browser that asks for it (`POOL_WORKERS_KEY` 0). */
function machineSize(): number {
  const cores = globalThis.navigator?.hardwareConcurrency || 1;
  return Math.max(1, Math.min(cores - 1, MAX_POOL_WORKERS));
}

/**
 * How many workers generate side by side: one unless this browser asks for more (the pool is
 * opt-in until it is measured faster: decisions, "Generation across a pool of workers").
 */
export function enginePoolSize(): number {
  if (setSize !== null) return setSize;
  const stored = storedSize();
  if (stored === 0) return machineSize();
  return stored ?? 1;
}

/** The lane of worker `index` of the pool of lane `lane` (the first is the lane itself). */
function poolLane(lane: string, index: number): string {
  return index === 0 ? lane : `${lane}:pool-${index}`;
}

/** Starts the pool's workers ahead of their first job. */
export function warmEnginePool(lane = 'generate'): void {
  for (let i = 0; i < enginePoolSize(); i += 1) warmEngineLane(poolLane(lane, i));
}

/** Hands the selected rows to every worker of the pool (while the person edits a template). */
export function prepareRowsInPool(rows: RowsSource, lane = 'generate'): void {
  for (let i = 0; i < enginePoolSize(); i += 1)
    runEngineJob('prepareRows', null, { rows, lane: poolLane(lane, i) }).catch(() => undefined);
}

/** The jobs that run across the pool. */
type PooledKind = 'generateCampaign' | 'generateRsa';

/**
 * Runs a generation job across the pool (`campaign`: the campaign template whose campaigns split
 * the rows) and merges the parts' outputs with `merge`; with one worker, no rows, a part that
 * failed (a part without ad groups fails where the whole would not) or parts that cannot be
 * merged, runs it on the first worker over every row, as runEngineJob does.
 */
export async function runPooledEngineJob<K extends PooledKind>(
  kind: K,
  input: EngineJobInput<K>,
  campaign: CampaignTemplate,
  merge: (parts: EngineJobOutput<K>[]) => Promise<EngineJobOutput<K>>,
  options: RunEngineJobOptions = {},
): Promise<EngineJobOutput<K>> {
  const count = enginePoolSize();
  if (count <= 1 || !options.rows) return runEngineJob(kind, input, options);
  const lane = options.lane ?? 'generate';
  const progress = Array.from({ length: count }, (): JobProgress => ({
    phase: 'rows',
    fraction: 0,
  }));
  const report = (): void => {
    const isRows = progress.some((p) => p.phase === 'rows');
    const fractions = progress.map((p) => (isRows && p.phase === 'work' ? 1 : p.fraction));
    options.onProgress?.({
      phase: isRows ? 'rows' : 'work',
      fraction: fractions.reduce((a, b) => a + b, 0) / count,
    });
  };
  const settled = await Promise.allSettled(
    progress.map((_, index) =>
      runEngineJob(kind, input, {
        ...options,
        lane: poolLane(lane, index),
        part: { index, count, campaign },
        onProgress: (p) => {
          progress[index] = p;
          report();
        },
      }),
    ),
  );
  const outputs: EngineJobOutput<K>[] = [];
  for (const result of settled) {
    if (result.status === 'rejected') {
      if (isJobCancelled(result.reason) || options.signal?.aborted) throw result.reason;
      return runEngineJob(kind, input, options);
    }
    if (result.value !== null) outputs.push(result.value);
  }
  try {
    return await merge(outputs);
  } catch {
    return runEngineJob(kind, input, options);
  }
}
