/** The look-ahead's keys of rows' campaign and ad group, and rows' name cells compared as bytes. */
import type { RowGroupKeys } from '../campaignInput.ts';
import { CampaignRowMaker } from '../campaignRows.ts';
import { composeHash, HASH_BASE, polyHash, sealHash } from '../hash.ts';
import { NAME_MAX_CHARS } from '../limits.ts';
import { cleanName, fillRaw, foldName, nameProblem, type NameKind } from '../names.ts';
import {
  PLACEHOLDERS,
  SLOT_NUMBER,
  compilePattern,
  type CompiledPattern,
  type PlaceholderValues,
} from '../text.ts';
import { FEED_COLUMNS, type CampaignTemplate, type FeedRow, type FeedRows } from '../types.ts';
import { newFeedCells } from '../feedColumns.ts';
import { EXACT, MATCH_TYPE_CODES, matchTypeCode } from './matchTypes.ts';
import {
  ASCII,
  MT_SLOT,
  TIDY_VALUE,
  measurePiece,
  measuredPiece,
  planOf,
  powerOf,
  PlanFiller,
  type PieceFacts,
  type Plan,
} from './plans.ts';

/**
 * The keys of rows' campaign and ad group (the hashes of their folded names, sealed together), as
 * the keyword step's look-ahead keys them (`lastRowsOfGroups`): a template without `{mt}` whose
 * keywords include a positive one (`usesGroupKeys`). A maker keys any range of rows, so the
 * command line keys the feed on two threads, a chunk at a time
 * (`GenerateCampaignStructureInput.groupKeys`). A `{mt}` template's look-ahead (`groupsOfRows`)
 * keys its rows' names one match type at a time (`measureAt`, `campaignHash`, `groupHash`).
 */
export class GroupKeyMaker {
  private readonly campaignPattern: CompiledPattern;
  private readonly groupPattern: CompiledPattern;
  private readonly campaignPlan: Plan;
  private readonly groupPlan: Plan;
  /** The row slots the names use ({mt} and {const} are fixed). */
  private readonly nameSlots: number[] = [];
  private readonly filler = new PlanFiller();
  private readonly values: PlaceholderValues;
  /** {mt} as each match type (by code), and empty (while a campaign name is filled). */
  private readonly mtFacts: PieceFacts[];
  private readonly emptyMt: PieceFacts;
  /** How each name is hashed from a row's bytes (`measureAt`). */
  private readonly campaignWay: NameWay;
  private readonly groupWay: NameWay;
  /** The hash of a FIXED_NAME name (undefined: skipped). */
  private readonly campaignFixed: number | undefined;
  private readonly groupFixed: number | undefined;
  /** Where a row's cells start in its bytes (`FeedRows.asciiCells`). */
  private readonly bounds = new Int32Array(FEED_COLUMNS.length + 1);
  /** Per slot number the folded hash and length of the row's cell (and of {const} and {mt}). */
  private readonly cellHash = new Int32Array(PLACEHOLDERS.length);
  private readonly cellLength = new Int32Array(PLACEHOLDERS.length);
  /** The hash `cellsNameHash` made. */
  private hash = 0;
  /** Both names can be keyed from a row's bytes (neither is GENERAL_NAME, no location read). */
  private readonly byBytes: boolean;
  /** The template's locations, when it writes some (each row's location decides its campaign). */
  private readonly locations: CampaignRowMaker | undefined;
  /** The row `measureAt` took, and whether its cells were measured from its bytes. */
  private rows: FeedRows | undefined;
  private rowIndex = -1;
  private fromCells = false;

  /** True when the keyword step keys the rows of `template` (see the class). */
  static usesGroupKeys(template: CampaignTemplate): boolean {
    return (
      !compilePattern(template.adGroup).slots.includes('mt') &&
      template.keywords.some((k) => k.keyword.trim() !== '' && matchTypeCode(k.matchType) <= EXACT)
    );
  }

  constructor(template: CampaignTemplate) {
    this.campaignPattern = compilePattern(template.campaign);
    this.groupPattern = compilePattern(template.adGroup);
    this.campaignPlan = planOf(this.campaignPattern);
    this.groupPlan = planOf(this.groupPattern);
    for (const plan of [this.campaignPlan, this.groupPlan])
      for (const slot of plan.slots)
        if (slot !== MT_SLOT && PLACEHOLDERS[slot] !== 'const' && !this.nameSlots.includes(slot))
          this.nameSlots.push(slot);
    const constFacts = this.filler.slots[SLOT_NUMBER.const] as PieceFacts;
    measurePiece(constFacts, template.const);
    this.mtFacts = MATCH_TYPE_CODES.map(measuredPiece);
    this.emptyMt = measuredPiece('');
    this.filler.slots[MT_SLOT] = this.emptyMt;
    const emptyRow = newFeedCells();
    this.values = { row: emptyRow, const: template.const, mt: '' };
    const constTidy = (constFacts.flags & (TIDY_VALUE | ASCII)) === (TIDY_VALUE | ASCII);
    this.cellHash[SLOT_NUMBER.const] = constFacts.lowerHash;
    this.cellLength[SLOT_NUMBER.const] = constFacts.length;
    this.campaignWay = nameWay(this.campaignPlan, constTidy);
    this.groupWay = nameWay(this.groupPlan, constTidy);
    // A name of no row cell is the same for every row: made once, the general way.
    this.campaignFixed = this.campaignWay === FIXED_NAME ? this.campaignHash() : undefined;
    this.groupFixed = this.groupWay === FIXED_NAME ? this.groupHash(-1) : undefined;
    // A row without a valid location makes no campaign (`CampaignRowMaker.read`): such rows are
    // keyed from the made row, whose location is read (location templates are few).
    const locations = new CampaignRowMaker(template);
    this.locations = locations.hasLocations ? locations : undefined;
    this.byBytes =
      this.campaignWay !== GENERAL_NAME &&
      this.groupWay !== GENERAL_NAME &&
      this.locations === undefined;
  }

  /** Keys rows `from` to `to` (not included) of `rows` into `out`. */
  fill(rows: FeedRows, from: number, to: number, out: RowGroupKeys): void {
    const { keys, named } = out;
    for (let r = from; r < to; r++) {
      if (this.byBytes && this.fillFromBytes(rows, r, out)) continue;
      this.measure(rows.at(r) as FeedRow);
      named[r] = 0;
      const campaign = this.campaignHash();
      if (campaign === undefined) continue;
      const group = this.groupHash(-1);
      if (group === undefined) continue;
      keys[r] = sealHash(group, campaign, 1);
      named[r] = 1;
    }
  }

  /**
   * Takes row `r` of `rows` as the row whose names are keyed next: from its bytes, without making
   * the row, when it is ASCII and the cells its names use need no tidying (`measureCells`); else
   * made and measured.
   */
  measureAt(rows: FeedRows, r: number): void {
    this.rows = rows;
    this.rowIndex = r;
    const bytes = this.byBytes ? rows.asciiCells?.(r, this.bounds) : undefined;
    this.fromCells = bytes !== undefined && this.measureCells(bytes);
    if (!this.fromCells) this.measure(rows.at(r) as FeedRow);
  }

  /** Makes and measures the row `measureAt` took from its bytes (for a name too long). */
  private measureMade(): void {
    this.measure((this.rows as FeedRows).at(this.rowIndex) as FeedRow);
  }

  /**
   * `fill` for row `r` from its bytes when `measureAt` would take them and both names are keyed
   * from them; false for any other row. The loop of the keys that the command line makes on both
   * threads before the keyword step: its own few small functions are compiled sooner than
   * `campaignHash` and `groupHash` (a first run of 25k rows took 4 ms less).
   */
  private fillFromBytes(rows: FeedRows, r: number, out: RowGroupKeys): boolean {
    const bytes = rows.asciiCells?.(r, this.bounds);
    if (bytes === undefined || !this.measureCells(bytes)) return false;
    let campaign = this.campaignFixed;
    if (this.campaignWay === CELLS_NAME) {
      if (!this.cellsNameHash(this.campaignPlan)) return false;
      campaign = this.hash;
    }
    let group = this.groupFixed;
    if (this.groupWay === CELLS_NAME) {
      // {mt} as none is empty: not a tidy value.
      if (this.groupPlan.mtAt >= 0 || !this.cellsNameHash(this.groupPlan)) return false;
      group = this.hash;
    }
    if (campaign === undefined || group === undefined) out.named[r] = 0;
    else {
      out.keys[r] = sealHash(group, campaign, 1);
      out.named[r] = 1;
    }
    return true;
  }

  /**
   * Measures the name cells of a row's ASCII `bytes` (cells at `bounds`) into `cellHash` and
   * `cellLength`: false when one is not a TIDY_VALUE (empty, a control character, an outer or a
   * double space), which the general way tidies. Slot numbers of row cells are FEED_COLUMNS
   * indexes, so `bounds[slot]` is where the slot's cell starts.
   */
  private measureCells(bytes: Uint8Array): boolean {
    const { nameSlots, bounds } = this;
    for (let i = 0; i < nameSlots.length; i++) {
      const slot = nameSlots[i] as number;
      const start = bounds[slot] as number;
      const end = bounds[slot + 1] as number;
      if (start === end || bytes[start] === 32 || bytes[end - 1] === 32) return false;
      let hash = 0;
      let prev = 0;
      for (let j = start; j < end; j++) {
        let c = bytes[j] as number;
        if (c < 32 || c === 127 || (c === 32 && prev === 32)) return false;
        prev = c;
        // Folded as `foldName` folds ASCII (the hash is `PieceFacts.lowerHash`).
        if (c >= 65 && c <= 90) c += 32;
        hash = (Math.imul(hash, HASH_BASE) + c) | 0;
      }
      this.cellHash[slot] = hash;
      this.cellLength[slot] = end - start;
    }
    return true;
  }

  /** `PlanFiller.nameHash` from the measured cells, into `hash`: false when too long. */
  private cellsNameHash(plan: Plan): boolean {
    const { parts, slots } = plan;
    let length = plan.frameLength;
    let hash = (parts[0] as PieceFacts).lowerHash;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as number;
      const n = this.cellLength[slot] as number;
      length += n;
      const part = parts[i + 1] as PieceFacts;
      hash = composeHash(
        composeHash(hash, powerOf(n), this.cellHash[slot] as number),
        part.pow,
        part.lowerHash,
      );
    }
    this.hash = hash;
    return length <= NAME_MAX_CHARS;
  }

  /** Takes `row` as the row whose names are keyed next. */
  private measure(row: FeedRow): void {
    this.fromCells = false;
    this.values.row = row;
    this.filler.measureRow(row, this.nameSlots);
  }

  /**
   * The hash of the measured row's folded campaign name; undefined when it is skipped (its name,
   * or its location: see `CampaignRowMaker.read`).
   */
  campaignHash(): number | undefined {
    if (this.locations && !this.locations.read(this.values.row as FeedRow, this.values))
      return undefined;
    if (this.fromCells) {
      if (this.campaignWay === FIXED_NAME) return this.campaignFixed;
      if (this.cellsNameHash(this.campaignPlan)) return this.hash;
      this.measureMade();
    }
    return this.foldedNameHash(this.campaignPlan, this.campaignPattern, 'Campaign');
  }

  /** The same for its ad group name, with {mt} as match type `mt` (-1: none). */
  groupHash(mt: number): number | undefined {
    if (this.fromCells) {
      if (this.groupWay === FIXED_NAME) return this.groupFixed;
      if (mt >= 0) {
        const f = this.mtFacts[mt] as PieceFacts;
        this.cellHash[MT_SLOT] = f.lowerHash;
        this.cellLength[MT_SLOT] = f.length;
      }
      // {mt} as none is empty: not a tidy value.
      if ((mt >= 0 || this.groupPlan.mtAt < 0) && this.cellsNameHash(this.groupPlan))
        return this.hash;
      this.measureMade();
    }
    if (mt < 0) return this.foldedNameHash(this.groupPlan, this.groupPattern, 'Ad group');
    this.filler.slots[MT_SLOT] = this.mtFacts[mt] as PieceFacts;
    this.values.mt = MATCH_TYPE_CODES[mt] as string;
    const hash = this.foldedNameHash(this.groupPlan, this.groupPattern, 'Ad group');
    this.values.mt = '';
    this.filler.slots[MT_SLOT] = this.emptyMt;
    return hash;
  }

  /** The hash of a name's folded form as the row fills it; undefined when it is skipped. */
  private foldedNameHash(plan: Plan, pattern: CompiledPattern, what: NameKind): number | undefined {
    if (this.filler.nameHash(plan)) return this.filler.hash;
    const c = cleanName(fillRaw(pattern, this.values));
    if (nameProblem(c, what)?.kind === 'skipped') return undefined;
    return c.name === '' ? undefined : polyHash(foldName(c.name));
  }
}

/**
 * The row cells names use ({mt} and {const} are fixed), compared between two rows as bytes
 * (`FeedRows.asciiCells`).
 */
export class NameCells {
  private readonly slots: number[] = [];
  /** The names' literal parts and {const} are ASCII (else `same` answers false). */
  private readonly isAsciiFrame: boolean;
  private readonly boundsA = new Int32Array(FEED_COLUMNS.length + 1);
  private readonly boundsB = new Int32Array(FEED_COLUMNS.length + 1);

  constructor(template: Pick<CampaignTemplate, 'campaign' | 'adGroup' | 'const'>) {
    const plans = [template.campaign, template.adGroup].map((p) => planOf(compilePattern(p)));
    const constFacts = measuredPiece(template.const);
    let isAsciiFrame = plans.every((plan) => plan.isAsciiFrame);
    for (const plan of plans)
      for (const slot of plan.slots)
        if (slot === SLOT_NUMBER.const) isAsciiFrame &&= (constFacts.flags & ASCII) !== 0;
        else if (slot !== MT_SLOT && !this.slots.includes(slot)) this.slots.push(slot);
    this.isAsciiFrame = isAsciiFrame;
  }

  /**
   * True when rows `a` and `b` are ASCII and their cells are equal ignoring ASCII case: with an
   * ASCII frame their names are then ASCII, filled alike but for case, which cleaning keeps (an
   * ASCII name is not normalised), so they fold alike. (A non-ASCII frame could compose a
   * letter with a mark that has a precomposed form in one case only.) False says nothing: cells
   * split another way may fill the same name.
   */
  same(rows: FeedRows, a: number, b: number): boolean {
    if (!this.isAsciiFrame) return false;
    const { slots, boundsA, boundsB } = this;
    const bytesA = rows.asciiCells?.(a, boundsA);
    const bytesB = bytesA && rows.asciiCells?.(b, boundsB);
    if (!bytesA || !bytesB) return false;
    for (const slot of slots) {
      const startA = boundsA[slot] as number;
      const startB = boundsB[slot] as number;
      const n = (boundsA[slot + 1] as number) - startA;
      if ((boundsB[slot + 1] as number) - startB !== n) return false;
      for (let i = 0; i < n; i++) {
        const x = bytesA[startA + i] as number;
        const y = bytesB[startB + i] as number;
        if (x !== y && !(x >= 65 && x <= 90 ? x + 32 === y : y >= 65 && y <= 90 && y + 32 === x))
          return false;
      }
    }
    return true;
  }
}

/** How `GroupKeyMaker.fill` hashes a name from a row's bytes (see `nameWay`). */
type NameWay = typeof FIXED_NAME | typeof CELLS_NAME | typeof GENERAL_NAME;
/** The name uses no row cell: the same hash for every row. */
const FIXED_NAME = 0;
/** The name is hashed from its cells when they need no tidying (`PlanFiller.nameHash`'s rule). */
const CELLS_NAME = 1;
/** Every row is made and measured. */
const GENERAL_NAME = 2;

/**
 * The way of `plan`'s name; `constTidy`: {const} is ASCII and a TIDY_VALUE ({mt}, a match type,
 * always is).
 */
function nameWay(plan: Plan, constTidy: boolean): NameWay {
  const slots = [...plan.slots];
  if (slots.every((slot) => slot === SLOT_NUMBER.const)) return FIXED_NAME;
  if (!plan.isTidyFrame || !plan.isAsciiFrame) return GENERAL_NAME;
  return constTidy || !slots.includes(SLOT_NUMBER.const) ? CELLS_NAME : GENERAL_NAME;
}
