// Starts a save worker from its TypeScript source (tests, benches, `npm run dev`): the compiled
// server starts dist/save-worker.js instead (see save-workers.ts).
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);
