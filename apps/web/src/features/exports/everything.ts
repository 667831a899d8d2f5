import type { ExportFilesInput } from './exportJobs.ts';
import type { ExportableKind } from './exportables.ts';
import { datedNaming, fileNamer } from './fileNames.ts';
import { EDITOR_FORMAT_ID, MICROSOFT_FORMAT_ID, type DownloadFormat } from './formats.ts';
import type { OutputRegistry } from './outputRegistry.ts';

/** The output word of the report's file name. */
export const REPORT_FILE_STEM = 'skipped and cleaned';

/**
 * The zip's name: `<client> - all outputs - <yyyymmdd>.zip`, for Microsoft Advertising
 * `<client> - all outputs for Microsoft Advertising - <yyyymmdd>.zip`.
 */
export function allOutputsZipName(
  client: string | null,
  today = new Date(),
  format: DownloadFormat = EDITOR_FORMAT_ID,
): string {
  const what =
    format === MICROSOFT_FORMAT_ID ? 'all outputs for Microsoft Advertising' : 'all outputs';
  return fileNamer(datedNaming(client, today))(what, 'zip');
}

/**
 * "Download everything": every table the registered kinds keep, in their order (each under the
 * name its own download gives it; a Performance Max table whose name a Search one took is
 * 'performance max <table>'), then the skipped-and-cleaned report of all of them and the format's
 * notes (the images still needed, for asset groups or Performance Max ads). With no table the
 * format makes no file, not even the report. `clientLabel`: the client's label on what the files
 * make (see `ExportFilesInput.clientLabel`; a download adds it itself, `downloadExport`).
 * `format`: the Microsoft Advertising bulk file and its report instead of the Editor files.
 */
export function everythingExport(
  kinds: readonly ExportableKind[],
  outputs: OutputRegistry,
  client: string | null,
  today = new Date(),
  clientLabel?: string,
  format: DownloadFormat = EDITOR_FORMAT_ID,
): ExportFilesInput {
  const tables: ExportFilesInput['tables'] = [];
  const parts: NonNullable<ExportFilesInput['report']>['parts'] = [];
  for (const kind of kinds) {
    const kept = kind.tables(outputs);
    tables.push(...kept.tables);
    parts.push(...kept.report);
  }
  // Microsoft's file: the same tables, without the Editor notes and the client label (the account
  // loop reads Editor files only).
  if (format === MICROSOFT_FORMAT_ID)
    return {
      format,
      tables,
      naming: datedNaming(client, today),
      report: { stem: REPORT_FILE_STEM, parts },
      zip: true,
    };
  return {
    format: EDITOR_FORMAT_ID,
    tables,
    naming: datedNaming(client, today),
    report: { stem: REPORT_FILE_STEM, parts },
    withNotes: true,
    zip: true,
    ...(clientLabel ? { clientLabel } : {}),
  };
}
