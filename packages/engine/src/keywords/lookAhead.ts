/**
 * The keyword step's look-ahead: which row is the last to reach each ad group, so that a group
 * can be closed (its held negatives written, its lines dropped) as soon as the rows pass it.
 * Keyed by the hashes of the folded names; names are made again and compared only when the
 * hashes match (a hash shared by two groups would keep the first one open).
 */
import type { GenerateCampaignStructureInput } from '../campaignInput.ts';
import { sealHash } from '../hash.ts';
import { foldName } from '../names.ts';
import type { FeedRows } from '../types.ts';
import { GroupKeyMaker, NameCells } from './groupKeys.ts';
import { NO_MT } from './matchTypes.ts';
import type { RowTexts } from './rowTexts.ts';

/** Bits of `lastRowsOfGroups`: no later row names the row's group; another row names it. */
export const LAST_ROW = 1;
const SHARED_GROUP = 2;

/** What `groupsOfRows` finds (see there). */
export interface MtGroups {
  last: Uint8Array;
  ident: Int32Array;
}

/** Whether two rows name one group: their cells compared as bytes first, then their names. */
class SameGroups {
  private readonly nameCells: NameCells;

  constructor(
    input: GenerateCampaignStructureInput,
    private readonly texts: RowTexts,
  ) {
    this.nameCells = new NameCells(input.template);
  }

  /**
   * True when rows `a` and `b` name one campaign and ad group (their folded names are equal).
   * Rows of a group mostly have the same cells: compared as bytes first, no name is made.
   */
  same(rows: FeedRows, a: number, b: number): boolean {
    const { spellGroup, spellCampaign } = this.texts;
    return (
      this.nameCells.same(rows, a, b) ||
      (foldName(spellGroup(a, NO_MT)) === foldName(spellGroup(b, NO_MT)) &&
        foldName(spellCampaign(a)) === foldName(spellCampaign(b)))
    );
  }

  /** True when row `a`'s group for match type `mtA` is row `b`'s for `mtB` (see `same`). */
  sameOf(rows: FeedRows, a: number, mtA: number, b: number, mtB: number): boolean {
    const { spellGroup, spellCampaign } = this.texts;
    return (
      (mtA === mtB && this.nameCells.same(rows, a, b)) ||
      (foldName(spellGroup(a, mtA)) === foldName(spellGroup(b, mtB)) &&
        foldName(spellCampaign(a)) === foldName(spellCampaign(b)))
    );
  }
}

/**
 * Per row LAST_ROW when no later row names the same campaign and ad group (so no row after it
 * can reach its group), and SHARED_GROUP when another row names it. For a template without
 * `{mt}`; the keys are `input.groupKeys` when given.
 */
export function lastRowsOfGroups(
  input: GenerateCampaignStructureInput,
  texts: RowTexts,
): Uint8Array {
  const { rows, template } = input;
  const sameGroups = new SameGroups(input, texts);
  let given = input.groupKeys;
  if (!given || given.keys.length < rows.length || given.named.length < rows.length) {
    given = { keys: new Int32Array(rows.length), named: new Uint8Array(rows.length) };
    new GroupKeyMaker(template).fill(rows, 0, rows.length, given);
  }
  const { keys, named } = given;
  const last = new Uint8Array(rows.length);
  const mask = 2 ** Math.ceil(Math.log2(2 * rows.length + 2)) - 1;
  /** Per slot its key and the row of its key + 1 (0 = empty): one cache line per probe. */
  const slots = new Int32Array(2 * (mask + 1));
  for (let r = rows.length - 1; r >= 0; r--) {
    if (named[r] !== 1) continue;
    const key = keys[r] as number;
    let s = key & mask;
    for (; slots[2 * s + 1] !== 0; s = (s + 1) & mask)
      if (slots[2 * s] === key && sameGroups.same(rows, r, (slots[2 * s + 1] as number) - 1)) break;
    if (slots[2 * s + 1] !== 0) {
      // The group's last row (the slot's) and this one share it.
      (last[(slots[2 * s + 1] as number) - 1] as number) |= SHARED_GROUP;
      last[r] = SHARED_GROUP;
      continue;
    }
    slots[2 * s] = key;
    slots[2 * s + 1] = r + 1;
    last[r] = LAST_ROW;
  }
  return last;
}

/**
 * `lastRowsOfGroups` for a `{mt}` template, whose rows name up to three groups (one per match
 * type of `reachMts`; two rows may name one group under different match types). `last`: per row
 * a bit per match type, set when no later row names that group under any match type. `ident`:
 * per row and match type (3 * row + mt) the group's number, -1 when the name is skipped: the
 * 3 * row + mt of the last row to name it (so a row's Exact keywords are listed under their
 * Broad group before it exists, and the group's row and match type are known when it closes).
 */
export function groupsOfRows(
  input: GenerateCampaignStructureInput,
  texts: RowTexts,
  reachMts: readonly number[],
): MtGroups {
  const { rows, template } = input;
  const sameGroups = new SameGroups(input, texts);
  const keyer = new GroupKeyMaker(template);
  const last = new Uint8Array(rows.length);
  const ident = new Int32Array(3 * rows.length).fill(-1);
  // At most three quarters of the slots are used (a third fewer pages than half).
  const mask = 2 ** Math.ceil(Math.log2((4 / 3) * reachMts.length * rows.length + 2)) - 1;
  /** Per slot its key and the group's number + 1 (0 = empty). */
  const slots = new Int32Array(2 * (mask + 1));
  for (let r = rows.length - 1; r >= 0; r--) {
    keyer.measureAt(rows, r);
    const campaign = keyer.campaignHash();
    if (campaign === undefined) continue;
    for (const mt of reachMts) {
      const group = keyer.groupHash(mt);
      if (group === undefined) continue;
      const key = sealHash(group, campaign, 1);
      let s = key & mask;
      for (; slots[2 * s + 1] !== 0; s = (s + 1) & mask) {
        const other = (slots[2 * s + 1] as number) - 1;
        if (
          slots[2 * s] === key &&
          sameGroups.sameOf(rows, r, mt, Math.floor(other / 3), other % 3)
        )
          break;
      }
      if (slots[2 * s + 1] === 0) {
        slots[2 * s] = key;
        slots[2 * s + 1] = 3 * r + mt + 1;
        (last[r] as number) |= 1 << mt;
      }
      ident[3 * r + mt] = (slots[2 * s + 1] as number) - 1;
    }
  }
  return { last, ident };
}
