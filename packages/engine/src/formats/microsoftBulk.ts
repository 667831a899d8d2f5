/**
 * The Microsoft bulk file's writer: one pass over a build's tables makes the bulk file (Microsoft's
 * Bulk File Schema, format version 6.0, UTF-8 CSV) in chunks, and the report of every item that
 * could not go to Microsoft or went changed, with its reason. This module drives the pass: each
 * record kind's tables in the schema's order, read by that kind's reader (microsoftRecords.ts,
 * microsoftExtensions.ts) over one shared writer state holding the checks the kinds share
 * (microsoftWriter.ts). Microsoft's rules are microsoftRules.ts's, the lines' parts
 * microsoftLines.ts's.
 *
 * New parents get negative reference keys (`Id` -1, -2, …) that their children name in
 * `Parent Id`, beside the Campaign and Ad Group names (the schema's logical reference keys), so
 * every record type finds its parent whichever key it reads. Records follow the schema's type
 * hierarchy: campaigns with their location criteria, ad groups, keywords, negative keywords,
 * responsive search ads, then each extension before its first association.
 */
import type { Table } from '../csv.ts';
import type { ExportTable, ExportTableKind } from './exportFormat.ts';
import { EXTENSION_KINDS, ExtensionRows, PerformanceMaxRows } from './microsoftExtensions.ts';
import {
  AdGroupRows,
  AdRows,
  CampaignRows,
  KeywordRows,
  NegativeRows,
  type RowReader,
} from './microsoftRecords.ts';
import { cell, columnOf, locationIdsOf } from './microsoftRules.ts';
import {
  BulkWriter,
  CHUNK_CHARS,
  type MicrosoftBulkCounts,
  type MicrosoftBulkOptions,
} from './microsoftWriter.ts';

export type { MicrosoftBulkCounts, MicrosoftBulkOptions } from './microsoftWriter.ts';

/** The report's columns. */
export const MICROSOFT_REPORT_HEADERS: readonly string[] = [
  'Type',
  'Campaign',
  'Ad Group',
  'Item',
  'Outcome',
  'Reason',
];

/** The tables of each kind, in the order given. */
function byKind(tables: readonly ExportTable[], kind: ExportTableKind): ExportTable[] {
  return tables.filter((t) => t.kind === kind);
}

/**
 * The distinct Google location IDs of a build's campaigns tables (their Location ID cells), in
 * order of first use: what a host maps to Microsoft Location Ids before writing the file.
 */
export function googleLocationIdsOf(tables: readonly ExportTable[]): string[] {
  const ids = new Set<string>();
  for (const table of byKind(tables, 'campaigns')) {
    const { headers, rows } = table.read();
    const at = columnOf(headers, 'Location ID');
    if (at < 0) continue;
    for (const row of rows) for (const id of locationIdsOf(cell(row, at))) ids.add(id);
  }
  return [...ids];
}

/**
 * Reads every table of `kind` in turn with `reader`, yielding the chunk each time it is full:
 * lines are added to the chunk where they are made, no yield per record (a generator's step per
 * line was a tenth of the file's CPU).
 */
function* readTables(
  w: BulkWriter,
  tables: readonly ExportTable[],
  kind: ExportTableKind,
  reader: RowReader,
): Generator<string> {
  for (const table of byKind(tables, kind)) {
    const { headers, rows } = w.begin(table);
    reader.columns(headers);
    for (const row of rows) {
      w.rowAt++;
      if (w.chunk.length >= CHUNK_CHARS) yield w.take();
      reader.row(row);
    }
    reader.end?.();
  }
}

/**
 * One pass over a build's tables: yields the bulk file's CSV (its header first) in chunks of
 * about `CHUNK_CHARS` characters, returns the last chunk, and adds to `report` every item that could
 * not go to Microsoft or went changed. Tables are read in the schema's order whatever order they
 * come in; each is read once.
 */
function* bulkChunks(
  tables: readonly ExportTable[],
  options: MicrosoftBulkOptions,
  report: string[][],
  counts: MicrosoftBulkCounts,
): Generator<string, string> {
  const hasExtensions = tables.some((t) => EXTENSION_KINDS.some(([kind]) => kind === t.kind));
  const w = new BulkWriter(tables, options, report, counts, hasExtensions);
  yield* readTables(w, tables, 'campaigns', new CampaignRows(w, options.microsoftLocationId));
  // Ad groups: the ad groups table's; then the ones their children name (`groupIndex`).
  yield* readTables(w, tables, 'ad-groups', new AdGroupRows(w));
  yield* readTables(w, tables, 'keywords', new KeywordRows(w));
  w.resetGroupCounts();
  yield* readTables(w, tables, 'negatives', new NegativeRows(w));
  w.resetGroupCounts();
  yield* readTables(w, tables, 'responsive-search-ads', new AdRows(w));
  const extensions = new ExtensionRows(w);
  for (const [kind, noun] of EXTENSION_KINDS) {
    extensions.setKind(kind, noun);
    yield* readTables(w, tables, kind, extensions);
  }
  extensions.finish();
  const performanceMax = new PerformanceMaxRows(w);
  for (const kind of ['asset-groups', 'performance-max-ads'] as const) {
    performanceMax.setKind(kind);
    yield* readTables(w, tables, kind, performanceMax);
  }
  w.finish();
  return w.take();
}

/** A bulk file being made: its CSV chunks, then its report and counts once they are read. */
export interface MicrosoftBulk {
  /** The bulk file's CSV in chunks (no BOM), made as they are read. */
  chunks(): Generator<string>;
  /** The report's table: complete once `chunks` has been read to its end (it is read if not). */
  report(): Table;
  /** The counts: complete once `chunks` has been read to its end (it is read if not). */
  counts(): MicrosoftBulkCounts;
}

/**
 * A bulk file made on demand: `make` yields its chunks and, before the last one, hands over its
 * report and counts (`done`); asked for them before the chunks were read to their end, it reads
 * the whole file first.
 */
export function bulkOnDemand<Counts>(
  make: (done: (report: string[][], counts: Counts) => void) => Generator<string>,
): { chunks(): Generator<string>; report(): Table; counts(): Counts } {
  let result: { report: string[][]; counts: Counts } | undefined;
  const chunks = () =>
    make((report, counts) => {
      result = { report, counts };
    });
  const finish = () => {
    if (!result) for (const _ of chunks());
    return result!;
  };
  return {
    chunks,
    report: () => ({ headers: MICROSOFT_REPORT_HEADERS, rows: finish().report }),
    counts: () => finish().counts,
  };
}

/** The Microsoft bulk file of a build's tables (see the module's comment). */
export function writeMicrosoftBulk(
  tables: readonly ExportTable[],
  options: MicrosoftBulkOptions = {},
): MicrosoftBulk {
  return bulkOnDemand<MicrosoftBulkCounts>(function* (done) {
    const report: string[][] = [];
    const counts: MicrosoftBulkCounts = { records: {}, notWritten: 0, changed: 0, paused: 0 };
    const last = yield* bulkChunks(tables, options, report, counts);
    done(report, counts);
    if (last !== '') yield last;
  });
}
