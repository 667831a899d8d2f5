/**
 * The ONE map of engine jobs the worker runs. To add a job: write its handler in your feature
 * folder (an `EngineJobHandler`), import it here and add one line to the map.
 */
import { formatPackedJob } from '../output/outputJobs.ts';
import { generateCampaignJob } from '../campaign-template/campaignJobs.ts';
import { generateExtensionsJob } from '../extension-template/extensionJobs.ts';

export const jobHandlers = {
  formatPacked: formatPackedJob,
  generateCampaign: generateCampaignJob,
  generateExtensions: generateExtensionsJob,
};

/** The job kinds. */
export type EngineJobs = typeof jobHandlers;
/** One job kind. */
export type EngineJobKind = keyof EngineJobs;
/** A job's input. */
export type EngineJobInput<K extends EngineJobKind> = Parameters<EngineJobs[K]>[0];
/** A job's result. */
export type EngineJobOutput<K extends EngineJobKind> = Awaited<ReturnType<EngineJobs[K]>>;
