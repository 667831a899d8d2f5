/**
 * The ad groups of a run, packed: a million groups as objects hold about 270 MB; here each is its
 * name as UTF-8, its campaign's number and its row's, and the ads read them back in order.
 */
import type { AdGroupRef, AdGroupStore, AdGroupTarget } from '@adloom/engine';
import { ByteBlocks, grown } from './bytes.ts';

export class PackedAdGroups implements AdGroupStore {
  private readonly names = new ByteBlocks();
  /** Per group the block, start and end of its name in `names`. */
  private blockOf = new Uint16Array(1 << 16);
  private starts = new Int32Array(1 << 16);
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
      this.blockOf = grown(this.blockOf, n + 1);
      this.starts = grown(this.starts, n + 1);
      this.ends = grown(this.ends, n + 1);
      this.campaignOf = grown(this.campaignOf, n + 1);
      this.idOf = grown(this.idOf, n + 1);
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
    const names = this.names;
    this.blockOf[n] = names.reserve(3 * group.adGroup.length);
    this.starts[n] = names.used;
    names.used += names.current.write(group.adGroup, names.used, 'utf8');
    this.ends[n] = names.used;
    this.campaignOf[n] = this.lastCampaignIndex;
    const id = Number(group.id);
    if (id > 0 && id <= 0x7fffffff && String(id) === group.id) this.idOf[n] = id;
    else this.otherIds.set(n, group.id);
    this.length = n + 1;
  }

  *[Symbol.iterator](): Iterator<AdGroupTarget> {
    for (let i = 0; i < this.length; i++) {
      const block = this.names.blocks[this.blockOf[i] as number] as Buffer;
      yield {
        campaign: this.campaigns[this.campaignOf[i] as number] as string,
        adGroup: block.toString('utf8', this.starts[i], this.ends[i]),
        id: this.otherIds.get(i) ?? String(this.idOf[i]),
      };
    }
  }
}
