/** Engine-worker jobs of the counters and validators (registered in worker/jobHandlers.ts). */
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import {
  findLongestOfTexts,
  validateFallbacks,
  type FallbackCheck,
  type Longest,
  type ValidationResult,
} from './checks.ts';

/** The longest each text becomes over the selected rows. */
export const measureTextsJob: EngineJobHandler<{ texts: string[]; constant: string }, Longest[]> = (
  input,
  ctx,
) => findLongestOfTexts(input.texts, ctx.rows, input.constant, (f) => ctx.progress(f));

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
