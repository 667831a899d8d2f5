// `npm run geo:load -- FILE`: loads Google's geo targets (a CSV or zip path, or an http(s)
// address of either) into the database the server uses (DATA_DIR or DATABASE_URL), replacing
// the release loaded before.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DATA_UMASK, makeDataDirPrivate } from './data-dir.ts';
import { openDatabase, type Db } from './db/index.ts';
import { DataDirLockedError, acquireDataDirLock } from './lockfile.ts';
import { NO_TRIGRAM_WARNING, describeGeoLoad, readGeoFile, storeGeoFile } from './services/geo.ts';

process.umask(DATA_UMASK);

function fail(message: string): never {
  process.stderr.write(`adloom geo:load: ${message}\n`);
  process.exit(1);
}

const USAGE =
  'usage: npm run geo:load -- FILE (geotargets-YYYY-MM-DD.csv or .csv.zip, or its https address)';

const arg = process.argv[2]?.trim();
if (!arg || process.argv.length > 3) fail(USAGE);
// npm runs the script inside apps/server: a relative path counts from where it was typed.
const source = /^https?:\/\//i.test(arg)
  ? arg
  : resolve(process.env.INIT_CWD ?? process.cwd(), arg);

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

// The file is read and checked before the database is opened: a wrong file fails fast.
const file = await readGeoFile(source).catch((error: unknown) =>
  fail(error instanceof Error ? error.message : String(error)),
);

let releaseLock = () => {};
if (!config.databaseUrl) {
  try {
    mkdirSync(config.dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError)
      fail(
        `${error.message}\nA running server holds the embedded database: stop it and run this again, or set GEO_TARGETS_FILE=${source} and restart the server (it loads the file on start).`,
      );
    throw error;
  }
}

let db: Db | undefined;
try {
  db = await openDatabase(config);
  process.stdout.write(`Loading ${file.release.source} into the ${db.kind} database...\n`);
  const result = await storeGeoFile(db, file);
  process.stdout.write(`${describeGeoLoad(result)}\n`);
  if (!result.hasTrigramIndex) process.stderr.write(`adloom geo:load: ${NO_TRIGRAM_WARNING}\n`);
} catch (error) {
  await db?.close().catch(() => {});
  if (!config.databaseUrl) makeDataDirPrivate(config.dataDir);
  releaseLock();
  fail(
    `${error instanceof Error ? error.message : String(error)}. The geo targets loaded before (if any) stay.`,
  );
}
await db.close();
if (!config.databaseUrl) makeDataDirPrivate(config.dataDir);
releaseLock();
