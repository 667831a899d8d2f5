/**
 * The Google Ads Editor format (../shared/GOOGLE-ADS.md, "Google Ads Editor import"): one CSV per
 * table (UTF-8 with a BOM, CRLF, the engine's `formatCsv` quoting), named after what it holds,
 * then the skipped-and-cleaned report for a spreadsheet and the note that Performance Max asset
 * groups still need images.
 */
import { formatCsv, type Table } from '../csv.ts';
import { IMAGES_NEEDED_FILE_TEXT } from '../notes.ts';
import { labelTables } from '../plan/label.ts';
import type { ExportFile, ExportFormat, ExportTableKind } from './exportFormat.ts';

/** The stem of each table's Editor file: the host adds its naming ('keywords.csv'). */
const EDITOR_FILE_STEMS: Readonly<Record<ExportTableKind, string>> = {
  campaigns: 'campaigns',
  'ad-groups': 'ad groups',
  keywords: 'keywords',
  negatives: 'negatives',
  'asset-groups': 'asset groups',
  'responsive-search-ads': 'responsive search ads',
  'performance-max-ads': 'performance max ads',
  callouts: 'callouts',
  sitelinks: 'sitelinks',
  'structured-snippets': 'structured-snippets',
};

/** The stem of the images note's file. */
export const IMAGES_NEEDED_FILE_STEM = 'performance max images needed';

/**
 * The stem of the Editor file of a table kind. The command streams its biggest tables (keywords,
 * negatives, ad groups, RSAs) as Editor lines straight into the file of this name.
 */
export function editorFileStem(kind: ExportTableKind): string {
  return EDITOR_FILE_STEMS[kind];
}

/** A table as a CSV file: a BOM, then the engine's CSV in chunks. */
function csvFile(name: string, read: () => Table, neutraliseFormulas = false): ExportFile {
  return {
    name,
    type: 'text/csv;charset=utf-8',
    bom: true,
    chunks: () => formatCsv(read(), neutraliseFormulas ? { neutraliseFormulas } : {}),
  };
}

/**
 * Google Ads Editor: a CSV per table in the order given (formulas kept as text: "-50% Sale" must
 * reach Editor unchanged), then the report with formulas neutralised (it is for a spreadsheet),
 * then, with notes asked for and asset groups or Performance Max ads among the tables, the
 * images note (a text without BOM). With a client label, campaigns, ad groups, keywords and ads
 * carry it in their `Labels` column.
 */
export const GOOGLE_ADS_EDITOR: ExportFormat = {
  id: 'google-ads-editor',
  label: 'Google Ads Editor',
  files(given, context) {
    const tables = context.clientLabel ? labelTables(given, context.clientLabel) : given;
    const files: ExportFile[] = [];
    const taken = new Set<string>();
    let needsImages = false;
    for (const table of tables) {
      const stem = EDITOR_FILE_STEMS[table.kind];
      const name = taken.has(stem) && table.qualifier ? `${table.qualifier} ${stem}` : stem;
      taken.add(stem);
      files.push(csvFile(context.fileName(name, 'csv'), () => table.read()));
      if (table.kind === 'asset-groups' || table.kind === 'performance-max-ads') needsImages = true;
    }
    if (files.length === 0) return [];
    const { report } = context;
    if (report)
      files.push(csvFile(context.fileName(report.stem, 'csv'), () => report.read(), true));
    if (needsImages && context.withNotes)
      files.push({
        name: context.fileName(IMAGES_NEEDED_FILE_STEM, 'txt'),
        type: 'text/plain;charset=utf-8',
        bom: false,
        chunks: () => [IMAGES_NEEDED_FILE_TEXT],
      });
    return files;
  },
};
