import { runChunkTask } from '../feed-grid/chunkTask.ts';
import type { FeedStore } from '../feed-grid/feedStore.ts';
import { formatRows } from '../feed-grid/gridLayout.ts';
import { planCombination, type CombineInput } from './combine.ts';

/** How a combine ended. */
export type CombineOutcome =
  { ok: true; rowCount: number; message: string } | { ok: false; message: string };

/**
 * Adds every combination of the seeds to the end of the feed as one undoable step (a feed of
 * only blank rows is replaced). The rows are made in a module worker and arrive in chunks.
 */
export async function combineIntoStore(
  store: FeedStore,
  input: CombineInput,
  onProgress?: (fraction: number) => void,
): Promise<CombineOutcome> {
  const plan = planCombination(input);
  if (!plan.ok) return { ok: false, message: plan.message };
  if (plan.rowCount === 0)
    return { ok: false, message: 'Enter at least one value in a seed box to combine.' };
  const worker = new Worker(new URL('./combine.worker.ts', import.meta.url), {
    type: 'module',
    name: 'combine',
  });
  const bulk = store.beginBulkAppend();
  try {
    await runChunkTask<CombineInput, number>(worker, input, {
      onChunk(chunk) {
        bulk.addChunk(chunk);
        onProgress?.(bulk.count / plan.rowCount);
      },
    });
    const rowCount = bulk.commit({ replaceBlankFeed: true });
    return {
      ok: true,
      rowCount,
      message: `Added ${formatRows(rowCount)}.`,
    };
  } catch (error) {
    bulk.abort();
    return { ok: false, message: error instanceof Error ? error.message : 'The combine failed.' };
  }
}
