/**
 * Where a counter's "longest after substitution" comes from. One measurer per set of selected
 * rows: it answers at once what needs no pass over the rows (static text, no rows, a result
 * already measured) and measures the rest off the typing path, in slices or in the worker.
 */
import { compilePattern, countAdTextLength, type FeedRow } from '@adloom/engine';
import { findLongestOfTexts, type Longest } from './checks.ts';
import { forEachInSlices, SliceCancelled } from './slices.ts';

/** Measures texts over the selected rows. */
export interface TextMeasurer {
  /** How many rows are measured over (0: only the typed length is shown). */
  readonly rowCount: number;
  /** The answer known without a pass over the rows, if any. */
  peek(text: string): Longest | undefined;
  /** The longest `text` becomes over the rows; rejects with `SliceCancelled` when aborted. */
  measure(text: string, signal?: AbortSignal): Promise<Longest>;
}

const CACHE_LIMIT = 2000;

function known(text: string, rowCount: number, cache: Map<string, Longest>): Longest | undefined {
  const pattern = compilePattern(text);
  if (pattern.isStatic) return { length: pattern.staticLength, rowIndex: -1 };
  if (rowCount === 0) return { length: countAdTextLength(text), rowIndex: -1 };
  return cache.get(text);
}

function remember(cache: Map<string, Longest>, text: string, longest: Longest): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, longest);
}

/**
 * A measurer over rows held on the main thread, measuring in slices of a few milliseconds;
 * `constant` fills `{const}`.
 */
export function measurerFromRows(rows: readonly FeedRow[], constant = ''): TextMeasurer {
  const cache = new Map<string, Longest>();
  return {
    rowCount: rows.length,
    peek: (text) => known(text, rows.length, cache),
    async measure(text, signal) {
      const now = known(text, rows.length, cache);
      if (now) return now;
      const pattern = compilePattern(text);
      let best: Longest = { length: -1, rowIndex: 0 };
      const step = 2048;
      await forEachInSlices(
        Math.ceil(rows.length / step),
        (chunk) => {
          const from = chunk * step;
          const part = rows.slice(from, from + step);
          const [longest] = findLongestOfTexts([pattern.source], part, constant);
          if (longest && longest.length > best.length)
            best = { length: longest.length, rowIndex: from + longest.rowIndex };
        },
        signal ? { signal, budgetMs: 8 } : { budgetMs: 8 },
      );
      remember(cache, text, best);
      return best;
    },
  };
}

/**
 * A measurer that sends the texts asked for within one turn of the event loop to `runBatch`
 * together (one worker job for all the counters of a screen).
 */
export function createBatchMeasurer(
  rowCount: number,
  runBatch: (texts: string[]) => Promise<Longest[]>,
): TextMeasurer {
  const cache = new Map<string, Longest>();
  const inFlight = new Map<string, Promise<Longest>>();
  let pending: { texts: string[]; settle: Array<(r: Longest[] | Error) => void> } | null = null;

  function batchOf(text: string): Promise<Longest> {
    if (!pending) {
      const batch = { texts: [] as string[], settle: [] as Array<(r: Longest[] | Error) => void> };
      pending = batch;
      setTimeout(() => {
        pending = null;
        runBatch(batch.texts).then(
          (results) => batch.settle.forEach((s) => s(results)),
          (error: unknown) =>
            batch.settle.forEach((s) =>
              s(error instanceof Error ? error : new Error(String(error))),
            ),
        );
      }, 0);
    }
    const batch = pending;
    const index = batch.texts.push(text) - 1;
    return new Promise<Longest>((resolve, reject) => {
      batch.settle.push((r) => {
        if (r instanceof Error) reject(r);
        else {
          const longest = r[index] ?? { length: 0, rowIndex: -1 };
          remember(cache, text, longest);
          resolve(longest);
        }
      });
    });
  }

  return {
    rowCount,
    peek: (text) => known(text, rowCount, cache),
    measure(text, signal) {
      const now = known(text, rowCount, cache);
      if (now) return Promise.resolve(now);
      let running = inFlight.get(text);
      if (!running) {
        running = batchOf(text).finally(() => inFlight.delete(text));
        inFlight.set(text, running);
      }
      if (!signal) return running;
      return new Promise<Longest>((resolve, reject) => {
        if (signal.aborted) {
          reject(new SliceCancelled());
          return;
        }
        signal.addEventListener('abort', () => reject(new SliceCancelled()), { once: true });
        running.then(resolve, reject);
      });
    },
  };
}
