import type { ExportFilesInput } from './exportJobs.ts';
import type { ExportableKind } from './exportables.ts';
import { datedNaming, fileNamer } from './fileNames.ts';
import { EDITOR_FORMAT_ID } from './formats.ts';
import type { OutputRegistry } from './outputRegistry.ts';

/** The output word of the report's file name. */
export const REPORT_FILE_STEM = 'skipped and cleaned';

/** The zip's name: `<client> - all outputs - <yyyymmdd>.zip`. */
export function allOutputsZipName(client: string | null, today = new Date()): string {
  return fileNamer(datedNaming(client, today))('all outputs', 'zip');
}

/**
 * "Download everything": every table the registered kinds keep, in their order (each under the
 * name its own download gives it; a Performance Max table whose name a Search one took is
 * 'performance max <table>'), then the skipped-and-cleaned report of all of them and the format's
 * notes (the images still needed, for asset groups or Performance Max ads). With no table the
 * format makes no file, not even the report. `clientLabel`: the client's label on what the files
 * make (see `ExportFilesInput.clientLabel`; a download adds it itself, `downloadExport`).
 */
export function everythingExport(
  kinds: readonly ExportableKind[],
  outputs: OutputRegistry,
  client: string | null,
  today = new Date(),
  clientLabel?: string,
): ExportFilesInput {
  const tables: ExportFilesInput['tables'] = [];
  const parts: NonNullable<ExportFilesInput['report']>['parts'] = [];
  for (const kind of kinds) {
    const kept = kind.tables(outputs);
    tables.push(...kept.tables);
    parts.push(...kept.report);
  }
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
