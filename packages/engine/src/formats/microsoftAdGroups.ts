/**
 * The new ad groups of a Microsoft bulk file, as the writer (microsoftBulk.ts) takes them: each
 * one's index (for its counts), negative key, campaign and cells, found again by campaign and
 * name for every keyword, negative, ad and extension row that names it.
 */
import { formatCsvCell } from '../csv.ts';

/**
 * Per campaign named by an ad group: its name and number, how many ad groups, its key ('' for a campaign
 * not in this file), its cell, and its ad groups by hash: an open-addressed table of index + 1
 * (0: empty), at least half empty, each hash at its first free slot from
 * `hash & (slots.length - 1)` on.
 */
export interface GroupsOf {
  name: string;
  id: number;
  count: number;
  key: string;
  cell: string;
  slots: Int32Array;
}

/** A 30-bit hash (FNV-1a, its bits mixed) of an ad group's name. */
function groupHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return Math.imul(h ^ (h >>> 16), 0x45d9f3b) & 0x3fffffff;
}

/** Puts index `i` of hash `h` at its first free slot of `slots`. */
function place(slots: Int32Array, i: number, h: number): void {
  const mask = slots.length - 1;
  let s = h & mask;
  while (slots[s] !== 0) s = (s + 1) & mask;
  slots[s] = i + 1;
}

/** `array` with room for `n` numbers (itself, or a copy twice as long). */
function roomFor(array: Int32Array, n: number): Int32Array {
  if (n <= array.length) return array;
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/**
 * Each new ad group's index, by campaign then name, and by index its campaign, name and negative
 * key. Ad groups are found by a hash of their name in their campaign's table of numbers (no
 * string is hashed per ad group, which cost a microsecond each; a Map of the numbers cost a
 * quarter of a microsecond), then compared by name. The numbers kept per ad group are typed
 * arrays and only its name and key are strings: a table per campaign stays in the processor's
 * cache (one table for a million ad groups, 8 MB, missed it on nearly every probe), and each
 * string or object stored in an array of a million costs the garbage collector's write barrier
 * (six arrays of them took 0.8 µs an ad group; two strings and typed arrays take about 0.3).
 */
export class NewAdGroups {
  private readonly groupsOfCampaign = new Map<string, GroupsOf>();
  /** The campaigns' records, by their number. */
  private readonly campaigns: GroupsOf[] = [];
  private readonly groupNames: string[] = [];
  /** By index, the ad group's negative key. */
  private readonly keys: string[] = [];
  // By index, each ad group's hash and its campaign's number.
  private hashes: Int32Array = new Int32Array(1024);
  private groupIn: Int32Array = new Int32Array(1024);
  /**
   * The Ad Group cells that differ from the name (quoted), by index: the runs of keywords,
   * negatives and ads of a group do not quote its name again (`placeOf`).
   */
  private readonly quotedCells = new Map<number, string>();
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
      const next = this.found + 1;
      if (
        next < this.groupNames.length &&
        this.groupNames[next] === adGroup &&
        this.campaigns[this.groupIn[next]!]!.name === campaign
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
    const h = groupHash(adGroup);
    this.hashedName = adGroup;
    this.hashed = h;
    const { hashes, groupNames } = this;
    const { slots } = g;
    const mask = slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const i = slots[s]! - 1;
      if (i < 0) return -1;
      if (hashes[i] === h && groupNames[i] === adGroup) return i;
    }
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
        name: campaign,
        id: this.campaigns.length,
        count: 0,
        key: this.campaignKeys.get(campaign) ?? '',
        cell: formatCsvCell(campaign),
        slots: new Int32Array(16),
      };
      this.campaigns.push(g);
      this.groupsOfCampaign.set(campaign, (this.groups = g));
    }
    const h = this.hashedName === adGroup ? this.hashed : groupHash(adGroup);
    this.hashes = roomFor(this.hashes, i + 1);
    this.groupIn = roomFor(this.groupIn, i + 1);
    this.hashes[i] = h;
    this.groupIn[i] = g.id;
    if ((g.count + 1) * 2 > g.slots.length) {
      const old = g.slots;
      g.slots = new Int32Array(old.length * 2);
      for (const v of old) if (v !== 0) place(g.slots, v - 1, this.hashes[v - 1]!);
    }
    place(g.slots, i, h);
    g.count++;
    this.groupNames.push(adGroup);
    this.keys.push(key);
    if (adGroupCell !== adGroup) this.quotedCells.set(i, adGroupCell);
    this.lastCampaign = undefined;
    this.found = i;
    return g;
  }

  /** The negative key of the ad group of index `i` (-1: none). */
  keyOfIndex(i: number): string | undefined {
    return i < 0 ? undefined : this.keys[i];
  }

  /** The Parent Id, Campaign and Ad Group cells of a child of the new ad group of index `i`. */
  placeOf(i: number): string {
    const cell =
      this.quotedCells.size > 0
        ? (this.quotedCells.get(i) ?? this.groupNames[i]!)
        : this.groupNames[i]!;
    return `${this.keys[i]},${this.campaigns[this.groupIn[i]!]!.cell},${cell}`;
  }
}
