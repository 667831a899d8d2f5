import { formatCsv, type Table } from '@adloom/engine';
import { getAdsEditorTable } from '../ad-templates/adJobs.ts';
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import { zipFiles } from '../output/outputJobs.ts';
import { ISSUE_HEADERS, readPackedCell, unpackTable } from '../generation/packTable.ts';
import type { EditorZipFile, ReportPart } from './editorFiles.ts';

/** Input of the everything-zip job. */
export interface ZipEditorFilesInput {
  files: EditorZipFile[];
}

/** The report's table: per skipped or cleaned item its output and template, then its cells. */
export function reportTable(parts: readonly ReportPart[]): Table {
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

/** The UTF-8 byte order mark Excel reads as "this is UTF-8" (as every download). */
const BOM = '\uFEFF';

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
      let text = BOM;
      for (const chunk of formatCsv(reportTable(file.report), { neutraliseFormulas: true }))
        text += chunk;
      return { name: file.name, text };
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
    zipEditorFiles: typeof zipEditorFilesJob;
  }
}
