/**
 * The new ad groups of a Microsoft bulk file, as the writer (microsoftBulk.ts) takes them: each
 * one's index (for its counts), negative key, campaign and cells, found again by campaign and
 * name for every keyword, negative, ad and extension row that names it.
 */
import { formatCsvCell } from '../csv.ts';

/**
 * Per campaign named by an ad group: its number, how many ad groups, its key ('' for a campaign
 * not in this file) and its cell.
 */
export interface GroupsOf {
  id: number;
  count: number;
  key: string;
  cell: string;
}

/** A 30-bit hash (FNV-1a, its bits mixed) of an ad group's name in the campaign of number `id`. */
function groupHash(name: string, id: number): number {
  let h = 0x811c9dc5 ^ id;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return Math.imul(h ^ (h >>> 16), 0x45d9f3b) & 0x3fffffff;
}

/**
 * Each new ad group's index, by campaign then name, and by index its campaign, name and negative
 * key. Ad groups are found by a hash of their name and campaign number in a table of numbers (no
 * string is hashed per ad group, which cost a microsecond each; a Map of the numbers cost a
 * quarter of a microsecond), then compared by name and campaign.
 */
export class NewAdGroups {
  private readonly groupsOfCampaign = new Map<string, GroupsOf>();
  private readonly groupCampaigns: string[] = [];
  private readonly groupNames: string[] = [];
  /**
   * The ad groups by hash: an open-addressed table of index + 1 (0: empty), at least half empty,
   * each hash at its first free slot from `hash & mask` on; by index, each ad group's hash.
   */
  private slots = new Int32Array(1024);
  private mask = 1023;
  private readonly hashes: number[] = [];
  /** By index, the ad group's negative key. */
  private readonly keys: string[] = [];
  // By index, the ad group's campaign record and its Ad Group cell, formatted once: the runs of
  // keywords, negatives and ads of a group do not quote its names again (`placeOf`).
  private readonly groupIn: GroupsOf[] = [];
  private readonly groupCells: string[] = [];
  // Rows of one ad group come together, and the tables list the ad groups in one order: a new
  // run of rows is first compared with the ad group after the last one found (no hashing), and
  // looked up by its hash only when it is another. The last campaign looked up is kept.
  private lastCampaign: string | undefined;
  private lastAdGroup: string | undefined;
  private lastIndex = -1;
  private found = -1;
  private groupsCampaign: string | undefined;
  private groups: GroupsOf | undefined;
  // The last hash made (an ad group looked up, then taken, is hashed once).
  private hashedName: string | undefined;
  private hashedIn: GroupsOf | undefined;
  private hashed = 0;

  /** `campaignKeys`: the negative key of each campaign this file adds, by name. */
  constructor(private readonly campaignKeys: ReadonlyMap<string, string>) {}

  /** How many new ad groups there are (the next one's index). */
  get size(): number {
    return this.keys.length;
  }

  /** The new ad groups of `campaign` (undefined: none yet). */
  groupsOf(campaign: string): GroupsOf | undefined {
    if (campaign !== this.groupsCampaign) {
      this.groupsCampaign = campaign;
      this.groups = this.groupsOfCampaign.get(campaign);
    }
    return this.groups;
  }

  /** The index of a new ad group of this file, -1 for none. */
  indexOf(campaign: string, adGroup: string): number {
    if (campaign !== this.lastCampaign || adGroup !== this.lastAdGroup) {
      this.lastCampaign = campaign;
      this.lastAdGroup = adGroup;
      const { groupNames, groupCampaigns } = this;
      const next = this.found + 1;
      if (
        next < groupNames.length &&
        groupNames[next] === adGroup &&
        groupCampaigns[next] === campaign
      )
        this.lastIndex = next;
      else {
        const g = this.groupsOf(campaign);
        this.lastIndex = g === undefined ? -1 : this.find(g, adGroup);
      }
      if (this.lastIndex >= 0) this.found = this.lastIndex;
    }
    return this.lastIndex;
  }

  /** The index of ad group `adGroup` of the campaign of `g`, -1 for none (its hash kept). */
  private find(g: GroupsOf, adGroup: string): number {
    const h = groupHash(adGroup, g.id);
    this.hashedName = adGroup;
    this.hashedIn = g;
    this.hashed = h;
    const { slots, mask, hashes, groupNames, groupIn } = this;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const i = slots[s]! - 1;
      if (i < 0) return -1;
      if (hashes[i] === h && groupNames[i] === adGroup && groupIn[i] === g) return i;
    }
  }

  /** Puts index `i` of hash `h` at its first free slot. */
  private place(i: number, h: number): void {
    const { slots, mask } = this;
    let s = h & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = i + 1;
  }

  /**
   * Takes the next index for a new ad group of negative key `key` and Ad Group cell
   * `adGroupCell`; its campaign's groups (made on its first).
   */
  add(campaign: string, adGroup: string, key: string, adGroupCell: string): GroupsOf {
    const i = this.keys.length;
    let g = this.groupsOf(campaign);
    if (g === undefined) {
      g = {
        id: this.groupsOfCampaign.size,
        count: 0,
        key: this.campaignKeys.get(campaign) ?? '',
        cell: formatCsvCell(campaign),
      };
      this.groupsOfCampaign.set(campaign, (this.groups = g));
    }
    const h =
      this.hashedName === adGroup && this.hashedIn === g ? this.hashed : groupHash(adGroup, g.id);
    if ((i + 1) * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      this.mask = this.slots.length - 1;
      for (let k = 0; k < i; k++) this.place(k, this.hashes[k]!);
    }
    this.hashes.push(h);
    this.place(i, h);
    g.count++;
    this.groupCampaigns.push(campaign);
    this.groupNames.push(adGroup);
    this.lastCampaign = undefined;
    this.found = i;
    this.keys.push(key);
    this.groupIn.push(g);
    this.groupCells.push(adGroupCell);
    return g;
  }

  /** The negative key of the ad group of index `i` (-1: none). */
  keyOfIndex(i: number): string | undefined {
    return i < 0 ? undefined : this.keys[i];
  }

  /** The Parent Id, Campaign and Ad Group cells of a child of the new ad group of index `i`. */
  placeOf(i: number): string {
    return `${this.keys[i]},${this.groupIn[i]!.cell},${this.groupCells[i]}`;
  }
}
