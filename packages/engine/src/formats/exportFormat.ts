/**
 * The export step's vocabulary, shared by the web app and the `adloom` command: a format turns
 * the tables of a build into files. Google Ads Editor is one format (googleAdsEditor.ts); another
 * (a change plan, a Microsoft Advertising bulk file) is one more module of this shape.
 */
import type { BuildStatus } from '../buildStatus.ts';
import type { Table } from '../csv.ts';

/** What a build can export, one table of each. */
export const EXPORT_TABLE_KINDS = [
  'campaigns',
  'ad-groups',
  'keywords',
  'negatives',
  'asset-groups',
  'responsive-search-ads',
  'performance-max-ads',
  'callouts',
  'sitelinks',
  'structured-snippets',
] as const;

/** One of `EXPORT_TABLE_KINDS`. */
export type ExportTableKind = (typeof EXPORT_TABLE_KINDS)[number];

/** One table of a build, given to a format. */
export interface ExportTable {
  kind: ExportTableKind;
  /**
   * Said before the file's name when an earlier table of the same kind took it (the Performance
   * Max campaigns beside the Search ones: 'performance max').
   */
  qualifier?: string;
  /** The table's header and rows, read only when the file's text is made. */
  read(): Table;
  /**
   * The feed line (the grid's row number, from 1; 0 for none) that made each row, in the order
   * of `read().rows`. Optional: the change plan (../plan/) names the feed row behind a change
   * when the generator says which it is.
   */
  lines?(): ArrayLike<number>;
  /**
   * Only the rows `wanted` takes (by their index in `read().rows`), each with its index: a host
   * that can pass over rows without reading their cells (the command's files read back) lets a
   * change plan read its few changed rows of a 1M-row table cheaply. Optional.
   */
  readSome?(wanted: (row: number) => boolean): {
    headers: readonly string[];
    rows: Iterable<readonly [number, readonly string[]]>;
  };
}

/** One file a format makes. */
export interface ExportFile {
  name: string;
  /** Its media type ('text/csv;charset=utf-8', 'text/plain'). */
  type: string;
  /** Starts with the UTF-8 byte order mark (`UTF8_BOM`), which `chunks` leaves out. */
  bom: boolean;
  /** The text in chunks, made as they are read: a big table never becomes one string. */
  chunks(): Iterable<string>;
}

/** What the host tells a format: how it names files, and what goes beside the tables. */
export interface ExportContext {
  /**
   * The name of the file of `stem` ('keywords'): the command's `keywords.csv`, the web app's
   * `Acme - keywords - 20261123.csv`.
   */
  fileName(stem: string, extension: string): string;
  /** The skipped-and-cleaned report (for a spreadsheet), written after the tables. */
  report?: { stem: string; read(): Table };
  /** Adds the notes a format writes beside its tables (Editor: the images still needed). */
  withNotes?: boolean;
  /**
   * The client's label (`adloom` unless the client says otherwise), added to what the format
   * writes so an export of the account tells Adloom's items from hand-made ones (Editor: the
   * `Labels` column of campaigns, ad groups, keywords and ads; see plan/label.ts). Unset: the
   * tables as they are.
   */
  clientLabel?: string;
}

/** The tables a host may write as they are made (`ExportFormat.stream`). */
export type StreamedTableKind = 'ad-groups' | 'keywords' | 'negatives' | 'responsive-search-ads';

/**
 * A table the host writes row by row as the generator makes it (the command's files of a
 * million lines), given to `ExportFormat.stream`: the format says the file, its header and what
 * each row gets; the host writes the generator's rows through it.
 */
export interface ExportStream {
  kind: StreamedTableKind;
  /**
   * The build's statuses when some row is paused (`findBuildStatus`): the table has the status
   * column of its kind's table (`adGroupsTable(groups, status)`...), each row's status cell after
   * the generator's cells.
   */
  status?: BuildStatus;
}

/** The file of a streamed table: what the host writes before, around and after its rows. */
export interface ExportStreamFile {
  name: string;
  /** Its media type. */
  type: string;
  /** Starts with the UTF-8 byte order mark (`UTF8_BOM`), which `header` leaves out. */
  bom: boolean;
  /** The file's columns: the table's (its status column too), then what the format adds. */
  headers: readonly string[];
  /** The header line as the file's text. */
  header: string;
  /**
   * The label the generator adds to each item's own labels (`addLabel`) when the table's columns
   * hold them (Editor: the ads' Labels column); unset when the format adds no label that way.
   */
  itemLabel?: string;
  /**
   * Whether `row` and `text` change what they are given (a column the format adds to each row):
   * false, the host may write the generator's rows as they come (the ads' thread does).
   */
  addsCells: boolean;
  /**
   * A row's cells as the file has them: `cells` (the generator's, the status cell last) with what
   * the format adds after them; `cells` itself is filled and returned.
   */
  row(cells: string[]): string[];
  /**
   * The file's text of rows written as CSV text (CRLF line ends) by the generator, in order,
   * whose cells hold no line break (the keyword writers' never do); a chunk may end inside a
   * line. Call `end` after the last.
   */
  text(chunk: string): string;
  /** What `text` held back after the last chunk (a lone `\r`). */
  end(): string;
}

/**
 * A way out of the product: the files of some tables. Given no table, a format makes
 * no file. `files` reads no table: a host may list the names before any table is at hand.
 */
export interface ExportFormat {
  /** Stable id ('google-ads-editor'), what a host keys the format by. */
  readonly id: string;
  /** What a person reads ('Google Ads Editor'). */
  readonly label: string;
  files(tables: readonly ExportTable[], context: ExportContext): ExportFile[];
  /**
   * The file of one table written as it is made (optional: a format without it takes only whole
   * tables). Its name, header and cells are those `files` gives the same table.
   */
  stream?(table: ExportStream, context: ExportContext): ExportStreamFile;
}

/** The UTF-8 byte order mark: Excel and Google Ads Editor then read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

/** A file's whole text in parts: its byte order mark if it has one, then its chunks. */
export function* exportFileParts(file: ExportFile): Generator<string> {
  if (file.bom) yield UTF8_BOM;
  yield* file.chunks();
}
