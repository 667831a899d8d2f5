/**
 * Keyword conflicts: the same keyword and match type in several ad groups of one campaign, where
 * they compete for the same searches. Reported once per keyword and campaign (at its second ad
 * group), or, with the template's `keepKeywordInFirstAdGroup`, kept only in the first ad group
 * that has it, each line left out reported.
 */
import type { GenerateCampaignStructureInput } from '../campaignInput.ts';
import { sealHash } from '../hash.ts';
import type { FeedRow, FeedRows } from '../types.ts';
import { grownInts } from './intLists.ts';
import { MATCH_TYPE_CODES } from './matchTypes.ts';
import type { RowIssues } from './rowIssues.ts';
import type { RowTexts } from './rowTexts.ts';
import { TextKeyTable } from './textTables.ts';

/** Per campaign, each keyword line's first group (see the file comment). */
export class KeywordConflicts {
  /** Keyword lines by (campaign, match type code) and text; (row, pattern) made the text. */
  private readonly lines: TextKeyTable;
  /** Per entry of `lines` the group that first has it, and 1 once its conflict is reported. */
  private firstGroups: Int32Array = new Int32Array(1024);
  private reported: Int32Array = new Int32Array(1024);
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
    this.lines = new TextKeyTable(
      texts.remakeKeyword,
      1024,
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
    const e = lines.findOrAdd(sealHash(keywordHash, campaign, mt), campaign, mt, keyword, r, k);
    if (lines.added) {
      if (e >= this.firstGroups.length) {
        this.firstGroups = grownInts(this.firstGroups, e + 1);
        this.reported = grownInts(this.reported, e + 1);
      }
      this.firstGroups[e] = group;
      this.reported[e] = 0;
      return true;
    }
    const first = this.firstGroups[e] as number;
    if (first === group) return true;
    if (!this.keepFirst && this.reported[e] === 1) return true;
    this.reported[e] = 1;
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
