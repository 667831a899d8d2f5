/**
 * The ONE map of engine jobs the worker runs. To add a job: write its handler in your feature
 * folder (an `EngineJobHandler`), import it here and add one line to the map.
 */
import { clipboardTextJob, formatPackedJob, zipPackedJob } from '../output/outputJobs.ts';
import { prepareRowsJob } from './prepareRowsJob.ts';
import { generateCampaignJob } from '../campaign-template/campaignJobs.ts';
import { measureTextsJob, validateFallbacksJob } from '../validation/validationJobs.ts';
import {
  adsEditorCsvJob,
  generatePerformanceAdsJob,
  generateRsaJob,
} from '../ad-templates/adJobs.ts';
import { generateExtensionsJob } from '../extension-template/extensionJobs.ts';
import { validateExtensionsJob } from '../extension-template/extensionValidation.ts';
import { findPreviewRowJob } from '../preview/previewJobs.ts';
import { zipEditorFilesJob } from '../editor-download/editorZipJob.ts';

export const jobHandlers = {
  prepareRows: prepareRowsJob,
  formatPacked: formatPackedJob,
  clipboardText: clipboardTextJob,
  zipPacked: zipPackedJob,
  generateCampaign: generateCampaignJob,
  measureTexts: measureTextsJob,
  validateFallbacks: validateFallbacksJob,
  generateRsa: generateRsaJob,
  generatePerformanceAds: generatePerformanceAdsJob,
  adsEditorCsv: adsEditorCsvJob,
  generateExtensions: generateExtensionsJob,
  validateExtensions: validateExtensionsJob,
  findPreviewRow: findPreviewRowJob,
  zipEditorFiles: zipEditorFilesJob,
};

/** The job kinds. */
export type EngineJobs = typeof jobHandlers;
/** One job kind. */
export type EngineJobKind = keyof EngineJobs;
/** A job's input. */
export type EngineJobInput<K extends EngineJobKind> = Parameters<EngineJobs[K]>[0];
/** A job's result. */
export type EngineJobOutput<K extends EngineJobKind> = Awaited<ReturnType<EngineJobs[K]>>;
