/**
 * Marking what Adloom writes with the client's label, so an export of the account tells its items
 * from the ones a person made: the label is added to the `Labels` column (`;`-separated, after
 * the template's own labels) of the entities Google Ads lets carry labels: campaigns, ad groups,
 * keywords and ads (the API's campaign, ad group, ad group criterion and ad group ad labels).
 */
import type { Table } from '../csv.ts';
import type { ExportTable } from '../formats/exportFormat.ts';
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

/** `table` with `label` in the Labels column of each row (the column added when missing). */
function labelTable(table: Table, label: string, isCampaigns: boolean): Table {
  const normalized = table.headers.map(normalizeHeader);
  let labelsAt = normalized.indexOf('labels');
  const headers = [...table.headers];
  if (labelsAt < 0) {
    labelsAt = headers.length;
    headers.push('Labels');
  }
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
            cells[labelsAt] = addLabel(cells[labelsAt] ?? '', label);
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
  const l = label.trim();
  if (l === '') return [...tables];
  return tables.map((table) => {
    const kind = itemKindOfTable(table.kind);
    if (!PLAN_KIND_SPECS[kind].takesLabels) return table;
    return { ...table, read: () => labelTable(table.read(), l, kind === 'campaign') };
  });
}
