/**
 * Marking what Adloom writes with the client's label, so an export of the account tells its items
 * from the ones a person made: the label is added to the `Labels` column (`;`-separated, after
 * the template's own labels) of the entities Google Ads lets carry labels: campaigns, ad groups,
 * keywords and ads (the API's campaign, ad group, ad group criterion and ad group ad labels).
 */
import type { Table } from '../csv.ts';
import type { ExportTable, ExportTableKind } from '../formats/exportFormat.ts';
import { PLAN_KIND_SPECS, itemKindOfTable, normalizeHeader } from './kinds.ts';
import { splitLabels } from './items.ts';

/** A `Labels` cell with `label` added unless it is there already (ignoring case). */
export function addLabel(cell: string, label: string): string {
  const labels = splitLabels(cell);
  if (labels.some((l) => l.toLowerCase() === label.toLowerCase())) return labels.join(';');
  labels.push(label);
  return labels.join(';');
}

/** True for a campaigns row that only adds a location (Campaign and Location ID filled). */
function isLocationOnly(row: readonly string[], campaignAt: number, locationAt: number): boolean {
  if (locationAt < 0 || (row[locationAt] ?? '') === '') return false;
  return row.every((c, i) => i === campaignAt || i === locationAt || c === '');
}

/** Where the rows of a table take the client's label (`findLabelColumn`). */
export interface LabelColumn {
  /** The label, trimmed. */
  label: string;
  /** The index of the Labels column among the table's columns, or after them when `isAdded`. */
  at: number;
  /** True when the table has no Labels column: one is added after its columns. */
  isAdded: boolean;
}

/**
 * Where the rows of a table of `kind` under `headers` take `label`: their Labels column, added
 * after the others when missing. Undefined when the kind takes no label or the label is empty.
 * The whole tables (`labelTables`) and the streamed ones (`GOOGLE_ADS_EDITOR.stream`) both ask.
 */
export function findLabelColumn(
  kind: ExportTableKind,
  headers: readonly string[],
  label: string,
): LabelColumn | undefined {
  const l = label.trim();
  if (l === '' || !PLAN_KIND_SPECS[itemKindOfTable(kind)].takesLabels) return undefined;
  const at = headers.map(normalizeHeader).indexOf('labels');
  return at < 0
    ? { label: l, at: headers.length, isAdded: true }
    : { label: l, at, isAdded: false };
}

/** `table` with the label in its Labels column (`column`) of each row. */
function labelTable(table: Table, column: LabelColumn, isCampaigns: boolean): Table {
  const normalized = table.headers.map(normalizeHeader);
  const labelsAt = column.at;
  const headers = column.isAdded ? [...table.headers, 'Labels'] : [...table.headers];
  const campaignAt = normalized.indexOf('campaign');
  const locationAt = normalized.indexOf('locationid');
  return {
    headers,
    rows: {
      *[Symbol.iterator]() {
        for (const row of table.rows) {
          const cells = [...row];
          while (cells.length < headers.length) cells.push('');
          if (!(isCampaigns && isLocationOnly(row, campaignAt, locationAt)))
            cells[labelsAt] = addLabel(cells[labelsAt] ?? '', column.label);
          yield cells;
        }
      },
    },
  };
}

/**
 * The tables with the client's `label` on every campaign, ad group, keyword and responsive search
 * ad row (other tables as they are). An empty label changes nothing.
 */
export function labelTables(tables: readonly ExportTable[], label: string): ExportTable[] {
  if (label.trim() === '') return [...tables];
  return tables.map((table) => {
    if (findLabelColumn(table.kind, [], label) === undefined) return table;
    const isCampaigns = itemKindOfTable(table.kind) === 'campaign';
    return {
      ...table,
      read: () => {
        const read = table.read();
        const column = findLabelColumn(table.kind, read.headers, label)!;
        return labelTable(read, column, isCampaigns);
      },
    };
  });
}
