/**
 * The Microsoft Advertising format: one bulk file (Microsoft's Bulk File Schema, format version
 * 6.0, UTF-8 CSV) from the same tables the Google Ads Editor format takes, and a report of every
 * item that could not go to Microsoft or went changed, with its reason. Sources and choices:
 * docs/decisions.md, "Microsoft Advertising bulk file".
 *
 * This module is the format (`MICROSOFT_ADVERTISING`: the files a download gets) and the one path
 * the rest of Adloom imports the Microsoft bulk file from. Its parts: microsoftRules.ts
 * (Microsoft's limits, languages, snippet headers, the checks of texts, URLs and locations),
 * microsoftLines.ts (the file's columns and the making of its lines), microsoftBulk.ts (the
 * writer: one pass over the tables, the file in chunks, the report and counts), microsoftWriter.ts
 * (the pass's shared state and the checks the record kinds share), microsoftRecords.ts and
 * microsoftExtensions.ts (one reader per record kind) and microsoftAdGroups.ts (the writer's index
 * of the new ad groups).
 */
import { formatCsv } from '../csv.ts';
import type { ExportContext, ExportFile, ExportFormat } from './exportFormat.ts';
import { writeMicrosoftBulk, type MicrosoftBulkOptions } from './microsoftBulk.ts';

export {
  bulkOnDemand,
  googleLocationIdsOf,
  writeMicrosoftBulk,
  type MicrosoftBulkCounts,
  type MicrosoftBulkOptions,
} from './microsoftBulk.ts';
export { MICROSOFT_BULK_HEADERS, MICROSOFT_LABELLED_HEADERS } from './microsoftLines.ts';
export { MICROSOFT_FORMAT_VERSION, hostOf } from './microsoftRules.ts';

/** The bulk file's stem: the command's `microsoft-advertising.csv`. */
export const MICROSOFT_BULK_FILE_STEM = 'microsoft advertising';
/** The report's stem: what could not go to Microsoft, or went changed. */
export const MICROSOFT_REPORT_FILE_STEM = 'microsoft advertising report';

/** `ExportContext` with what this format may also be told. */
export type MicrosoftExportContext = ExportContext & MicrosoftBulkOptions;

/**
 * Microsoft Advertising: the bulk file (a BOM, then the CSV; with the client's label when the
 * context gives one), then the report of what did not go or went changed (formulas neutralised: it is for a spreadsheet), then the build's
 * skipped-and-cleaned report when the host gives one.
 */
export const MICROSOFT_ADVERTISING: ExportFormat = {
  id: 'microsoft-advertising',
  label: 'Microsoft Advertising',
  files(tables, context: MicrosoftExportContext) {
    if (tables.length === 0) return [];
    const bulk = writeMicrosoftBulk(tables, {
      ...(context.microsoftLocationId ? { microsoftLocationId: context.microsoftLocationId } : {}),
      ...(context.clientLabel ? { label: { name: context.clientLabel } } : {}),
    });
    const files: ExportFile[] = [
      {
        name: context.fileName(MICROSOFT_BULK_FILE_STEM, 'csv'),
        type: 'text/csv;charset=utf-8',
        bom: true,
        chunks: () => bulk.chunks(),
      },
      {
        name: context.fileName(MICROSOFT_REPORT_FILE_STEM, 'csv'),
        type: 'text/csv;charset=utf-8',
        bom: true,
        chunks: () => formatCsv(bulk.report(), { neutraliseFormulas: true }),
      },
    ];
    const { report } = context;
    if (report)
      files.push({
        name: context.fileName(report.stem, 'csv'),
        type: 'text/csv;charset=utf-8',
        bom: true,
        chunks: () => formatCsv(report.read(), { neutraliseFormulas: true }),
      });
    return files;
  },
};
