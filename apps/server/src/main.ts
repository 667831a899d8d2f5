import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DATA_UMASK, keepDataDirPrivate, makeDataDirPrivate } from './data-dir.ts';
import { openDatabase, type Db } from './db/index.ts';
import { DataDirLockedError, acquireDataDirLock } from './lockfile.ts';
import { chooseLogFormat, createReadableLogStream } from './log-format.ts';
import { EMBEDDED_RECYCLE_GROWTH_BYTES, collectAfterLargeRequests } from './http/idle-gc.ts';
import { serveBackups } from './services/backup.ts';
import { OUTBOX_DIR_NAME } from './services/mailer.ts';
import { loadGeoTargetsOnStart } from './services/geo.ts';

const startedAt = performance.now();
// Before anything is created: what this process creates in DATA_DIR (folders, secret, lock,
// outbox) is 0700 / 0600.
process.umask(DATA_UMASK);

function fail(message: string): never {
  process.stderr.write(`adloom: ${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(`refusing to start: ${error.message}`);
  throw error;
}

let releaseLock: () => void;
try {
  mkdirSync(config.dataDir, { recursive: true });
  releaseLock = acquireDataDirLock(config.dataDir);
} catch (error) {
  if (error instanceof DataDirLockedError) fail(`refusing to start: ${error.message}`);
  throw error;
}
process.on('exit', () => releaseLock());
// A folder from an older server (0666 database files) is made private.
const repairedEntries = makeDataDirPrivate(config.dataDir);

let db: Db;
try {
  db = await openDatabase(config, (error) =>
    console.warn(
      `adloom: database connection lost (${error.message}); it will reconnect on the next request`,
    ),
  );
} catch (error) {
  releaseLock();
  fail(`could not open the database: ${error instanceof Error ? error.message : String(error)}`);
}
// PGlite sets its files' modes itself, ignoring the umask (initdb's are 0666): make them private
// now, every minute while the server runs, and at shutdown. The 0700 DATA_DIR keeps other users
// out in between.
makeDataDirPrivate(config.dataDir);
if (!config.databaseUrl)
  keepDataDirPrivate(config.dataDir, (message) => console.warn(`adloom: ${message}`));
// Readable lines for a person at a terminal; JSON lines otherwise and in production.
const isReadableLog =
  chooseLogFormat({ isProduction: config.isProduction, isTerminal: process.stdout.isTTY }) ===
  'readable';
const app = await buildApp({
  config,
  db,
  ...(isReadableLog
    ? {
        logStream: createReadableLogStream(process.stdout, {
          color: process.stdout.hasColors(),
        }),
      }
    : {}),
});
// After large saves, once quiet: garbage collected, and the embedded database reopened when the
// process kept more than EMBEDDED_RECYCLE_GROWTH_BYTES above its baseline: its size when it began
// to listen, or what remained after the last reopen when that was more (memory a reopen cannot
// give back, e.g. the allocator's, does not make it reopen again and again).
// (PGlite's WebAssembly memory grows with a save's documents and is never given back otherwise.)
let baselineRss = 0;
collectAfterLargeRequests(app, undefined, (collect) => {
  const grown = process.memoryUsage.rss() - baselineRss;
  if (!db.recycle || baselineRss === 0 || grown < EMBEDDED_RECYCLE_GROWTH_BYTES) return;
  void db.recycle().then(
    () => {
      collect();
      const rss = process.memoryUsage.rss();
      const given = Math.round((grown + baselineRss - rss) / 2 ** 20);
      baselineRss = Math.max(baselineRss, rss);
      app.log.info(`embedded database reopened after large saves: ${given} MB given back`);
    },
    (error: unknown) =>
      app.log.error({ err: error }, 'the embedded database could not be reopened'),
  );
});
// `npm run backup` asks this server for a copy of the embedded database (services/backup.ts).
if (db.dumpDataDir) {
  try {
    const stopServingBackups = await serveBackups(config.dataDir, db, app.log);
    process.on('exit', stopServingBackups);
  } catch (error) {
    app.log.warn(
      `backups while the server runs are off: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

if (config.jwtSecretSource === 'data-dir') {
  app.log.warn(
    `JWT_SECRET is not set: using a random secret kept in ${join(config.dataDir, 'jwt-secret')} (sessions survive restarts). Set JWT_SECRET in production.`,
  );
}
if (repairedEntries > 0)
  app.log.warn(
    `DATA_DIR ${config.dataDir} was readable by others: ${repairedEntries} files and folders made private (0600 / 0700).`,
  );
if (!config.smtpUrl)
  app.log.warn(
    `SMTP_URL is not set: mails (password-reset links) are written to ${join(config.dataDir, OUTBOX_DIR_NAME)} instead of being sent.`,
  );

let isStopping = false;
async function shutdown(signal: string): Promise<void> {
  if (isStopping) {
    app.log.warn(`${signal} again: exiting now`);
    process.exit(1);
  }
  isStopping = true;
  const graceSeconds = config.shutdownGraceMs / 1000;
  app.log.info(`${signal}: shutting down (requests in flight get ${graceSeconds} s to finish)`);
  // A request still running then is cut off: its transaction rolls back, nothing half-stored.
  const timer = setTimeout(() => {
    app.log.error(`shutdown took longer than ${graceSeconds} s (SHUTDOWN_GRACE_SECONDS): exiting`);
    process.exit(1);
  }, config.shutdownGraceMs);
  timer.unref();
  try {
    // Stops accepting connections, answers new requests on open ones 503, and waits for the
    // requests in flight to finish.
    await app.close();
    await db.close();
    makeDataDirPrivate(config.dataDir);
  } finally {
    releaseLock();
  }
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

// Before listening, so the first request already sees the release (a failure is only logged).
if (config.geoTargetsFile) await loadGeoTargetsOnStart(db, config.geoTargetsFile, app.log);

try {
  const address = await app.listen({ port: config.port, host: config.host });
  // With PORT=0 the real port is known only now: mailed links must carry it.
  const boundPort = app.server.address();
  if (!process.env.APP_URL && typeof boundPort === 'object' && boundPort)
    config.appUrl = `http://localhost:${boundPort.port}`;
  baselineRss = process.memoryUsage.rss();
  const ms = Math.round(performance.now() - startedAt);
  app.log.info(`Adloom is listening on ${address} (database: ${db.kind}, started in ${ms} ms)`);
} catch (error) {
  await db.close().catch(() => {});
  releaseLock();
  fail(
    `could not listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`,
  );
}
