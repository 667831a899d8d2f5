/**
 * Keyword conflicts: the same keyword and match type in several ad groups of one campaign, where
 * they compete for the same searches. Reported once per keyword and campaign (at its second ad
 * group), or, with the template's `keepKeywordInFirstAdGroup`, kept only in the first ad group
 * that has it, each line left out reported.
 */
import type { GenerateCampaignStructureInput } from '../campaignInput.ts';
import { sealHash } from '../hash.ts';
import type { FeedRow, FeedRows } from '../types.ts';
import { MATCH_TYPE_CODES } from './matchTypes.ts';
import type { RowIssues } from './rowIssues.ts';
import type { RowTexts } from './rowTexts.ts';
import type { TextKeyTable } from './textTables.ts';

/**
 * The keyword lines of every campaign, each once (by campaign, match type and text), stored
 * without their texts: per entry its campaign, the (row, pattern) that made it (the pattern gives
 * the match type) and the group that first has it. The set holds every positive line of the run
 * until the rows end (a campaign's groups may meet a keyword at any later row), so it is kept small:
 * 16 bytes an entry, its lists allocated once at their upper bound (pages never reached are never
 * touched), and slots of (hash, entry + 1) at most three quarters full (8 bytes a slot).
 */
class CampaignLines {
  private slots: Int32Array;
  private mask: number;
  private live = 0;
  private readonly campaigns: Int32Array;
  private readonly rows: Int32Array;
  private readonly patterns: Int32Array;
  /** Per entry the group that first has it, with bit 31 set once its conflict is reported. */
  readonly firstGroups: Int32Array;
  /** Texts made again, by entry (only for hashes that matched). */
  private readonly texts = new Map<number, string>();
  private size = 0;
  /** True when the last `findOrAdd` added the entry. */
  added = false;

  constructor(
    private readonly remake: (row: number, pattern: number) => string,
    private readonly mts: readonly number[],
    maxEntries: number,
  ) {
    this.slots = new Int32Array(2 * 1024);
    this.mask = 1023;
    const n = Math.max(1024, maxEntries);
    this.campaigns = new Int32Array(n);
    this.rows = new Int32Array(n);
    this.patterns = new Int32Array(n);
    this.firstGroups = new Int32Array(n);
  }

  /** The entry of (campaign, match type of `pattern`, text), added when missing (`added`). */
  findOrAdd(hash: number, campaign: number, text: string, row: number, pattern: number): number {
    const { slots, mask, campaigns, rows, patterns, mts } = this;
    const mt = mts[pattern];
    let s = hash & mask;
    for (; ; s = (s + 1) & mask) {
      const e = (slots[2 * s + 1] as number) - 1;
      if (e < 0) break;
      if (slots[2 * s] !== hash) continue;
      if (campaigns[e] !== campaign || mts[patterns[e] as number] !== mt) continue;
      if ((rows[e] === row && patterns[e] === pattern) || this.textOf(e) === text) {
        this.added = false;
        return e;
      }
    }
    this.added = true;
    const e = this.size++;
    campaigns[e] = campaign;
    rows[e] = row;
    patterns[e] = pattern;
    slots[2 * s] = hash;
    slots[2 * s + 1] = e + 1;
    if (4 * ++this.live > 3 * (mask + 1)) this.growSlots();
    return e;
  }

  /** The text of entry `e` (made again from its row and pattern, and kept, when not known). */
  private textOf(e: number): string {
    let known = this.texts.get(e);
    if (known === undefined) {
      known = this.remake(this.rows[e] as number, this.patterns[e] as number);
      this.texts.set(e, known);
    }
    return known;
  }

  /** The row that made entry `e`. */
  rowOf(e: number): number {
    return this.rows[e] as number;
  }

  private growSlots(): void {
    const old = this.slots;
    const mask = 2 * (this.mask + 1) - 1;
    const slots = new Int32Array(2 * (mask + 1));
    for (let o = 0; o < old.length; o += 2) {
      const entry = old[o + 1] as number;
      if (entry === 0) continue;
      const hash = old[o] as number;
      let s = hash & mask;
      while (slots[2 * s + 1] !== 0) s = (s + 1) & mask;
      slots[2 * s] = hash;
      slots[2 * s + 1] = entry;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** Per campaign, each keyword line's first group (see the file comment). */
export class KeywordConflicts {
  /** Keyword lines by campaign, match type and text. */
  private readonly lines: CampaignLines;
  private readonly rows: FeedRows;

  /** The template's `keepKeywordInFirstAdGroup`. */
  readonly keepFirst: boolean;

  /** For the run of `input`, whose groups are `groups`. */
  constructor(
    texts: RowTexts,
    private readonly groups: TextKeyTable,
    private readonly rowLabel: (rowNumber: number) => string,
    private readonly issues: RowIssues,
    input: GenerateCampaignStructureInput,
  ) {
    this.rows = input.rows;
    this.keepFirst = input.template.settings.keepKeywordInFirstAdGroup;
    this.lines = new CampaignLines(
      texts.remakeKeyword,
      texts.p.mts,
      input.rows.length * texts.p.positiveCount,
    );
  }

  /**
   * Whether row `r`'s keyword of pattern `k` (match type code `mt`) is written to `group` of
   * `campaign`: true when no other group of the campaign has it first (the group may have it
   * already: its own set tells); else the conflict is reported and the answer is whether later
   * groups keep it. Called before the group's set takes the line with `keepFirst`, else once the
   * line is new in its group.
   */
  admits(
    campaign: number,
    campaignName: string,
    group: number,
    /** `group`'s name as written (known to the caller: no name is made again for it). */
    groupName: string,
    mt: number,
    keyword: string,
    keywordHash: number,
    r: number,
    k: number,
  ): boolean {
    const lines = this.lines;
    const e = lines.findOrAdd(sealHash(keywordHash, campaign, mt), campaign, keyword, r, k);
    const firstGroups = lines.firstGroups;
    if (lines.added) {
      firstGroups[e] = group;
      return true;
    }
    const first = (firstGroups[e] as number) & 0x7fffffff;
    if (first === group) return true;
    if (!this.keepFirst && firstGroups[e]! < 0) return true;
    firstGroups[e] = first | 0x80000000;
    const type = MATCH_TYPE_CODES[mt] as string;
    const row = this.rows.at(r) as FeedRow;
    const firstGroup = `ad group "${this.groups.textOf(first)}" of campaign "${campaignName}" (${this.rowLabel(lines.rowOf(e) + 1)})`;
    if (this.keepFirst) {
      this.issues.issue(
        'skipped',
        row,
        r + 1,
        'keyword-conflict-dropped',
        `Keyword "${keyword}" (${type}) is not written to ad group "${groupName}": it is kept only in ${firstGroup}, the first that has it`,
      );
      return false;
    }
    this.issues.issue(
      'warning',
      row,
      r + 1,
      'keyword-conflict',
      `Keyword "${keyword}" (${type}) of ad group "${groupName}" is also in ${firstGroup}: ad groups of one campaign with the same keyword compete for the same searches (later ones are not listed)`,
    );
    return true;
  }
}
