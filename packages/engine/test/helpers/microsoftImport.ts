/**
 * A stand-in of Microsoft Advertising's bulk import, for the tests that close the change plan's
 * loop (the engine's plan/microsoft.test.ts, the command's microsoftPlan.test.ts, which takes it
 * as `@adloom/engine/test/microsoft-import`): an uploaded bulk file applied to an account's
 * records, which are then what a download gives. Test code only: no part of the engine.
 */
import { parseCsv } from '../../src/csv.ts';

/** One record of a bulk file or account, by column. */
export type BulkRecord = Record<string, string>;

/** The records of a bulk file's text (a BOM dropped) as objects under its header. */
export function bulkRecordsOf(text: string): BulkRecord[] {
  const { header, rows } = bulkRowsOf(text);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/** A bulk file's header and its lines' cells (blank lines left out). */
function bulkRowsOf(text: string): { header: string[]; rows: string[][] } {
  const [header = [], ...rows] = parseCsv(text);
  return { header, rows: rows.filter((r) => r.length > 1) };
}

/** Label and extension associations: keyed by the pair of ids, not an id of their own. */
const isAssociation = (type: string): boolean =>
  / Label$/.test(type) || /^(Campaign|Ad Group) .* Ad Extension$/.test(type);

/**
 * What Microsoft does with an uploaded file, and the account downloaded again: negative keys
 * become new ids (the account's highest numeric id + 1 on, from 1000; a child's `Parent Id`
 * resolved to its parent's), records with an id or an association of the same pair are updated
 * (`delete_value` empties a field) or, with Status `Deleted`, removed; an added record without a
 * Status is Active. Enough of the service to close the loop in a test.
 */
export function importInto(account: readonly BulkRecord[], file: string): BulkRecord[] {
  const out = account.map((r) => ({ ...r }));
  const keys = new Map<string, string>();
  const resolve = (v: string) => keys.get(v) ?? v;
  let next = Math.max(999, ...out.map((r) => (/^\d+$/.test(r.Id ?? '') ? Number(r.Id) : 0))) + 1;
  for (const r of bulkRecordsOf(file)) {
    if (r.Type === 'Format Version') continue;
    const id = r.Id ?? '';
    const association = isAssociation(r.Type!);
    const existing = association
      ? out.find(
          (o) =>
            o.Type === r.Type &&
            o.Id === resolve(id) &&
            o['Parent Id'] === resolve(r['Parent Id']!),
        )
      : /^\d+$/.test(id)
        ? out.find((o) => o.Id === id && o.Type === r.Type)
        : undefined;
    if (existing) {
      if (r.Status === 'Deleted') out.splice(out.indexOf(existing), 1);
      else
        for (const [k, v] of Object.entries(r))
          if (v !== '' && k !== 'Id' && k !== 'Parent Id')
            existing[k] = v === 'delete_value' ? '' : v;
      continue;
    }
    const record: BulkRecord = { ...r, 'Parent Id': resolve(r['Parent Id']!) };
    if (association) record.Id = resolve(id);
    else {
      record.Id = String(next++);
      if (id.startsWith('-')) keys.set(id, record.Id);
    }
    if (record.Status === '') record.Status = 'Active';
    out.push(record);
  }
  return out;
}

/**
 * A bulk file's records as text, each as its filled cells by column (sorted): the same for two
 * files that hold the same records, whatever columns each has. Fails on a line whose cells are
 * not as many as the header's.
 */
export function filledRecordsOf(text: string): string {
  const { header, rows } = bulkRowsOf(text);
  const records = rows.map((r) => {
    if (r.length !== header.length)
      throw new Error(`a line of ${r.length} cells under ${header.length} columns`);
    return header
      .map((h, i) => [h, r[i]!] as const)
      .filter(([, v]) => v !== '')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  });
  return JSON.stringify(records);
}
