/** Starts one engine worker (installed with setEngineWorkerFactory when the app starts). */
export function createEngineWorker(): Worker {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), {
    type: 'module',
    name: 'engine',
  });
}
