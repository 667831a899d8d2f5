/**
 * Long loops over many feed rows, cut into slices so the main thread keeps answering: each
 * slice runs for at most `budgetMs`, then the loop yields to the event loop (a macrotask).
 */

/** Rows checked between two looks at the clock. */
const ROWS_PER_CLOCK_CHECK = 512;
/** Default time a slice may take. */
export const SLICE_BUDGET_MS = 8;

/** Raised when a sliced loop is cancelled through its signal. */
export class SliceCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'SliceCancelled';
  }
}

/** Waits for the next macrotask (lets input, paint and timers run). */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Calls `step(i)` for every i in [0, count), yielding between slices. Rejects with
 * `SliceCancelled` once `signal` is aborted; `step` returning `false` stops early.
 */
export async function forEachInSlices(
  count: number,
  step: (index: number) => boolean | void,
  options: { signal?: AbortSignal; budgetMs?: number } = {},
): Promise<void> {
  const budget = options.budgetMs ?? SLICE_BUDGET_MS;
  let i = 0;
  while (i < count) {
    if (options.signal?.aborted) throw new SliceCancelled();
    const started = performance.now();
    while (i < count) {
      const end = Math.min(count, i + ROWS_PER_CLOCK_CHECK);
      for (; i < end; i++) if (step(i) === false) return;
      if (performance.now() - started >= budget) break;
    }
    if (i < count) await nextTask();
  }
  if (options.signal?.aborted) throw new SliceCancelled();
}
