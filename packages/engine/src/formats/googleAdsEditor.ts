/**
 * The Google Ads Editor format (../shared/GOOGLE-ADS.md, "Google Ads Editor import"): one CSV per
 * table (UTF-8 with a BOM, CRLF, the engine's `formatCsv` quoting), named after what it holds,
 * then the skipped-and-cleaned report for a spreadsheet and the note that Performance Max asset
 * groups still need images.
 */
import type { BuildStatus } from '../buildStatus.ts';
import { formatCsv, formatCsvLine, type Table } from '../csv.ts';
import { adGroupsTable, keywordsTable, responsiveSearchAdsTable } from '../export.ts';
import { IMAGES_NEEDED_FILE_TEXT } from '../notes.ts';
import { findLabelColumn, labelTables } from '../plan/label.ts';
import type {
  ExportContext,
  ExportFile,
  ExportFormat,
  ExportStream,
  ExportStreamFile,
  ExportTableKind,
  StreamedTableKind,
} from './exportFormat.ts';

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

/** The stem of the Editor file of a table kind ('ad groups'): the host adds its naming. */
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

/** The columns of a streamed table: those of its whole table (`adGroupsTable`...), none read. */
const STREAMED_HEADERS: Readonly<
  Record<StreamedTableKind, (status: BuildStatus | undefined) => readonly string[]>
> = {
  'ad-groups': (status) => adGroupsTable([], status).headers,
  keywords: (status) => keywordsTable([], status).headers,
  negatives: (status) => keywordsTable([], status).headers,
  'responsive-search-ads': (status) => responsiveSearchAdsTable([], status).headers,
};

/**
 * A streamed table's Editor file: the same name, BOM, header and label cells as `files` gives
 * the whole table. The client label goes where `labelTables` puts it: into the table's own Labels
 * column (the generator adds it to its items: `itemLabel`), or into a Labels column added after
 * the others (each row gets the label's cell here).
 */
function streamFile(table: ExportStream, context: ExportContext): ExportStreamFile {
  const columns = STREAMED_HEADERS[table.kind](table.status);
  const label =
    context.clientLabel === undefined
      ? undefined
      : findLabelColumn(table.kind, columns, context.clientLabel);
  const added = label?.isAdded ? label : undefined;
  const headers = added ? [...columns, 'Labels'] : columns;
  // The label's cell ends each line of the generator's CSV text: it replaces their line breaks.
  const lineEnd = added && `,${formatCsvLine([added.label])}`;
  let carry = '';
  return {
    name: context.fileName(EDITOR_FILE_STEMS[table.kind], 'csv'),
    type: 'text/csv;charset=utf-8',
    bom: true,
    headers,
    header: formatCsvLine(headers),
    ...(label && !label.isAdded ? { itemLabel: label.label } : {}),
    addsCells: added !== undefined,
    row: added
      ? (cells) => {
          cells[columns.length] = added.label;
          return cells;
        }
      : (cells) => cells,
    text: lineEnd
      ? (chunk) => {
          let text = carry + chunk;
          carry = '';
          // A chunk cut inside a line break keeps its \r for the next.
          if (text.endsWith('\r')) {
            carry = '\r';
            text = text.slice(0, -1);
          }
          return text.replaceAll('\r\n', lineEnd);
        }
      : (chunk) => chunk,
    end: () => {
      const rest = carry;
      carry = '';
      return rest;
    },
  };
}

/**
 * Google Ads Editor: a CSV per table in the order given (formulas kept as text: "-50% Sale" must
 * reach Editor unchanged), then the report with formulas neutralised (it is for a spreadsheet),
 * then, with notes asked for and asset groups or Performance Max ads among the tables, the
 * images note (a text without BOM). With a client label, campaigns, ad groups, keywords and ads
 * carry it in their `Labels` column. A streamed table (`stream`) gets the same file.
 */
export const GOOGLE_ADS_EDITOR: ExportFormat & Required<Pick<ExportFormat, 'stream'>> = {
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
  stream: streamFile,
};
