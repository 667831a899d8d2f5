import { editorFileStem, type ExportTableKind } from '@adloom/engine';
import { runEngineJob } from '../generation/index.ts';
import type { PackedTable } from '../generation/jobs.ts';
import type { ExportFilesInput } from './exportJobs.ts';
import { exportFilesOf } from './exportJobs.ts';
import type { TableSource } from './exportables.ts';
import type { DownloadTarget } from './downloadTarget.ts';
import { datedNaming, fileNamer } from './fileNames.ts';
import { saveBlob } from './files.ts';
import {
  EDITOR_FORMAT_ID,
  EXPORT_FORMATS,
  getExportFormat,
  MICROSOFT_FORMAT_ID,
  type DownloadFormat,
} from './formats.ts';

// Every download goes through here: the page names the files (the format's names, no table
// read), the worker makes the bytes (exportFiles), the page saves them.

function unread(): never {
  throw new Error('The page lists the files; the worker reads the tables');
}

/** The names of the files an export makes, in order (no table is read). */
export function exportFileNames(input: ExportFilesInput): string[] {
  return exportFilesOf(getExportFormat(EXPORT_FORMATS, input.format), input, unread).map(
    (file) => file.name,
  );
}

/**
 * Makes the export's files in the worker and saves them: the one file under its own name, or the
 * zip under `zipName`. `lane`: the worker lane (the held ads are on the default one). Every
 * download puts the target's client label on what its files make, here and nowhere else, so a
 * table is the same in each download of it. Resolves with the input the files were made from.
 */
export async function downloadExport(
  input: Omit<ExportFilesInput, 'clientLabel'>,
  target: DownloadTarget,
  options: { zipName?: string; lane?: string } = {},
): Promise<ExportFilesInput> {
  const name = input.zip ? options.zipName : exportFileNames(input)[0];
  if (!name) throw new Error('Nothing to download');
  const clientLabel = await target.label();
  const labelled: ExportFilesInput = { ...input, ...(clientLabel ? { clientLabel } : {}) };
  const { blob } = await runEngineJob(
    'exportFiles',
    labelled,
    options.lane ? { lane: options.lane } : {},
  );
  saveBlob(blob, name);
  return labelled;
}

/** What a table's own download says of it: what it holds, for whom. */
export interface TableExport {
  kind: ExportTableKind;
  target: DownloadTarget;
}

/** The words a table's Microsoft zip adds to the table's name. */
export const MICROSOFT_ZIP_WORDS = 'for Microsoft Advertising';

/**
 * A table's own download, named for the client and today: 'Download for Google Ads Editor' saves
 * its Editor CSV; 'Download for Microsoft Advertising' (`format`) a zip of the table's bulk file
 * and its report (`Acme - keywords for Microsoft Advertising - 20261207.zip`).
 */
export async function downloadTable(
  source: TableSource,
  { kind, target }: TableExport,
  options: { lane?: string; format?: DownloadFormat } = {},
): Promise<void> {
  const { format = EDITOR_FORMAT_ID, ...rest } = options;
  const zip = format === MICROSOFT_FORMAT_ID;
  await downloadExport(
    { format, tables: [{ kind, source }], naming: datedNaming(target.client), zip },
    target,
    zip
      ? {
          ...rest,
          zipName: fileNamer(datedNaming(target.client))(
            `${editorFileStem(kind)} ${MICROSOFT_ZIP_WORDS}`,
            'zip',
          ),
        }
      : rest,
  );
}

/**
 * A tab's zip of its tables (`<client> - <what> - <yyyymmdd>.zip`, each file named by its stem
 * alone), only the tables with lines.
 */
export async function downloadTablesZip(
  tables: readonly { kind: ExportTableKind; table: PackedTable }[],
  target: DownloadTarget,
  what: string,
): Promise<void> {
  await downloadExport(
    {
      format: EDITOR_FORMAT_ID,
      tables: tables
        .filter(({ table }) => table.rowCount > 0)
        .map(({ kind, table }) => ({ kind, source: { packed: table } })),
      naming: null,
      zip: true,
    },
    target,
    { zipName: fileNamer(datedNaming(target.client))(what, 'zip'), lane: 'output' },
  );
}
