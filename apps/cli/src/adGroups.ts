/**
 * The ad groups of a run, packed: a million groups as objects hold about 270 MB; here each is its
 * name as UTF-8, its campaign's number and its row's, and the ads read them back in order.
 * Consecutive names often share a start (a `{mt}` template's "nike Exact", "nike Phrase"): a
 * name is kept as the number of characters it shares with the one before and the UTF-8 of the
 * rest, so the rest's bytes follow each other in the blocks and no per-group offset is kept.
 */
import type { AdGroupRef, AdGroupStore, AdGroupTarget } from '@adloom/engine';
import { ByteBlocks, writeUtf8 } from './bytes.ts';

/** The most characters a name shares with the one before (kept in a byte). */
const MAX_SHARED = 255;
/** A rest's byte length at or above this is kept in `longRests`. */
const LONG_REST = 255;
/** Groups per `GroupChunk`. */
const CHUNK_GROUPS = 1 << 16;

/**
 * The numbers of `CHUNK_GROUPS` groups. The store grows a chunk at a time: arrays grown by
 * doubling hold an old copy until it is collected, and the last doubling leaves up to half unused.
 */
interface GroupChunk {
  /** Per group the characters its name shares with the one before. */
  shared: Uint8Array;
  /** Per group the byte length of the rest of its name (LONG_REST: in `longRests`). */
  restBytes: Uint8Array;
  campaignOf: Int32Array;
  /** Per group its row's id as a number, when the id is one ("12"); other ids in `otherIds`. */
  idOf: Int32Array;
}

export class PackedAdGroups implements AdGroupStore {
  private readonly names = new ByteBlocks();
  /** Per block of `names` the first group whose rest it holds. */
  private readonly firstOfBlock: number[] = [];
  private readonly chunks: GroupChunk[] = [];
  private readonly longRests = new Map<number, number>();
  private readonly otherIds = new Map<number, string>();
  private readonly campaigns = new CampaignNumbers();
  private lastName = '';
  length = 0;

  /** `onAdd` hears each group as it is added. */
  constructor(private readonly onAdd?: (group: AdGroupRef) => void) {}

  add(group: AdGroupRef): void {
    this.onAdd?.(group);
    const n = this.length;
    const j = n % CHUNK_GROUPS;
    if (j === 0)
      this.chunks.push({
        shared: new Uint8Array(CHUNK_GROUPS),
        restBytes: new Uint8Array(CHUNK_GROUPS),
        campaignOf: new Int32Array(CHUNK_GROUPS),
        idOf: new Int32Array(CHUNK_GROUPS),
      });
    const chunk = this.chunks[this.chunks.length - 1] as GroupChunk;
    const name = group.adGroup;
    const shared = sharedStart(this.lastName, name);
    this.lastName = name;
    const names = this.names;
    const blocks = names.blocks.length;
    if (names.reserve(3 * (name.length - shared)) !== blocks - 1) this.firstOfBlock.push(n);
    const from = names.used;
    names.used = writeUtf8(names.current, from, shared === 0 ? name : name.slice(shared));
    const bytes = names.used - from;
    chunk.shared[j] = shared;
    chunk.restBytes[j] = Math.min(bytes, LONG_REST);
    if (bytes >= LONG_REST) this.longRests.set(n, bytes);
    chunk.campaignOf[j] = this.campaigns.numberOf(group.campaign);
    const id = rowNumberOf(group.id);
    if (id > 0) chunk.idOf[j] = id;
    else this.otherIds.set(n, group.id);
    this.length = n + 1;
  }

  *[Symbol.iterator](): Iterator<AdGroupTarget> {
    // Groups before the first block's first have empty rests; a group's rest is never split.
    let block = -1;
    let nextBlockAt = this.firstOfBlock[0] ?? -1;
    let at = 0;
    let name = '';
    let chunk = this.chunks[0] as GroupChunk;
    for (let i = 0; i < this.length; i++) {
      const j = i % CHUNK_GROUPS;
      if (j === 0) chunk = this.chunks[i / CHUNK_GROUPS] as GroupChunk;
      if (i === nextBlockAt) {
        block++;
        nextBlockAt = this.firstOfBlock[block + 1] ?? -1;
        at = 0;
      }
      const bytesKept = chunk.restBytes[j] as number;
      const bytes = bytesKept === LONG_REST ? (this.longRests.get(i) as number) : bytesKept;
      const rest =
        bytes === 0 ? '' : (this.names.blocks[block] as Buffer).toString('utf8', at, at + bytes);
      at += bytes;
      const shared = chunk.shared[j] as number;
      name = shared === 0 ? rest : name.slice(0, shared) + rest;
      yield {
        campaign: this.campaigns.names[chunk.campaignOf[j] as number] as string,
        adGroup: name,
        id: this.otherIds.get(i) ?? String(chunk.idOf[j]),
      };
    }
  }
}

/** Campaign names numbered from 0 in the order they first come. */
export class CampaignNumbers {
  readonly names: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** The campaign asked for last, and its number (groups of a campaign often follow each other). */
  private last = '';
  private lastNumber = -1;

  numberOf(campaign: string): number {
    if (campaign === this.last && this.lastNumber >= 0) return this.lastNumber;
    let n = this.numbers.get(campaign);
    if (n === undefined) {
      n = this.names.length;
      this.names.push(campaign);
      this.numbers.set(campaign, n);
    }
    this.last = campaign;
    this.lastNumber = n;
    return n;
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

/** Texts joined before `TextRuns` hands them over. */
const RUN_TEXTS = 128;

/**
 * Short texts (one CSV line each) handed over joined, `RUN_TEXTS` at a time: an output sink
 * encodes a text of a few thousand characters with the platform's encoder, a short one a
 * character at a time. `end` hands over what is left.
 *
 * A text made by `+` is a tree of its pieces until something reads it: the encoder flattens each
 * run once, while its tree is new (a run of ~2000 lines was a tree, parts of it moved by the
 * garbage collector meanwhile, that took longer to walk; runs joined after flattening them are
 * copied twice).
 */
export class TextRuns {
  private run = '';
  private texts = 0;
  constructor(private readonly sink: (text: string) => void) {}

  add(text: string): void {
    this.run += text;
    if (++this.texts === RUN_TEXTS) this.end();
  }

  end(): void {
    if (this.run !== '') this.sink(this.run);
    this.run = '';
    this.texts = 0;
  }
}
