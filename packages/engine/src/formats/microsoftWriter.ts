/**
 * The Microsoft bulk writer's shared state (`BulkWriter`): the chunk being made, the report and
 * counts, the negative reference keys, the new campaigns and ad groups, the client's label, the
 * row being read; and each check that more than one record kind makes, written once here: the
 * removed-status refusal, a keyword's length, the implied ad group line, the per-group counts.
 * The record kinds' readers (microsoftRecords.ts, microsoftExtensions.ts) ask these of each row.
 */
import { formatCsvCell, formatCsvLine, type Table } from '../csv.ts';
import type { ExportTable } from './exportFormat.ts';
import { NewAdGroups } from './microsoftAdGroups.ts';
import type { MicrosoftLocationAnswer } from './microsoftLocations.ts';
import {
  C,
  KeywordLines,
  LABEL_ASSOCIATION_TYPES,
  Labelled,
  RecordPrefixes,
  bulkLine,
  lineTails,
  microsoftColumns,
  type LineTails,
} from './microsoftLines.ts';
import {
  MICROSOFT_AD_GROUPS_PER_CAMPAIGN,
  MICROSOFT_FORMAT_VERSION,
  MICROSOFT_KEYWORD_MAX_CHARS,
  MICROSOFT_NAME_MAX_CHARS,
  statusOf,
} from './microsoftRules.ts';

/** What happened to a reported item. */
export type MicrosoftOutcome = 'Not written' | 'Changed' | 'Paused';

/** Counts of one bulk file: records written per record type, and the report's outcomes. */
export interface MicrosoftBulkCounts {
  records: Record<string, number>;
  notWritten: number;
  changed: number;
  paused: number;
}

/** What the host tells the format beyond `ExportContext`. */
export interface MicrosoftBulkOptions {
  /**
   * The Microsoft Location Id of a Google criteria ID, when the host knows one, or why it knows
   * none (`{ reason }`, for the report; `microsoftLocations.ts` answers so). Google's IDs are not
   * Microsoft's: without an Id a location is reported, never written as it is.
   */
  microsoftLocationId?: (googleCriteriaId: string) => string | MicrosoftLocationAnswer | undefined;
  /**
   * Told of each row whose item is not written (`table`: its index in the tables given, `row`:
   * its index in the table's rows, `line`: its report line): the Microsoft change plan leaves
   * these items out (plan/microsoftRefusals.ts).
   */
  onNotWritten?: (table: number, row: number, line: readonly string[]) => void;
  /**
   * Only the checks: the keywords', negatives' and ads' lines are not made (the file is not
   * whole), its report and `onNotWritten` are as they would be.
   */
  checkOnly?: boolean;
  /**
   * The client's label, put on every campaign, ad group, keyword and responsive search ad the
   * file adds (a `Label` record first, unless `id` names the account's, then one label
   * association record after each), so a download of the account tells Adloom's items from
   * hand-made ones. The file then has a `Label` column, its last (`microsoftColumns`).
   */
  label?: { name: string; id?: string };
}

/**
 * The bulk file's chunks are taken once they hold this many characters: a chunk stays a regular
 * heap object when a sink makes it one flat string (V8 puts strings over 128 KB in its large
 * object space; 1,024 lines of this file, about 160 KB, cost the sink twice the flattening).
 */
export const CHUNK_CHARS = 32_768;

/** An ad group's place as one string (for the rare sets: refused groups, associations). */
export const groupOf = (campaign: string, adGroup: string): string => `${campaign}\u0000${adGroup}`;

/** "Microsoft takes at most …": the reason of every count limit. */
export const atMost = (limit: number, what: string): string =>
  `Microsoft takes at most ${limit} ${what}`;

/**
 * One bulk file being written: lines are added to the chunk where they are made (`add`), and the
 * driver (microsoftBulk.ts) takes the chunk once it is full.
 */
export class BulkWriter {
  chunk: string;
  /** The row being read: its table's index in the tables given, and its own in the table. */
  rowAt = -1;
  private tableAt = -1;
  readonly label: MicrosoftBulkOptions['label'];
  readonly tails: LineTails;
  /** The `Label` column's index (a labelled file's last). */
  private readonly labelAt: number;
  readonly checkOnly: boolean;
  /** One array for every record: `bulkLine` writes its cells and leaves it empty again. */
  private readonly out: string[];
  private nextKey = -1;
  /** The negative key of each campaign this file adds, by name. */
  readonly campaignKeys = new Map<string, string>();
  /** The new ad groups: their indices, keys and cells, found by campaign and name. */
  readonly newGroups: NewAdGroups;
  /** The ad groups refused, by `groupOf`: their children are not written under them. */
  private readonly refusedGroups = new Set<string>();
  /** By new ad group index, its children of the kind being read (`countInGroup`). */
  private perGroup = new Uint32Array(1024);
  readonly keywordLines: KeywordLines;
  readonly rsaLines: RecordPrefixes;
  // The client's label: its Id (the account's, or key -1 of the Label record this file adds
  // before the first association), the association lines' first cells, counts per type.
  private labelId = '';
  private labelRecord = false;
  private readonly labelCounts = [0, 0, 0, 0];
  private labelHeads: string[] = [];
  // The item a `reject` reports: set once per row (`setItem`; no closure per row).
  private itemType = '';
  private itemCampaign = '';
  private itemAdGroup = '';
  private item = '';

  constructor(
    private readonly tables: readonly ExportTable[],
    private readonly options: MicrosoftBulkOptions,
    private readonly report: string[][],
    private readonly counts: MicrosoftBulkCounts,
    /** Whether the build has extension tables (the file then has the extensions' columns). */
    extensions: boolean,
  ) {
    const label = options.label;
    this.label = label;
    this.checkOnly = options.checkOnly ?? false;
    const headers = microsoftColumns(extensions, label !== undefined);
    this.labelAt = headers.length - 1;
    this.tails = lineTails(headers.length);
    this.chunk = formatCsvLine(headers);
    this.out = new Array<string>(headers.length).fill('');
    this.newGroups = new NewAdGroups(this.campaignKeys);
    const placeOf = (i: number): string => this.newGroups.placeOf(i);
    this.keywordLines = new KeywordLines(placeOf, this.tails);
    this.rsaLines = new RecordPrefixes(placeOf);
    this.out[C.Type!] = 'Format Version';
    this.out[C.Name!] = MICROSOFT_FORMAT_VERSION;
    this.add(bulkLine(this.out));
    if (label) {
      if (label.id !== undefined && label.id !== '') this.labelId = label.id;
      else {
        this.labelId = this.newKey();
        this.labelRecord = true;
      }
      this.labelHeads = LABEL_ASSOCIATION_TYPES.map((type) => `${type},,${this.labelId},`);
    }
  }

  add(line: string): void {
    this.chunk += line;
  }

  /** The chunk so far, the next one started. */
  take(): string {
    const full = this.chunk;
    this.chunk = '';
    return full;
  }

  /** The next negative reference key. */
  newKey(): string {
    return String(this.nextKey--);
  }

  count(type: string): void {
    const { records } = this.counts;
    records[type] = (records[type] ?? 0) + 1;
  }

  /** The record array with its Type set, the type counted. */
  record(type: string): string[] {
    this.out[C.Type!] = type;
    this.count(type);
    return this.out;
  }

  /**
   * The line of an association of the client's label with the record of key `key`: Type, the
   * label's Id, the entity's key in Parent Id, as keyword-label.md's example (Status is read-only
   * on add; no names); the Label record before the first. Counted per type by `finish`.
   */
  labelLine(type: Labelled, key: string): string {
    this.labelCounts[type]!++;
    const line = this.labelHeads[type]! + key + this.tails.label;
    if (!this.labelRecord) return line;
    this.labelRecord = false;
    const r = this.record('Label');
    r[C.Status!] = 'Active';
    r[C.Id!] = this.labelId;
    r[this.labelAt] = this.label!.name;
    return bulkLine(r) + line;
  }

  note(
    type: string,
    campaign: string,
    adGroup: string,
    item: string,
    outcome: MicrosoftOutcome,
    reason: string,
  ): void {
    this.report.push([type, campaign, adGroup, item, outcome, reason]);
    if (outcome === 'Not written') this.counts.notWritten++;
    else if (outcome === 'Changed') this.counts.changed++;
    else this.counts.paused++;
  }

  /** The item of the row being read, for `reject`. */
  setItem(type: string, campaign: string, adGroup: string, text: string): void {
    this.itemType = type;
    this.itemCampaign = campaign;
    this.itemAdGroup = adGroup;
    this.item = text;
  }

  /** Reports the row's item as not written, and tells `onNotWritten`. */
  reject(reason: string): void {
    this.note(this.itemType, this.itemCampaign, this.itemAdGroup, this.item, 'Not written', reason);
    this.options.onNotWritten?.(this.tableAt, this.rowAt, this.report[this.report.length - 1]!);
  }

  /** Reads `table`, its rows counted from the start by `rowAt`. */
  begin(table: ExportTable): Table {
    this.tableAt = this.tables.indexOf(table);
    this.rowAt = -1;
    return table.read();
  }

  /**
   * The row's Microsoft status (its column at `at`), or undefined when it is removed: the row's
   * item is then refused (an add cannot remove; a delete needs Microsoft's Id).
   */
  statusOf(row: readonly string[], at: number, noun: string): 'Active' | 'Paused' | undefined {
    const status = statusOf(row, at);
    if (status === undefined)
      this.reject(`a removed ${noun} is not added (removing needs its Microsoft Id)`);
    return status;
  }

  /** Whether a keyword's or negative's text fits Microsoft's length (refused if not). */
  keywordFits(keyword: string): boolean {
    if (keyword.length <= MICROSOFT_KEYWORD_MAX_CHARS) return true;
    this.reject(`longer than Microsoft's ${MICROSOFT_KEYWORD_MAX_CHARS} characters`);
    return false;
  }

  /** Whether the ad group `campaign`/`adGroup` was refused. */
  isRefused(campaign: string, adGroup: string): boolean {
    return this.refusedGroups.size > 0 && this.refusedGroups.has(groupOf(campaign, adGroup));
  }

  refuse(campaign: string, adGroup: string): void {
    this.refusedGroups.add(groupOf(campaign, adGroup));
  }

  /** Why Microsoft cannot take a new ad group, or undefined. */
  groupProblem(campaign: string, adGroup: string): string | undefined {
    return adGroup.length > MICROSOFT_NAME_MAX_CHARS
      ? `the name is longer than Microsoft's ${MICROSOFT_NAME_MAX_CHARS} characters`
      : (this.newGroups.groupsOf(campaign)?.count ?? 0) >= MICROSOFT_AD_GROUPS_PER_CAMPAIGN
        ? atMost(MICROSOFT_AD_GROUPS_PER_CAMPAIGN, 'ad groups per campaign')
        : undefined;
  }

  /** Adds the line of a new ad group (its key and index taken), from a row that passed the checks. */
  addGroup(campaign: string, adGroup: string, status: string): void {
    const key = this.newKey();
    const adGroupCell = formatCsvCell(adGroup);
    const g = this.newGroups.add(campaign, adGroup, key, adGroupCell);
    if (this.newGroups.size > this.perGroup.length) {
      const grown = new Uint32Array(this.perGroup.length * 2);
      grown.set(this.perGroup);
      this.perGroup = grown;
    }
    this.count('Ad Group');
    // Microsoft adds an ad group Paused unless told: the status is always written.
    const line = `Ad Group,${status},${key},${g.key},${g.cell},${adGroupCell}${this.tails.adGroup}`;
    this.add(this.label ? line + this.labelLine(Labelled.AdGroup, key) : line);
  }

  /**
   * The index of the new ad group a child names (-1: none), the ad group first added when the
   * child names one in a campaign of this file that is not yet in it (a new campaign's ad groups
   * are new: Microsoft does not make one from its keywords as Editor does), or reported once
   * when Microsoft cannot take it.
   */
  groupIndex(campaign: string, adGroup: string): number {
    const { newGroups } = this;
    const i = newGroups.indexOf(campaign, adGroup);
    if (i >= 0 || adGroup === '' || !this.campaignKeys.has(campaign)) return i;
    if (this.isRefused(campaign, adGroup)) return -1;
    const problem = this.groupProblem(campaign, adGroup);
    if (problem !== undefined) {
      this.refuse(campaign, adGroup);
      this.note('Ad Group', campaign, adGroup, adGroup, 'Not written', problem);
      return -1;
    }
    this.addGroup(campaign, adGroup, 'Active');
    return newGroups.size - 1;
  }

  /** Starts the per-group counts of another kind of child. */
  resetGroupCounts(): void {
    this.perGroup.fill(0);
  }

  /**
   * Counts a child in the new ad group of index `group` (none for -1) unless the group has
   * `limit` already: the child is then refused (`what`: "keywords", … per ad group).
   */
  countInGroup(group: number, limit: number, what: string): boolean {
    if (group < 0) return true;
    if (this.perGroup[group]! >= limit) {
      this.reject(atMost(limit, `${what} per ad group`));
      return false;
    }
    this.perGroup[group]!++;
    return true;
  }

  /** The label associations' counts, once every record is written. */
  finish(): void {
    this.labelCounts.forEach((n, type) => {
      if (n > 0) this.counts.records[LABEL_ASSOCIATION_TYPES[type]!] = n;
    });
  }
}
