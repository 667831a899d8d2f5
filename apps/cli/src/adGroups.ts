/**
 * The ad groups of a run, packed: a million groups as objects hold about 270 MB; here each is its
 * name as UTF-8, its campaign's number and its row's, and the ads read them back in order.
 */
import type { AdGroupRef, AdGroupStore } from '@adloom/engine';

interface AdGroupTarget {
  campaign: string;
  adGroup: string;
  id: string;
}

export class PackedAdGroups implements AdGroupStore {
  private names = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  /** Per group the end of its name in `names`. */
  private ends = new Int32Array(1 << 16);
  private campaignOf = new Int32Array(1 << 16);
  /** Per group its row's id as a number, when the id is one ("12"); other ids in `otherIds`. */
  private idOf = new Int32Array(1 << 16);
  private readonly otherIds = new Map<number, string>();
  private readonly campaigns: string[] = [];
  private readonly campaignIndex = new Map<string, number>();
  private lastCampaign = '';
  private lastCampaignIndex = -1;
  length = 0;

  /** `onAdd` hears each group as it is added. */
  constructor(private readonly onAdd?: (group: AdGroupRef) => void) {}

  add(group: AdGroupRef): void {
    this.onAdd?.(group);
    const n = this.length;
    if (n === this.ends.length) {
      const ends = new Int32Array(n * 2);
      ends.set(this.ends);
      this.ends = ends;
      const campaignOf = new Int32Array(n * 2);
      campaignOf.set(this.campaignOf);
      this.campaignOf = campaignOf;
      const idOf = new Int32Array(n * 2);
      idOf.set(this.idOf);
      this.idOf = idOf;
    }
    if (group.campaign !== this.lastCampaign || this.lastCampaignIndex < 0) {
      let c = this.campaignIndex.get(group.campaign);
      if (c === undefined) {
        c = this.campaigns.length;
        this.campaigns.push(group.campaign);
        this.campaignIndex.set(group.campaign, c);
      }
      this.lastCampaign = group.campaign;
      this.lastCampaignIndex = c;
    }
    if (this.used + 3 * group.adGroup.length > this.names.length) {
      const names = Buffer.allocUnsafe(
        Math.max(this.names.length * 2, this.used + 3 * group.adGroup.length),
      );
      this.names.copy(names, 0, 0, this.used);
      this.names = names;
    }
    this.used += this.names.write(group.adGroup, this.used, 'utf8');
    this.ends[n] = this.used;
    this.campaignOf[n] = this.lastCampaignIndex;
    const id = Number(group.id);
    if (id > 0 && id <= 0x7fffffff && String(id) === group.id) this.idOf[n] = id;
    else this.otherIds.set(n, group.id);
    this.length = n + 1;
  }

  *[Symbol.iterator](): Iterator<AdGroupTarget> {
    for (let i = 0; i < this.length; i++) {
      const start = i === 0 ? 0 : (this.ends[i - 1] as number);
      yield {
        campaign: this.campaigns[this.campaignOf[i] as number] as string,
        adGroup: this.names.toString('utf8', start, this.ends[i]),
        id: this.otherIds.get(i) ?? String(this.idOf[i]),
      };
    }
  }
}
