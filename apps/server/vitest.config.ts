import { defineConfig } from 'vitest/config';

/**
 * ADLOOM_TEST_DB picks the run:
 * - `pglite` (default): the files that open a database, on embedded PGlite;
 * - `postgres`: the same files on a real PostgreSQL server that test/global-setup.ts starts on a
 *   loopback port;
 * - `none`: the files that never open a database (DATABASE_FREE), once; a file of that list that
 *   asks for a database fails, naming this list.
 * ADLOOM_TEST_FILES=runtime keeps only the files whose result can depend on the Node.js runtime
 * (RUNTIME): `npm test` runs them again on the machine's Node.js (docs/decisions.md).
 */
const DATABASE_FREE = [
  'src/config.test.ts',
  'src/data-dir.test.ts',
  'src/errors.test.ts',
  'src/http/idle-gc.test.ts',
  'src/http/json-text.test.ts',
  'src/lockfile.test.ts',
  'src/services/ai-suggestions.test.ts',
  'src/services/google-oauth.test.ts',
  'src/services/google-sheets.test.ts',
  'src/services/rate-limit.test.ts',
  'src/services/readiness.test.ts',
  'src/services/secrets.test.ts',
  'src/services/workspace-cache.test.ts',
  'test/ai-stand-in.test.ts',
  'test/geo-file.test.ts',
  'test/google-stand-in.test.ts',
  'test/log-scan.test.ts',
  'test/safe-fetch.test.ts',
  'test/save-body.test.ts',
  'test/xml-feed-parser.test.ts',
  'test/xml-feed-pieces.test.ts',
];

/**
 * What Node.js itself does for the server: the embedded database's WebAssembly, HTTP parsing and
 * body timeouts, outgoing fetches through undici, the data folder's lock and permissions, crypto.
 */
const RUNTIME = [
  'src/data-dir.test.ts',
  'src/lockfile.test.ts',
  'src/services/secrets.test.ts',
  'test/db.test.ts',
  'test/http-edge.test.ts',
  'test/pglite-worker.test.ts',
  'test/safe-fetch.test.ts',
  'test/utf8-body.test.ts',
];

const kind = process.env.ADLOOM_TEST_DB ?? 'pglite';
const isRuntimeRun = process.env.ADLOOM_TEST_FILES === 'runtime';
/** The runtime run takes its files whether or not they open a database. */
const include = isRuntimeRun
  ? RUNTIME
  : kind === 'none'
    ? DATABASE_FREE
    : ['src/**/*.test.ts', 'test/**/*.test.ts'];

export default defineConfig({
  test: {
    include,
    exclude: kind === 'none' || isRuntimeRun ? [] : DATABASE_FREE,
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Files share a worker's modules (each starts its own app on its own database): the import of
    // the server's code was a fifth of the suite's time.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
