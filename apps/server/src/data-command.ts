// The data commands (npm scripts at the root):
//   npm run backup -- --out FILE       a backup of DATA_DIR's embedded database, the server running or not
//   npm run restore -- FILE            puts a backup back (refused while a server holds DATA_DIR)
//   npm run db:export -- FILE          every table of the database in use, as a file
//   npm run db:import -- FILE [--replace]   that file into the database in use (DATABASE_URL)
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import {
  commandFailer,
  describeError,
  loadCommandConfig,
  typedPath,
  withCommandDatabase,
} from './command.ts';
import { DATA_UMASK, makeDataDirPrivate } from './data-dir.ts';
import type { Db } from './db/index.ts';
import { DataDirLockedError, acquireDataDirLock } from './lockfile.ts';
import {
  PGLITE_DIR_NAME,
  makeBackup,
  requestBackup,
  restoreBackup,
  writeFileWhole,
} from './services/backup.ts';
import { exportDatabase, importDatabase } from './services/db-transfer.ts';

process.umask(DATA_UMASK);

const USAGE = `usage:
  npm run backup -- --out FILE
  npm run restore -- FILE
  npm run db:export -- FILE
  npm run db:import -- FILE [--replace]`;

const [command = '', ...args] = process.argv.slice(2);

// Declared with its type, so that TypeScript narrows after a call to it.
const fail: (message: string) => never = commandFailer(command);

const pathArg = (value: string | undefined) => (value ? typedPath(value) : fail(USAGE));

const config = loadCommandConfig(fail);

/** Runs `work` on the configured database, or `whenLocked` while a server holds DATA_DIR. */
const withDatabase = <T>(
  work: (db: Db) => Promise<T>,
  whenLocked: (error: DataDirLockedError) => Promise<T>,
) => withCommandDatabase(config, work, whenLocked);

/** Refuses a DATA_DIR without an embedded database (rather than creating an empty one). */
function requireEmbeddedDatabase(): void {
  if (!existsSync(join(config.dataDir, PGLITE_DIR_NAME, 'PG_VERSION')))
    fail(`DATA_DIR ${config.dataDir} holds no embedded database.`);
}

async function backup(): Promise<void> {
  if (args[0] !== '--out' || args.length !== 2) fail(USAGE);
  const out = pathArg(args[1]);
  if (config.databaseUrl)
    fail('DATABASE_URL is set: back up PostgreSQL with its own tools (pg_dump).');
  requireEmbeddedDatabase();
  const bytes = await withDatabase(
    (db) => makeBackup(db, config.dataDir),
    // A server holds DATA_DIR: it makes the copy, between two transactions.
    (locked) =>
      requestBackup(config.dataDir).catch((error: unknown) =>
        fail(
          `${locked.message}\nAsking that server for the backup failed: ${describeError(error)}`,
        ),
      ),
  );
  writeFileWhole(out, bytes);
  process.stdout.write(
    `Backup of ${config.dataDir} written to ${out} (${Math.round(bytes.length / 1024)} KiB).\n`,
  );
}

async function restore(): Promise<void> {
  if (args.length !== 1) fail(USAGE);
  const file = pathArg(args[0]);
  if (config.databaseUrl)
    fail('DATABASE_URL is set: a backup restores the embedded database, in DATA_DIR.');
  const bytes = new Uint8Array(readFileSync(file));
  mkdirSync(config.dataDir, { recursive: true });
  let releaseLock: () => void;
  try {
    releaseLock = acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError)
      fail(`${error.message}\nA restore replaces the server's data: stop the server first.`);
    throw error;
  }
  try {
    const keptDir = await restoreBackup(config.dataDir, bytes);
    process.stdout.write(
      `Restored ${file} into ${config.dataDir}. The data it replaced is kept in ${keptDir}: delete that folder once the restored data looks right.\n`,
    );
  } finally {
    makeDataDirPrivate(config.dataDir);
    releaseLock();
  }
}

async function exportCommand(): Promise<void> {
  if (args.length !== 1) fail(USAGE);
  const file = pathArg(args[0]);
  if (!config.databaseUrl) requireEmbeddedDatabase();
  const temp = `${file}.${process.pid}.tmp`;
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(temp, { mode: 0o600 }));
  try {
    const counts = await withDatabase(
      (db) =>
        exportDatabase(db, async (line) => {
          if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
        }),
      async (error) =>
        fail(
          `${error.message}\nStop the server first: changes made after an export would not move.`,
        ),
    );
    gzip.end();
    await written;
    renameSync(temp, file);
    const rows = Object.values(counts).reduce((sum, count) => sum + count, 0);
    process.stdout.write(
      `Exported ${Object.keys(counts).length} tables (${rows} rows) to ${file}.\n`,
    );
  } finally {
    gzip.destroy();
    rmSync(temp, { force: true });
  }
}

async function importCommand(): Promise<void> {
  const replace = args.includes('--replace');
  const rest = args.filter((arg) => arg !== '--replace');
  if (rest.length !== 1) fail(USAGE);
  const file = pathArg(rest[0]);
  if (!existsSync(file)) fail(`${file} does not exist.`);
  // Made once the database is open: readline reads from the start, and lines read before
  // anything iterates them would be lost.
  const readLines = () =>
    createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const counts = await withDatabase(
    (db) => importDatabase(db, readLines(), { replace }),
    async (error) => fail(`${error.message}\nStop the server first.`),
  );
  const rows = Object.values(counts).reduce((sum, count) => sum + count, 0);
  process.stdout.write(
    `Imported ${rows} rows into the ${config.databaseUrl ? 'PostgreSQL' : 'embedded'} database.\n`,
  );
}

const commands: Record<string, () => Promise<void>> = {
  backup,
  restore,
  export: exportCommand,
  import: importCommand,
};
const run = commands[command];
if (!run) fail(USAGE);
await run().catch((error: unknown) => fail(describeError(error)));
