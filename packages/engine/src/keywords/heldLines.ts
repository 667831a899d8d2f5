/**
 * Template negatives held until the keywords they may block are known, then checked against
 * them (`BlockingCheck`) and written in the order they were held.
 */
import type { RowIssue } from '../issues.ts';
import type { FeedRows } from '../types.ts';
import { BlockingCheck, blockingIssueMaker } from './blocking.ts';
import { IntChunks, IntList } from './intLists.ts';
import type { LineWriter } from './lineWriters.ts';
import type { KeywordPatterns } from './patterns.ts';
import type { RowGroups } from './rowGroups.ts';
import type { RowTexts } from './rowTexts.ts';
import type { GroupLineSets, TextKeyTable } from './textTables.ts';

/** Held negatives of interleaved groups are checked group by group from this many on. */
const BY_GROUP_MIN_LINES = 32;

/**
 * Template negatives held until every keyword is known (see `BlockingCheck`), as numbers:
 * their texts are made again from the row when they are written (a million held as strings took
 * about 100 MB).
 */
class HeldNegatives {
  /** Per line: group id, row, campaign id, pattern << 4 | CSV plain bits. */
  readonly ints: IntList;
  constructor(capacity: number) {
    this.ints = new IntList(4 * capacity);
  }

  add(groupId: number, row: number, campaignId: number, pattern: number, plain: number): void {
    this.ints.push4(groupId, row, campaignId, (pattern << 4) | plain);
  }
}

/** The held lines, their blocking checks and their writing (see the file comment). */
export class HeldLines {
  readonly list: HeldNegatives;
  private readonly blocks: BlockingCheck;
  /**
   * The blocking checks' reports follow every row's, but checks of closed groups run among the
   * rows: until the rows end they are kept as numbers (five per report: group, negative row and
   * pattern, keyword row and pattern) and their messages are made as they are handed over (a
   * template that blocks a keyword per row kept a million messages, about 700 bytes each).
   */
  private readonly blockedFinds = new IntChunks();
  /**
   * The held line being checked by `checkByGroup` (its number from the batch's first), else -1:
   * its finds are kept apart (`batchFinds`, six ints each: that number first) to be reported in
   * the held lines' order.
   */
  private findOf = -1;
  private readonly batchFinds = new IntList();
  /** The group of the last held line written (held lines of one group come together). */
  private heldGroup = -1;
  private groupName = '';
  /**
   * The group a row last named and its name as written: held lines are mostly written right
   * after their row, so their group's name is known without making it again.
   */
  namedGroup = -1;
  namedGroupName = '';
  /**
   * Per held line of a batch checked by group: where its finds start in `batchFinds` (-1: none);
   * and the batch's line numbers ordered by group.
   */
  private findAt = new Int32Array(0);
  private byGroup = new Int32Array(0);
  private readonly runGroups = new IntList(16);
  private readonly bucketGroups = new IntList(16);
  private readonly bucketCounts = new IntList(16);
  private readonly bucketNext = new IntList(16);

  constructor(
    private readonly p: KeywordPatterns,
    private readonly texts: RowTexts,
    private readonly rowGroups: RowGroups,
    private readonly campaigns: TextKeyTable,
    private readonly groups: TextKeyTable,
    lines: GroupLineSets,
    private readonly negativeCsv: LineWriter,
    private readonly drop: boolean,
    capacity: number,
  ) {
    this.list = new HeldNegatives(capacity);
    // The template negatives, but those that block a keyword of their group when the template
    // drops them (checked once every keyword line of the group is known).
    this.blocks = new BlockingCheck(
      lines,
      p.mts,
      texts.remakeKeyword,
      (group, negativeRow, negativePattern, keywordRow, keywordPattern) => {
        if (this.findOf >= 0) {
          this.batchFinds.push4(this.findOf, group, negativeRow, negativePattern);
          this.batchFinds.push(keywordRow);
          this.batchFinds.push(keywordPattern);
          return;
        }
        const finds = this.blockedFinds;
        finds.push(group);
        finds.push(negativeRow);
        finds.push(negativePattern);
        finds.push(keywordRow);
        finds.push(keywordPattern);
      },
      drop,
    );
  }

  /**
   * Orders the held lines `from` to `end` by group into `byGroup` (their numbers from `from`'s),
   * each group's lines in their held order; the groups in `bucketGroups` and their line counts in
   * `bucketCounts`. Buckets are found by a scan of the groups while they are few (a {mt}
   * template's row: three).
   */
  private sortByGroup(from: number, n: number): void {
    const heldInts = this.list.ints.data;
    const { bucketGroups, bucketCounts, bucketNext, byGroup, findAt } = this;
    bucketGroups.length = bucketCounts.length = 0;
    let bucketOf: Map<number, number> | undefined;
    let lastGroup = -1;
    let lastBucket = -1;
    // Per line its bucket (in `byGroup` for now); per bucket its group and line count.
    for (let i = 0; i < n; i++) {
      const groupId = heldInts[from + 4 * i] as number;
      if (groupId !== lastGroup) {
        lastGroup = groupId;
        lastBucket = -1;
        if (bucketOf) lastBucket = bucketOf.get(groupId) ?? -1;
        else
          for (let b = 0; b < bucketGroups.length && lastBucket < 0; b++)
            if (bucketGroups.data[b] === groupId) lastBucket = b;
        if (lastBucket < 0) {
          lastBucket = bucketGroups.length;
          bucketGroups.push(groupId);
          bucketCounts.push(0);
          if (bucketOf) bucketOf.set(groupId, lastBucket);
          else if (bucketGroups.length > 16) {
            bucketOf = new Map();
            for (let b = 0; b < bucketGroups.length; b++)
              bucketOf.set(bucketGroups.data[b] as number, b);
          }
        }
      }
      byGroup[i] = lastBucket;
      (bucketCounts.data[lastBucket] as number)++;
    }
    // Where each bucket starts in the lines ordered by group, then where its next line goes.
    bucketNext.length = 0;
    for (let b = 0, sum = 0; b < bucketCounts.length; b++) {
      bucketNext.push(sum);
      sum += bucketCounts.data[b] as number;
    }
    // `findAt` holds each line's place in that order for now.
    for (let i = 0; i < n; i++) findAt[i] = (bucketNext.data[byGroup[i] as number] as number)++;
    for (let i = 0; i < n; i++) byGroup[findAt[i] as number] = i;
  }

  /**
   * Checks the held lines `from` to `end` (all of closed groups) group by group, when groups
   * interleave among them (big groups: each row adds to one of a few) or are many, so each
   * group's texts are made (and indexed) once for all its lines, not again at each change of
   * group; their finds are kept in `findAt` and `batchFinds`. Lines whose groups each come
   * together are checked as they are written instead.
   */
  private checkByGroup(from: number, end: number): void {
    const heldInts = this.list.ints.data;
    const n = (end - from) / 4;
    if (this.findAt.length < n) {
      this.findAt = new Int32Array(Math.max(n, 2 * this.findAt.length));
      this.byGroup = new Int32Array(this.findAt.length);
    }
    this.sortByGroup(from, n);
    const { bucketGroups, bucketCounts, byGroup, findAt, batchFinds, blocks } = this;
    let x = 0;
    for (let b = 0; b < bucketGroups.length; b++) {
      const groupId = bucketGroups.data[b] as number;
      const count = bucketCounts.data[b] as number;
      // Campaign negatives (the entry of a campaign without a group has no row) are not checked.
      const checks = this.groups.rowOf(groupId) >= 0;
      if (checks) blocks.load(groupId, count);
      for (const stop = x + count; x < stop; x++) {
        const i = byGroup[x] as number;
        findAt[i] = -1;
        if (!checks) continue;
        const at = from + 4 * i;
        const r = heldInts[at + 1] as number;
        const k = (heldInts[at + 3] as number) >> 4;
        const start = batchFinds.length;
        this.findOf = i;
        blocks.check(groupId, r, k, this.texts.remakeKeyword(r, k));
        if (batchFinds.length > start) findAt[i] = start;
      }
    }
    this.findOf = -1;
  }

  /**
   * Where the held lines from `from` on stop being of closed groups; and whether they are to be
   * checked by group (`checkByGroup`): their groups interleave or are many.
   */
  private closedRun(from: number, isClosed: (group: number) => boolean): number {
    const heldInts = this.list.ints.data;
    const runGroups = this.runGroups;
    let end = from;
    // The groups of the runs of lines (a group's lines one after another), while they are few.
    runGroups.length = 0;
    let interleaved = false;
    for (let g = -1; end < this.list.ints.length; end += 4) {
      const groupId = heldInts[end] as number;
      if (!isClosed(groupId)) break;
      if (groupId === g || interleaved) continue;
      g = groupId;
      for (let i = 0; i < runGroups.length && !interleaved; i++)
        interleaved = runGroups.data[i] === groupId;
      // Many runs: checked by group too (whether they interleave or not).
      if (runGroups.length === 16) interleaved = true;
      else runGroups.push(groupId);
    }
    // A few lines (a {mt} template's row) are checked as they come: sorting them costs more than
    // it saves, and their groups are mostly a row's lines.
    this.checked = interleaved && end - from > 4 * BY_GROUP_MIN_LINES;
    return end;
  }

  /** Set by `closedRun`. */
  private checked = false;

  /** Writes held lines from `from` on while their groups are closed; returns where it stopped. */
  write(from: number, isClosed: (group: number) => boolean): number {
    const end = this.closedRun(from, isClosed);
    const checked = this.checked;
    if (checked) this.checkByGroup(from, end);
    const heldInts = this.list.ints.data;
    const { mts } = this.p;
    const { texts, blocks, drop, rowGroups } = this;
    // The group whose run of lines is being written (a run may go on from the last call's).
    let runGroup = -1;
    for (let at = from; at < end; at += 4) {
      const groupId = heldInts[at] as number;
      const r = heldInts[at + 1] as number;
      const bits = heldInts[at + 3] as number;
      const k = bits >> 4;
      const mt = mts[k] as number;
      const keyword = texts.remakeKeyword(r, k);
      if (groupId !== this.heldGroup) {
        this.heldGroup = groupId;
        this.groupName =
          groupId === this.namedGroup ? this.namedGroupName : this.groups.spell(groupId);
      }
      const groupName = this.groupName;
      if (!checked && groupId !== runGroup) {
        runGroup = groupId;
        // The group's lines here, to tell whether indexing it pays.
        let last = at + 4;
        while (last < end && heldInts[last] === groupId) last += 4;
        if (groupName !== '') blocks.load(groupId, (last - at) / 4);
      }
      if (checked) {
        if (this.takeBatchFinds((at - from) / 4) && drop) continue;
      } else if (groupName !== '' && blocks.check(groupId, r, k, keyword, texts.lastWordOf(r, k)))
        continue;
      const campaignId = heldInts[at + 2] as number;
      // Mostly the campaign of the row just read (no table look-up for it).
      const campaign =
        campaignId === rowGroups.lastCampaignId
          ? rowGroups.lastCampaign
          : this.campaigns.textOf(campaignId);
      this.negativeCsv.line(groupId, campaign, groupName, keyword, mt, bits & 7, r);
    }
    this.batchFinds.length = 0;
    return end;
  }

  /** Moves the finds `checkByGroup` kept for line `i` of its batch to the report; false: none. */
  private takeBatchFinds(i: number): boolean {
    let f = this.findAt[i] as number;
    if (f < 0) return false;
    const finds = this.batchFinds.data;
    for (; f < this.batchFinds.length && finds[f] === i; f += 6)
      for (let v = 1; v < 6; v++) this.blockedFinds.push(finds[f + v] as number);
    return true;
  }

  /**
   * Hands over the blocking checks' reports (after every row's), in the held lines' order; each
   * after `negativeRow` is called with the row of its negative line when given.
   */
  reportFinds(
    rows: FeedRows,
    rowLabel: (rowNumber: number) => string,
    report: (issue: RowIssue) => void,
    negativeRow?: (row: number) => void,
  ): void {
    const blockingIssue = blockingIssueMaker(
      rows,
      this.p.mts,
      this.texts.remakeKeyword,
      (group) => this.groups.spell(group),
      rowLabel,
      this.drop,
    );
    const finds = this.blockedFinds;
    for (let i = 0; i < finds.length; i += 5) {
      negativeRow?.(finds.at(i + 1));
      report(
        blockingIssue(
          finds.at(i),
          finds.at(i + 1),
          finds.at(i + 2),
          finds.at(i + 3),
          finds.at(i + 4),
        ),
      );
    }
  }
}
