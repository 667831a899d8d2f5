/**
 * The items of a build, read from its export tables: one per entity (a campaign with its location
 * rows is one), each with its identity cells, status, contents and the feed line that made it.
 * Items are handed over one at a time in one reused object, so millions of them never live at
 * once.
 */
import type { ExportTable, ExportTableKind } from '../formats/exportFormat.ts';
import { polyHash, sealHash } from '../hash.ts';
import {
  PLAN_KIND_SPECS,
  STATUS_HEADERS_NORMALIZED,
  itemKindOfTable,
  kindCode,
  normalizeHeader,
  parseItemStatus,
  type ItemStatus,
  type PlanItemKind,
  type PlanKindSpec,
} from './kinds.ts';

/** One item of a build. The object handed to a callback is reused: copy what you keep. */
export interface BuildItem {
  kind: PlanItemKind;
  /** Its cells under `PLAN_KIND_SPECS[kind].identity`. */
  identity: string[];
  status: ItemStatus;
  /**
   * Its contents: the normalised names (`normalizeHeader`) of its non-empty content columns and
   * their values, in column order. Labels are compared without the client's label and with the
   * label helpers' dates as `yyyymmdd`; a budget as a number; a campaign's locations as one
   * sorted `;` list under `locationid`.
   */
  fields: string[];
  values: string[];
  /** The feed line (grid row number from 1) that made it; 0 when none is known. */
  line: number;
  /** Which table of the list holds it, and its rows there (a campaign has one per location). */
  table: number;
  firstRow: number;
  rowCount: number;
}

/** Options of reading items. */
export interface ReadItemsOptions {
  /** The client's label (default `adloom`): left out of the labels compared. */
  label?: string;
}

/** The client label Adloom marks its items with unless the client says otherwise. */
export const DEFAULT_CLIENT_LABEL = 'adloom';

/** A content value as it is compared (see `BuildItem.fields`). */
export function normalizeFieldValue(field: string, value: string, clientLabel: string): string {
  if (field === 'labels') return normalizeLabels(value, clientLabel);
  if (field === 'budget') {
    const v = value.trim();
    return /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v;
  }
  return value;
}

/**
 * Labels as compared: without the client label, the label helpers' dates (`20261206-v1`) as
 * `yyyymmdd-v1` (today's date in a label is not a change), sorted and `;`-joined.
 */
export function normalizeLabels(value: string, clientLabel: string): string {
  const client = clientLabel.toLowerCase();
  const out: string[] = [];
  for (const part of value.split(';')) {
    const l = part.trim();
    if (l === '' || l.toLowerCase() === client) continue;
    out.push(l.replace(/^\d{8}(?=-v[123]$)/i, 'yyyymmdd'));
  }
  return out.sort().join(';');
}

/** The labels of a `Labels` cell, trimmed, empty ones dropped. */
export function splitLabels(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(';')) {
    const l = part.trim();
    if (l !== '') out.push(l);
  }
  return out;
}

/** Second multiplier of the identity hash's other lane. */
export const HASH_BASE_B = 0x5bd1e995;

/** A 64-bit identity hash as two 32-bit halves. */
export interface IdentityHash {
  lo: number;
  hi: number;
}

/**
 * The identity hash of an item: two independent 32-bit polynomial lanes over its kind and cells
 * (cells separated, so ['ab', 'c'] and ['a', 'bc'] differ), each sealed. Into `out`.
 */
export function hashIdentity(
  kind: PlanItemKind,
  cells: readonly string[],
  out: IdentityHash,
  count = cells.length,
): IdentityHash {
  let a = kindCode(kind) + 1;
  let b = a;
  for (let c = 0; c < count; c++) {
    const s = cells[c] ?? '';
    for (let i = 0; i < s.length; i++) {
      const ch = s.charCodeAt(i);
      a = (Math.imul(a, 0x01000193) + ch) | 0;
      b = (Math.imul(b, HASH_BASE_B) + ch) | 0;
    }
    a = (Math.imul(a, 0x01000193) + 0x1f) | 0;
    b = (Math.imul(b, HASH_BASE_B) + 0x1f) | 0;
  }
  out.lo = sealHash(a, count, 1);
  out.hi = sealHash(b, count, 2);
  return out;
}

/** The 32-bit hash of a content field's value under its name. */
export function hashField(field: string, value: string): number {
  return sealHash(polyHash(value), polyHash(field), value.length);
}

/** A column is the item's contents unless it is a status, an ID, the ad type or an identity cell. */
function isContentColumn(normalized: string, identity: ReadonlySet<string>): boolean {
  if (identity.has(normalized) || STATUS_HEADERS_NORMALIZED.has(normalized)) return false;
  if (normalized === 'adtype') return false;
  if (normalized.endsWith('id') && normalized !== 'locationid') return false;
  return normalized !== '';
}

/**
 * Where a kind's cells are in a header: the identity columns (-1 when missing), the status
 * column and the content columns. Used for a build's tables and for an account export.
 */
export class ColumnMap {
  readonly identityAt: number[];
  readonly statusAt: number;
  readonly contentAt: number[];
  readonly contentNames: string[];
  readonly labelsAt: number;
  /** The index of the labels among the content columns (-1: none), and the last ones read. */
  private readonly labelsContent: number;
  private lastLabels = '';
  private lastClient = '';
  private lastNormalized = '';

  constructor(
    readonly spec: PlanKindSpec,
    headers: readonly string[],
    /** Only these normalised content columns (an account export has many more). */
    onlyContent?: ReadonlySet<string>,
  ) {
    const normalized = headers.map(normalizeHeader);
    const identitySet = new Set(spec.identity.map(normalizeHeader));
    this.identityAt = spec.identity.map((h) => normalized.indexOf(normalizeHeader(h)));
    this.statusAt = normalized.indexOf(normalizeHeader(spec.statusHeader));
    this.labelsAt = normalized.indexOf('labels');
    this.contentAt = [];
    this.contentNames = [];
    normalized.forEach((n, i) => {
      if (!isContentColumn(n, identitySet) || this.contentNames.includes(n)) return;
      if (onlyContent && !onlyContent.has(n)) return;
      this.contentAt.push(i);
      this.contentNames.push(n);
    });
    this.labelsContent = this.contentNames.indexOf('labels');
  }

  /** The row's identity cells into `into`. */
  readIdentity(row: readonly string[], into: string[]): string[] {
    const at = this.identityAt;
    if (into.length !== at.length) into.length = at.length;
    for (let i = 0; i < at.length; i++) {
      const c = at[i]!;
      into[i] = c < 0 ? '' : (row[c] ?? '');
    }
    return into;
  }

  /**
   * The row's non-empty contents as the item's fields and values (those it held replaced; their
   * lengths set only when they change: setting one is a call of its own, row after row).
   */
  readContent(row: readonly string[], item: BuildItem, clientLabel: string): void {
    const at = this.contentAt;
    const { fields, values } = item;
    let k = 0;
    for (let i = 0; i < at.length; i++) {
      const raw = row[at[i]!] ?? '';
      if (raw === '') continue;
      const name = this.contentNames[i]!;
      let value: string;
      if (i === this.labelsContent && raw !== '') {
        // A table's rows mostly carry the same labels: the last answer is kept.
        if (raw !== this.lastLabels || clientLabel !== this.lastClient) {
          this.lastLabels = raw;
          this.lastClient = clientLabel;
          this.lastNormalized = normalizeLabels(raw, clientLabel);
        }
        value = this.lastNormalized;
      } else value = normalizeFieldValue(name, raw, clientLabel);
      if (value === '') continue;
      fields[k] = name;
      values[k++] = value;
    }
    if (fields.length !== k) {
      fields.length = k;
      values.length = k;
    }
  }

  /** The row's status (Enabled without a status column). */
  readStatus(row: readonly string[]): ItemStatus {
    return this.statusAt < 0 ? 'Enabled' : parseItemStatus(row[this.statusAt]);
  }
}

/** A new, empty item to be filled. */
export function newBuildItem(): BuildItem {
  return {
    kind: 'campaign',
    identity: [],
    status: 'Enabled',
    fields: [],
    values: [],
    line: 0,
    table: 0,
    firstRow: 0,
    rowCount: 1,
  };
}

/** True when a campaigns row only adds a location to the campaign before it. */
function isLocationRow(row: readonly string[], map: ColumnMap, locationAt: number): boolean {
  if (locationAt < 0 || (row[locationAt] ?? '') === '') return false;
  for (let c = 0; c < row.length; c++)
    if (c !== locationAt && c !== map.identityAt[0] && (row[c] ?? '') !== '') return false;
  return true;
}

/**
 * Every item of `tables`, in table order and row order, as one reused object. A campaign's rows
 * (its own, then one per location) make one item whose `locationid` field lists the locations
 * sorted. The same tables give the same items in the same order: the plan's passes rely on it.
 */
export function* readBuildItems(
  tables: readonly ExportTable[],
  options: ReadItemsOptions = {},
): Generator<BuildItem> {
  const clientLabel = options.label ?? DEFAULT_CLIENT_LABEL;
  const item = newBuildItem();
  for (let t = 0; t < tables.length; t++) {
    const table = tables[t]!;
    const kind = itemKindOfTable(table.kind);
    const spec = PLAN_KIND_SPECS[kind];
    const { headers, rows } = table.read();
    const lines = table.lines?.();
    const map = new ColumnMap(spec, headers);
    item.kind = kind;
    item.table = t;
    if (kind === 'campaign') {
      yield* readCampaigns(rows, map, lines, item, clientLabel);
      continue;
    }
    let r = 0;
    for (const row of rows) {
      map.readIdentity(row, item.identity);
      item.status = map.readStatus(row);
      map.readContent(row, item, clientLabel);
      item.line = lines ? (lines[r] ?? 0) : 0;
      item.firstRow = r;
      item.rowCount = 1;
      yield item;
      r++;
    }
  }
}

/**
 * The items of a table given row by row as it is written (the command line's streamed files:
 * keywords, negatives, ad groups, responsive search ads): one item per row, as `readBuildItems`
 * reads it from the whole table. Not for campaigns, whose location rows join their campaign.
 */
export class RowItemReader {
  private readonly map: ColumnMap;
  private readonly item = newBuildItem();
  private row = 0;

  constructor(
    tableKind: ExportTableKind,
    headers: readonly string[],
    private readonly clientLabel = DEFAULT_CLIENT_LABEL,
  ) {
    const kind = itemKindOfTable(tableKind);
    if (kind === 'campaign') throw new Error('Campaign rows are read as a whole table');
    this.map = new ColumnMap(PLAN_KIND_SPECS[kind], headers);
    this.item.kind = kind;
  }

  /** The item of the next row (the object is reused). */
  read(row: readonly string[], line: number): BuildItem {
    const { item, map } = this;
    map.readIdentity(row, item.identity);
    item.status = map.readStatus(row);
    map.readContent(row, item, this.clientLabel);
    item.line = line;
    item.firstRow = this.row++;
    item.rowCount = 1;
    return item;
  }
}

/** `readBuildItems` to a callback. */
export function forEachBuildItem(
  tables: readonly ExportTable[],
  onItem: (item: BuildItem) => void,
  options: ReadItemsOptions = {},
): void {
  for (const item of readBuildItems(tables, options)) onItem(item);
}

/** Campaign items: rows of one campaign in a row (its own, then its locations) are one item. */
function* readCampaigns(
  rows: Iterable<readonly string[]>,
  map: ColumnMap,
  lines: ArrayLike<number> | undefined,
  item: BuildItem,
  clientLabel: string,
): Generator<BuildItem> {
  const locationAt = map.contentAt[map.contentNames.indexOf('locationid')] ?? -1;
  const nameAt = map.identityAt[0] ?? -1;
  let open = false;
  let locations: string[] = [];
  const close = (): void => {
    if (locations.length === 0) return;
    const ids = [...new Set(locations)].sort().join(';');
    item.fields.push('locationid');
    item.values.push(ids);
  };
  let r = 0;
  for (const row of rows) {
    const name = nameAt < 0 ? '' : (row[nameAt] ?? '');
    if (open && name === item.identity[0] && isLocationRow(row, map, locationAt)) {
      locations.push((row[locationAt] ?? '').trim());
      item.rowCount++;
      r++;
      continue;
    }
    if (open) {
      close();
      yield item;
    }
    map.readIdentity(row, item.identity);
    item.status = map.readStatus(row);
    locations = [];
    map.readContent(row, item, clientLabel);
    const at = item.fields.indexOf('locationid');
    if (at >= 0) {
      locations.push(item.values[at]!.trim());
      item.fields.splice(at, 1);
      item.values.splice(at, 1);
    }
    item.line = lines ? (lines[r] ?? 0) : 0;
    item.firstRow = r;
    item.rowCount = 1;
    open = true;
    r++;
  }
  if (open) {
    close();
    yield item;
  }
}
