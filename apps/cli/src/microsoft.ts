/**
 * `--format microsoft-advertising`: the Editor files a run wrote, read back as the engine's
 * export tables (fileTables.ts), written again as the Microsoft Advertising bulk file and its
 * report by the engine's format. The Editor files and the build record stay beside them.
 */
import { closeSync, existsSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import {
  EXPORT_TABLE_KINDS,
  GOOGLE_ADS_EDITOR,
  MICROSOFT_ADVERTISING,
  MICROSOFT_BULK_FILE_STEM,
  MICROSOFT_REPORT_FILE_STEM,
  UTF8_BOM,
  editorFileStem,
  formatCsv,
  locationNamesOf,
  microsoftLocationLookup,
  readGoogleGeoTargets,
  readMicrosoftLocations,
  writeMicrosoftBulk,
  type ExportTable,
} from '@adloom/engine';
import { csvRecordsOfFile, fileTables } from './fileTables.ts';
import { InputError, inputFileError } from './files.ts';
import { commandFileName } from './generate.ts';
import { plural } from './report.ts';

/** The formats `--format` takes; the first is the default. */
export const OUTPUT_FORMATS: readonly string[] = [GOOGLE_ADS_EDITOR.id, MICROSOFT_ADVERTISING.id];

/** The Editor files of `dir` as export tables, in the engine's table order. */
function editorTablesIn(dir: string): ExportTable[] {
  const files = [];
  for (const kind of EXPORT_TABLE_KINDS) {
    // Performance Max ads are written to asset-groups.csv.
    if (kind === 'performance-max-ads') continue;
    const file = path.join(dir, commandFileName(editorFileStem(kind), 'csv'));
    if (existsSync(file)) files.push({ kind, file });
  }
  return fileTables(files);
}

/** Writes a file's parts under a temporary name, then moves it in place. */
function writeWhole(file: string, parts: Iterable<string>): void {
  const temp = `${file}.adloom-part`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, UTF8_BOM);
    for (const part of parts) writeSync(fd, part);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

/** `--microsoft-locations` and `--google-geo`: the two files the locations are mapped by. */
export interface MicrosoftLocationFiles {
  /** Microsoft's geographical locations file. */
  microsoft: string;
  /** Google's geo targets file. */
  google: string;
}

type LocationFileReader<T> = (
  records: Iterable<string[]>,
) => { ok: true; value: T } | { ok: false; problem: string };

/** The first record of a file's records, the file closed after it. */
function* firstOf(records: Generator<string[]>): Generator<string[]> {
  try {
    const first = records.next();
    if (!first.done) yield first.value;
  } finally {
    records.return(undefined);
  }
}

/** One location file read through the engine's reader (only its header: `headerOnly`). */
function readLocationFile<T>(
  file: string,
  what: string,
  read: LocationFileReader<T>,
  headerOnly = false,
): T {
  let reading;
  try {
    const records = csvRecordsOfFile(file);
    reading = read(headerOnly ? firstOf(records) : records);
  } catch (e) {
    throw inputFileError(e, file, what);
  }
  if (!reading.ok) throw new InputError(`${what} file ${file} ${reading.problem}`);
  return reading.value;
}

const MICROSOFT_FILE = 'Microsoft locations';
const GOOGLE_FILE = 'Google geo targets';

/**
 * Checks that both location files open and have the columns they need, before anything is
 * written (a bad file writes nothing); they are read whole once the build is written.
 */
export function checkMicrosoftLocationFiles(files: MicrosoftLocationFiles): void {
  readLocationFile(files.microsoft, MICROSOFT_FILE, (r) => readMicrosoftLocations(r), true);
  readLocationFile(files.google, GOOGLE_FILE, (r) => readGoogleGeoTargets(r), true);
}

/** The Google location IDs of the campaigns file in `dir` (its Location ID cells). */
function locationIdsIn(dir: string): Set<string> {
  const ids = new Set<string>();
  const file = path.join(dir, commandFileName(editorFileStem('campaigns'), 'csv'));
  if (!existsSync(file)) return ids;
  let at = -1;
  let header = true;
  for (const record of csvRecordsOfFile(file)) {
    if (header) {
      at = record.findIndex((h) => h.trim().toLowerCase() === 'location id');
      header = false;
      if (at < 0) break;
      continue;
    }
    for (const part of (record[at] ?? '').split(/[;,\r\n]/)) {
      const id = part.trim();
      if (id !== '') ids.add(id);
    }
  }
  return ids;
}

/**
 * The Microsoft Location Id of each Google location of the build in `dir`: Google's file read
 * for those IDs only, Microsoft's for their names only (a country's file is not held whole).
 */
export function readMicrosoftLocationMap(
  dir: string,
  files: MicrosoftLocationFiles,
): ReturnType<typeof microsoftLocationLookup> {
  const ids = locationIdsIn(dir);
  const google = readLocationFile(files.google, GOOGLE_FILE, (r) => readGoogleGeoTargets(r, ids));
  const names = locationNamesOf(google);
  const microsoft = readLocationFile(files.microsoft, MICROSOFT_FILE, (r) =>
    readMicrosoftLocations(r, names),
  );
  return microsoftLocationLookup(google, microsoft);
}

/**
 * Writes `microsoft-advertising.csv` and `microsoft-advertising-report.csv` into `dir` from the
 * Editor files there (as the engine's format makes them, with the client's `label` on what it
 * adds), locations mapped by the two files when given; returns the summary's lines for them.
 */
export function writeMicrosoftFiles(
  dir: string,
  label: string,
  locationFiles?: MicrosoftLocationFiles,
): string {
  const locations = locationFiles ? readMicrosoftLocationMap(dir, locationFiles) : undefined;
  const bulk = writeMicrosoftBulk(editorTablesIn(dir), {
    ...(locations ? { microsoftLocationId: locations.microsoftLocationId } : {}),
    label: { name: label },
  });
  const bulkName = commandFileName(MICROSOFT_BULK_FILE_STEM, 'csv');
  const reportName = commandFileName(MICROSOFT_REPORT_FILE_STEM, 'csv');
  writeWhole(path.join(dir, bulkName), bulk.chunks());
  writeWhole(path.join(dir, reportName), formatCsv(bulk.report(), { neutraliseFormulas: true }));
  const counts = bulk.counts();
  // The Label record and its associations (one per campaign, ad group, keyword and ad) last.
  const isLabel = (type: string) => type === 'Label' || type.endsWith(' Label');
  const entries = Object.entries(counts.records).filter(([type]) => type !== 'Format Version');
  const associations = entries
    .filter(([type]) => type.endsWith(' Label'))
    .reduce((sum, [, n]) => sum + n, 0);
  const records = [
    ...entries.filter(([type]) => !isLabel(type)).map(([type, n]) => `${n} ${type}`),
    ...(associations > 0 ? [`the label "${label}" on ${associations} of them`] : []),
  ].join(', ');
  let located = '';
  if (locations) {
    const { mapped, notMapped } = locations.counts();
    located =
      `  locations: ${mapped} of ${plural(mapped + notMapped, 'Google location')} mapped to ` +
      `Microsoft Location Ids${notMapped > 0 ? ` (${notMapped} not: see ${reportName})` : ''}\n`;
  }
  return (
    `  ${bulkName}: ${records || 'no records'}\n` +
    `  ${reportName}: ${plural(counts.notWritten, 'item')} not written, ` +
    `${plural(counts.changed, 'item')} changed, ${plural(counts.paused, 'campaign')} paused\n` +
    located
  );
}
