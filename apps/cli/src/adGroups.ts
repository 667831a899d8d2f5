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
    const name = group.adGroup;
    this.blockOf[n] = names.reserve(3 * name.length);
    this.starts[n] = names.used;
    names.used = writeName(names.current, names.used, name);
    this.ends[n] = names.used;
    this.campaignOf[n] = this.lastCampaignIndex;
    const id = rowNumberOf(group.id);
    if (id > 0) this.idOf[n] = id;
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

/**
 * Writes `name` as UTF-8 into `block` at `at`; returns where it ends. An ASCII name (the common
 * case) is copied a character at a time: for names this short that is quicker than a call into
 * Buffer.write, which the rest of the name gets once a character is not ASCII.
 */
export function writeName(block: Buffer, at: number, name: string): number {
  const n = name.length;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x80) return at + i + block.write(name.slice(i), at + i, 'utf8');
    block[at + i] = c;
  }
  return at + n;
}

/** The number an id like "12" spells (1 to 2^31 - 1, no leading zero or sign), else 0. */
export function rowNumberOf(id: string): number {
  const n = id.length;
  if (n === 0 || n > 10 || id.charCodeAt(0) === 48) return 0;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return 0;
    value = value * 10 + d;
  }
  return value <= 0x7fffffff ? value : 0;
}

/** Characters gathered before `TextRuns` hands them over. */
const RUN_CHARS = 1 << 16;

/**
 * Short texts (one CSV line each) handed over joined, in runs of at least `RUN_CHARS`
 * characters: an output sink encodes a long text with the platform's encoder, a short one a
 * character at a time. `end` hands over what is left.
 */
export class TextRuns {
  private run = '';
  constructor(private readonly sink: (text: string) => void) {}

  add(text: string): void {
    this.run += text;
    if (this.run.length >= RUN_CHARS) this.end();
  }

  end(): void {
    if (this.run !== '') this.sink(this.run);
    this.run = '';
  }
}
