import type { EngineJobHandler } from './jobTypes.ts';

/**
 * Does nothing but make the worker hold the current selected rows, so that a later job on the
 * same rows starts at once (run while the person is still editing the template).
 */
export const prepareRowsJob: EngineJobHandler<null, number> = (_input, ctx) => ctx.rows.length;

declare module './jobTypes.ts' {
  interface EngineJobs {
    prepareRows: typeof prepareRowsJob;
  }
}
