/**
 * The ad groups of a run, packed: a million groups as objects hold about 270 MB; here each is its
 * name as UTF-8, its campaign's number and its row's, and the ads read them back in order.
 * Consecutive names often share a start (a `{mt}` template's "nike Exact", "nike Phrase"): a
 * name is kept as the number of characters it shares with the one before and the UTF-8 of the
 * rest, so the rest's bytes follow each other in the blocks and no per-group offset is kept.
 */
import type { AdGroupRef, AdGroupStore, AdGroupTarget } from '@adloom/engine';
import { ByteBlocks, grown } from './bytes.ts';

/** The most characters a name shares with the one before (kept in a byte). */
const MAX_SHARED = 255;
/** A rest's byte length at or above this is kept in `longRests`. */
const LONG_REST = 255;

export class PackedAdGroups implements AdGroupStore {
  private readonly names = new ByteBlocks();
  /** Per block of `names` the first group whose rest it holds. */
  private readonly firstOfBlock: number[] = [];
  /** Per group the characters its name shares with the one before. */
  private shared = new Uint8Array(1 << 16);
  /** Per group the byte length of the rest of its name (LONG_REST: in `longRests`). */
  private restBytes = new Uint8Array(1 << 16);
  private readonly longRests = new Map<number, number>();
  private campaignOf = new Int32Array(1 << 16);
  /** Per group its row's id as a number, when the id is one ("12"); other ids in `otherIds`. */
  private idOf = new Int32Array(1 << 16);
  private readonly otherIds = new Map<number, string>();
  private readonly campaigns: string[] = [];
  private readonly campaignIndex = new Map<string, number>();
  private lastCampaign = '';
  private lastCampaignIndex = -1;
  private lastName = '';
  length = 0;

  /** `onAdd` hears each group as it is added. */
  constructor(private readonly onAdd?: (group: AdGroupRef) => void) {}

  add(group: AdGroupRef): void {
    this.onAdd?.(group);
    const n = this.length;
    if (n === this.idOf.length) {
      this.shared = grown(this.shared, n + 1);
      this.restBytes = grown(this.restBytes, n + 1);
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
    const name = group.adGroup;
    const shared = sharedStart(this.lastName, name);
    this.lastName = name;
    const names = this.names;
    const blocks = names.blocks.length;
    if (names.reserve(3 * (name.length - shared)) !== blocks - 1) this.firstOfBlock.push(n);
    const from = names.used;
    names.used = writeName(names.current, from, shared === 0 ? name : name.slice(shared));
    const bytes = names.used - from;
    this.shared[n] = shared;
    this.restBytes[n] = Math.min(bytes, LONG_REST);
    if (bytes >= LONG_REST) this.longRests.set(n, bytes);
    this.campaignOf[n] = this.lastCampaignIndex;
    const id = rowNumberOf(group.id);
    if (id > 0) this.idOf[n] = id;
    else this.otherIds.set(n, group.id);
    this.length = n + 1;
  }

  *[Symbol.iterator](): Iterator<AdGroupTarget> {
    // Groups before the first block's first have empty rests; a group's rest is never split.
    let block = -1;
    let nextBlockAt = this.firstOfBlock[0] ?? -1;
    let at = 0;
    let name = '';
    for (let i = 0; i < this.length; i++) {
      if (i === nextBlockAt) {
        block++;
        nextBlockAt = this.firstOfBlock[block + 1] ?? -1;
        at = 0;
      }
      const bytesKept = this.restBytes[i] as number;
      const bytes = bytesKept === LONG_REST ? (this.longRests.get(i) as number) : bytesKept;
      const rest =
        bytes === 0 ? '' : (this.names.blocks[block] as Buffer).toString('utf8', at, at + bytes);
      at += bytes;
      const shared = this.shared[i] as number;
      name = shared === 0 ? rest : name.slice(0, shared) + rest;
      yield {
        campaign: this.campaigns[this.campaignOf[i] as number] as string,
        adGroup: name,
        id: this.otherIds.get(i) ?? String(this.idOf[i]),
      };
    }
  }
}

/**
 * The UTF-16 units `name` shares at its start with `before` (at most MAX_SHARED), never ending
 * between the two halves of a surrogate pair (the rest is written as UTF-8 on its own).
 */
export function sharedStart(before: string, name: string): number {
  const most = Math.min(before.length, name.length, MAX_SHARED);
  let n = 0;
  while (n < most && before.charCodeAt(n) === name.charCodeAt(n)) n++;
  if (n > 0 && n < name.length) {
    const last = name.charCodeAt(n - 1);
    if (last >= 0xd800 && last <= 0xdbff) n--;
  }
  return n;
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
