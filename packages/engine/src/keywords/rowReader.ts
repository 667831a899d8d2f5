/**
 * Reads one row of the feed: its campaign, its ad groups, its keyword lines (written at once),
 * the Negative Exact lines its Exact keywords make with `{mt}` groups, and its template
 * negatives (held, see heldLines.ts).
 */
import type { KeywordsCsvSinks } from '../campaignInput.ts';
import { GeneratedAdGroup, type CampaignRow, type CampaignRowMaker } from '../campaignRows.ts';
import { polyHash, sealHash } from '../hash.ts';
import { foldName, mergeIssue } from '../names.ts';
import type { FeedRow, FeedRows } from '../types.ts';
import type { GroupClosing } from './closing.ts';
import type { HeldLines } from './heldLines.ts';
import type { LineWriter } from './lineWriters.ts';
import { LAST_ROW, type MtGroups } from './lookAhead.ts';
import { BROAD, EXACT, NEGATIVE_EXACT, NO_MT } from './matchTypes.ts';
import type { KeywordPatterns } from './patterns.ts';
import type { KeywordConflicts } from './conflicts.ts';
import type { PendingExacts } from './pendingExact.ts';
import type { RowGroups } from './rowGroups.ts';
import type { RowIssues } from './rowIssues.ts';
import type { RowTexts } from './rowTexts.ts';
import type { GroupLineSets, TextKeyTable } from './textTables.ts';

/** What a `RowReader` writes into and reads from (made by `runSearchKeywordLines`). */
export interface RowReaderParts {
  p: KeywordPatterns;
  rows: FeedRows;
  rowLabel: (rowNumber: number) => string;
  texts: RowTexts;
  issues: RowIssues;
  rowGroups: RowGroups;
  campaigns: TextKeyTable;
  groups: TextKeyTable;
  lines: GroupLineSets;
  negatives: GroupLineSets;
  held: HeldLines;
  pending: PendingExacts;
  conflicts: KeywordConflicts;
  closing: GroupClosing | undefined;
  lastRows: Uint8Array | undefined;
  mtGroups: MtGroups | undefined;
  sinks: Pick<KeywordsCsvSinks, 'campaigns' | 'adGroups'>;
  /** Reads each row's location first, makes the campaign rows and adds later rows' locations. */
  campaignRows: CampaignRowMaker;
  keywordCsv: LineWriter;
  negativeCsv: LineWriter;
  /** Bits of `CsvChunks.line`'s `plain` that may be set (none when formulas are neutralised). */
  plainMask: number;
  /**
   * Exact keywords whose Negative Exact line finds its Broad group when it is made are written
   * then, not pended (see `runSearchKeywordLines`): only without template negatives.
   */
  canKeepPending: boolean;
}

/** Reads the rows, one at a time (see the file comment). */
export class RowReader {
  /** The row being read, its number (from 1) and its campaign: id, as written, CSV plain bit. */
  private row: FeedRow;
  private rowNumber = 0;
  private campaignId = -1;
  private campaign = '';
  private campaignPlain = 0;
  /** A merge of the row's group into an earlier row's is reported (once a row). */
  private isMerged = false;
  /** The campaign rows made, by campaign id (for the locations of their later rows). */
  private readonly campaignRowOf: CampaignRow[] = [];

  constructor(private readonly x: RowReaderParts) {
    this.row = x.texts.values.row as FeedRow;
  }

  /** Reads row `r`. */
  readRow(r: number): void {
    const { x } = this;
    if (x.closing && r > 0) x.closing.closeAfter(r - 1);
    const row = x.rows.at(r) as FeedRow;
    const rowNumber = r + 1;
    this.row = row;
    this.rowNumber = rowNumber;
    const values = x.texts.values;
    values.row = row;
    values.mt = '';
    x.texts.filler.measureRow(row, x.p.rowSlots);
    if (!this.readCampaign(r)) return;

    const { rowGroups } = x;
    rowGroups.reset();
    const splitsByMatchType = x.p.splitsByMatchType;
    if (!splitsByMatchType && rowGroups.fillGroup(NO_MT, row, rowNumber, true) === '') return;
    this.isMerged = false;
    for (let k = 0; k < x.p.positiveCount; k++) this.writeKeyword(r, k);
    if (x.p.negativeCount > 0) this.holdNegatives(r);
  }

  /** The row's campaign: false when its location or its name is skipped (reported). */
  private readCampaign(r: number): boolean {
    const { x, row, rowNumber } = this;
    const locations = x.campaignRows;
    if (locations.hasLocations) {
      const isLocated = locations.read(row, x.texts.values);
      for (const p of locations.problems) x.issues.issue(p.kind, row, rowNumber, p.code, p.message);
      if (!isLocated) return false;
    }
    const { filler } = x.texts;
    const rowGroups = x.rowGroups;
    let spelled: string;
    let campaignHash: number;
    let campaignPlain: number;
    if (filler.fillName(x.p.campaignPlan)) {
      spelled = filler.text;
      campaignHash = filler.hash;
      campaignPlain = filler.isPlain ? 1 : 0;
    } else {
      spelled = x.texts.slowName(x.p.campaignPattern, 'Campaign', row, rowNumber, true);
      if (spelled === '') return false;
      campaignHash = polyHash(foldName(spelled));
      campaignPlain = 0;
    }
    let campaignId: number;
    // The campaign as written: its first spelling.
    let campaign: string;
    if (campaignHash === rowGroups.lastCampaignHash && spelled === rowGroups.lastCampaignText) {
      campaignId = rowGroups.lastCampaignId;
      campaign = rowGroups.lastCampaign;
    } else {
      const campaigns = x.campaigns;
      campaignId = campaigns.findOrAdd(sealHash(campaignHash, 0, 0), 0, 0, spelled, r, 0);
      if (campaigns.added && x.sinks.campaigns) {
        const made = x.campaignRows.make(spelled, row, x.texts.values);
        this.campaignRowOf[campaignId] = made;
        x.sinks.campaigns(made);
      }
      campaign = campaigns.foundText ?? spelled;
      rowGroups.lastCampaignText = spelled;
      rowGroups.lastCampaignHash = campaignHash;
      rowGroups.lastCampaignId = campaignId;
      rowGroups.lastCampaign = campaign;
    }
    if (locations.hasLocations) {
      const made = this.campaignRowOf[campaignId];
      if (made) locations.add(made);
    }
    if (campaign !== spelled) {
      campaignPlain = 0;
      x.issues.issue(
        'cleaned',
        row,
        rowNumber,
        'campaign-name-variant',
        `Campaign "${spelled}" is written "${campaign}" as in ${x.rowLabel(x.campaigns.rowOf(campaignId) + 1)}: names that differ only by case or Unicode form are one campaign`,
      );
    }
    this.campaignId = campaignId;
    this.campaign = campaign;
    this.campaignPlain = campaignPlain;
    return true;
  }

  /** Row `r`'s keyword line of positive pattern `k`, written when new in its group. */
  private writeKeyword(r: number, k: number): void {
    const { x, row, rowNumber } = this;
    const mt = x.p.mts[k] as number;
    const groupMt = x.p.splitsByMatchType ? mt : NO_MT;
    const rowGroups = x.rowGroups;
    const group = rowGroups.fillGroup(groupMt, row, rowNumber, true);
    if (group === '') return;
    if (!x.texts.fillKeywordOf(k, row, rowNumber, false)) return;
    const { text: keyword, hash: keywordHash } = x.texts.filler;
    const keywordPlain = x.texts.filler.isPlain ? 4 : 0;
    x.texts.made(r, k, keyword, keywordHash, keywordPlain !== 0);
    let groupId = rowGroups.rowGroupId[groupMt] as number;
    if (groupId < 0) groupId = this.enterGroup(r, groupMt, group);
    // A keyword kept only in the first group that has it never enters a later one's set (so a
    // later row of that group meets it again); else its conflict is checked once it is new there.
    const { conflicts } = x;
    const keepFirst = conflicts.keepFirst;
    const campaignId = this.campaignId;
    const groupName = rowGroups.rowGroupName[groupMt] as string;
    const { campaign } = this;
    if (
      keepFirst &&
      !conflicts.admits(campaignId, campaign, groupId, groupName, mt, keyword, keywordHash, r, k)
    )
      return;
    const hash = sealHash(keywordHash, groupId, mt);
    if (!x.lines.add(groupId, hash, mt, keyword, r, k)) return;
    if (!keepFirst)
      conflicts.admits(campaignId, campaign, groupId, groupName, mt, keyword, keywordHash, r, k);
    const plain =
      (this.campaignPlain | (rowGroups.rowGroupPlain[groupMt] as number) | keywordPlain) &
      x.plainMask;
    x.keywordCsv.line(groupId, campaign, groupName, keyword, mt, plain, r);
    if (x.p.splitsByMatchType && mt === EXACT)
      this.addNegativeExact(r, k, keyword, keywordHash, keywordPlain);
  }

  /**
   * The id of the row's group `group` for `groupMt`, which the row uses from now on: found or
   * added (a merge into an earlier row's group is reported).
   */
  private enterGroup(r: number, groupMt: number, group: string): number {
    const { x, row, campaignId } = this;
    const { groups, rowGroups } = x;
    let groupId: number;
    // A group no other row names is never looked up: it needs no place in the look-ups.
    if (x.lastRows !== undefined && x.lastRows[r] === LAST_ROW)
      groupId = groups.addUnlooked(campaignId, 0, r, groupMt);
    else {
      const hash = sealHash(rowGroups.rowGroupHash[groupMt] as number, campaignId, 1);
      groupId = groups.findOrAdd(hash, campaignId, 0, group, r, groupMt);
    }
    let name = group;
    if (groups.added) {
      if (x.sinks.adGroups)
        x.sinks.adGroups(new GeneratedAdGroup(this.campaign, group, row.id), groupId);
    } else {
      const first = groups.rowOf(groupId);
      name = groups.foundText ?? group;
      if (name !== group) rowGroups.rowGroupPlain[groupMt] = 0;
      if (!this.isMerged) {
        this.isMerged = true;
        const m = mergeIssue(
          row,
          x.rows.at(first) as FeedRow,
          x.rowLabel(first + 1),
          group,
          name,
          'ad group',
        );
        x.issues.issue(m.kind, row, this.rowNumber, m.code, m.message);
      }
    }
    rowGroups.use(groupMt, groupId, name);
    x.held.namedGroup = groupId;
    x.held.namedGroupName = name;
    return groupId;
  }

  /**
   * With `{mt}` groups: the Exact keyword just written as a Negative Exact line of the row's
   * Broad group; written now when its place among the Negative Exact lines is known
   * (see `canKeepPending`), else pended.
   */
  private addNegativeExact(
    r: number,
    k: number,
    keyword: string,
    keywordHash: number,
    keywordPlain: number,
  ): void {
    const { x, campaignId } = this;
    const { rowGroups, pending } = x;
    let broadId = rowGroups.rowGroupId[BROAD] as number;
    let broadName = rowGroups.rowGroupName[BROAD] as string;
    const canKeep = x.canKeepPending && pending.entries.length === 0;
    if (canKeep && broadId < 0) {
      // The row has not used its Broad group (yet): does it exist already?
      const broad = rowGroups.fillGroup(BROAD, this.row, this.rowNumber, false);
      if (broad !== '') {
        const hash = sealHash(rowGroups.rowGroupHash[BROAD] as number, campaignId, 1);
        broadId = x.groups.find(hash, campaignId, 0, broad, r, BROAD);
        broadName = x.groups.foundText ?? broad;
      }
    }
    if (canKeep && broadId >= 0) {
      const hash = sealHash(keywordHash, broadId, NEGATIVE_EXACT);
      if (!x.negatives.add(broadId, hash, NEGATIVE_EXACT, keyword, r, k)) return;
      let broadPlain =
        this.campaignPlain | (rowGroups.rowGroupPlain[BROAD] as number) | keywordPlain;
      if (broadName !== rowGroups.rowGroupText[BROAD]) broadPlain &= ~2;
      // Without negative patterns nothing else goes before these lines: write them now.
      x.negativeCsv.line(
        broadId,
        this.campaign,
        broadName,
        keyword,
        NEGATIVE_EXACT,
        broadPlain & x.plainMask,
        r,
      );
      return;
    }
    // Else made again at the end; listed under its Broad group's number, to be checked when
    // that group closes.
    const g = x.mtGroups ? (x.mtGroups.ident[3 * r + BROAD] as number) : -1;
    pending.add(r, k, campaignId, broadId, g);
  }

  /** Row `r`'s template negatives: held for each of the row's groups (or its campaign). */
  private holdNegatives(r: number): void {
    const { x, row, rowNumber, campaignId } = this;
    const { rowGroups, negatives, texts } = x;
    const held = x.held.list;
    const rowGroupCount = rowGroups.rowGroupCount;
    if (rowGroupCount === 0 && x.p.positiveCount > 0) {
      x.issues.issue(
        'skipped',
        row,
        rowNumber,
        'negatives-not-written',
        "This row makes no keyword, so its negatives are not written (as campaign negatives they would block the campaign's other keywords)",
      );
      return;
    }
    for (let k = x.p.positiveCount; k < x.p.pats.length; k++) {
      const mt = x.p.mts[k] as number;
      if (!texts.fillKeywordOf(k, row, rowNumber, true)) continue;
      const { text: keyword, hash: keywordHash } = texts.filler;
      const keywordPlain = texts.filler.isPlain ? 4 : 0;
      texts.made(r, k, keyword, keywordHash, keywordPlain !== 0);
      if (rowGroupCount === 0) {
        const groupId = this.campaignNegativesGroup();
        if (negatives.add(groupId, sealHash(keywordHash, groupId, mt), mt, keyword, r, k))
          held.add(groupId, r, campaignId, k, (this.campaignPlain | keywordPlain) & x.plainMask);
        continue;
      }
      for (let i = 0; i < rowGroupCount; i++) {
        const groupId = rowGroups.rowGroupIds[i] as number;
        if (!negatives.add(groupId, sealHash(keywordHash, groupId, mt), mt, keyword, r, k))
          continue;
        const plain =
          (this.campaignPlain | (rowGroups.rowGroupPlains[i] as number) | keywordPlain) &
          x.plainMask;
        held.add(groupId, r, campaignId, k, plain);
      }
    }
  }

  /**
   * A template without positive keywords: its negatives are campaign negatives (the campaign's
   * entry without a group). The entry's id (added, and reported, with the campaign's first).
   */
  private campaignNegativesGroup(): number {
    const { x, campaignId } = this;
    const groups = x.groups;
    const groupId = groups.findOrAdd(sealHash(0, campaignId, 1), campaignId, 0, '', -1, 0);
    if (groups.added) {
      groups.keep(groupId, '');
      x.issues.issue(
        'warning',
        this.row,
        this.rowNumber,
        'campaign-negatives',
        `Negatives go to campaign "${this.campaign}" as campaign negatives: the template has no positive keyword, so there is no ad group for them`,
      );
    }
    return groupId;
  }
}
