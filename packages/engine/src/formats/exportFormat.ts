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
