/** Engine-worker jobs of the counters and validators (registered in worker/jobHandlers.ts). */
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import {
  findLongestOfTexts,
  validateFallbacks,
  type FallbackCheck,
  type Longest,
  type ValidationResult,
} from './checks.ts';

/**
 * The longest each text becomes over the selected rows, its `rowIndex` the row's feed position
 * (the grid row - 1), so a counter's "(row N)" names the row a person sees.
 */
export const measureTextsJob: EngineJobHandler<{ texts: string[]; constant: string }, Longest[]> = (
  input,
  ctx,
) =>
  findLongestOfTexts(input.texts, ctx.rows, input.constant, (f) => ctx.progress(f)).map(
    (longest) =>
      longest.rowIndex >= 0 && longest.rowIndex < ctx.rowPositions.length
        ? { length: longest.length, rowIndex: ctx.rowPositions[longest.rowIndex] as number }
        : longest,
  );

/** Which selected rows some fallbacks serve, and why the others fail. */
export const validateFallbacksJob: EngineJobHandler<FallbackCheck, ValidationResult> = (
  input,
  ctx,
) => validateFallbacks(input, ctx.rows, ctx.rowPositions, (f) => ctx.progress(f));

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    measureTexts: typeof measureTextsJob;
    validateFallbacks: typeof validateFallbacksJob;
  }
}
