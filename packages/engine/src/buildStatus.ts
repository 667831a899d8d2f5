/**
 * Which items of a run go out Paused: those every feed row behind is paused (rowStatus.ts). An
 * item is Enabled when the run's active rows alone make it too, so the run is made once more
 * without its paused rows and what that makes is remembered as 64-bit keys (names folded as the
 * run folds them: a campaign first spelled by a paused row is the same campaign). Ads have no
 * rows of their own: an ad is made for its ad group (or asset group) and takes its status.
 * A run whose rows are all active has no status: its files are those of a feed without the
 * column, byte for byte.
 */
import { forEachKeywordLine } from './campaign.ts';
import {
  ACCOUNT_LEVEL_CAMPAIGN,
  generateExtensions,
  type GeneratedExtension,
} from './extensions.ts';
import { foldName } from './names.ts';
import { ActiveRows, hasPausedRow, rowStatusCodes } from './rowStatus.ts';
import type { CampaignTemplate, ExtensionTemplate, FeedRows, MatchType } from './types.ts';

/** Editor's status of an item. */
export type EditorStatus = 'Enabled' | 'Paused';

/** A set of texts kept as two 32-bit hashes each (a false match: about 1 in 2^64 a pair). */
class KeySet {
  private a = new Int32Array(1 << 12);
  private b = new Int32Array(1 << 12);
  private used = new Uint8Array(1 << 12);
  private size = 0;

  add(text: string): void {
    if (2 * (this.size + 1) > this.used.length) this.grow();
    this.put(hashA(text), hashB(text));
  }

  has(text: string): boolean {
    const ha = hashA(text);
    const hb = hashB(text);
    const mask = this.used.length - 1;
    for (let i = ha & mask; this.used[i] === 1; i = (i + 1) & mask)
      if (this.a[i] === ha && this.b[i] === hb) return true;
    return false;
  }

  private put(ha: number, hb: number): void {
    const mask = this.used.length - 1;
    let i = ha & mask;
    for (; this.used[i] === 1; i = (i + 1) & mask) if (this.a[i] === ha && this.b[i] === hb) return;
    this.used[i] = 1;
    this.a[i] = ha;
    this.b[i] = hb;
    this.size++;
  }

  private grow(): void {
    const { a, b, used } = this;
    this.a = new Int32Array(2 * used.length);
    this.b = new Int32Array(2 * used.length);
    this.used = new Uint8Array(2 * used.length);
    this.size = 0;
    for (let i = 0; i < used.length; i++) if (used[i] === 1) this.put(a[i]!, b[i]!);
  }
}

/** FNV-1a over UTF-16 units, then mixed. */
function hashA(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  return Math.imul(h, 0x85ebca6b) ^ (h >>> 13);
}

/** A second, independent polynomial hash (other multiplier and seed). */
function hashB(s: string): number {
  let h = 0x2545f491;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 0x5bd1e995) + s.charCodeAt(i) + 1) | 0;
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 16);
}

const SEP = '\u001f';

/** What the run's active rows make, and so the status of each item of the run. */
export class BuildStatus {
  private readonly made = new KeySet();

  /** Adds an item the active rows make (its kind and its identity's texts). */
  add(kind: string, ...parts: string[]): void {
    this.made.add(kind + SEP + parts.join(SEP));
  }

  private paused(kind: string, ...parts: string[]): boolean {
    return !this.made.has(kind + SEP + parts.join(SEP));
  }

  /** Whether the campaign is paused: no active row makes it. */
  campaignPaused(campaign: string): boolean {
    return this.paused('c', foldName(campaign));
  }

  /** Whether the ad group (or asset group) is paused. */
  groupPaused(campaign: string, group: string): boolean {
    return this.paused('g', foldName(campaign), foldName(group));
  }

  /** Whether the keyword or negative line is paused (`adGroup` '' for a campaign negative). */
  readonly keywordPaused = (
    campaign: string,
    adGroup: string,
    keyword: string,
    mt: MatchType,
  ): boolean => this.paused('k', foldName(campaign), foldName(adGroup), keyword, mt);

  /** Whether the asset is paused; an account-level one is made from no row: never. */
  extensionPaused(e: GeneratedExtension): boolean {
    if (e.campaign === ACCOUNT_LEVEL_CAMPAIGN && e.adGroup === '') return false;
    return this.paused(
      'e',
      e.type,
      foldName(e.campaign),
      foldName(e.adGroup),
      JSON.stringify(e.values),
    );
  }
}

/** Editor's status word. */
export function editorStatus(paused: boolean): EditorStatus {
  return paused ? 'Paused' : 'Enabled';
}

/** What `findBuildStatus` needs: the run's rows and its structure and extension templates. */
export interface BuildStatusInput {
  rows: FeedRows;
  campaign: CampaignTemplate;
  extensions: readonly ExtensionTemplate[];
}

/**
 * The statuses of a run's items, or undefined when no row is paused (the run writes no status
 * column then). `codes`: the rows' status codes when the caller has them (`rowStatusCodes`).
 */
export function findBuildStatus(
  input: BuildStatusInput,
  codes: Uint8Array | undefined = rowStatusCodes(input.rows),
): BuildStatus | undefined {
  if (!codes || !hasPausedRow(codes)) return undefined;
  const status = new BuildStatus();
  const rows = new ActiveRows(input.rows, codes);
  const line = (campaign: string, adGroup: string, keyword: string, mt: MatchType): void =>
    status.add('k', foldName(campaign), foldName(adGroup), keyword, mt);
  forEachKeywordLine(
    { template: input.campaign, rows },
    {
      keywords: line,
      negatives: line,
      campaigns: (c) => status.add('c', foldName(c.campaign)),
      adGroups: (g) => status.add('g', foldName(g.campaign), foldName(g.adGroup)),
      assetGroups: (g) => status.add('g', foldName(g.campaign), foldName(g.assetGroup)),
    },
  );
  for (const template of input.extensions)
    for (const e of generateExtensions({ template, rows, campaign: input.campaign }).extensions)
      status.add('e', e.type, foldName(e.campaign), foldName(e.adGroup), JSON.stringify(e.values));
  return status;
}
