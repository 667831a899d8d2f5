/**
 * The ONE map of engine jobs the worker runs. To add a job: write its handler in your feature's
 * jobs module (an `EngineJobHandler`, added to `EngineJobs` there), and add one line here.
 */
import { clipboardTextJob } from '../features/output/outputJobs.ts';
import type { EngineJobs } from '../features/generation/jobTypes.ts';
import { prepareRowsJob } from '../features/generation/prepareRowsJob.ts';
import { generateCampaignJob } from '../features/campaign-template/campaignJobs.ts';
import { measureTextsJob, validateFallbacksJob } from '../features/validation/validationJobs.ts';
import { generatePerformanceAdsJob, generateRsaJob } from '../features/ad-templates/adJobs.ts';
import { generateExtensionsJob } from '../features/extension-template/extensionJobs.ts';
import { validateExtensionsJob } from '../features/extension-template/extensionValidation.ts';
import { findPreviewRowJob } from '../features/preview/previewJobs.ts';
import { exportFilesJob, microsoftLocationIdsJob } from '../features/exports/exportJobs.ts';
import {
  loopChangesJob,
  loopChangesRecordJob,
  loopPlanJob,
  loopPlanLinesJob,
  loopRecordJob,
} from '../features/account-loop/loopJobs.ts';

export const jobHandlers = {
  prepareRows: prepareRowsJob,
  clipboardText: clipboardTextJob,
  generateCampaign: generateCampaignJob,
  measureTexts: measureTextsJob,
  validateFallbacks: validateFallbacksJob,
  generateRsa: generateRsaJob,
  generatePerformanceAds: generatePerformanceAdsJob,
  generateExtensions: generateExtensionsJob,
  validateExtensions: validateExtensionsJob,
  findPreviewRow: findPreviewRowJob,
  exportFiles: exportFilesJob,
  microsoftLocationIds: microsoftLocationIdsJob,
  loopRecord: loopRecordJob,
  loopPlan: loopPlanJob,
  loopPlanLines: loopPlanLinesJob,
  loopChanges: loopChangesJob,
  loopChangesRecord: loopChangesRecordJob,
} satisfies EngineJobs;
