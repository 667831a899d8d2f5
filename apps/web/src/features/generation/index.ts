// Running engine jobs in the worker (the job registry, packed tables), the selected rows.
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
  type EngineJobKind,
  type EngineJobInput,
  type EngineJobOutput,
  type EngineJobs,
  type JobProgress,
} from './jobTypes.ts';
export {
  useSelectedRows,
  selectedRowsSource,
  readSelectedRows,
  type RowsSource,
  type SelectedRows,
} from './selectedRows.ts';
