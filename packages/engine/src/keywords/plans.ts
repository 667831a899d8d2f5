/**
 * Substitution plans: a pattern filled from its pieces, checked from per-row facts. Names and
 * keywords that need no tidying are made here, with their hashes, without the general fill and
 * clean.
 */
import { composeHash, HASH_BASE } from '../hash.ts';
import { KEYWORD_REJECTED_ASCII, KEYWORD_WORD_START_SYMBOL } from '../keywords.ts';
import { KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS, NAME_MAX_CHARS } from '../limits.ts';
import { PLACEHOLDERS, SLOT_NUMBER, type CompiledPattern } from '../text.ts';
import { FEED_COLUMNS, type FeedRow } from '../types.ts';

/** Piece flags. */
const NO_CONTROL = 1; // no character below U+0020, nor DEL
const NO_DOUBLE_SPACE = 2;
const STARTS_SPACE = 4;
const ENDS_SPACE = 8;
const CELL_PLAIN = 16; // no '"' or ',' (with the above: its own CSV cell)
const KEYWORD_PLAIN = 32; // ASCII without characters keywords reject (nor '"'), no word-initial K_SIGN
/** A value that fills a slot without any tidying: non-empty, no outer or double spaces. */
export const TIDY_VALUE = 64;
export const ASCII = 128;

/** Characters that keep a keyword piece off the fast path: those keywords reject, and '"'. */
const KEYWORD_BLOCKED = Uint8Array.from(KEYWORD_REJECTED_ASCII);
KEYWORD_BLOCKED[34] = 1;

/** Facts of one piece of text: a literal part of a pattern or a row's value. */
export interface PieceFacts {
  text: string;
  /** Lowercased (keyword pieces only; else the text). */
  lower: string;
  hash: number;
  /** The hash of the text lowercased (ASCII pieces; else `hash`): a name's folded hash. */
  lowerHash: number;
  /** HASH_BASE ** length. */
  pow: number;
  length: number;
  spaces: number;
  flags: number;
}

export function newPiece(): PieceFacts {
  return { text: '', lower: '', hash: 0, lowerHash: 0, pow: 1, length: 0, spaces: 0, flags: 0 };
}

/** Kinds of ASCII characters for `measurePiece` (a character may have several). */
const K_CONTROL = 1; // below U+0020, or DEL
const K_SPACE = 2;
const K_UPPER = 4;
const K_CELL = 8; // '"' or ',': the cell is quoted
const K_KEYWORD = 16; // rejected by keywords, or '"' (see KEYWORD_BLOCKED)
// A symbol keywords allow that, starting a word, may be notation ('-', '+', '[') or start a word
// of punctuation alone (KEYWORD_WORD_START_SYMBOL): cleanKeyword decides.
const K_SIGN = 32;
const K_NON_ASCII = 64;
const CHAR_KINDS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  let kind = 0;
  if (c < 32 || c === 127) kind |= K_CONTROL;
  if (c === 32) kind |= K_SPACE;
  if (c >= 65 && c <= 90) kind |= K_UPPER;
  if (c === 34 || c === 44) kind |= K_CELL;
  if (KEYWORD_BLOCKED[c] === 1) kind |= K_KEYWORD;
  else if (KEYWORD_WORD_START_SYMBOL[c] === 1) kind |= K_SIGN;
  CHAR_KINDS[c] = kind;
}

/** HASH_BASE ** n for the lengths most pieces have (no multiplication per character for it). */
const POWERS = new Int32Array(256);
POWERS[0] = 1;
for (let n = 1; n < POWERS.length; n++) POWERS[n] = Math.imul(POWERS[n - 1] as number, HASH_BASE);

/** HASH_BASE ** n. */
export function powerOf(n: number): number {
  if (n < POWERS.length) return POWERS[n] as number;
  let pow = POWERS[POWERS.length - 1] as number;
  for (let i = POWERS.length - 1; i < n; i++) pow = Math.imul(pow, HASH_BASE);
  return pow;
}

/**
 * Fills `f` with the facts of `s` (one scan; a second one for the lowercased hash of ASCII text
 * with capitals).
 */
export function measurePiece(f: PieceFacts, s: string): void {
  const n = s.length;
  let hash = 0;
  let spaces = 0;
  let noDouble = true;
  let signStartsWord = false;
  // The classes of every character met, OR-ed: one table look-up per character instead of a
  // comparison per fact.
  let seen = 0;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    hash = (Math.imul(hash, HASH_BASE) + c) | 0;
    const kind = c < 128 ? (CHAR_KINDS[c] as number) : K_NON_ASCII;
    seen |= kind;
    if ((kind & (K_SPACE | K_SIGN)) !== 0) {
      if (c === 32) {
        spaces++;
        if (prev === 32) noDouble = false;
      }
      // A K_SIGN symbol starting a word: cleanKeyword decides.
      else if (i === 0 || prev === 32) signStartsWord = true;
    }
    prev = c;
  }
  const hasUpper = (seen & K_UPPER) !== 0;
  const noControl = (seen & K_CONTROL) === 0;
  const cellPlain = (seen & K_CELL) === 0;
  const isAscii = (seen & K_NON_ASCII) === 0;
  const keywordPlain = (seen & (K_KEYWORD | K_NON_ASCII)) === 0 && !signStartsWord;
  let lowerHash = hash;
  if (hasUpper && isAscii) {
    lowerHash = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      lowerHash = (Math.imul(lowerHash, HASH_BASE) + (c >= 65 && c <= 90 ? c + 32 : c)) | 0;
    }
  }
  const starts = n > 0 && s.charCodeAt(0) === 32;
  const ends = n > 0 && prev === 32;
  let flags =
    (noControl ? NO_CONTROL : 0) |
    (noDouble ? NO_DOUBLE_SPACE : 0) |
    (starts ? STARTS_SPACE : 0) |
    (ends ? ENDS_SPACE : 0) |
    (cellPlain ? CELL_PLAIN : 0) |
    (keywordPlain ? KEYWORD_PLAIN : 0) |
    (isAscii ? ASCII : 0);
  if (n > 0 && noControl && noDouble && !starts && !ends) flags |= TIDY_VALUE;
  f.text = s;
  f.lower = keywordPlain && hasUpper ? s.toLowerCase() : s;
  f.hash = hash;
  f.lowerHash = lowerHash;
  f.pow = powerOf(n);
  f.length = n;
  f.spaces = spaces;
  f.flags = flags;
}

/** The facts of `text` alone, in a new piece. */
export function measuredPiece(text: string): PieceFacts {
  const f = newPiece();
  measurePiece(f, text);
  return f;
}

export const MT_SLOT = SLOT_NUMBER.mt;

/** A compiled pattern with its literal parts measured once. */
export interface Plan {
  pattern: CompiledPattern;
  parts: PieceFacts[];
  slots: Int32Array;
  /** Parts that can never make untidy text with tidy values: the filled text needs no tidying. */
  isTidyFrame: boolean;
  /** Every literal part is ASCII (a name's folded hash is made from its pieces: see `fillName`). */
  isAsciiFrame: boolean;
  isCellFrame: boolean;
  isKeywordFrame: boolean;
  frameLength: number;
  frameSpaces: number;
  /** Index of the first `{mt}` slot, or -1: the text before it is filled once per row. */
  mtAt: number;
  /** The fill before `mtAt` for the row `headStamp` (`headOk` false: not the fast way). */
  headStamp: number;
  headOk: boolean;
  headText: string;
  headHash: number;
  headPlain: boolean;
}

export function planOf(pattern: CompiledPattern): Plan {
  const parts = pattern.parts.map(measuredPiece);
  const all = (flag: number): boolean => parts.every((f) => (f.flags & flag) !== 0);
  const first = parts[0] as PieceFacts;
  const last = parts[parts.length - 1] as PieceFacts;
  return {
    pattern,
    parts,
    slots: Int32Array.from(pattern.slotAt),
    isTidyFrame:
      !pattern.isStatic &&
      all(NO_CONTROL) &&
      all(NO_DOUBLE_SPACE) &&
      (first.flags & STARTS_SPACE) === 0 &&
      (last.flags & ENDS_SPACE) === 0,
    isAsciiFrame: all(ASCII),
    isCellFrame: all(CELL_PLAIN),
    isKeywordFrame: all(KEYWORD_PLAIN),
    frameLength: parts.reduce((n, f) => n + f.length, 0),
    frameSpaces: parts.reduce((n, f) => n + f.spaces, 0),
    mtAt: pattern.slots.indexOf('mt'),
    headStamp: -1,
    headOk: false,
    headText: '',
    headHash: 0,
    headPlain: false,
  };
}

/**
 * Fills plans from one row's measured values. A fill sets `text`, `hash` (polyHash of the
 * text; for a name, of its folded form, see `foldName`) and `isPlain` (the text is its own CSV cell), or
 * returns false when the fast rules do not hold (then the caller fills the general way).
 */
export class PlanFiller {
  /** Facts per slot number for the current row. */
  readonly slots: PieceFacts[] = PLACEHOLDERS.map(() => newPiece());
  text = '';
  hash = 0;
  isPlain = false;

  /** Changes with each row measured (see `measureRow`). */
  private stamp = 0;
  /**
   * Per slot number the value its facts were measured from. Each starts as '' with its facts
   * measured (not undefined: the comparison in `measureRow` then only ever meets strings, which
   * keeps V8's optimised code of it).
   */
  private readonly measured: string[] = PLACEHOLDERS.map(() => '');

  constructor() {
    for (const f of this.slots) measurePiece(f, '');
  }

  /**
   * Measures the row's values of `slots` (once per row, for every pattern filled). A value equal
   * to the one its slot was measured from last has those facts already (feeds are often sorted,
   * so neighbouring rows share values).
   */
  measureRow(row: FeedRow, slots: readonly number[]): void {
    this.stamp++;
    const measured = this.measured;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as number;
      const value = row[FEED_COLUMNS[slot]!] ?? '';
      if (value === measured[slot]) continue;
      measured[slot] = value;
      measurePiece(this.slots[slot] as PieceFacts, value);
    }
  }

  /**
   * What `fillName` answers, and its `hash`, without making the text (the look-ahead needs only
   * the hash).
   */
  nameHash(plan: Plan): boolean {
    if (!plan.isTidyFrame || !plan.isAsciiFrame) return false;
    const { parts, slots } = plan;
    let length = plan.frameLength;
    let hash = (parts[0] as PieceFacts).lowerHash;
    for (let i = 0; i < slots.length; i++) {
      const v = this.slots[slots[i] as number] as PieceFacts;
      if ((v.flags & (TIDY_VALUE | ASCII)) !== (TIDY_VALUE | ASCII)) return false;
      length += v.length;
      const part = parts[i + 1] as PieceFacts;
      hash = composeHash(composeHash(hash, v.pow, v.lowerHash), part.pow, part.lowerHash);
    }
    this.hash = hash;
    return length <= NAME_MAX_CHARS;
  }

  /**
   * A name (campaign or ad group) of ASCII text that `cleanName` keeps as it is: the filled text,
   * tidy as `fillPattern` makes it, and the hash of its folded form (`foldName`).
   */
  fillName(plan: Plan): boolean {
    if (!plan.isTidyFrame || !plan.isAsciiFrame) return false;
    const { parts, slots } = plan;
    let from = 0;
    if (plan.mtAt > 0) {
      // The text before {mt} is the same for each match type of the row: fill it once.
      if (plan.headStamp !== this.stamp) {
        plan.headStamp = this.stamp;
        const first = parts[0] as PieceFacts;
        this.text = first.text;
        this.hash = first.lowerHash;
        plan.headOk = this.fillRange(plan, 0, plan.mtAt, plan.isCellFrame);
        plan.headText = this.text;
        plan.headHash = this.hash;
        plan.headPlain = this.isPlain;
      }
      if (!plan.headOk) return false;
      from = plan.mtAt;
      this.text = plan.headText;
      this.hash = plan.headHash;
      this.isPlain = plan.headPlain;
    } else {
      const first = parts[0] as PieceFacts;
      this.text = first.text;
      this.hash = first.lowerHash;
      this.isPlain = plan.isCellFrame;
    }
    return (
      this.fillRange(plan, from, slots.length, this.isPlain) && this.text.length <= NAME_MAX_CHARS
    );
  }

  /** Appends slots `from`..`to` (and the parts after them) to `text` and `hash` (folded). */
  private fillRange(plan: Plan, from: number, to: number, plain: boolean): boolean {
    const { parts, slots } = plan;
    for (let i = from; i < to; i++) {
      const flags = (this.slots[slots[i] as number] as PieceFacts).flags;
      if ((flags & (TIDY_VALUE | ASCII)) !== (TIDY_VALUE | ASCII)) return false;
      if ((flags & CELL_PLAIN) === 0) plain = false;
    }
    let text = this.text;
    let hash = this.hash;
    for (let i = from; i < to; i++) {
      const v = this.slots[slots[i] as number] as PieceFacts;
      const part = parts[i + 1] as PieceFacts;
      text += v.text + part.text;
      hash = composeHash(composeHash(hash, v.pow, v.lowerHash), part.pow, part.lowerHash);
    }
    this.text = text;
    this.hash = hash;
    this.isPlain = plain;
    return true;
  }

  /** A keyword: what `cleanKeywordQuick(fillPattern(...))` returns, when nothing needs cleaning. */
  fillKeyword(plan: Plan): boolean {
    if (!plan.isTidyFrame || !plan.isKeywordFrame) return false;
    const { parts, slots } = plan;
    let length = plan.frameLength;
    let spaces = plan.frameSpaces;
    for (let i = 0; i < slots.length; i++) {
      const v = this.slots[slots[i] as number] as PieceFacts;
      if ((v.flags & (TIDY_VALUE | KEYWORD_PLAIN)) !== (TIDY_VALUE | KEYWORD_PLAIN)) return false;
      length += v.length;
      spaces += v.spaces;
    }
    if (length > KEYWORD_MAX_CHARS || spaces + 1 > KEYWORD_MAX_WORDS) return false;
    let part = parts[0] as PieceFacts;
    let text = part.lower;
    let hash = part.lowerHash;
    for (let i = 0; i < slots.length; i++) {
      const v = this.slots[slots[i] as number] as PieceFacts;
      part = parts[i + 1] as PieceFacts;
      text += v.lower + part.lower;
      hash = composeHash(composeHash(hash, v.pow, v.lowerHash), part.pow, part.lowerHash);
    }
    this.text = text;
    this.hash = hash;
    this.isPlain = true;
    return true;
  }
}
