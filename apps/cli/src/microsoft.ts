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

/** The Microsoft Location Id of each Google criteria ID, read from the two files. */
export type MicrosoftLocationMap = ReturnType<typeof microsoftLocationLookup>;

/** One location file's records read through the engine's reader, or the input error. */
function readLocationFile<T>(
  file: string,
  what: string,
  read: (records: Iterable<string[]>) => { ok: true; value: T } | { ok: false; problem: string },
): T {
  let reading;
  try {
    reading = read(csvRecordsOfFile(file));
  } catch (e) {
    throw inputFileError(e, file, what);
  }
  if (!reading.ok) throw new InputError(`${what} file ${file} ${reading.problem}`);
  return reading.value;
}

/**
 * `--microsoft-locations` and `--google-geo`: Microsoft's geographical locations file and
 * Google's geo targets file, read before anything is written (a bad file writes nothing).
 */
export function readMicrosoftLocationMap(
  microsoftFile: string,
  googleFile: string,
): MicrosoftLocationMap {
  const microsoft = readLocationFile(microsoftFile, 'Microsoft locations', readMicrosoftLocations);
  const google = readLocationFile(googleFile, 'Google geo targets', readGoogleGeoTargets);
  return microsoftLocationLookup(google, microsoft);
}

/**
 * Writes `microsoft-advertising.csv` and `microsoft-advertising-report.csv` into `dir` from the
 * Editor files there (as the engine's format makes them), locations mapped by `locations` when
 * given; returns the summary's lines for them.
 */
export function writeMicrosoftFiles(dir: string, locations?: MicrosoftLocationMap): string {
  const bulk = writeMicrosoftBulk(
    editorTablesIn(dir),
    locations ? { microsoftLocationId: locations.microsoftLocationId } : {},
  );
  const bulkName = commandFileName(MICROSOFT_BULK_FILE_STEM, 'csv');
  const reportName = commandFileName(MICROSOFT_REPORT_FILE_STEM, 'csv');
  writeWhole(path.join(dir, bulkName), bulk.chunks());
  writeWhole(path.join(dir, reportName), formatCsv(bulk.report(), { neutraliseFormulas: true }));
  const counts = bulk.counts();
  const records = Object.entries(counts.records)
    .filter(([type]) => type !== 'Format Version')
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
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
