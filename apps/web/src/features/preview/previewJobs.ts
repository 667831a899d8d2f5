/** The preview's engine-worker job (registered in worker/jobHandlers.ts). */
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import { findFirstValidRow, type PreviewTemplate } from './previewModel.ts';

/**
 * Where the preview opens: the first selected row (from 0, over every selected row) that some
 * fallback serves, or -1. Runs in the worker, where the rows are.
 */
export const findPreviewRowJob: EngineJobHandler<PreviewTemplate, number> = (input, ctx) =>
  findFirstValidRow(input, ctx.rows);

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    findPreviewRow: typeof findPreviewRowJob;
  }
}
