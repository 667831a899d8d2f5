import { strToU8, zipSync } from 'fflate';
import {
  exportFileParts,
  type ExportFile,
  type ExportFormat,
  type ExportTable,
  type Table,
} from '@adloom/engine';
import {
  ISSUE_HEADERS,
  readPackedCell,
  unpackTable,
  type EngineJobHandler,
} from '../generation/jobs.ts';
import { EXPORT_FORMATS, getExportFormat } from './formats.ts';
import { fileNamer, type FileNaming } from './fileNames.ts';
import type { ExportTableRef, ReportPart, TableSource } from './exportables.ts';
import { readHeldLines, readHeldTable } from './heldTables.ts';

// The export step's worker job: every download's bytes are made here, by a format, from tables
// the page names (packed, or held by this worker).

/** What a download asks the worker for. */
export interface ExportFilesInput {
  /** The format's id (`EXPORT_FORMATS`). */
  format: string;
  tables: ExportTableRef[];
  naming: FileNaming;
  /** The skipped-and-cleaned report after the tables, under this stem. */
  report?: { stem: string; parts: ReportPart[] };
  /** The format's notes beside its tables (Editor: the images still needed). */
  withNotes?: boolean;
  /** All files in one zip; false: the one file itself (a table's own download). */
  zip: boolean;
  /**
   * The client's label, added to the Labels column of campaigns, ad groups, keywords and ads
   * (`ExportContext.clientLabel`), so an export of the account tells Adloom's items apart.
   */
  clientLabel?: string;
}

/** The cells of a table source: a packed table unpacked, or a held table made now. */
export function readSource(source: TableSource): Table {
  return 'packed' in source ? unpackTable(source.packed) : readHeldTable(source.held);
}

/** The engine's export tables of `refs`: their cells read when asked, with their feed lines. */
export function exportTablesOf(
  refs: readonly ExportTableRef[],
  read: (source: TableSource) => Table = readSource,
): ExportTable[] {
  return refs.map((ref) => {
    const lines = linesOfSource(ref.source);
    return {
      kind: ref.kind,
      ...(ref.qualifier ? { qualifier: ref.qualifier } : {}),
      read: () => read(ref.source),
      ...(lines ? { lines } : {}),
    };
  });
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
 * How to read the feed line of each row of a table source (`ExportTable.lines`), when its job
 * gave them: a packed table's `lines`, or the lines the worker holds beside a held table.
 */
function linesOfSource(source: TableSource): (() => ArrayLike<number>) | undefined {
  if ('packed' in source) {
    const { lines } = source.packed;
    return lines ? () => lines : undefined;
  }
  return () => readHeldLines(source.held) ?? [];
}

/**
 * The files of an export, as the format makes them: `read` gives each table's cells (the page
 * lists the names with a `read` that is never called, the worker reads them).
 */
export function exportFilesOf(
  format: ExportFormat,
  input: Omit<ExportFilesInput, 'format' | 'zip'>,
  read: (source: TableSource) => Table,
) {
  const tables = exportTablesOf(input.tables, read);
  const { report } = input;
  return format.files(tables, {
    fileName: fileNamer(input.naming),
    ...(report ? { report: { stem: report.stem, read: () => reportTable(report.parts) } } : {}),
    ...(input.withNotes ? { withNotes: true } : {}),
    ...(input.clientLabel ? { clientLabel: input.clientLabel } : {}),
  });
}

/** Files as one zip Blob, each entry the bytes of that file on its own. */
export function zipFiles(files: readonly ExportFile[]): Blob {
  const entries: Record<string, Uint8Array> = {};
  for (const file of files) entries[file.name] = strToU8([...exportFileParts(file)].join(''));
  const zipped = zipSync(entries, { level: 6 });
  return new Blob([zipped as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}

/**
 * The export job over `formats`: the files of the tables as one zip (each entry the bytes of that
 * file on its own), or the one file as a Blob whose parts are never joined. A Blob crosses to the
 * page without copying its bytes through the main thread.
 */
export function makeExportFilesJob(
  formats: readonly ExportFormat[],
): EngineJobHandler<ExportFilesInput, { blob: Blob }> {
  return (input) => {
    const files = exportFilesOf(getExportFormat(formats, input.format), input, readSource);
    if (!input.zip) {
      const [file] = files;
      if (!file || files.length > 1)
        throw new Error(`One file expected, the format made ${files.length}`);
      return { blob: new Blob([...exportFileParts(file)], { type: file.type }) };
    }
    return { blob: zipFiles(files) };
  };
}

/** Every download's job, over the app's formats. */
export const exportFilesJob = makeExportFilesJob(EXPORT_FORMATS);

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    exportFiles: typeof exportFilesJob;
  }
}
