/**
 * Closing ad groups as the rows pass them: after the last row that can reach a group (see
 * lookAhead.ts) its held negatives are written and its lines dropped, so the line sets hold the
 * open groups' lines, not every line of the run.
 */
import { polyHash, sealHash } from '../hash.ts';
import { cleanName, foldName } from '../names.ts';
import type { HeldLines } from './heldLines.ts';
import { IntList } from './intLists.ts';
import { LAST_ROW, type MtGroups } from './lookAhead.ts';
import { NO_MT } from './matchTypes.ts';
import type { KeywordPatterns } from './patterns.ts';
import type { PendingExacts } from './pendingExact.ts';
import type { RowGroups } from './rowGroups.ts';
import type { RowTexts } from './rowTexts.ts';
import type { GroupLineSets, TextKeyTable } from './textTables.ts';

/** Closes groups after their last row (see the file comment). */
export class GroupClosing {
  /**
   * Per group 1 once closed. Sized for every group at once (pages never reached are never
   * touched): a list grown while the rows are read runs code that the keyword step's optimised
   * code has not seen, which throws it away (V8 deoptimises it) at the first growth.
   */
  private closed: Uint8Array;
  /** The closed groups whose lines wait for their held lines to be written. */
  private readonly toDrop = new IntList();
  /** The first held line not written. */
  heldFrom = 0;
  /** The groups table's hash of the group `groupOfRow` returned (to forget it). */
  private closingHash = 0;

  constructor(
    private readonly p: KeywordPatterns,
    private readonly texts: RowTexts,
    private readonly rowGroups: RowGroups,
    private readonly groups: TextKeyTable,
    private readonly lines: GroupLineSets,
    private readonly negatives: GroupLineSets,
    private readonly held: HeldLines,
    private readonly pending: PendingExacts,
    /** Without `{mt}`: per row its `lastRowsOfGroups` bits. */
    private readonly lastRows: Uint8Array | undefined,
    /** With `{mt}`: `groupsOfRows`. */
    private readonly mtGroups: MtGroups | undefined,
    maxGroups: number,
  ) {
    this.closed = new Uint8Array(lastRows || mtGroups ? Math.max(1024, maxGroups) : 0);
  }

  /** True when group `group` is closed (a function: it is handed on). */
  readonly isClosed = (group: number): boolean => this.closed[group] === 1;

  private markClosed(groupId: number): void {
    if (groupId >= this.closed.length) {
      const grown = new Uint8Array(Math.max(2 * this.closed.length, groupId + 1));
      grown.set(this.closed);
      this.closed = grown;
    }
    this.closed[groupId] = 1;
    this.toDrop.push(groupId);
  }

  /** After row `r`: closes its group(s) when no later row can reach them. */
  closeAfter(r: number): void {
    if (this.mtGroups) {
      if (!this.closeMtGroupsAfter(r, this.mtGroups)) return;
    } else {
      const rowGroupId = this.rowGroups.rowGroupId;
      const groupId = rowGroupId[NO_MT] as number;
      rowGroupId[NO_MT] = -1;
      if (groupId < 0 || (((this.lastRows as Uint8Array)[r] as number) & LAST_ROW) === 0) return;
      this.markClosed(groupId);
    }
    const held = this.held.list.ints;
    this.heldFrom = this.held.write(this.heldFrom, this.isClosed);
    // Dropped once every held line before them is written (their lines may block some).
    if (this.heldFrom < held.length) return;
    held.length = this.heldFrom = 0;
    const toDrop = this.toDrop;
    for (let i = 0; i < toDrop.length; i++) {
      this.lines.drop(toDrop.data[i] as number);
      this.negatives.drop(toDrop.data[i] as number);
    }
    toDrop.length = 0;
  }

  /**
   * With {mt}, after row `r`: closes the groups no later row names. A Broad group's pending
   * Exact keywords are checked against its Negative Exact lines first (its set is complete: no
   * later row adds to it), so the set can be dropped; the lines are still written at the end.
   */
  private closeMtGroupsAfter(r: number, mtGroups: MtGroups): boolean {
    const { last, ident } = mtGroups;
    const bits = last[r] as number;
    if (bits === 0) return false;
    let closes = false;
    for (const mt of this.p.reachMts) {
      if (((bits >> mt) & 1) === 0) continue;
      const g = 3 * r + mt;
      this.pending.settle(g);
      const groupId = this.groupOfRow(r, mt, g, ident);
      if (groupId < 0) continue;
      this.markClosed(groupId);
      // No row looks it up again, and its pending lines written at the end keep its id (above):
      // the slots hold the open groups only.
      this.groups.forget(groupId, this.closingHash);
      closes = true;
    }
    return closes;
  }

  /**
   * The ad group row `r` (the last row read) names for `mt`, whose number is `g`: the row's own
   * when it made it (under this or another match type), else looked up (-1 when none exists).
   */
  private groupOfRow(r: number, mt: number, g: number, ident: Int32Array): number {
    const { rowGroupId, rowGroupHash, lastCampaignId } = this.rowGroups;
    for (const m of this.p.reachMts)
      if (ident[3 * r + m] === g && (rowGroupId[m] as number) >= 0) {
        this.closingHash = sealHash(rowGroupHash[m] as number, lastCampaignId, 1);
        return rowGroupId[m] as number;
      }
    const name = this.texts.spellGroup(r, mt);
    if (name === '' || cleanName(name).isTooLong) return -1;
    this.closingHash = sealHash(polyHash(foldName(name)), lastCampaignId, 1);
    return this.groups.find(this.closingHash, lastCampaignId, 0, name, r, mt);
  }
}
