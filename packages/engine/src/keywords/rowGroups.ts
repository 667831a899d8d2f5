/** The current row's campaign and ad groups: their names as the row spells them, ids and hashes. */
import { polyHash } from '../hash.ts';
import { foldName } from '../names.ts';
import type { FeedRow } from '../types.ts';
import { MATCH_TYPE_CODES, NO_MT } from './matchTypes.ts';
import type { KeywordPatterns } from './patterns.ts';
import type { RowTexts } from './rowTexts.ts';

/**
 * Per match type code (0..2; NO_MT for a pattern without {mt}) the current row's group: its name
 * as the row spells it ('' when unusable), the hash of its folded form, whether its name problem
 * is reported yet, and its id and name as written once the row uses it. Then the groups the row
 * uses (at most one per match type), and the campaign of the last row read.
 */
export class RowGroups {
  readonly rowGroupText: Array<string | undefined> = new Array<string | undefined>(NO_MT + 1);
  readonly rowGroupHash = new Int32Array(NO_MT + 1);
  readonly rowGroupPlain = new Uint8Array(NO_MT + 1);
  readonly rowGroupId = new Int32Array(NO_MT + 1);
  readonly rowGroupName: string[] = new Array<string>(NO_MT + 1).fill('');
  private readonly rowGroupReported = new Uint8Array(NO_MT + 1);
  /** The groups the current row uses (at most one per match type): ids and CSV plain bits. */
  readonly rowGroupIds = new Int32Array(NO_MT + 1);
  readonly rowGroupPlains = new Int32Array(NO_MT + 1);
  rowGroupCount = 0;

  /** The campaign of the last row read: as spelled, its hash, id and name as written. */
  lastCampaignText: string | undefined;
  lastCampaignHash = 0;
  lastCampaignId = -1;
  lastCampaign = '';

  constructor(
    private readonly p: KeywordPatterns,
    private readonly texts: RowTexts,
  ) {}

  /** Forgets the last row's groups. */
  reset(): void {
    const { rowGroupText, rowGroupId, rowGroupReported } = this;
    rowGroupText[0] = rowGroupText[1] = rowGroupText[2] = rowGroupText[NO_MT] = undefined;
    rowGroupId[0] = rowGroupId[1] = rowGroupId[2] = rowGroupId[NO_MT] = -1;
    rowGroupReported[0] = rowGroupReported[1] = rowGroupReported[2] = rowGroupReported[NO_MT] = 0;
    this.rowGroupCount = 0;
  }

  /** The row's group name for `mt`; `report`: its problems are reported (once per row). */
  fillGroup(mt: number, row: FeedRow, rowNumber: number, report: boolean): string {
    let g = this.rowGroupText[mt];
    if (g !== undefined && (this.rowGroupReported[mt] === 1 || !report)) return g;
    const { texts } = this;
    const { filler, values } = texts;
    if (mt !== NO_MT) {
      texts.setMt(mt);
      values.mt = MATCH_TYPE_CODES[mt] as string;
    }
    // (The fill below leaves text and hash in `filler`; {mt} is reset right after.)
    if (filler.fillName(this.p.groupPlan)) {
      g = filler.text;
      this.rowGroupHash[mt] = filler.hash;
      this.rowGroupPlain[mt] = filler.isPlain ? 2 : 0;
    } else {
      g = texts.slowName(this.p.groupPattern, 'Ad group', row, rowNumber, report);
      this.rowGroupHash[mt] = polyHash(foldName(g));
      this.rowGroupPlain[mt] = 0;
    }
    values.mt = '';
    texts.setMt(-1);
    this.rowGroupText[mt] = g;
    if (report) this.rowGroupReported[mt] = 1;
    return g;
  }

  /** Takes the group `groupId`, written `name`, as the row's group for `groupMt`. */
  use(groupMt: number, groupId: number, name: string): void {
    this.rowGroupId[groupMt] = groupId;
    this.rowGroupName[groupMt] = name;
    this.rowGroupIds[this.rowGroupCount] = groupId;
    this.rowGroupPlains[this.rowGroupCount++] = this.rowGroupPlain[groupMt] as number;
  }
}
