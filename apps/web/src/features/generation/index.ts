// Running engine jobs in the worker (the job registry, packed tables), the selected rows.
export {
  runEngineJob,
  isJobCancelled,
  JobFailedError,
  setEngineWorkerFactory,
  warmEngineLane,
  type RunEngineJobOptions,
} from './runEngineJob.ts';
export { type JobProgress } from './jobTypes.ts';
export { useSelectedRows, selectedRowsSource, type RowsSource } from './selectedRows.ts';
