import { editorFileStem, MICROSOFT_REPORT_FILE_STEM, type ExportTableKind } from '@adloom/engine';
import { lookupGeoTargets } from '../../api/geo.ts';
import { ApiError } from '../../api/errors.ts';
import { session } from '../../state/session.ts';
import { notifications } from '../../state/notifications.ts';
import { runEngineJob } from '../generation/index.ts';
import type { PackedTable } from '../generation/jobs.ts';
import type { ExportFilesInput, ExportFilesOutput, MicrosoftLocationsInput } from './exportJobs.ts';
import { exportFilesOf } from './exportJobs.ts';
import {
  indexedDbMicrosoftLocations,
  type MicrosoftLocationsStorage,
} from './microsoftLocationsStore.ts';
import type { TableSource } from './exportables.ts';
import type { DownloadTarget } from './downloadTarget.ts';
import { datedNaming, fileNamer, type FileNaming } from './fileNames.ts';
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
  const lane = options.lane ? { lane: options.lane } : {};
  const located =
    input.format === MICROSOFT_FORMAT_ID ? await microsoftLocationsFor(input, lane) : undefined;
  const { blob, locations } = await runEngineJob(
    'exportFiles',
    located ? { ...labelled, microsoftLocations: located.input } : labelled,
    lane,
  );
  saveBlob(blob, name);
  if (located && locations) {
    const notice = microsoftLocationsNotice(locations, input.naming, located.isGeoLoaded);
    if (notice) notifications.notify(notice.type, notice.message);
  }
  return labelled;
}

/**
 * What a Microsoft download maps its locations by: the signed-in person's Microsoft file kept in
 * this browser, and Google's targets of the build's location IDs (read in the worker, looked up
 * on the server). Undefined with no file kept or no location in the build: every location is
 * then reported, as the format does without.
 */
export async function microsoftLocationsFor(
  input: Pick<ExportFilesInput, 'tables'>,
  lane: { lane?: string },
  storage: MicrosoftLocationsStorage = indexedDbMicrosoftLocations,
): Promise<{ input: MicrosoftLocationsInput; isGeoLoaded: boolean } | undefined> {
  const userId = session.get()?.user._id;
  const kept = userId ? await storage.find(userId) : undefined;
  if (!kept) return undefined;
  const { ids } = await runEngineJob('microsoftLocationIds', { tables: input.tables }, lane);
  if (ids.length === 0) return undefined;
  let targets: MicrosoftLocationsInput['targets'] = [];
  let isGeoLoaded = true;
  try {
    targets = (await lookupGeoTargets(ids)).map((t) => ({
      criteriaId: String(t.criteriaId),
      canonicalName: t.canonicalName.join(','),
      targetType: t.targetType,
    }));
  } catch (error) {
    // No Google targets on the server: no name is known, so every location is reported.
    if (!(error instanceof ApiError && error.code === 'geo_not_loaded')) throw error;
    isGeoLoaded = false;
  }
  return { input: { file: kept.file, targets }, isGeoLoaded };
}

/**
 * The notice of a Microsoft download's locations, as the command's summary says them: how many
 * of the build's Google locations were mapped to Microsoft Location Ids, and where the reasons
 * of the others are (the Microsoft report, one line per location). None when none was asked.
 */
export function microsoftLocationsNotice(
  counts: NonNullable<ExportFilesOutput['locations']>,
  naming: FileNaming,
  isGeoLoaded = true,
): { type: 'success' | 'warning'; message: string } | undefined {
  const { mapped, notMapped } = counts;
  const total = mapped + notMapped;
  if (total === 0) return undefined;
  const mappedText = `Microsoft Advertising: ${mapped} of ${total} Google ${total === 1 ? 'location' : 'locations'} mapped to Microsoft Location Ids`;
  if (notMapped === 0) return { type: 'success', message: `${mappedText}.` };
  const report = fileNamer(naming)(MICROSOFT_REPORT_FILE_STEM, 'csv');
  const why = isGeoLoaded
    ? ''
    : " This server has no Google geo targets loaded, so no location's name was known.";
  return {
    type: 'warning',
    message: `${mappedText}; ${notMapped} not, and campaigns left without a location are paused: the reasons are in ${report}.${why}`,
  };
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
 * A tab's zip of its tables, only the tables with lines: for Google Ads Editor each table's file
 * named by its stem alone (`<client> - <what> - <yyyymmdd>.zip`); for Microsoft Advertising
 * (`format`) the tables as one bulk file and its report, named as the table downloads name them
 * (`<client> - <what> for Microsoft Advertising - <yyyymmdd>.zip`).
 */
export async function downloadTablesZip(
  tables: readonly { kind: ExportTableKind; table: PackedTable }[],
  target: DownloadTarget,
  what: string,
  format: DownloadFormat = EDITOR_FORMAT_ID,
): Promise<void> {
  const isMicrosoft = format === MICROSOFT_FORMAT_ID;
  const naming = datedNaming(target.client);
  await downloadExport(
    {
      format,
      tables: tables
        .filter(({ table }) => table.rowCount > 0)
        .map(({ kind, table }) => ({ kind, source: { packed: table } })),
      naming: isMicrosoft ? naming : null,
      zip: true,
    },
    target,
    {
      zipName: fileNamer(naming)(isMicrosoft ? `${what} ${MICROSOFT_ZIP_WORDS}` : what, 'zip'),
      lane: 'output',
    },
  );
}
