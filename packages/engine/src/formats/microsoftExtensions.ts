/**
 * The Microsoft bulk writer's reader of the extension tables (sitelinks, callouts, structured
 * snippets): each distinct extension once (Microsoft keeps them in the account's library), then
 * its association with the campaign or ad group the row names; and of what the file does not
 * hold (Performance Max), each row reported.
 */
import { C, bulkLine } from './microsoftLines.ts';
import {
  MICROSOFT_EXTENSIONS_PER_ENTITY,
  cell,
  columnOf,
  extensionCells,
} from './microsoftRules.ts';
import { atMost, groupOf, type BulkWriter } from './microsoftWriter.ts';
import type { RowReader } from './microsoftRecords.ts';

/** The extension table kinds, in the order the file takes them, with their record's noun. */
export const EXTENSION_KINDS = [
  ['sitelinks', 'Sitelink'],
  ['callouts', 'Callout'],
  ['structured-snippets', 'Structured Snippet'],
] as const;
type ExtensionKind = (typeof EXTENSION_KINDS)[number][0];

/** Extensions of every kind: one reader for the three, told each table's kind by `kind`. */
export class ExtensionRows implements RowReader {
  private kind: ExtensionKind = 'sitelinks';
  private noun = 'Sitelink';
  private type = 'Sitelink Ad Extension';
  private at: Record<string, number> = {};
  /** Each extension's key, by its kind and content. */
  private readonly keys = new Map<string, string>();
  /** How many extensions of a noun each place has (`noun\0place`), and each pair written. */
  private readonly associations = new Map<string, number>();
  private readonly associated = new Set<string>();

  constructor(private readonly w: BulkWriter) {}

  /** The kind of the tables read next. */
  setKind(kind: ExtensionKind, noun: string): void {
    this.kind = kind;
    this.noun = noun;
    this.type = `${noun} Ad Extension`;
  }

  columns(headers: readonly string[]): void {
    this.at = {
      campaign: columnOf(headers, 'Campaign'),
      adGroup: columnOf(headers, 'Ad Group'),
      linkText: columnOf(headers, 'Link Text'),
      d1: columnOf(headers, 'Description Line 1'),
      d2: columnOf(headers, 'Description Line 2'),
      url: columnOf(headers, 'Final URL'),
      callout: columnOf(headers, 'Callout text'),
      header: columnOf(headers, 'Header'),
      values: columnOf(headers, 'Snippet Values'),
      status: columnOf(headers, 'Status'),
    };
  }

  row(row: readonly string[]): void {
    const { w, at, kind, noun, type } = this;
    const campaign = cell(row, at.campaign!);
    const adGroup = cell(row, at.adGroup!);
    const cells = extensionCells(kind, row, at);
    w.setItem(type, campaign, adGroup, cells.item);
    if (cells.problem !== undefined) return w.reject(cells.problem);
    const status = w.statusOf(row, at.status!, 'extension');
    if (status === undefined) return;
    const account = campaign === '<Account-level>';
    const library = campaign === '' && adGroup === '';
    const onGroup = !account && !library && adGroup !== '';
    const place = account ? '' : onGroup ? groupOf(campaign, adGroup) : campaign;
    const placed = `${noun}\u0000${place}`;
    if (!account && !library) {
      if ((this.associations.get(placed) ?? 0) >= MICROSOFT_EXTENSIONS_PER_ENTITY)
        return w.reject(
          atMost(
            MICROSOFT_EXTENSIONS_PER_ENTITY,
            `${noun.toLowerCase()} extensions per ${onGroup ? 'ad group' : 'campaign'}`,
          ),
        );
    }
    const group = onGroup ? w.groupIndex(campaign, adGroup) : -1;
    const key = this.keyOf(cells);
    if (library) return;
    if (account)
      return w.note(
        type,
        campaign,
        adGroup,
        cells.item,
        'Changed',
        "written to the account's library only: associate it with the account in Microsoft Advertising",
      );
    const pair = `${place}\u0000${key}`;
    if (this.associated.has(pair)) return;
    this.associated.add(pair);
    this.associations.set(placed, (this.associations.get(placed) ?? 0) + 1);
    const a = w.record(`${onGroup ? 'Ad Group' : 'Campaign'} ${type}`);
    a[C.Status!] = status;
    a[C.Id!] = key;
    const parent = onGroup ? w.newGroups.keyOfIndex(group) : w.campaignKeys.get(campaign);
    if (parent !== undefined) a[C['Parent Id']!] = parent;
    a[C.Campaign!] = campaign;
    if (onGroup) a[C['Ad Group']!] = adGroup;
    w.add(bulkLine(a));
  }

  /** The extension's key: its record is written the first time its content is met. */
  private keyOf(cells: ReturnType<typeof extensionCells>): string {
    const contentKey = `${this.kind}\u0000${cells.key}`;
    let key = this.keys.get(contentKey);
    if (key !== undefined) return key;
    const w = this.w;
    key = w.newKey();
    this.keys.set(contentKey, key);
    const r = w.record(this.type);
    r[C.Status!] = 'Active';
    r[C.Id!] = key;
    r[C['Parent Id']!] = '0';
    for (const [column, value] of cells.columns) r[C[column]!] = value;
    w.add(bulkLine(r));
    return key;
  }

  /**
   * Callouts serve only in twos or more per campaign or ad group (entity limits): said once for
   * each place with one, after every extension table is read.
   */
  finish(): void {
    for (const [k, n] of this.associations)
      if (k.startsWith('Callout\u0000') && n < 2) {
        const place = k.slice('Callout\u0000'.length);
        const [campaign, adGroup = ''] = place.split('\u0000');
        this.w.note(
          'Callout Ad Extension',
          campaign!,
          adGroup,
          '',
          'Changed',
          'only one callout here: Microsoft shows callouts only when at least two are associated',
        );
      }
  }
}

/** What Microsoft's file here does not hold, Performance Max: each row reported. */
export class PerformanceMaxRows implements RowReader {
  private campaignAt = -1;
  private groupAt = -1;
  private noun = 'Asset Group';

  constructor(private readonly w: BulkWriter) {}

  /** The kind of the tables read next. */
  setKind(kind: 'asset-groups' | 'performance-max-ads'): void {
    this.noun = kind === 'asset-groups' ? 'Asset Group' : 'Performance Max ad';
  }

  columns(headers: readonly string[]): void {
    this.campaignAt = columnOf(headers, 'Campaign');
    this.groupAt = columnOf(headers, 'Asset Group');
  }

  row(row: readonly string[]): void {
    this.w.setItem(this.noun, cell(row, this.campaignAt), '', cell(row, this.groupAt));
    this.w.reject(
      'Performance Max is not in this file: create it in Microsoft Advertising (or import from Google Ads)',
    );
  }
}
