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

/** A 30-bit hash (FNV-1a) of an ad group's name in the campaign of number `id`. */
function groupHash(name: string, id: number): number {
  let h = 0x811c9dc5 ^ id;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/**
 * Each new ad group's index, by campaign then name, and by index its campaign, name and negative
 * key. Ad groups are found by a hash of their name and campaign number (a number keys the map: no
 * string is hashed per ad group, which cost a microsecond each), then compared by name and
 * campaign.
 */
export class NewAdGroups {
  private readonly groupsOfCampaign = new Map<string, GroupsOf>();
  private readonly groupCampaigns: string[] = [];
  private readonly groupNames: string[] = [];
  /** The last ad group of each hash, and by index the ad group before it of the same hash (-1). */
  private readonly groupOfHash = new Map<number, number>();
  private readonly sameHash: number[] = [];
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
        let i = -1;
        if (g !== undefined) {
          this.hashedName = adGroup;
          this.hashedIn = g;
          this.hashed = groupHash(adGroup, g.id);
          i = this.groupOfHash.get(this.hashed) ?? -1;
        }
        while (i >= 0 && (groupNames[i] !== adGroup || groupCampaigns[i] !== campaign))
          i = this.sameHash[i]!;
        this.lastIndex = i;
      }
      if (this.lastIndex >= 0) this.found = this.lastIndex;
    }
    return this.lastIndex;
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
    this.sameHash.push(this.groupOfHash.get(h) ?? -1);
    this.groupOfHash.set(h, i);
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
