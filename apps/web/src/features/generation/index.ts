// Running engine jobs in the worker (the job registry, packed tables), the selected rows.
export {
  runEngineJob,
  isJobCancelled,
  JobFailedError,
  setEngineWorkerFactory,
  type RunEngineJobOptions,
} from './runEngineJob.ts';
export { type JobProgress } from './jobTypes.ts';
export {
  runPooledEngineJob,
  warmEnginePool,
  prepareRowsInPool,
  setEnginePoolSize,
} from './enginePool.ts';
export { mergePartOutputs } from './mergeParts.ts';
export { useSelectedRows, selectedRowsSource, type RowsSource } from './selectedRows.ts';
