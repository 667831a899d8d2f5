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
  writeMicrosoftBulk,
  type ExportTable,
} from '@adloom/engine';
import { fileTables } from './fileTables.ts';
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

/**
 * Writes `microsoft-advertising.csv` and `microsoft-advertising-report.csv` into `dir` from the
 * Editor files there (as the engine's format makes them); returns the summary's lines for them.
 */
export function writeMicrosoftFiles(dir: string): string {
  const bulk = writeMicrosoftBulk(editorTablesIn(dir));
  const bulkName = commandFileName(MICROSOFT_BULK_FILE_STEM, 'csv');
  const reportName = commandFileName(MICROSOFT_REPORT_FILE_STEM, 'csv');
  writeWhole(path.join(dir, bulkName), bulk.chunks());
  writeWhole(path.join(dir, reportName), formatCsv(bulk.report(), { neutraliseFormulas: true }));
  const counts = bulk.counts();
  const records = Object.entries(counts.records)
    .filter(([type]) => type !== 'Format Version')
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
  return (
    `  ${bulkName}: ${records || 'no records'}\n` +
    `  ${reportName}: ${plural(counts.notWritten, 'item')} not written, ` +
    `${plural(counts.changed, 'item')} changed, ${plural(counts.paused, 'campaign')} paused\n`
  );
}
