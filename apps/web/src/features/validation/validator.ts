import type { FeedRow } from '@adloom/engine';
import { FallbackValidation, type FallbackCheck, type ValidationResult } from './checks.ts';
import { forEachInSlices } from './slices.ts';

/** Validates fallbacks over the selected rows (for `ValidatorScore`). */
export interface FallbackValidator {
  /** How many rows are checked (0: 'NO FEED SELECTED!'). */
  rowCount: number;
  /** Changes when the rows change, so validators run again. */
  version: number;
  /** Rejects with a cancellation when `signal` aborts. */
  validate(check: FallbackCheck, signal: AbortSignal): Promise<ValidationResult>;
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
