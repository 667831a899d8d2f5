import { strToU8, zipSync } from 'fflate';
import {
  exportFileParts,
  locationNamesOf,
  microsoftLocationLookup,
  forEachCsvRecord,
  googleLocationIdsOf,
  readMicrosoftLocations,
  type ExportFile,
  type ExportFormat,
  type ExportTable,
  googleGeoTargetsOf,
  type MicrosoftExportContext,
  type MicrosoftLocationAnswer,
  type Table,
} from '@adloom/engine';
import {
  ISSUE_HEADERS,
  JobError,
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
  /**
   * Microsoft Advertising only: what the campaigns' Google locations are mapped by (see
   * `microsoftLocationsOf`). Unset: every location is reported, as the format does without.
   */
  microsoftLocations?: MicrosoftLocationsInput;
}

/** Microsoft's geographical locations file and Google's targets of the build's location IDs. */
export interface MicrosoftLocationsInput {
  /** Microsoft's geographical locations file (format version 2.0), as the person gave it. */
  file: Blob;
  /** Google's targets of the build's location IDs (`POST /api/geo/targets`); others unknown. */
  targets: { criteriaId: string; canonicalName: string; targetType: string }[];
}

/** What a download's job answers: the bytes, and with locations how many were mapped. */
export interface ExportFilesOutput {
  blob: Blob;
  /** Distinct Google locations the format asked about: mapped to a Microsoft Id, or not. */
  locations?: { mapped: number; notMapped: number };
}

/** How a message names the person's Microsoft file. */
const MICROSOFT_FILE = "Microsoft's locations file";

/**
 * The format's `microsoftLocationId` over the person's Microsoft file and Google's targets (the
 * engine's mapping, microsoftLocations.ts): Microsoft's file read for the targets' names only.
 */
export async function microsoftLocationsOf(input: MicrosoftLocationsInput): Promise<{
  microsoftLocationId: (googleId: string) => MicrosoftLocationAnswer;
  counts: () => { mapped: number; notMapped: number };
}> {
  const google = googleGeoTargetsOf(input.targets);
  const records: string[][] = [];
  forEachCsvRecord(await input.file.text(), (cells) => {
    records.push(cells);
  });
  const reading = readMicrosoftLocations(records, locationNamesOf(google));
  if (!reading.ok) throw new JobError(`${MICROSOFT_FILE} ${reading.problem}`);
  return microsoftLocationLookup(google, reading.value);
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
  locate?: MicrosoftExportContext['microsoftLocationId'],
) {
  const tables = exportTablesOf(input.tables, read);
  const { report } = input;
  const context: MicrosoftExportContext = {
    fileName: fileNamer(input.naming),
    ...(report ? { report: { stem: report.stem, read: () => reportTable(report.parts) } } : {}),
    ...(input.withNotes ? { withNotes: true } : {}),
    ...(input.clientLabel ? { clientLabel: input.clientLabel } : {}),
    ...(locate ? { microsoftLocationId: locate } : {}),
  };
  return format.files(tables, context);
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
): EngineJobHandler<ExportFilesInput, ExportFilesOutput> {
  const make = (
    input: ExportFilesInput,
    locate?: (googleId: string) => MicrosoftLocationAnswer,
  ) => {
    const files = exportFilesOf(getExportFormat(formats, input.format), input, readSource, locate);
    if (!input.zip) {
      const [file] = files;
      if (!file || files.length > 1)
        throw new Error(`One file expected, the format made ${files.length}`);
      return new Blob([...exportFileParts(file)], { type: file.type });
    }
    return zipFiles(files);
  };
  return (input) => {
    const { microsoftLocations } = input;
    if (!microsoftLocations) return { blob: make(input) };
    // Microsoft's file is read first (a Blob reads asynchronously); the counts are those of the
    // locations the format asked about while the files were made.
    return microsoftLocationsOf(microsoftLocations).then((locations) => ({
      blob: make(input, locations.microsoftLocationId),
      locations: locations.counts(),
    }));
  };
}

/** Every download's job, over the app's formats. */
export const exportFilesJob = makeExportFilesJob(EXPORT_FORMATS);

/**
 * The distinct Google location IDs of the tables' campaigns, read where the tables are: what a
 * Microsoft download looks up before its files are made.
 */
export const microsoftLocationIdsJob: EngineJobHandler<
  { tables: ExportTableRef[] },
  { ids: string[] }
> = ({ tables }) => ({ ids: googleLocationIdsOf(exportTablesOf(tables)) });

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    exportFiles: typeof exportFilesJob;
    microsoftLocationIds: typeof microsoftLocationIdsJob;
  }
}
