// Runs in a worker thread: creates a new PGlite data folder (initdb) and closes it. initdb
// grows PGlite's WebAssembly memory to ~850 MB; doing it in a worker that then ends gives that
// memory back, so the server's own instance idles at ~300 MB even on its very first start.
import { workerData, parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const pglite = new PGlite({
  dataDir: workerData.dataDir,
  postgresqlconf: workerData.postgresqlconf,
});
await pglite.waitReady;
await pglite.close();
parentPort?.postMessage('done');
