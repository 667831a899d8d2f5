import type { ExportTableKind } from '@adloom/engine';
import type { PackedTable } from '../generation/jobs.ts';
import type { ReadableStore } from '../../state/store.ts';
import type { HeldTableRef } from './heldTables.ts';
import type { OutputOrigin } from './outputOrigin.ts';
import type { OutputRegistry } from './outputRegistry.ts';

// What a template kind declares to the export step: its exportable tables, read from the outputs
// it keeps. Each template feature writes one (its exportTables.ts); the builder page's list
// (pages/exportedTables.ts) registers them; the export step imports none of them.

/** Where a table's cells are: a packed table the page holds, or one the engine worker holds. */
export type TableSource = { packed: PackedTable } | { held: HeldTableRef };

/** One table to export, as it crosses to the worker: what it holds and where its cells are. */
export interface ExportTableRef {
  kind: ExportTableKind;
  /** Said before its file name when an earlier table took it ('performance max'). */
  qualifier?: string;
  source: TableSource;
}

/** One output's skipped and cleaned items in the report: which output, which template. */
export interface ReportPart {
  output: string;
  template: string;
  /** The template's own name ('Shoes'), which a build record lists. */
  templateName?: string;
  issues: PackedTable;
}

/** A template kind's kept tables, in file order (only those with lines), and its report parts. */
export interface ExportedTables {
  tables: ExportTableRef[];
  report: ReportPart[];
}

/** A template kind's exportable tables: registered once, read from the kept outputs. */
export interface ExportableKind {
  /** Names the kind ('campaigns'), for lists and tests. */
  id: string;
  /** The store whose changes change its tables. */
  store(outputs: OutputRegistry): ReadableStore<unknown>;
  /** The tables it keeps now, in file order, and the report parts of its outputs. */
  tables(outputs: OutputRegistry): ExportedTables;
}

/** The report part of one kept output: 'campaign template ‘Shoes’' in the Template cell. */
export function reportPartOf(
  output: string,
  origin: OutputOrigin,
  issues: PackedTable,
): ReportPart {
  return {
    output,
    template: `${origin.templateLabel} ‘${origin.templateName}’`,
    templateName: origin.templateName,
    issues,
  };
}
