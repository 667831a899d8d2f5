/**
 * Keyword conflicts: the same keyword and match type in several ad groups of one campaign, where
 * they compete for the same searches. Reported in each later group, or (the template's
 * `keepKeywordInFirstAdGroup`) kept only in the first group that has it.
 */
import { sealHash } from '../hash.ts';
import type { CampaignTemplate, FeedRow } from '../types.ts';
import { grownInts } from './intLists.ts';
import { MATCH_TYPE_CODES } from './matchTypes.ts';
import type { RowIssues } from './rowIssues.ts';
import type { RowTexts } from './rowTexts.ts';
import { TextKeyTable } from './textTables.ts';

/** Per campaign, each keyword line's first group (see the file comment). */
export class KeywordConflicts {
  /** Keyword lines by (campaign, match type code) and text; (row, pattern) made the text. */
  private readonly lines: TextKeyTable;
  /** Per entry of `lines` the group that first has it. */
  private firstGroups: Int32Array = new Int32Array(1024);

  /** The template's `keepKeywordInFirstAdGroup`. */
  readonly keepFirst: boolean;

  /** For `template`'s run over `rowCount` rows, whose groups are `groups`. */
  constructor(
    texts: RowTexts,
    private readonly groups: TextKeyTable,
    private readonly rowLabel: (rowNumber: number) => string,
    private readonly issues: RowIssues,
    template: CampaignTemplate,
    rowCount: number,
  ) {
    this.keepFirst = template.settings.keepKeywordInFirstAdGroup;
    this.lines = new TextKeyTable(texts.remakeKeyword, 1024, rowCount * texts.p.positiveCount);
  }

  /** The name of group `group` as written (its first spelling). */
  private groupName(group: number): string {
    return this.groups.textOf(group);
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
    mt: number,
    keyword: string,
    keywordHash: number,
    r: number,
    k: number,
    row: FeedRow,
  ): boolean {
    const lines = this.lines;
    const e = lines.findOrAdd(sealHash(keywordHash, campaign, mt), campaign, mt, keyword, r, k);
    if (lines.added) {
      if (e >= this.firstGroups.length) this.firstGroups = grownInts(this.firstGroups, e + 1);
      this.firstGroups[e] = group;
      return true;
    }
    const first = this.firstGroups[e] as number;
    if (first === group) return true;
    const type = MATCH_TYPE_CODES[mt] as string;
    const firstGroup = `ad group "${this.groupName(first)}" of campaign "${campaignName}" (${this.rowLabel(lines.rowOf(e) + 1)})`;
    if (this.keepFirst) {
      this.issues.issue(
        'skipped',
        row,
        r + 1,
        'keyword-conflict-dropped',
        `Keyword "${keyword}" (${type}) is not written to ad group "${this.groupName(group)}": it is kept only in ${firstGroup}, the first that has it`,
      );
      return false;
    }
    this.issues.issue(
      'warning',
      row,
      r + 1,
      'keyword-conflict',
      `Keyword "${keyword}" (${type}) of ad group "${this.groupName(group)}" is also in ${firstGroup}: the two compete for the same searches`,
    );
    return true;
  }
}
