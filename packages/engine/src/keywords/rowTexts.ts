/**
 * The texts of a row: names and keywords made from their plans when they need no tidying (from
 * their pieces, with their hashes), else filled and cleaned the general way; and a remembered
 * text made again from its row and pattern.
 */
import { polyHash } from '../hash.ts';
import { cleanFilledKeyword, cleanKeyword, cleanKeywordQuick } from '../keywords.ts';
import { cleanName, fillRaw, nameProblem, type NameKind } from '../names.ts';
import { SLOT_NUMBER, type CompiledPattern, type PlaceholderValues } from '../text.ts';
import type { CampaignTemplate, FeedRow, FeedRows } from '../types.ts';
import { newFeedCells } from '../feedColumns.ts';
import { MATCH_TYPE_CODES, NO_MT } from './matchTypes.ts';
import type { KeywordPatterns } from './patterns.ts';
import {
  measurePiece,
  MT_SLOT,
  measuredPiece,
  PlanFiller,
  type PieceFacts,
  type Plan,
} from './plans.ts';
import type { RowIssues } from './rowIssues.ts';

/** A row's texts (see the file comment). */
export class RowTexts {
  readonly filler = new PlanFiller();
  /**
   * The current row's values. The fields of a feed row in their order, so that it has the rows'
   * shape. No row is read ahead of the loop: a store that makes rows as they are read
   * (FeedRows) would make the first twice.
   */
  readonly values: PlaceholderValues;
  /** Values for making a remembered text again (never the current row's object). */
  private readonly again: PlaceholderValues;
  /** {mt} as each match type (by code), and empty. */
  private readonly mtFacts: PieceFacts[];
  private readonly emptyMt: PieceFacts;
  /**
   * The keyword each pattern made last, and its row: a group closed right after its row reads
   * its lines and held negatives from here instead of making them again.
   */
  readonly madeRow: Int32Array;
  private readonly madeText: string[];
  private readonly madeHash: Int32Array;
  /**
   * 1 when that keyword was made from its pieces (`fillKeyword`): it ends with its pattern's
   * last part, so its last word is known when that part holds a space (see `lastWords`).
   */
  readonly madeWhole: Uint8Array;

  constructor(
    readonly p: KeywordPatterns,
    template: CampaignTemplate,
    private readonly rows: FeedRows,
    private readonly issues: RowIssues,
  ) {
    measurePiece(this.filler.slots[SLOT_NUMBER.const] as PieceFacts, template.const);
    this.mtFacts = MATCH_TYPE_CODES.map(measuredPiece);
    this.emptyMt = measuredPiece('');
    this.setMt(-1);
    const emptyRow = { id: '', ...newFeedCells() };
    this.values = { row: emptyRow, const: template.const, mt: '' };
    this.again = { row: emptyRow, const: template.const, mt: '' };
    const n = p.pats.length;
    this.madeRow = new Int32Array(n).fill(-1);
    this.madeText = p.pats.map(() => '');
    this.madeWhole = new Uint8Array(n);
    this.madeHash = new Int32Array(n);
  }

  /** {mt} is the match type while an ad group name is filled, else empty (as in fillPattern). */
  setMt(mt: number): void {
    this.filler.slots[MT_SLOT] = mt < 0 ? this.emptyMt : (this.mtFacts[mt] as PieceFacts);
  }

  /** Remembers the keyword pattern `pattern` made for `row`. */
  made(row: number, pattern: number, keyword: string, hash: number, whole: boolean): void {
    this.madeRow[pattern] = row;
    this.madeText[pattern] = keyword;
    this.madeHash[pattern] = hash;
    this.madeWhole[pattern] = whole ? 1 : 0;
  }

  /** The keyword pattern `pattern` makes for `row` (a function: it is handed on). */
  readonly remakeKeyword = (row: number, pattern: number): string => {
    if (this.madeRow[pattern] === row) return this.madeText[pattern] as string;
    const again = this.again;
    again.row = this.rows.at(row) as FeedRow;
    again.mt = '';
    const raw = fillRaw(this.p.pats[pattern] as CompiledPattern, again);
    return cleanKeywordQuick(raw) ?? cleanKeyword(raw).keyword;
  };

  /**
   * The ad group name `row` makes for match type `mt`, as written (an entry's first spelling:
   * the tables fold names when they compare them).
   */
  readonly spellGroup = (row: number, mt: number): string => {
    const again = this.again;
    again.row = this.rows.at(row) as FeedRow;
    again.mt = mt === NO_MT ? '' : (MATCH_TYPE_CODES[mt] as string);
    const g = cleanName(fillRaw(this.p.groupPattern, again)).name;
    again.mt = '';
    return g;
  };

  /** The campaign name `row` makes, as written. */
  readonly spellCampaign = (row: number): string => {
    const again = this.again;
    again.row = this.rows.at(row) as FeedRow;
    again.mt = '';
    return cleanName(fillRaw(this.p.campaignPattern, again)).name;
  };

  /**
   * The row's keyword of pattern `k` in `filler` (`text`, `hash`, `isPlain`): from its pieces when
   * it needs no cleaning, else filled and cleaned the general way (not plain). False when
   * cleaning leaves nothing (reported).
   */
  fillKeywordOf(k: number, row: FeedRow, rowNumber: number, isNegative: boolean): boolean {
    const filler = this.filler;
    const same = this.p.sameAs[k] as number;
    if (same >= 0 && this.madeRow[same] === rowNumber - 1 && this.madeWhole[same] === 1) {
      filler.text = this.madeText[same] as string;
      filler.hash = this.madeHash[same] as number;
      filler.isPlain = true;
      return true;
    }
    if (filler.fillKeyword(this.p.plans[k] as Plan)) return true;
    const pattern = this.p.pats[k] as CompiledPattern;
    const cleaned = cleanFilledKeyword(
      fillRaw(pattern, this.values),
      pattern.source,
      this.issues.issue,
      row,
      rowNumber,
      isNegative,
      MATCH_TYPE_CODES[this.p.mts[k] as number],
    );
    if (cleaned === undefined) return false;
    filler.text = cleaned;
    filler.hash = polyHash(cleaned);
    filler.isPlain = false;
    return true;
  }

  /** A name that `fillName` could not make: cleaned by `cleanName`, reported when `report`. */
  slowName(
    pattern: CompiledPattern,
    what: NameKind,
    row: FeedRow,
    rowNumber: number,
    report: boolean,
  ): string {
    const c = cleanName(fillRaw(pattern, this.values));
    const problem = nameProblem(c, what);
    if (problem && report)
      this.issues.issue(problem.kind, row, rowNumber, problem.code, problem.message);
    return problem?.kind === 'skipped' ? '' : c.name;
  }

  /** The keyword's last word without a scan of it, when it is known (see `madeWhole`). */
  lastWordOf(row: number, k: number): string | undefined {
    return this.madeRow[k] === row && this.madeWhole[k] === 1 ? this.p.lastWords[k] : undefined;
  }
}
