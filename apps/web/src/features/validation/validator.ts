import type { FeedRow } from '@adloom/engine';
import { FallbackValidation, type FallbackCheck, type ValidationResult } from './checks.ts';
import { forEachInSlices, SliceCancelled } from './slices.ts';

/** Validates fallbacks (or another check, e.g. an extension template) over the selected rows. */
export interface FallbackValidator<C = FallbackCheck> {
  /** How many rows are checked (0: 'NO FEED SELECTED!'). */
  rowCount: number;
  /** Changes when the rows change, so validators run again. */
  version: number;
  /**
   * Rejects with a cancellation when `signal` aborts. `key` names the caller (e.g. its label):
   * a newer request of the same caller replaces one still waiting.
   */
  validate(check: C, signal: AbortSignal, key?: string): Promise<ValidationResult>;
}

/** A validator over rows held on the main thread, checking them in slices of a few ms. */
export function validatorFromRows(rows: readonly FeedRow[], version = 0): FallbackValidator {
  return {
    rowCount: rows.length,
    version,
    async validate(check, signal) {
      const v = new FallbackValidation(check, rows.length);
      await forEachInSlices(rows.length, (i) => v.checkRow(rows[i] as FeedRow, i), { signal });
      return v.result;
    },
  };
}

interface Waiting<C> {
  check: C;
  signal: AbortSignal;
  resolve: (result: ValidationResult) => void;
  reject: (error: unknown) => void;
}

/**
 * A validator that runs one check at a time through `run` (a worker job) and, while one runs,
 * keeps only the newest request per caller: typing never piles up stale validations, and a
 * running job is never cut off (which would cost the worker its copy of the rows).
 */
export function createCoalescingValidator<C = FallbackCheck>(
  rowCount: number,
  version: number,
  run: (check: C) => Promise<ValidationResult>,
): FallbackValidator<C> {
  const waiting = new Map<string, Waiting<C>>();
  let isRunning = false;

  function pump(): void {
    if (isRunning) return;
    const next = waiting.entries().next();
    if (next.done) return;
    const [key, entry] = next.value;
    waiting.delete(key);
    isRunning = true;
    run(entry.check)
      .then(
        (result) => {
          if (entry.signal.aborted) entry.reject(new SliceCancelled());
          else entry.resolve(result);
        },
        (error: unknown) => entry.reject(error),
      )
      .finally(() => {
        isRunning = false;
        pump();
      });
  }

  return {
    rowCount,
    version,
    validate(check, signal, key = '') {
      return new Promise<ValidationResult>((resolve, reject) => {
        if (signal.aborted) {
          reject(new SliceCancelled());
          return;
        }
        waiting.get(key)?.reject(new SliceCancelled());
        const entry: Waiting<C> = { check, signal, resolve, reject };
        waiting.set(key, entry);
        signal.addEventListener(
          'abort',
          () => {
            if (waiting.get(key) === entry) {
              waiting.delete(key);
              reject(new SliceCancelled());
            }
          },
          { once: true },
        );
        pump();
      });
    },
  };
}
