/**
 * What Microsoft cannot take, known before a Microsoft change plan is made. An item the full
 * writer refuses (`writeMicrosoftBulk`: too long for Microsoft, a Google-only insertion, a match
 * type Microsoft lacks, Performance Max...) is never in the account's download, so a plan that
 * saw it would add it on every run and the writer refuse it again. Such an item is left out of
 * the tables the plan compares (neither added nor counted) and reported once per plan with its
 * reason. An item the account holds is left in: the plan treats it as before (unchanged, an
 * update...). Sources and choices: docs/decisions.md, "Microsoft Advertising: the change plan".
 */
import type { ExportTable } from '../formats/exportFormat.ts';
import { writeMicrosoftBulk, type MicrosoftBulkOptions } from '../formats/microsoftAdvertising.ts';
import type { Baseline } from './baseline.ts';
import { itemKindOfTable } from './kinds.ts';
import { hashIdentity, readBuildItems, type IdentityHash } from './items.ts';
import { microsoftPlanTables } from './microsoftChanges.ts';

/** The items of a build Microsoft cannot take and the account does not hold. */
export interface MicrosoftRefusals {
  /** Per table (by its index in the tables given): the rows left out. */
  rows: ReadonlyArray<ReadonlySet<number>>;
  /** One report line per item left out (`MICROSOFT_REPORT_HEADERS`, outcome "Not written"). */
  report: readonly (readonly string[])[];
}

/** Options of `findMicrosoftRefusals`: the writer's, and the client's label. */
export interface MicrosoftRefusalsOptions extends Pick<
  MicrosoftBulkOptions,
  'microsoftLocationId'
> {
  label?: string;
}

/** The rows of `table` whose index `keep` takes, as a table (its feed lines alike). */
function rowsOf(table: ExportTable, keep: (row: number) => boolean): ExportTable {
  const { readSome: _, lines: __, ...rest } = table;
  return {
    ...rest,
    read: () => {
      const { headers, rows } = table.read();
      return {
        headers,
        rows: {
          *[Symbol.iterator]() {
            let r = 0;
            for (const row of rows) if (keep(r++)) yield row;
          },
        },
      };
    },
    ...(table.lines
      ? {
          lines: () => {
            const all = table.lines!();
            const kept: number[] = [];
            for (let r = 0; r < all.length; r++) if (keep(r)) kept.push(all[r]!);
            return kept;
          },
        }
      : {}),
  };
}

/**
 * The items of `tables` the full Microsoft writer does not write (one pass of it over the
 * build) and `baseline` (the account's download) does not hold. See the module's comment.
 */
export function findMicrosoftRefusals(
  tables: readonly ExportTable[],
  baseline: Baseline,
  options: MicrosoftRefusalsOptions = {},
): MicrosoftRefusals {
  const refused = tables.map(() => new Map<number, readonly string[]>());
  const { label, ...writerOptions } = options;
  const bulk = writeMicrosoftBulk(tables, {
    ...writerOptions,
    checkOnly: true,
    onNotWritten: (table, row, line) => {
      if (table >= 0 && row >= 0 && !refused[table]!.has(row)) refused[table]!.set(row, line);
    },
  });
  for (const _ of bulk.chunks());

  const rows = tables.map(() => new Set<number>());
  const report: (readonly string[])[] = [];
  const h: IdentityHash = { lo: 0, hi: 0 };
  tables.forEach((table, t) => {
    const lines = refused[t]!;
    if (lines.size === 0) return;
    // Each refused row's item as the plan would compare it; a campaign's item spans its
    // location rows, so the campaigns table is read whole (it is small), the others' refused
    // rows alone.
    const isCampaigns = itemKindOfTable(table.kind) === 'campaign';
    const read = isCampaigns ? table : rowsOf(table, (r) => lines.has(r));
    const refusedRows = isCampaigns ? undefined : [...lines.keys()].sort((a, b) => a - b);
    let n = 0;
    for (const item of readBuildItems(microsoftPlanTables([read]), { label })) {
      const row = refusedRows ? refusedRows[n++]! : item.firstRow;
      const line = lines.get(row);
      if (line === undefined) continue;
      const b = baseline.findHash(hashIdentity(item.kind, item.identity, h));
      if (b >= 0 && baseline.statusOf(b) !== 'Removed') continue;
      for (let r = item.firstRow; r < item.firstRow + item.rowCount; r++)
        rows[t]!.add(refusedRows ? refusedRows[r]! : r);
      report.push(line);
    }
  });
  return { rows, report };
}

/** `tables` without the rows of the refused items (the rest in order, one for one). */
export function withoutRefused(
  tables: readonly ExportTable[],
  refusals: MicrosoftRefusals,
): ExportTable[] {
  return tables.map((table, t) => {
    const rows = refusals.rows[t];
    return rows === undefined || rows.size === 0 ? table : rowsOf(table, (r) => !rows.has(r));
  });
}

/** A build's tables made ready for a Microsoft plan against `baseline`. */
export interface MicrosoftPlanInput {
  /** The tables without the refused items' rows: what the changes file writes new items from. */
  tables: ExportTable[];
  /** The same as the plan compares them (`microsoftPlanTables`). */
  planTables: ExportTable[];
  refusals: MicrosoftRefusals;
}

/** The refusals of `tables` against `baseline`, and the tables the plan takes without them. */
export function microsoftPlanInput(
  tables: readonly ExportTable[],
  baseline: Baseline,
  options: MicrosoftRefusalsOptions = {},
): MicrosoftPlanInput {
  const refusals = findMicrosoftRefusals(tables, baseline, options);
  const kept = withoutRefused(tables, refusals);
  return { tables: kept, planTables: microsoftPlanTables(kept), refusals };
}
