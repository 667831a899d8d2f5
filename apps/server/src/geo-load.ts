// `npm run geo:load -- FILE`: loads Google's geo targets (a CSV or zip path, or an http(s)
// address of either) into the database the server uses (DATA_DIR or DATABASE_URL), replacing
// the release loaded before.
import {
  commandFailer,
  describeError,
  loadCommandConfig,
  typedPath,
  withCommandDatabase,
} from './command.ts';
import { DATA_UMASK } from './data-dir.ts';
import { NO_TRIGRAM_WARNING, describeGeoLoad, readGeoFile, storeGeoFile } from './services/geo.ts';

process.umask(DATA_UMASK);

// Declared with its type, so that TypeScript narrows after a call to it.
const fail: (message: string) => never = commandFailer('geo:load');

const USAGE =
  'usage: npm run geo:load -- FILE (geotargets-YYYY-MM-DD.csv or .csv.zip, or its https address)';

const arg = process.argv[2]?.trim();
if (!arg || process.argv.length > 3) fail(USAGE);
const source = /^https?:\/\//i.test(arg) ? arg : typedPath(arg);

const config = loadCommandConfig(fail);

// The file is read and checked before the database is opened: a wrong file fails fast.
const file = await readGeoFile(source).catch((error: unknown) => fail(describeError(error)));

await withCommandDatabase(
  config,
  async (db) => {
    process.stdout.write(`Loading ${file.release.source} into the ${db.kind} database...\n`);
    const result = await storeGeoFile(db, file);
    process.stdout.write(`${describeGeoLoad(result)}\n`);
    if (!result.hasTrigramIndex) process.stderr.write(`adloom geo:load: ${NO_TRIGRAM_WARNING}\n`);
  },
  async (locked) =>
    fail(
      `${locked.message}\nA running server holds the embedded database: stop it and run this again, or set GEO_TARGETS_FILE=${source} and restart the server (it loads the file on start).`,
    ),
).catch((error: unknown) =>
  fail(`${describeError(error)}. The geo targets loaded before (if any) stay.`),
);
