/**
 * What a plan gives a person and Google Ads Editor: its lines (`adloom-plan.csv`), the collisions,
 * the changes-only tables (only the rows that change, each with its status column set) and the
 * record of the new build. Each reads the build's tables again, in the plan's order.
 */
import type { Table } from '../csv.ts';
import type { ExportTable } from '../formats/exportFormat.ts';
import { RSA_AD_TYPE } from '../limits.ts';
import {
  PLAN_ITEM_KINDS,
  PLAN_ITEM_KIND_LABELS,
  PLAN_KIND_SPECS,
  describeItem,
  itemKindOfTable,
  parseItemStatus,
  normalizeHeader,
  type ItemStatus,
  type PlanItemKind,
} from './kinds.ts';
import { droppedBaselineItems } from './baseline.ts';
import { ColumnMap, readBuildItems } from './items.ts';
import {
  Act,
  Why,
  type ChangeAction,
  type ChangePlan,
  type ChangeLine,
  type Collision,
} from './plan.ts';
import { buildRecordChunks, type BuildRecordInfo, type RecordItem } from './record.ts';

/** The plan table's columns (`adloom-plan.csv`). */
export const PLAN_TABLE_HEADERS: readonly string[] = [
  'Action',
  'Kind',
  'Campaign',
  'Ad Group',
  'Item',
  'Reason',
  'Feed line',
];

/** The plan table's file name beside the changes. */
export const PLAN_FILE_NAME = 'adloom-plan.csv';

const ACTION_OF: readonly (ChangeAction | undefined)[] = [
  undefined,
  'add',
  'update',
  'pause',
  'enable',
  'remove',
  undefined,
];

/** Header words as a person reads them: 'final URL', 'headline 3', 'locations'. */
function fieldWords(tables: readonly ExportTable[]): Map<string, string> {
  const words = new Map<string, string>([['locationid', 'locations']]);
  const add = (header: string): void => {
    const n = normalizeHeader(header);
    if (words.has(n)) return;
    words.set(
      n,
      header
        .toLowerCase()
        .replace(/\burl\b/g, 'URL')
        .replace(/ position$/, ' pin'),
    );
  };
  for (const t of tables) for (const h of t.read().headers) add(h);
  for (const k of PLAN_ITEM_KINDS) for (const h of PLAN_KIND_SPECS[k].identity) add(h);
  return words;
}

/** The first identity cell (after the place) where two ads differ, as words. */
function adDifference(kind: PlanItemKind, a: readonly string[], b: readonly string[]): string {
  const spec = PLAN_KIND_SPECS[kind];
  for (let c = spec.placeCells; c < spec.identity.length; c++)
    if ((a[c] ?? '') !== (b[c] ?? ''))
      return spec.identity[c]!.toLowerCase().replace(/ position$/, ' pin');
  return 'ad text';
}

/** Reason texts of a plan. */
class Reasons {
  /** Made when a reason first names a field (reading the tables' headers costs a pass). */
  private words: Map<string, string> | undefined;
  constructor(
    private readonly plan: ChangePlan,
    private readonly tables: readonly ExportTable[],
  ) {}

  private field(why: number): string {
    const name = this.plan.fieldNames[why >>> 8] ?? '';
    this.words ??= fieldWords(this.tables);
    return this.words.get(name) ?? name;
  }

  text(why: number, kind: PlanItemKind, identity: readonly string[], ordinal: number): string {
    const label = this.plan.options.label;
    switch ((why & 0xff) as Why) {
      case Why.New:
        return 'new in the feed';
      case Why.NewPaused:
        return 'new in the feed; its feed row is paused or out of stock';
      case Why.FieldChanged:
        return `${this.field(why)} changed`;
      case Why.RowPaused:
        return 'feed row paused or out of stock';
      case Why.RowActive:
        return 'feed row active again';
      case Why.BackInFeed:
        return 'back in the feed';
      case Why.RowPausedAndField:
        return `feed row paused or out of stock; ${this.field(why)} changed`;
      case Why.RowActiveAndField:
        return `feed row active again; ${this.field(why)} changed`;
      case Why.Dropped:
        return 'no longer in the feed';
      case Why.AdReplaced:
        return 'no longer in the feed: replaced by the edited ad';
      case Why.AdEdited: {
        const b = this.plan.pairs.get(ordinal);
        const what =
          b === undefined
            ? 'ad text'
            : adDifference(kind, identity, this.plan.baseline.identityOf(b));
        if (this.plan.actions[ordinal] === Act.Update) return `${what} changed`;
        const old = { pause: 'paused', remove: 'removed', keep: 'left as it is' }[
          this.plan.options.dropped
        ];
        return `${what} changed: a new ad (the old ad is ${old}, with its history)`;
      }
      case Why.WasRemoved:
        return 'removed before; made again';
      case Why.NameTaken:
        return `an item of this name exists without the label "${label}"`;
      case Why.CampaignTaken:
        return `its campaign exists without the label "${label}"`;
      case Why.AdGroupTaken:
        return `its ad group exists without the label "${label}"`;
      default:
        return '';
    }
  }
}

function lineOf(
  action: ChangeAction,
  kind: PlanItemKind,
  identity: readonly string[],
  reason: string,
  line: number,
): ChangeLine {
  return {
    action,
    kind,
    campaign: identity[0] ?? '',
    adGroup: kind === 'campaign' ? '' : (identity[1] ?? ''),
    item: describeItem(kind, identity),
    reason,
    line,
  };
}

/**
 * The plan's change lines: the new build's changed items in table order, then the dropped ones.
 * Reads `tables` once more (they must be the tables the plan was made from).
 */
export function* planLines(
  plan: ChangePlan,
  tables: readonly ExportTable[],
): Generator<ChangeLine> {
  const reasons = new Reasons(plan, tables);
  for (let t = 0; t < tables.length; t++) {
    // A table without a change is not read again (a 1M-row build's plan changes few).
    let o = plan.tableStarts[t]!;
    const end = t + 1 < plan.tableStarts.length ? plan.tableStarts[t + 1]! : plan.itemCount;
    let last = -1;
    for (let k = o; k < end; k++) if (ACTION_OF[plan.actions[k]!]) last = k;
    if (last < 0) continue;
    const table = tables[t]!;
    const kind = itemKindOfTable(table.kind);
    if (kind !== 'campaign' && table.readSome) {
      // One row per item: only the changed rows are read.
      const start = o;
      const some = table.readSome(
        (r) => start + r <= last && ACTION_OF[plan.actions[start + r]!] !== undefined,
      );
      const map = new ColumnMap(PLAN_KIND_SPECS[kind], some.headers);
      const lines = table.lines?.();
      const identity: string[] = [];
      for (const [r, row] of some.rows) {
        const ordinal = start + r;
        map.readIdentity(row, identity);
        yield lineOf(
          ACTION_OF[plan.actions[ordinal]!]!,
          kind,
          identity,
          reasons.text(plan.reasons[ordinal]!, kind, identity, ordinal),
          lines ? (lines[r] ?? 0) : 0,
        );
        if (ordinal === last) break;
      }
      continue;
    }
    for (const item of readBuildItems([table], { label: plan.options.label })) {
      const ordinal = o++;
      const action = ACTION_OF[plan.actions[ordinal]!];
      if (!action) continue;
      const why = plan.reasons[ordinal]!;
      yield lineOf(
        action,
        item.kind,
        item.identity,
        reasons.text(why, item.kind, item.identity, ordinal),
        item.line,
      );
      if (ordinal === last) break;
    }
  }
  const { index, action, reason } = plan.dropped;
  for (let d = 0; d < index.length; d++) {
    const b = index[d]!;
    const kind = plan.baseline.kindOf(b);
    const identity = plan.baseline.identityOf(b);
    yield lineOf(
      ACTION_OF[action[d]!]!,
      kind,
      identity,
      reasons.text(reason[d]!, kind, identity, -1),
      0,
    );
  }
}

/** The new items not written because an item without the client's label holds the name. */
export function* planCollisions(
  plan: ChangePlan,
  tables: readonly ExportTable[],
): Generator<Collision> {
  if (plan.totals.collisions === 0) return;
  const reasons = new Reasons(plan, tables);
  let o = 0;
  for (const item of readBuildItems(tables, { label: plan.options.label })) {
    const ordinal = o++;
    if (plan.actions[ordinal] !== Act.Collision) continue;
    const { action: _, ...line } = lineOf(
      'add',
      item.kind,
      item.identity,
      reasons.text(plan.reasons[ordinal]!, item.kind, item.identity, ordinal),
      item.line,
    );
    yield line;
  }
}

/** The plan as a table (`PLAN_TABLE_HEADERS`): one row per change line. */
export function planTable(plan: ChangePlan, tables: readonly ExportTable[]): Table {
  return {
    headers: PLAN_TABLE_HEADERS,
    rows: {
      *[Symbol.iterator]() {
        for (const l of planLines(plan, tables))
          yield [
            l.action,
            PLAN_ITEM_KIND_LABELS[l.kind],
            l.campaign,
            l.adGroup,
            l.item,
            l.reason,
            l.line > 0 ? String(l.line) : '',
          ];
      },
    },
  };
}

/** The status a changed row is written with. */
function statusOfAction(act: number, own: ItemStatus): ItemStatus {
  if (act === Act.Pause) return 'Paused';
  if (act === Act.Enable) return 'Enabled';
  if (act === Act.Remove) return 'Removed';
  return own;
}

/** A table's rows with their indices. */
function numbered(table: Table): {
  headers: readonly string[];
  rows: Iterable<readonly [number, readonly string[]]>;
} {
  return {
    headers: table.headers,
    rows: {
      *[Symbol.iterator]() {
        let r = 0;
        for (const row of table.rows) yield [r++, row] as const;
      },
    },
  };
}

/** A row's own status (Enabled when its table has no status column). */
function ownStatus(row: readonly string[], statusAt: number, columns: number): ItemStatus {
  return statusAt < columns ? parseItemStatus(row[statusAt]) : 'Enabled';
}

/** One changed item's rows in its table. */
interface ChangedRows {
  firstRow: Int32Array;
  rowCount: Int32Array;
  /** Undefined: the row's own status (an added or updated item, read with its row). */
  status: (ItemStatus | undefined)[];
  adId: (string | undefined)[];
  line: Int32Array;
  count: number;
}

/** The changed items of table `t`: their rows, statuses, ad IDs and feed lines. */
function changedRowsOf(plan: ChangePlan, tables: readonly ExportTable[], t: number): ChangedRows {
  const start = plan.tableStarts[t]!;
  const end = t + 1 < plan.tableStarts.length ? plan.tableStarts[t + 1]! : plan.itemCount;
  let n = 0;
  for (let o = start; o < end; o++) if (ACTION_OF[plan.actions[o]!]) n++;
  const rows: ChangedRows = {
    firstRow: new Int32Array(n),
    rowCount: new Int32Array(n),
    status: [],
    adId: [],
    line: new Int32Array(n),
    count: n,
  };
  if (n === 0) return rows;
  if (itemKindOfTable(tables[t]!.kind) !== 'campaign') {
    // One row per item: the rows are known without reading the table.
    const lines = tables[t]!.lines?.();
    let k = 0;
    for (let o = start; o < end; o++) {
      const act = plan.actions[o]!;
      if (!ACTION_OF[act]) continue;
      const r = o - start;
      rows.firstRow[k] = r;
      rows.rowCount[k] = 1;
      rows.status.push(
        act === Act.Add || act === Act.Update ? undefined : statusOfAction(act, 'Enabled'),
      );
      const pair = act === Act.Update ? plan.pairs.get(o) : undefined;
      rows.adId.push(pair === undefined ? undefined : plan.baseline.adIdOf(pair));
      rows.line[k] = lines ? (lines[r] ?? 0) : 0;
      k++;
    }
    return rows;
  }
  let o = start;
  let k = 0;
  for (const item of readBuildItems([tables[t]!], { label: plan.options.label })) {
    const ordinal = o++;
    const act = plan.actions[ordinal]!;
    if (!ACTION_OF[act]) continue;
    rows.firstRow[k] = item.firstRow;
    rows.rowCount[k] = item.rowCount;
    rows.status.push(statusOfAction(act, item.status));
    const pair = act === Act.Update ? plan.pairs.get(ordinal) : undefined;
    rows.adId.push(pair === undefined ? undefined : plan.baseline.adIdOf(pair));
    rows.line[k] = item.line;
    k++;
  }
  return rows;
}

/** Dropped baseline items of each table kind, to be written as rows rebuilt from their identity. */
function droppedByKind(plan: ChangePlan): Map<PlanItemKind, number[]> {
  const byKind = new Map<PlanItemKind, number[]>();
  const { index } = plan.dropped;
  for (let d = 0; d < index.length; d++) {
    const kind = plan.baseline.kindOf(index[d]!);
    const list = byKind.get(kind);
    if (list) list.push(d);
    else byKind.set(kind, [d]);
  }
  return byKind;
}

/** A table's header with its status column (and `Ad ID` when an ad is updated by it). */
function changesHeaders(
  headers: readonly string[],
  kind: PlanItemKind,
  withAdId: boolean,
): { headers: string[]; statusAt: number; adIdAt: number } {
  const out = [...headers];
  const normalized = out.map(normalizeHeader);
  const spec = PLAN_KIND_SPECS[kind];
  let statusAt = normalized.indexOf(normalizeHeader(spec.statusHeader));
  if (statusAt < 0) {
    statusAt = out.length;
    out.push(spec.statusHeader);
  }
  let adIdAt = normalized.indexOf('adid');
  if (withAdId && adIdAt < 0) {
    adIdAt = out.length;
    out.push('Ad ID');
  }
  return { headers: out, statusAt, adIdAt };
}

/** A dropped item's row under `headers`: its identity cells and status, every other cell blank. */
function droppedRow(
  plan: ChangePlan,
  d: number,
  headers: readonly string[],
  statusAt: number,
  adIdAt: number,
): string[] {
  const b = plan.dropped.index[d]!;
  const kind = plan.baseline.kindOf(b);
  const spec = PLAN_KIND_SPECS[kind];
  const identity = plan.baseline.identityOf(b);
  const normalized = headers.map(normalizeHeader);
  const row = new Array<string>(headers.length).fill('');
  spec.identity.forEach((h, c) => {
    const at = normalized.indexOf(normalizeHeader(h));
    if (at >= 0) row[at] = identity[c] ?? '';
  });
  const typeAt = normalized.indexOf('adtype');
  if (kind === 'responsive-search-ad' && typeAt >= 0) row[typeAt] = RSA_AD_TYPE;
  row[statusAt] = statusOfAction(plan.dropped.action[d]!, 'Enabled');
  const adId = plan.baseline.adIdOf(b);
  if (adIdAt >= 0 && adId !== undefined) row[adIdAt] = adId;
  return row;
}

/**
 * The changes-only tables: per table of the build, the rows of its changed items with the status
 * column set (`Campaign Status`, `Ad Group Status`, `Status`: Enabled for new and resumed items,
 * Paused or Removed for dropped ones, the item's own for updates); the dropped items' rows,
 * rebuilt from their identity, after the first table of their kind (or in a table of their own).
 * Unchanged items and collisions are absent; a table with no change is left out. They go through
 * `GOOGLE_ADS_EDITOR` as a full build's tables do, under the same file names.
 */
export function changesTables(plan: ChangePlan, tables: readonly ExportTable[]): ExportTable[] {
  const dropped = droppedByKind(plan);
  const out: ExportTable[] = [];
  const placed = new Set<PlanItemKind>();
  tables.forEach((table, t) => {
    const kind = itemKindOfTable(table.kind);
    const own = placed.has(kind) ? [] : (dropped.get(kind) ?? []);
    placed.add(kind);
    const start = plan.tableStarts[t]!;
    const end = t + 1 < plan.tableStarts.length ? plan.tableStarts[t + 1]! : plan.itemCount;
    let changed = own.length > 0;
    for (let o = start; o < end && !changed; o++) if (ACTION_OF[plan.actions[o]!]) changed = true;
    if (!changed) return;
    const withAdId =
      kind === 'responsive-search-ad' &&
      ([...plan.pairs.values()].some((b) => plan.baseline.adIdOf(b) !== undefined) ||
        own.some((d) => plan.baseline.adIdOf(plan.dropped.index[d]!) !== undefined));
    let memo: ChangedRows | undefined;
    const changedRows = (): ChangedRows => (memo ??= changedRowsOf(plan, tables, t));
    out.push({
      kind: table.kind,
      ...(table.qualifier ? { qualifier: table.qualifier } : {}),
      read: () => {
        // Only the changed rows, where the table can pass over the others (one row per item).
        const some =
          kind !== 'campaign' && table.readSome
            ? table.readSome(
                (r) => start + r < end && ACTION_OF[plan.actions[start + r]!] !== undefined,
              )
            : undefined;
        const source = some ?? numbered(table.read());
        const { headers, statusAt, adIdAt } = changesHeaders(source.headers, kind, withAdId);
        const rows = changedRows();
        return {
          headers,
          rows: {
            *[Symbol.iterator]() {
              let k = 0;
              for (const [r, row] of source.rows) {
                while (k < rows.count && rows.firstRow[k]! + rows.rowCount[k]! <= r) k++;
                if (k < rows.count && r >= rows.firstRow[k]!) {
                  const cells = [...row];
                  while (cells.length < headers.length) cells.push('');
                  // A campaign's location rows keep a blank status: Editor reads it as no change.
                  cells[statusAt] =
                    r === rows.firstRow[k]
                      ? (rows.status[k] ?? ownStatus(row, statusAt, source.headers.length))
                      : '';
                  const adId = rows.adId[k];
                  if (adIdAt >= 0 && adId !== undefined && r === rows.firstRow[k])
                    cells[adIdAt] = adId;
                  yield cells;
                }
              }
              for (const d of own) yield droppedRow(plan, d, headers, statusAt, adIdAt);
            },
          },
        };
      },
      lines: () => {
        const rows = changedRows();
        const lines: number[] = [];
        for (let k = 0; k < rows.count; k++)
          for (let r = 0; r < rows.rowCount[k]!; r++) lines.push(rows.line[k]!);
        for (let d = 0; d < own.length; d++) lines.push(0);
        return lines;
      },
    });
  });
  // Dropped items of a kind the new build has no table of: a table of their identity columns.
  for (const [kind, list] of dropped) {
    if (placed.has(kind)) continue;
    const spec = PLAN_KIND_SPECS[kind];
    const base =
      kind === 'responsive-search-ad'
        ? [...spec.identity.slice(0, 2), 'Ad type', ...spec.identity.slice(2)]
        : [...spec.identity];
    const withAdId =
      kind === 'responsive-search-ad' &&
      list.some((d) => plan.baseline.adIdOf(plan.dropped.index[d]!));
    out.push({
      kind: spec.tableKind,
      read: () => {
        const { headers, statusAt, adIdAt } = changesHeaders(base, kind, withAdId);
        return { headers, rows: list.map((d) => droppedRow(plan, d, headers, statusAt, adIdAt)) };
      },
      lines: () => list.map(() => 0),
    });
  }
  return out;
}

/**
 * The dropped items that stay in the account after the plan's changes are imported (paused, or
 * left as they were), with feed line 0: what the next record holds besides the new build's items.
 */
export function* planKeptDroppedItems(plan: ChangePlan): Generator<RecordItem> {
  const { baseline } = plan;
  const droppedAction = new Map<number, number>();
  for (let d = 0; d < plan.dropped.index.length; d++)
    droppedAction.set(plan.dropped.index[d]!, plan.dropped.action[d]!);
  for (const i of droppedBaselineItems(baseline, plan.seen)) {
    const was = baseline.statusOf(i);
    const act = droppedAction.get(i);
    if (act === Act.Remove) continue;
    const item = baseline.item(i);
    yield { ...item, status: act === Act.Pause ? 'Paused' : was, line: 0 };
  }
}

/**
 * The record of the new build after the plan's changes are imported: its items (collisions
 * left out), then the dropped items that stay in the account (`planKeptDroppedItems`), so a plan
 * right after finds nothing to change and a returning item resumes.
 */
export function planRecordChunks(
  info: BuildRecordInfo,
  plan: ChangePlan,
  tables: readonly ExportTable[],
): Generator<string> {
  return buildRecordChunks(info, tables, {
    skip: (o) => plan.actions[o] === Act.Collision,
    extra: () => planKeptDroppedItems(plan),
  });
}
