// The engine worker, its job map, the selected rows and the shared campaign output.
export {
  runEngineJob,
  isJobCancelled,
  JobCancelledError,
  JobFailedError,
  setEngineWorkerFactory,
  warmEngineLane,
  type RunEngineJobOptions,
} from './runEngineJob.ts';
export {
  JobError,
  type EngineJobContext,
  type EngineJobHandler,
  type JobProgress,
} from './jobTypes.ts';
export type { EngineJobKind, EngineJobInput, EngineJobOutput } from './jobHandlers.ts';
export {
  useSelectedRows,
  selectedRowsSource,
  readSelectedRows,
  type RowsSource,
  type SelectedRows,
} from './selectedRows.ts';
export { campaignOutputStore, type CampaignOutputInfo } from './campaignOutputStore.ts';
