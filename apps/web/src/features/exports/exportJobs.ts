import { strToU8, zipSync } from 'fflate';
import type { Table } from '@adloom/engine';
import { getAdsEditorTable, type AdsEditorRef } from '../ad-templates/adJobs.ts';
import {
  ISSUE_HEADERS,
  readPackedCell,
  unpackTable,
  type EngineJobHandler,
  type PackedTable,
} from '../generation/jobs.ts';
import { formatPackedTsvParts } from './tsv.ts';
import type { EditorZipFile, ReportPart } from './editorFiles.ts';
import { editorCsvBlob, editorCsvParts } from './googleAdsEditor.ts';

// The export step's worker jobs: a table as a file (the Editor CSV, or TSV), zips of tables, and
// the zip of every kept output. Every download's bytes are made here.

/** Input of the formatting job. */
export interface FormatPackedInput {
  table: PackedTable;
  /** 'tsv': tab-separated text; 'csv': the Google Ads Editor file (UTF-8 with BOM, CRLF). */
  format: 'tsv' | 'csv';
}

/**
 * Formats a packed table off the main thread as a Blob: tab-separated text, or the Editor CSV. A Blob crosses to the page without copying its bytes through the main thread.
 */
export const formatPackedJob: EngineJobHandler<FormatPackedInput, { blob: Blob }> = (input) => {
  if (input.format === 'tsv')
    return { blob: new Blob(formatPackedTsvParts(input.table), { type: 'text/plain' }) };
  return { blob: editorCsvBlob(unpackTable(input.table)) };
};

/** Input of the zip job: one Editor CSV per table. */
export interface ZipPackedInput {
  files: { name: string; table: PackedTable }[];
}

/** Every table as an Editor CSV (as `formatPackedJob` makes them) in one zip. */
export const zipPackedJob: EngineJobHandler<ZipPackedInput, { blob: Blob }> = (input) => ({
  blob: zipFiles(input.files.map((file) => ({ name: file.name, table: unpackTable(file.table) }))),
});

/**
 * One zip, one entry per file under its name: a table as its Editor CSV (BOM, then the engine's
 * `formatCsv`: the bytes of each table's own 'Download for Google Ads Editor'), a text as it is
 * (UTF-8). Run it in the worker: it formats every row.
 */
function zipFiles(
  files: readonly ({ name: string; table: Table } | { name: string; text: string })[],
): Blob {
  const entries: Record<string, Uint8Array> = {};
  for (const file of files) {
    if ('text' in file) {
      entries[file.name] = strToU8(file.text);
      continue;
    }
    entries[file.name] = strToU8(editorCsvParts(file.table).join(''));
  }
  const zipped = zipSync(entries, { level: 6 });
  return new Blob([zipped as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}

/** The Editor CSV of the last generated ads of a kind (engine's Editor columns). */
export const adsEditorCsvJob: EngineJobHandler<AdsEditorRef, { blob: Blob }> = (input) => ({
  blob: editorCsvBlob(getAdsEditorTable(input)),
});

/** Input of the everything-zip job. */
export interface ZipEditorFilesInput {
  files: EditorZipFile[];
}

/** The report's table: per skipped or cleaned item its output and template, then its cells. */
function reportTable(parts: readonly ReportPart[]): Table {
  const headers = ['Output', 'Template', ...(parts[0]?.issues.headers ?? ISSUE_HEADERS)];
  const rows: string[][] = [];
  for (const part of parts) {
    const { issues } = part;
    for (let r = 0; r < issues.rowCount; r += 1) {
      const row = [part.output, part.template];
      for (let c = 0; c < issues.headers.length; c += 1) row.push(readPackedCell(issues, r, c));
      rows.push(row);
    }
  }
  return { headers, rows };
}

/**
 * Every kept output in one zip: each Editor CSV with the bytes of its tab's own download, the
 * skipped-and-cleaned report as a CSV for a spreadsheet (cells starting with = + - @ neutralised,
 * see decisions "Editor CSV and CSV import"), and the texts as they are. Runs on the lane that
 * generated the ads (the default one): the ads' Editor tables are made from what that worker
 * keeps.
 */
export const zipEditorFilesJob: EngineJobHandler<ZipEditorFilesInput, { blob: Blob }> = (input) => {
  const entries = input.files.map((file) => {
    if ('text' in file) return { name: file.name, text: file.text };
    if ('report' in file) {
      const parts = editorCsvParts(reportTable(file.report), { neutraliseFormulas: true });
      return { name: file.name, text: parts.join('') };
    }
    return {
      name: file.name,
      table: 'ads' in file ? getAdsEditorTable(file.ads) : unpackTable(file.table),
    };
  });
  return { blob: zipFiles(entries) };
};

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    formatPacked: typeof formatPackedJob;
    zipPacked: typeof zipPackedJob;
    adsEditorCsv: typeof adsEditorCsvJob;
    zipEditorFiles: typeof zipEditorFilesJob;
  }
}
