/**
 * With `{mt}` ad groups, each Exact keyword is also a Negative Exact line of its campaign's Broad
 * group. Those lines come after the template's negatives; the ones whose place is not known when
 * their keyword is made are kept as numbers (pending) and made again at the end.
 */
import { polyHash, sealHash } from '../hash.ts';
import { cleanName, foldName } from '../names.ts';
import type { FeedRow, FeedRows } from '../types.ts';
import { IntList } from './intLists.ts';
import type { LineWriter } from './lineWriters.ts';
import { BROAD, EXACT, NEGATIVE_EXACT } from './matchTypes.ts';
import type { KeywordPatterns } from './patterns.ts';
import type { Plan } from './plans.ts';
import type { RowTexts } from './rowTexts.ts';
import type { GroupLineSets, TextKeyTable } from './textTables.ts';

/** What a pending Exact keyword's Broad group decided when it closed (see `line`). */
export const PENDING_OPEN = 0;
const PENDING_WRITTEN = 1;
const PENDING_DUPLICATE = 2;

/** The pending Negative Exact lines (see the file comment). */
export class PendingExacts {
  /** Per entry: row, pattern, campaign id, the Broad group's id (-1: not known yet). */
  readonly entries: IntList;
  /**
   * Per entry the next entry of its group's list + 1 (0 = none), and what its group's close
   * decided (PENDING_OPEN: not yet; PENDING_WRITTEN, PENDING_DUPLICATE).
   */
  private readonly links: IntList;
  /**
   * With {mt} groups closing: per group number (see `groupsOfRows`) its entries' list, newest
   * first (entry + 1; 0 = none).
   */
  private readonly heads: Int32Array;
  private readonly ofGroup = new IntList();
  /** The fields of the line `line` made. */
  private lineGroup = 0;
  private lineCampaign = '';
  private lineName = '';
  private lineKeyword = '';
  private linePlain = 0;
  private lineRow = 0;

  constructor(
    private readonly p: KeywordPatterns,
    private readonly texts: RowTexts,
    private readonly rows: FeedRows,
    private readonly campaigns: TextKeyTable,
    private readonly groups: TextKeyTable,
    private readonly negatives: GroupLineSets,
    groupNumbers: number,
  ) {
    this.heads = new Int32Array(groupNumbers);
    // Allocated at their upper bound (one entry per row and Exact pattern): pages never written
    // are never touched, and no doubling leaves an old copy beside the new one.
    const most = p.splitsByMatchType
      ? rows.length * p.mts.slice(0, p.positiveCount).filter((mt) => mt === EXACT).length
      : 0;
    this.entries = new IntList(4 * most);
    this.links = new IntList(2 * most);
  }

  /**
   * Adds row `r`'s Exact keyword of pattern `k`: `broadId` is the Broad group's id when the row
   * has it (ids never change), else -1; `g` its group number (-1: none), under which it is
   * listed to be checked when that group closes.
   */
  add(r: number, k: number, campaignId: number, broadId: number, g: number): void {
    const e = this.entries.length / 4;
    this.entries.push4(r, k, campaignId, broadId);
    this.links.push(0);
    this.links.push(PENDING_OPEN);
    if (g >= 0) {
      this.links.data[2 * e] = this.heads[g] as number;
      this.heads[g] = e + 1;
    }
  }

  /**
   * Settles the entries of group number `g`, which just closed, oldest first: checked against
   * (and added to) its Negative Exact lines, whose set is complete then.
   */
  settle(g: number): void {
    const { ofGroup, links } = this;
    ofGroup.length = 0;
    for (let e = this.heads[g] as number; e > 0; e = links.data[2 * (e - 1)] as number)
      ofGroup.push(e - 1);
    for (let j = ofGroup.length - 1; j >= 0; j--) {
      const e = ofGroup.data[j] as number;
      const written = this.line(4 * e, PENDING_OPEN);
      links.data[2 * e + 1] = written ? PENDING_WRITTEN : PENDING_DUPLICATE;
      if (written) this.entries.data[4 * e + 3] = this.lineGroup;
    }
  }

  /**
   * The Negative Exact line of entry `i` (its Exact keyword in its row's Broad group), made
   * again into the `line*` fields; false when it is not written. `state`: PENDING_OPEN checks
   * (and adds) it in the group's set; else its group's close did (PENDING_WRITTEN: it was new).
   */
  private line(i: number, state: number): boolean {
    if (state === PENDING_DUPLICATE) return false;
    const p = this.entries.data;
    const r = p[i] as number;
    this.lineRow = r;
    const k = p[i + 1] as number;
    const campaignId = p[i + 2] as number;
    let groupId = p[i + 3] as number;
    const { texts, groups } = this;
    const { filler } = texts;
    const row = this.rows.at(r) as FeedRow;
    filler.measureRow(row, this.p.rowSlots);
    texts.values.row = row;
    texts.setMt(BROAD);
    let broad: string;
    let broadHash: number;
    let plain = 0;
    if (filler.fillName(this.p.groupPlan)) {
      broad = filler.text;
      broadHash = filler.hash;
      plain = filler.isPlain ? 2 : 0;
    } else {
      broad = texts.spellGroup(r, BROAD);
      broadHash = polyHash(foldName(broad));
      if (cleanName(broad).isTooLong) broad = '';
    }
    texts.setMt(-1);
    if (broad === '') return false;
    let name = broad;
    if (groupId < 0) {
      groupId = groups.find(sealHash(broadHash, campaignId, 1), campaignId, 0, broad, r, BROAD);
      if (groupId < 0) return false;
      name = groups.foundText ?? broad;
    } else if (groups.rowOf(groupId) !== r) name = groups.textOf(groupId);
    if (name !== broad) plain &= ~2;
    let keyword: string;
    let keywordHash: number;
    if (filler.fillKeyword(this.p.plans[k] as Plan)) {
      keyword = filler.text;
      keywordHash = filler.hash;
      plain |= 4;
    } else {
      keyword = texts.remakeKeyword(r, k);
      keywordHash = polyHash(keyword);
    }
    const hash = sealHash(keywordHash, groupId, NEGATIVE_EXACT);
    if (state === PENDING_OPEN && !this.negatives.add(groupId, hash, NEGATIVE_EXACT, keyword, r, k))
      return false;
    let campaign: string;
    if (this.campaigns.rowOf(campaignId) !== r) campaign = this.campaigns.textOf(campaignId);
    else if (filler.fillName(this.p.campaignPlan)) {
      campaign = filler.text;
      if (filler.isPlain) plain |= 1;
    } else campaign = texts.spellCampaign(r);
    this.lineGroup = groupId;
    this.lineCampaign = campaign;
    this.lineName = name;
    this.lineKeyword = keyword;
    this.linePlain = plain;
    return true;
  }

  /** Writes the lines of every entry still to write (at the end, after the other negatives). */
  writeAll(negativeCsv: LineWriter, plainMask: number): void {
    for (let i = 0; i < this.entries.length; i += 4)
      if (this.line(i, this.links.data[i / 2 + 1] as number))
        negativeCsv.line(
          this.lineGroup,
          this.lineCampaign,
          this.lineName,
          this.lineKeyword,
          NEGATIVE_EXACT,
          this.linePlain & plainMask,
          this.lineRow,
        );
  }
}
