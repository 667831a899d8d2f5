/**
 * The export step's vocabulary, shared by the web app and the `adloom` command: a format turns
 * the tables of a build into files. Google Ads Editor is one format (googleAdsEditor.ts); another
 * (a change plan, a Microsoft Advertising bulk file) is one more module of this shape.
 */
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
   * The 1-based feed line (the grid's row number, as the report's Line column counts) of the row
   * that made each row of `read().rows`, in the same order; 0 when none (an account-level asset).
   * Optional: a host that knows them gives them (a build record reads them).
   */
  lines?(): ArrayLike<number>;
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
}

/** The UTF-8 byte order mark: Excel and Google Ads Editor then read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

/** A file's whole text in parts: its byte order mark if it has one, then its chunks. */
export function* exportFileParts(file: ExportFile): Generator<string> {
  if (file.bom) yield UTF8_BOM;
  yield* file.chunks();
}
