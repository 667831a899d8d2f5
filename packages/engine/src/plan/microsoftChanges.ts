/**
 * The change plan for Microsoft Advertising: a build planned against a bulk download of the
 * account (`readMicrosoftAccount`), and the changes-only bulk file. New items are written as the
 * full writer writes them (`writeMicrosoftBulk`: new parents by negative reference keys, existing
 * ones by the account's `Id`), each campaign, ad group, keyword and ad with the client's label
 * (a `Label` record and its label association records). Changed, paused, resumed and removed
 * items are records carrying their `Id` and `Parent Id` with Microsoft's status values (Active,
 * Paused, Deleted) and only the columns the update sets. What Microsoft cannot take as planned is
 * in the report. Sources and choices: docs/decisions.md, "Microsoft Advertising: the change plan".
 */
import { formatCsvLine, parseCsv, type Table } from '../csv.ts';
import type { ExportTable } from '../formats/exportFormat.ts';
import {
  MICROSOFT_FORMAT_VERSION,
  MICROSOFT_LABELLED_HEADERS,
  bulkOnDemand,
  writeMicrosoftBulk,
  type MicrosoftBulkOptions,
} from '../formats/microsoftAdvertising.ts';
import { RSA_MAX_DESCRIPTIONS, RSA_MAX_HEADLINES } from '../limits.ts';
import {
  PLAN_ITEM_KIND_LABELS,
  describeItem,
  itemKindOfTable,
  normalizeHeader,
  type ItemStatus,
  type PlanItemKind,
} from './kinds.ts';
import { hashIdentity, readBuildItems, type IdentityHash } from './items.ts';
import {
  MICROSOFT_KNOWN_FIELDS,
  microsoftContentOf,
  microsoftExtensionKey,
  rsaIdentityCells,
  snippetHeaderKey,
  snippetValuesKey,
  type MicrosoftAccount,
} from './microsoftAccount.ts';
import { Act, Why, type ChangePlan } from './plan.ts';

/** The changes file's columns: the full file's, and the Label record's name. */
export const MICROSOFT_CHANGES_HEADERS: readonly string[] = MICROSOFT_LABELLED_HEADERS;
const C = Object.fromEntries(MICROSOFT_CHANGES_HEADERS.map((h, i) => [h, i])) as Record<
  string,
  number
>;

/** Extension records of the account's library, by the kind they make. */
const EXTENSION_RECORDS: ReadonlyMap<string, PlanItemKind> = new Map([
  ['Sitelink Ad Extension', 'sitelink'],
  ['Callout Ad Extension', 'callout'],
  ['Structured Snippet Ad Extension', 'structured-snippet'],
]);

/** Record types whose parent is an ad group (the others' is a campaign). */
function parentIsAdGroup(type: string): boolean {
  return (
    type === 'Keyword' ||
    type === 'Responsive Search Ad' ||
    type === 'Ad Group Negative Keyword' ||
    type.startsWith('Ad Group ')
  );
}

/** Positions as compared: the pinned position, '' when unpinned. */
function positionKey(value: string): string {
  const n = Number(value);
  return value.trim() !== '' && Number.isInteger(n) && n >= 1 ? String(n) : '';
}

/**
 * The build's tables as a Microsoft plan compares them: what Microsoft holds of each item.
 * Negatives as Microsoft writes them (a broad negative is a phrase negative; one without an ad
 * group is the campaign's), an ad's headlines and descriptions in order without gaps with their
 * pins as numbers, a snippet's header and values as `snippetHeaderKey`/`snippetValuesKey`. Each
 * table keeps its rows one for one (the plan's ordinals are the original tables' rows).
 */
export function microsoftPlanTables(tables: readonly ExportTable[]): ExportTable[] {
  return tables.map((table) => {
    const kind = itemKindOfTable(table.kind);
    const { readSome: _, ...rest } = table;
    return {
      ...rest,
      read: () => {
        const { headers, rows } = table.read();
        const n = headers.map(normalizeHeader);
        const col = (h: string) => n.indexOf(normalizeHeader(h));
        // A column Microsoft's file carries for other kinds only (a keyword's final URL) is
        // blank: what Microsoft does not hold of an item is no change of it.
        const own = microsoftContentOf(kind);
        const blank = n.flatMap((h, i) =>
          MICROSOFT_KNOWN_FIELDS.has(h) && !own.includes(h) ? [i] : [],
        );
        const transform =
          kind === 'negative' || kind === 'responsive-search-ad' || kind === 'structured-snippet'
            ? rowTransform(kind, col)
            : (row: string[]) => row;
        return {
          headers,
          rows: {
            *[Symbol.iterator]() {
              for (const row of rows) {
                const cells = transform([...row]);
                for (const i of blank) cells[i] = '';
                yield cells;
              }
            },
          },
        };
      },
    };
  });
}

function rowTransform(kind: PlanItemKind, col: (h: string) => number): (row: string[]) => string[] {
  if (kind === 'negative') {
    const adGroupAt = col('Ad Group');
    const typeAt = col('Criterion Type');
    return (row) => {
      const type = (row[typeAt] ?? '').trim();
      const onCampaign = (row[adGroupAt] ?? '') === '' || /^campaign negative/i.test(type);
      let match = type.replace(/^(campaign )?negative /i, '');
      if (match === 'Broad') match = 'Phrase';
      if (typeAt >= 0) row[typeAt] = `${onCampaign ? 'Campaign Negative' : 'Negative'} ${match}`;
      if (onCampaign && adGroupAt >= 0) row[adGroupAt] = '';
      return row;
    };
  }
  if (kind === 'structured-snippet') {
    const headerAt = col('Header');
    const valuesAt = col('Snippet Values');
    return (row) => {
      if (headerAt >= 0) row[headerAt] = snippetHeaderKey(row[headerAt] ?? '');
      if (valuesAt >= 0) row[valuesAt] = snippetValuesKey(row[valuesAt] ?? '');
      return row;
    };
  }
  const list = (noun: string, max: number) =>
    Array.from({ length: max }, (_, i) => [
      col(`${noun} ${i + 1}`),
      col(`${noun} ${i + 1} position`),
    ]);
  const heads = list('Headline', RSA_MAX_HEADLINES);
  const descs = list('Description', RSA_MAX_DESCRIPTIONS);
  const texts = (row: string[], at: number[][]) => {
    const out: { text: string; position: string }[] = [];
    for (const [t, p] of at) {
      const text = t! < 0 ? '' : (row[t!] ?? '');
      if (text !== '') out.push({ text, position: positionKey(p! < 0 ? '' : (row[p!] ?? '')) });
    }
    return out;
  };
  return (row) => {
    const cells = rsaIdentityCells(texts(row, heads), texts(row, descs), '', '');
    const all = [...heads.map((h) => h[0]!), ...heads.map((h) => h[1]!)];
    all.push(...descs.map((d) => d[0]!), ...descs.map((d) => d[1]!));
    all.forEach((at, i) => {
      if (at >= 0) row[at] = cells[i]!;
    });
    return row;
  };
}

/** Counts of a changes file: records per type, and the report's items. */
export interface MicrosoftChangesCounts {
  records: Record<string, number>;
  /** Items the plan changes that the file does not carry (Microsoft cannot take them so). */
  notPlanned: number;
  /**
   * New items the full writer could not write (its report's "Not written"), the items left out
   * of the plan for it (`MicrosoftChangesOptions.refused`) among them.
   */
  notWritten: number;
}

/** A changes file being made: its CSV chunks, then its report and counts once read. */
export interface MicrosoftChanges {
  chunks(): Generator<string>;
  report(): Table;
  counts(): MicrosoftChangesCounts;
}

/** Options of the changes file. */
export interface MicrosoftChangesOptions extends Pick<MicrosoftBulkOptions, 'microsoftLocationId'> {
  /** The client's label, put on new campaigns, ad groups, keywords and ads. */
  label: string;
  /**
   * The report lines of the items left out of the plan because Microsoft cannot take them
   * (`findMicrosoftRefusals`): first in the report, counted as not written.
   */
  refused?: readonly (readonly string[])[];
}

/** Microsoft's status of a build status (Removed: Deleted). */
function microsoftStatusOf(status: ItemStatus): string {
  return status === 'Enabled' ? 'Active' : status === 'Paused' ? 'Paused' : 'Deleted';
}

/** The rows (by index) of each table's items the plan adds. */
function addedRows(plan: ChangePlan, tables: readonly ExportTable[], t: number): Set<number> {
  const start = plan.tableStarts[t]!;
  const end = t + 1 < plan.tableStarts.length ? plan.tableStarts[t + 1]! : plan.itemCount;
  const rows = new Set<number>();
  if (itemKindOfTable(tables[t]!.kind) !== 'campaign') {
    for (let o = start; o < end; o++) if (plan.actions[o] === Act.Add) rows.add(o - start);
    return rows;
  }
  let o = start;
  for (const item of readBuildItems([tables[t]!], { label: plan.options.label }))
    if (plan.actions[o++] === Act.Add)
      for (let r = 0; r < item.rowCount; r++) rows.add(item.firstRow + r);
  return rows;
}

/** The JSON list of an ad's headlines or descriptions, as the Responsive Search Ad record takes it. */
function assetJson(cells: readonly string[], from: number, count: number, noun: string): string {
  const list: { text: string; pinnedField?: string }[] = [];
  for (let i = 0; i < count; i++) {
    const text = cells[from + i] ?? '';
    if (text === '') continue;
    const pin = cells[from + count + i] ?? '';
    list.push(pin === '' ? { text } : { text, pinnedField: `${noun}${pin}` });
  }
  return JSON.stringify(list);
}

/**
 * The changes-only bulk file of `plan`, made from `planTables` (`microsoftPlanTables(tables)`,
 * what the plan was made from) against `account`; `tables` are the same tables as built, from
 * which new items are written. See the module's comment.
 */
export function writeMicrosoftChanges(
  plan: ChangePlan,
  tables: readonly ExportTable[],
  planTables: readonly ExportTable[],
  account: MicrosoftAccount,
  options: MicrosoftChangesOptions,
): MicrosoftChanges {
  return bulkOnDemand<MicrosoftChangesCounts>(function* (done) {
    const report: string[][] = (options.refused ?? []).map((line) => [...line]);
    const counts: MicrosoftChangesCounts = {
      records: {},
      notPlanned: 0,
      notWritten: report.length,
    };
    const out: string[] = [formatCsvLine(MICROSOFT_CHANGES_HEADERS)];
    const emit = (cells: string[]) => {
      const type = cells[C.Type!]!;
      counts.records[type] = (counts.records[type] ?? 0) + 1;
      out.push(formatCsvLine(cells));
    };
    const blank = () => new Array<string>(MICROSOFT_CHANGES_HEADERS.length).fill('');
    const notPlanned = (kind: PlanItemKind, identity: readonly string[], reason: string) => {
      counts.notPlanned++;
      report.push([
        PLAN_ITEM_KIND_LABELS[kind],
        identity[0] ?? '',
        kind === 'campaign' ? '' : (identity[1] ?? ''),
        describeItem(kind, identity),
        'Not planned',
        reason,
      ]);
    };
    const format = blank();
    format[C.Type!] = 'Format Version';
    format[C.Name!] = MICROSOFT_FORMAT_VERSION;
    out.push(formatCsvLine(format));

    // New items, as the full writer writes them.
    const added = tables.map((table, t): ExportTable => {
      const rows = addedRows(plan, planTables, t);
      const { readSome: _, lines: __, ...rest } = table;
      return {
        ...rest,
        read: () => {
          const read = table.read();
          return {
            headers: read.headers,
            rows: {
              *[Symbol.iterator]() {
                let r = 0;
                for (const row of read.rows) if (rows.has(r++)) yield row;
              },
            },
          };
        },
      };
    });
    // New items as the full writer writes them, labelled (the account's label when it has one).
    const reused = new Map<string, string>();
    const bulk = writeMicrosoftBulk(
      added.filter((_, t) => addedRows(plan, planTables, t).size > 0),
      {
        ...(options.microsoftLocationId
          ? { microsoftLocationId: options.microsoftLocationId }
          : {}),
        label: {
          name: options.label,
          ...(account.labelId !== undefined ? { id: account.labelId } : {}),
        },
      },
    );
    // By column of this file, its index in the writer's (whose columns are its build's).
    let from: number[] | undefined;
    for (const chunk of bulk.chunks()) {
      for (const record of parseCsv(chunk)) {
        if (from === undefined) {
          from = MICROSOFT_CHANGES_HEADERS.map((h) => record.indexOf(h));
          continue;
        }
        const cells = blank();
        for (let i = 0; i < cells.length; i++) cells[i] = record[from[i]!] ?? '';
        const type = cells[C.Type!]!;
        if (type === '' || type === 'Format Version') continue;
        if (reused.has(cells[C.Id!]!)) cells[C.Id!] = reused.get(cells[C.Id!]!)!;
        // A parent the account has: named by its Id (the writer names it by its names only).
        if (cells[C['Parent Id']!] === '' && type !== 'Campaign' && type !== 'Label') {
          const campaign = cells[C.Campaign!]!;
          const parent = parentIsAdGroup(type)
            ? account.adGroupIds.get(`${campaign}\u0000${cells[C['Ad Group']!]}`)
            : account.campaignIds.get(campaign);
          if (parent !== undefined) cells[C['Parent Id']!] = parent;
        }
        const extension = EXTENSION_RECORDS.get(type);
        if (extension !== undefined) {
          // An extension the account's library holds already: its associations name that one.
          const existing = account.extensionIds.get(
            microsoftExtensionKey(extension, extensionKeyCells(extension, cells)),
          );
          if (existing !== undefined) {
            reused.set(cells[C.Id!]!, existing);
            continue;
          }
        }
        emit(cells);
        if (out.length >= 1024) yield out.splice(0).join('');
      }
    }
    for (const row of bulk.report().rows) {
      report.push([...row]);
      if (row[4] === 'Not written') counts.notWritten++;
    }

    // Items the build still makes whose contents or status change: records by their Id.
    const h: IdentityHash = { lo: 0, hi: 0 };
    let o = 0;
    for (const item of readBuildItems(planTables, { label: plan.options.label })) {
      const ordinal = o++;
      const act = plan.actions[ordinal]!;
      if (act !== Act.Update && act !== Act.Pause && act !== Act.Enable) continue;
      const b =
        plan.pairs.get(ordinal) ??
        plan.baseline.findHash(hashIdentity(item.kind, item.identity, h));
      const ids = b >= 0 ? account.ids[b] : undefined;
      if (ids === undefined || ids.id === '') {
        notPlanned(item.kind, item.identity, 'the account gave no Microsoft Id for it');
        continue;
      }
      const isAssociation = / Ad Extension$/.test(ids.type);
      if (isAssociation || item.kind === 'negative') {
        if (act === Act.Update && isAssociation)
          notPlanned(
            item.kind,
            item.identity,
            "Microsoft keeps one extension in the account's library for every place it is associated with: change its texts in Microsoft Advertising",
          );
        else
          notPlanned(
            item.kind,
            item.identity,
            `Microsoft's ${isAssociation ? 'extension associations' : 'negative keywords'} are Active or Deleted: they cannot be paused`,
          );
        continue;
      }
      let status =
        act === Act.Pause
          ? 'Paused'
          : act === Act.Enable
            ? 'Active'
            : microsoftStatusOf(item.status);
      if (item.kind === 'campaign' && status === 'Active' && !anyLocationMaps(item, options)) {
        // As the full file: a campaign none of whose locations Microsoft can take stays paused.
        if (act === Act.Enable) {
          notPlanned(
            item.kind,
            item.identity,
            'not enabled: none of its locations could be written, and a Microsoft campaign without locations shows everywhere',
          );
          continue;
        }
        status = '';
      }
      const cells = blank();
      cells[C.Type!] = ids.type;
      cells[C.Status!] = status;
      cells[C.Id!] = ids.id;
      cells[C['Parent Id']!] = ids.parentId;
      cells[C.Campaign!] = item.identity[0] ?? '';
      if (item.kind !== 'campaign') cells[C['Ad Group']!] = item.identity[1] ?? '';
      const why = plan.reasons[ordinal]! & 0xff;
      if (act === Act.Update || why === Why.RowPausedAndField || why === Why.RowActiveAndField) {
        const value = (f: string) => item.values[item.fields.indexOf(f)] ?? '';
        if (item.kind === 'campaign') cells[C.Budget!] = value('budget');
        if (item.kind === 'responsive-search-ad') {
          const id = item.identity;
          cells[C.Headline!] = assetJson(id, 2, RSA_MAX_HEADLINES, 'Headline');
          cells[C.Description!] = assetJson(
            id,
            2 + 2 * RSA_MAX_HEADLINES,
            RSA_MAX_DESCRIPTIONS,
            'Description',
          );
          const paths = 2 + 2 * RSA_MAX_HEADLINES + 2 * RSA_MAX_DESCRIPTIONS;
          cells[C['Path 1']!] = id[paths] || 'delete_value';
          cells[C['Path 2']!] = id[paths + 1] || 'delete_value';
          cells[C['Final Url']!] = value('finalurl');
        }
      }
      emit(cells);
    }

    // Items the feed no longer makes: paused or deleted by their Id.
    const { index, action } = plan.dropped;
    for (let d = 0; d < index.length; d++) {
      const b = index[d]!;
      const ids = account.ids[b]!;
      const kind = plan.baseline.kindOf(b);
      const isAssociation = / Ad Extension$/.test(ids.type);
      let status = action[d] === Act.Remove ? 'Deleted' : 'Paused';
      if (status === 'Paused' && (isAssociation || kind === 'negative')) {
        if (isAssociation) {
          notPlanned(
            kind,
            plan.baseline.identityOf(b),
            "Microsoft's extension associations are Active or Deleted: not paused (plan with --dropped remove to delete it)",
          );
          continue;
        }
        // A negative keeps no history: deleting it does what pausing would.
        status = 'Deleted';
      }
      const identity = plan.baseline.identityOf(b);
      const cells = blank();
      cells[C.Type!] = ids.type;
      cells[C.Status!] = status;
      cells[C.Id!] = ids.id;
      cells[C['Parent Id']!] = ids.parentId;
      cells[C.Campaign!] = identity[0] ?? '';
      if (kind !== 'campaign' && !ids.type.startsWith('Campaign '))
        cells[C['Ad Group']!] = identity[1] ?? '';
      emit(cells);
    }
    done(report, counts);
    if (out.length > 0) yield out.join('');
  });
}

/** True when the campaign has no location, or Microsoft takes one of its locations. */
function anyLocationMaps(
  item: { fields: readonly string[]; values: readonly string[] },
  options: Pick<MicrosoftBulkOptions, 'microsoftLocationId'>,
): boolean {
  const at = item.fields.indexOf('locationid');
  if (at < 0) return true;
  const ids = item.values[at]!.split(';').filter((id) => id.trim() !== '');
  if (ids.length === 0) return true;
  return ids.some((id) => {
    const answer = options.microsoftLocationId?.(id.trim());
    return typeof answer === 'string' || (typeof answer === 'object' && 'id' in answer);
  });
}

/** An extension record's cells as `microsoftExtensionKey` keys them (as the account reader does). */
function extensionKeyCells(kind: PlanItemKind, cells: readonly string[]): string[] {
  if (kind === 'sitelink')
    return [
      cells[C['Sitelink Extension Link Text']!]!,
      cells[C['Sitelink Extension Description1']!]!,
      cells[C['Sitelink Extension Description2']!]!,
      cells[C['Final Url']!]!,
    ];
  if (kind === 'callout') return [cells[C['Callout Text']!]!];
  return [
    snippetHeaderKey(cells[C['Structured Snippet Header']!]!),
    snippetValuesKey(cells[C['Structured Snippet Values']!]!),
  ];
}
