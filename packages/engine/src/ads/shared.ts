/**
 * What the ad kinds share: the failure model and its messages, filling and checking lists of
 * texts (placeholders with values, lengths, Google's editorial rules, repeated texts ignoring
 * case found by case-folded hashes), pins, labels, template text warnings and the final URL
 * checks. Everything a run reuses row after row is held by that run (the compiled lists'
 * scratch, the facts kept in its `ValueFacts`), never by this module.
 */
import { composeHash, foldHash, type FoldedHash } from '../hash.ts';
import {
  FILLED_FLAGS,
  isPlainFrame,
  isPlainValue,
  joinsCleanly,
  judgeFacts,
  newEditorialFacts,
  scanEditorial,
  scanLowerAscii,
  type EditorialFacts,
  type EditorialProblem,
} from '../editorial.ts';
import type { RowIssue } from '../issues.ts';
import { findFinalUrlProblem } from '../finalUrl.ts';
import { KEYWORD_INSERTION_FALLBACK_CHARS } from '../limits.ts';
import {
  compilePattern,
  countAdTextLength,
  findAdTextIssues,
  measureFill,
  newValueFacts,
  PLACEHOLDERS,
  prepareValueFacts,
  slotValueAt,
  type CompiledPattern,
  type PlaceholderValues,
  type ValueFacts,
} from '../text.ts';
import type { FeedRow, FeedRows, PinnedText } from '../types.ts';

/** Generated ads and the reasons for rows left without one. */
export interface GenerateAdsResult<Ad> {
  ads: Ad[];
  issues: RowIssue[];
}

/** What every ad generator reads besides its groups. */
export interface GenerateAdsInputBase<Template> {
  template: Template;
  rows: FeedRows;
  /** Today's date as yyyymmdd for the label helpers. */
  today: string;
  /** The campaign template's constant, the value of `{const}` (missing: empty). */
  constant?: string;
}

/** An ad group an ad is made for; `id` is its feed row's id. */
export interface AdGroupTarget {
  campaign: string;
  adGroup: string;
  id: string;
}

/** Today's date as the digits yyyymmdd (the caller passes the date in). */
export function formatDateDigits(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, '0');
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}${m}${d}`;
}

/** Replaces the label helpers yyyymmdd-v1, -v2, -v3 with today's digits (`today` = yyyymmdd). */
export function replaceLabelDate(label: string, today: string): string {
  return label.includes('yyyymmdd') || label.includes('YYYYMMDD')
    ? label.replace(/yyyymmdd(?=-v[123]\b)/gi, today)
    : label;
}

/**
 * Why a fallback fails for a row: a text out of its length limits, (with `count`) a list of
 * texts with too few or too many entries, or (with `reason`) any other rule a text breaks.
 */
export interface TextFailure {
  field: string;
  /** The entry (from 0); -1 when the failure concerns the whole list ('Headlines'). */
  index: number;
  text: string;
  length: number;
  min: number;
  max: number;
  /** Set when the number of entries is the problem: how many there are (min..max allowed). */
  count?: number;
  /** Set for rules other than length and count: what is wrong, after the text's name. */
  reason?: string;
  /** With `reason`: the rule broken ('empty-placeholder', 'duplicate-text', 'invalid-final-url'...). */
  code?: string;
}

/** Plural field names for count failures. */
const FIELD_PLURALS: Record<string, string> = {
  Headline: 'headlines',
  'Long headline': 'long headlines',
  Description: 'descriptions',
};

function pluralField(field: string): string {
  return FIELD_PLURALS[field] ?? `${field.toLowerCase()}s`;
}

/** Field rule for one list of texts: min/max per entry and the rules that apply to it. */
export interface FieldRule {
  field: string;
  min: number;
  max: number;
  /** A headline or long headline: Google allows no "!" in it. */
  isHeadline?: boolean;
  /** Entries must differ after substitution, ignoring case (headlines, descriptions). */
  isDistinct?: boolean;
  /** Google's editorial rules apply (every ad text; not labels). */
  isEditorial?: boolean;
}

/** Checks one text's length; returns the failure or undefined. */
export function checkText(
  rule: FieldRule,
  index: number,
  text: string,
  knownLength?: number,
): TextFailure | undefined {
  if (text.length === 0 && rule.min === 0) return undefined;
  const length = knownLength ?? countAdTextLength(text);
  if (length < rule.min || length > rule.max)
    return { field: rule.field, index, text, length, min: rule.min, max: rule.max };
  return undefined;
}

/** A failure of a rule other than length and count. */
export function ruleFailure(
  field: string,
  index: number,
  text: string,
  code: string,
  reason: string,
): TextFailure {
  return { field, index, text, length: 0, min: 0, max: 0, code, reason };
}

/** The name of a failure's text: 'Headline 2', or 'Headlines' for the whole list. */
export function describeFailureField(f: TextFailure): string {
  return f.index >= 0 ? `${f.field} ${f.index + 1}` : f.field;
}

/**
 * Human reason for a failure: 'Headline 2 is empty', 'Headline 2 has 34 characters (max 30)',
 * 'Headline 1 "Big Sale!" has "!" (Google allows none in headlines)'.
 */
export function describeFailure(f: TextFailure): string {
  if (f.reason !== undefined)
    return `${describeFailureField(f)}${f.text === '' ? '' : ` "${f.text}"`} ${f.reason}`;
  if (f.count !== undefined) {
    const what = f.count === 1 ? f.field.toLowerCase() : pluralField(f.field);
    return f.count < f.min
      ? `${f.count} ${what}, at least ${f.min} needed`
      : `${f.count} ${what}, at most ${f.max} allowed`;
  }
  const what = describeFailureField(f);
  if (f.length < f.min) return `${what} is empty`;
  return `${what} has ${f.length} characters (max ${f.max}): "${f.text}"`;
}

/** Case-folded hashes of a pattern's literal parts, for duplicate checks (see `foldedHash`). */
interface FoldPlan {
  hashes: Int32Array;
  pows: Int32Array;
  /** All parts are ASCII. */
  isAscii: boolean;
  /** For a static pattern: the hash of its text, or undefined when it is not ASCII. */
  staticHash: number | undefined;
}

function foldPlanOf(pattern: CompiledPattern): FoldPlan {
  const n = pattern.joinParts.length;
  const hashes = new Int32Array(n);
  const pows = new Int32Array(n);
  const folded: FoldedHash = { hash: 0, pow: 1 };
  let isAscii = true;
  for (let i = 0; i < n; i++) {
    if (!foldHash(pattern.joinParts[i] ?? '', folded)) isAscii = false;
    else {
      hashes[i] = folded.hash;
      pows[i] = folded.pow;
    }
  }
  return {
    hashes,
    pows,
    isAscii,
    staticHash: pattern.isStatic && foldHash(pattern.staticText, folded) ? folded.hash : undefined,
  };
}

/**
 * Editorial facts of a pattern, found once per fallback: of its static text, or of each literal
 * part of a tidy frame (joined with the row's values' facts, see `judgeEditorial`).
 */
interface EditorialPlan {
  /**
   * Static pattern: its first problem (headline rules), or undefined. Else, the first problem of
   * its parts, which is the text's when every value is plain and the frame `isPlain`.
   */
  staticHeadline: EditorialProblem | undefined;
  /** Likewise for other texts. */
  staticOther: EditorialProblem | undefined;
  parts: EditorialFacts[];
  /** A tidy frame in which plain values join cleanly (`isPlainFrame`). */
  isPlain: boolean;
}

function editorialPlanOf(pattern: CompiledPattern): EditorialPlan {
  if (pattern.isStatic) {
    const facts = scanEditorial(pattern.staticText, newEditorialFacts());
    return {
      staticHeadline: judgeFacts(facts.flags & FILLED_FLAGS, facts.capsWords, true),
      staticOther: judgeFacts(facts.flags & FILLED_FLAGS, facts.capsWords, false),
      parts: [],
      isPlain: false,
    };
  }
  const parts = pattern.isTidyFrame
    ? pattern.joinParts.map((part) => scanEditorial(part, newEditorialFacts()))
    : [];
  let flags = 0;
  let capsWords = 0;
  for (const part of parts) {
    flags |= part.flags;
    capsWords += part.capsWords;
  }
  return {
    staticHeadline: judgeFacts(flags & FILLED_FLAGS, capsWords, true),
    staticOther: judgeFacts(flags & FILLED_FLAGS, capsWords, false),
    parts,
    isPlain: pattern.isTidyFrame && isPlainFrame(parts),
  };
}

/** A compiled list of texts: patterns, and what their checks reuse row after row. */
export interface CompiledTexts {
  patterns: CompiledPattern[];
  /** Case-folded hashes of each pattern's literal parts. */
  folds: FoldPlan[];
  editorial: EditorialPlan[];
  /**
   * Per text, its folded hash, or wild (not ASCII): set once for the fixed texts, per row for the
   * others by the duplicate check.
   */
  textHashes: Int32Array;
  textWild: Uint8Array;
  /** Scratch: per text, 1 when `measureFill` joined its pieces for the row (`isJoinedFill`). */
  joinedAt: Uint8Array;
  /**
   * Scratch: per text, 1 when a deferred fill (`fillTexts`' `isDeferred`) left its string
   * unmade (its entry in the list is then '' until `filledText` makes it).
   */
  pendingAt: Uint8Array;
  /** How the fixed texts repeat one another and where to find them by hash (`findRepeat`). */
  repeats: StaticRepeats;
  /** The indexes of the texts with a placeholder, in order. */
  dynamicAt: Int32Array;
  /** The rule `staticFailures` were found for (a list is filled under one rule). */
  staticRule: FieldRule | undefined;
  /** Per fixed text, its failure under `staticRule` (null: it passes); found on first fill. */
  staticFailures: Array<TextFailure | null>;
  /**
   * The lent list (`fillTexts`' `isLent`) that holds the fixed texts since a fill that passed,
   * when every fixed text passes `staticRule`: its next fills set only the other texts.
   */
  lentFixed: string[] | undefined;
  /** The smallest length among the fixed texts (MAX_SAFE_INTEGER: none). */
  fixedShortest: number;
}

/** Compiles a list of texts (their positions, if any, stay with the caller). */
export function compileTexts(list: ReadonlyArray<PinnedText | string>): CompiledTexts {
  const patterns = list.map((p) => compilePattern(typeof p === 'string' ? p : p.text));
  const folds = patterns.map(foldPlanOf);
  const textHashes = new Int32Array(patterns.length);
  const textWild = new Uint8Array(patterns.length);
  folds.forEach((plan, i) => {
    if (!(patterns[i] as CompiledPattern).isStatic) return;
    textWild[i] = plan.staticHash === undefined ? 1 : 0;
    textHashes[i] = plan.staticHash ?? 0;
  });
  return {
    patterns,
    folds,
    editorial: patterns.map(editorialPlanOf),
    textHashes,
    textWild,
    joinedAt: new Uint8Array(patterns.length),
    pendingAt: new Uint8Array(patterns.length),
    repeats: staticRepeatsOf(patterns, textHashes, textWild),
    dynamicAt: Int32Array.from(patterns.flatMap((p, i) => (p.isStatic ? [] : [i]))),
    staticRule: undefined,
    staticFailures: [],
    lentFixed: undefined,
    fixedShortest: patterns.reduce(
      (n, p) => (p.isStatic && p.staticLength < n ? p.staticLength : n),
      Number.MAX_SAFE_INTEGER,
    ),
  };
}

/**
 * The failure of a fixed text (no placeholder) under `rule`, the same for every row: its length,
 * or Google's editorial rules (null: it passes). The checks are those `fillTexts` makes.
 */
function staticTextFailure(
  pattern: CompiledPattern,
  plan: EditorialPlan,
  rule: FieldRule,
  index: number,
): TextFailure | null {
  const text = pattern.staticText;
  const length = checkText(rule, index, text, pattern.staticLength);
  if (length) return length;
  if (rule.isEditorial && text !== '') {
    const problem = rule.isHeadline === true ? plan.staticHeadline : plan.staticOther;
    if (problem) return ruleFailure(rule.field, index, text, problem.code, problem.message);
  }
  return null;
}

/** The failures of a list's fixed texts under `rule`, found once per list and rule. */
function staticFailuresFor(list: CompiledTexts, rule: FieldRule): Array<TextFailure | null> {
  if (list.staticRule !== rule) {
    list.staticFailures = list.patterns.map((p, i) =>
      p.isStatic ? staticTextFailure(p, list.editorial[i] as EditorialPlan, rule, i) : null,
    );
    list.staticRule = rule;
    list.lentFixed = undefined;
  }
  return list.staticFailures;
}

/**
 * Facts about one row's values that the ad checks derive, per slot on first use: editorial
 * facts and case-folded hashes. Kept in the run's `ValueFacts` (`derived`) and refreshed when
 * its `generation` moves on to another row.
 */
interface SlotFacts {
  stampAt: Float64Array;
  editorialAt: EditorialFacts[];
  /** 1 when the value is plain (`isPlainValue`). */
  plainAt: Uint8Array;
  hashAt: Int32Array;
  powAt: Int32Array;
  isAsciiAt: Uint8Array;
  scan: FoldedHash;
  /** Scratch of scanning a whole filled text. */
  textScan: EditorialFacts;
  /** The row's final URL failure (null: none) and the generation it was found for. */
  url: TextFailure | null;
  urlStamp: number;
}

function slotFactsFor(facts: ValueFacts): SlotFacts {
  if (facts.derived) return facts.derived as SlotFacts;
  const n = PLACEHOLDERS.length;
  const s: SlotFacts = {
    stampAt: new Float64Array(n).fill(-1),
    editorialAt: Array.from({ length: n }, newEditorialFacts),
    plainAt: new Uint8Array(n),
    hashAt: new Int32Array(n),
    powAt: new Int32Array(n),
    isAsciiAt: new Uint8Array(n),
    scan: { hash: 0, pow: 1 },
    textScan: newEditorialFacts(),
    url: null,
    urlStamp: -1,
  };
  facts.derived = s;
  return s;
}

/** Makes the slot facts of slot `at` current for the row of `facts`. */
function refreshSlot(s: SlotFacts, at: number, values: PlaceholderValues, facts: ValueFacts): void {
  if (s.stampAt[at] === facts.generation) return;
  s.stampAt[at] = facts.generation;
  const value = slotValueAt(at, values);
  const valueFacts = s.editorialAt[at] as EditorialFacts;
  // Most values are lowercase words: plain, found without the full scan.
  s.plainAt[at] =
    scanLowerAscii(value, valueFacts) || isPlainValue(scanEditorial(value, valueFacts)) ? 1 : 0;
  const isAscii = foldHash(value, s.scan);
  s.isAsciiAt[at] = isAscii ? 1 : 0;
  s.hashAt[at] = isAscii ? s.scan.hash : 0;
  s.powAt[at] = s.scan.pow;
}

/**
 * Text `i` of `texts`, as `fillTexts` filled it from `list` for the row of `values`: one it left
 * pending (`isDeferred`) is made now, and kept in `texts`.
 */
export function filledText(
  list: CompiledTexts,
  i: number,
  texts: string[],
  values: PlaceholderValues,
  facts: ValueFacts,
): string {
  if (list.pendingAt[i] === 1) {
    list.pendingAt[i] = 0;
    texts[i] = measureFill(list.patterns[i] as CompiledPattern, values, facts);
  }
  return texts[i] as string;
}

/** The length of the text `measureFill` joins from a tidy frame and tidy values (`isJoinedFill`). */
function joinedLength(pattern: CompiledPattern, facts: ValueFacts): number {
  let length = pattern.frameLength;
  for (let i = 0; i < pattern.slotAt.length; i++)
    length += facts.lengthAt[pattern.slotAt[i] as number] as number;
  return length;
}

/** True when `measureFill` joined the pattern's pieces without tidying for this row. */
function isJoinedFill(pattern: CompiledPattern, facts: ValueFacts): boolean {
  if (!pattern.isTidyFrame) return false;
  for (let i = 0; i < pattern.slotAt.length; i++)
    if (facts.tidyAt[pattern.slotAt[i] as number] === 0) return false;
  return true;
}

/**
 * The first editorial problem of the text `measureFill` made from `pattern` for the row: from
 * the parts' and values' facts when the pieces join cleanly, else by scanning the text.
 */
function judgeEditorial(
  list: CompiledTexts,
  index: number,
  texts: string[],
  plan: EditorialPlan,
  isJoined: boolean,
  isHeadline: boolean,
  values: PlaceholderValues,
  facts: ValueFacts,
  s: SlotFacts,
): EditorialProblem | undefined {
  const pattern = list.patterns[index] as CompiledPattern;
  if (pattern.isStatic) return isHeadline ? plan.staticHeadline : plan.staticOther;
  if (isJoined && plan.isPlain) {
    // The common case: plain values in a plain frame judge as the parts do.
    let isPlain = true;
    for (let i = 0; i < pattern.slotAt.length && isPlain; i++) {
      const at = pattern.slotAt[i] as number;
      refreshSlot(s, at, values, facts);
      isPlain = s.plainAt[at] === 1;
    }
    if (isPlain) return isHeadline ? plan.staticHeadline : plan.staticOther;
  }
  if (isJoined) {
    const { slotAt } = pattern;
    const parts = plan.parts;
    let prev = parts[0] as EditorialFacts;
    let flags = prev.flags;
    let capsWords = prev.capsWords;
    let isClean = true;
    for (let i = 0; i < slotAt.length && isClean; i++) {
      const at = slotAt[i] as number;
      refreshSlot(s, at, values, facts);
      const value = s.editorialAt[at] as EditorialFacts;
      const part = parts[i + 1] as EditorialFacts;
      flags |= value.flags | part.flags;
      capsWords += value.capsWords + part.capsWords;
      if (!joinsCleanly(prev, value)) isClean = false;
      prev = value;
      if (part.first !== 0) {
        if (!joinsCleanly(prev, part)) isClean = false;
        prev = part;
      }
    }
    if (isClean) return judgeFacts(flags & FILLED_FLAGS, capsWords, isHeadline);
  }
  const whole = scanEditorial(filledText(list, index, texts, values, facts), s.textScan);
  return judgeFacts(whole.flags & FILLED_FLAGS, whole.capsWords, isHeadline);
}

/**
 * The folded hash of the text `measureFill` made from `p` for the row (undefined: not ASCII). When
 * `measureFill` joined the pieces without tidying (tidy frame and values), the hash is composed
 * from the pieces' hashes; the text itself is not read.
 */
function foldedHash(
  pattern: CompiledPattern,
  plan: FoldPlan,
  text: string,
  isJoined: boolean,
  values: PlaceholderValues,
  facts: ValueFacts,
  s: SlotFacts,
): number | undefined {
  if (pattern.isStatic) return plan.staticHash;
  if (!isJoined) return foldHash(text, s.scan) ? s.scan.hash : undefined;
  if (!plan.isAscii) return undefined;
  const { hashes, pows } = plan;
  const slotAt = pattern.slotAt;
  let h = hashes[0] as number;
  for (let i = 0; i < slotAt.length; i++) {
    const at = slotAt[i] as number;
    refreshSlot(s, at, values, facts);
    if (s.isAsciiAt[at] === 0) return undefined;
    h = composeHash(h, s.powAt[at] as number, s.hashAt[at] as number);
    h = composeHash(h, pows[i + 1] as number, hashes[i + 1] as number);
  }
  return h;
}

/** Case-insensitive equality without allocating for ASCII text. */
function equalsIgnoringCase(a: string, b: string): boolean {
  if (a === b) return true;
  const n = a.length;
  if (n !== b.length) return a.toLowerCase() === b.toLowerCase();
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 128 || y >= 128) return a.toLowerCase() === b.toLowerCase();
    const lx = x >= 65 && x <= 90 ? x + 32 : x;
    const ly = y >= 65 && y <= 90 ? y + 32 : y;
    if (lx !== ly) return false;
  }
  return true;
}

/**
 * The fixed texts of a list (no placeholder) as the duplicate check reads them: the first pair
 * of them alike ignoring case, and a table of their folded hashes.
 */
interface StaticRepeats {
  /** The first fixed text repeating an earlier fixed text (-1: none), and that earlier one. */
  firstRepeat: number;
  firstRepeated: number;
  /** Open addressing by folded hash: `keys` the hashes, `at` the texts' indexes (-1: empty). */
  keys: Int32Array;
  at: Int32Array;
  mask: number;
  /** The fixed texts that are not ASCII (no hash): compared with every other text. */
  wildAt: Int32Array;
}

function staticRepeatsOf(
  patterns: readonly CompiledPattern[],
  hashes: Int32Array,
  wild: Uint8Array,
): StaticRepeats {
  let firstRepeat = -1;
  let firstRepeated = -1;
  const statics: number[] = [];
  patterns.forEach((p, i) => {
    if (!p.isStatic) return;
    if (firstRepeat < 0) {
      for (const j of statics) {
        if (!equalsIgnoringCase((patterns[j] as CompiledPattern).staticText, p.staticText))
          continue;
        firstRepeat = i;
        firstRepeated = j;
        break;
      }
    }
    statics.push(i);
  });
  let size = 8;
  while (size < 2 * statics.length) size *= 2;
  const keys = new Int32Array(size);
  const at = new Int32Array(size).fill(-1);
  const wildAt: number[] = [];
  for (const i of statics) {
    if (wild[i] === 1) {
      wildAt.push(i);
      continue;
    }
    let slot = (hashes[i] as number) & (size - 1);
    while ((at[slot] as number) >= 0) slot = (slot + 1) & (size - 1);
    keys[slot] = hashes[i] as number;
    at[slot] = i;
  }
  return { firstRepeat, firstRepeated, keys, at, mask: size - 1, wildAt: Int32Array.from(wildAt) };
}

/**
 * The failure of the first text identical (ignoring case) to an earlier one in `texts` (those
 * made by `compiled` for the row), naming the first such earlier one, or undefined. Texts compare
 * only when their folded hashes match (or are not ASCII). The fixed texts were compared among
 * themselves once; per row each text with a placeholder is compared with those before it and
 * with the fixed texts of its hash, and the pair whose later text comes first is reported.
 */
function findRepeat(
  texts: string[],
  compiled: CompiledTexts,
  rule: FieldRule,
  values: PlaceholderValues,
  facts: ValueFacts,
  s: SlotFacts,
): TextFailure | undefined {
  const { textHashes: hashes, textWild: wild, dynamicAt, repeats } = compiled;
  for (let k = 0; k < dynamicAt.length; k++) {
    const i = dynamicAt[k] as number;
    const pattern = compiled.patterns[i] as CompiledPattern;
    const plan = compiled.folds[i] as FoldPlan;
    const isJoined = compiled.joinedAt[i] === 1;
    // A pending text is a joined one, whose hash is made from its pieces (the text is not read).
    const h = foldedHash(pattern, plan, texts[i] as string, isJoined, values, facts, s);
    wild[i] = h === undefined ? 1 : 0;
    hashes[i] = h ?? 0;
  }
  // The repeat found so far: `later` repeats `earlier` (later = -1: none). Module-level state and
  // functions, not closures made per call: one list is checked per call, and no call nests.
  const found = FOUND_REPEAT;
  found.later = repeats.firstRepeat;
  found.earlier = repeats.firstRepeated;
  const { keys, at, mask, wildAt } = repeats;
  // Texts are compared only when their hashes match or are unknown: pending ones are made then.
  for (let k = 0; k < dynamicAt.length; k++) {
    const d = dynamicAt[k] as number;
    const isWild = wild[d] === 1;
    const hash = hashes[d] as number;
    for (let m = 0; m < k; m++) {
      const j = dynamicAt[m] as number;
      const isWildJ = wild[j] === 1;
      // Different hashes of plain ASCII texts: they differ, ignoring case too.
      if (!isWild && !isWildJ && hash !== hashes[j]) continue;
      if (
        equalsIgnoringCase(
          filledText(compiled, j, texts, values, facts),
          filledText(compiled, d, texts, values, facts),
        )
      )
        noteRepeat(j, d);
    }
    if (isWild) {
      // Not ASCII: compared with every fixed text.
      for (let j = 0; j < compiled.patterns.length; j++)
        if (
          isFixed(compiled, j) &&
          equalsIgnoringCase(texts[j] as string, filledText(compiled, d, texts, values, facts))
        )
          noteRepeat(j, d);
      continue;
    }
    for (let slot = hash & mask; (at[slot] as number) >= 0; slot = (slot + 1) & mask) {
      const j = at[slot] as number;
      if (
        keys[slot] === hash &&
        equalsIgnoringCase(texts[j] as string, filledText(compiled, d, texts, values, facts))
      )
        noteRepeat(j, d);
    }
    for (let m = 0; m < wildAt.length; m++) {
      const j = wildAt[m] as number;
      if (equalsIgnoringCase(texts[j] as string, filledText(compiled, d, texts, values, facts)))
        noteRepeat(j, d);
    }
  }
  const { later, earlier } = found;
  return later < 0
    ? undefined
    : repeatFailure(rule, later, filledText(compiled, later, texts, values, facts), earlier);
}

/** The repeat `findRepeat` found so far: `later` repeats `earlier` (later = -1: none). */
const FOUND_REPEAT = { later: -1, earlier: -1 };

/** Notes that texts `a` and `b` are equal: kept when its later text comes first. */
function noteRepeat(a: number, b: number): void {
  const found = FOUND_REPEAT;
  const lo = a < b ? a : b;
  const hi = a < b ? b : a;
  if (found.later < 0 || hi < found.later || (hi === found.later && lo < found.earlier)) {
    found.later = hi;
    found.earlier = lo;
  }
}

/** Text `i` repeats text `j` of its list. */
function repeatFailure(rule: FieldRule, i: number, text: string, j: number): TextFailure {
  return ruleFailure(
    rule.field,
    i,
    text,
    'duplicate-text',
    `repeats ${rule.field.toLowerCase()} ${j + 1} after substitution (Google rejects duplicates, ignoring case)`,
  );
}

/** Text `j` of the list is fixed (no placeholder). */
function isFixed(compiled: CompiledTexts, j: number): boolean {
  return (compiled.patterns[j] as CompiledPattern).isStatic;
}

/** Facts for `values`: the caller's (already prepared for the row) or fresh ones. */
export function factsFor(values: PlaceholderValues, facts: ValueFacts | undefined): ValueFacts {
  if (facts) return facts;
  const fresh = newValueFacts();
  prepareValueFacts(fresh, values);
  return fresh;
}

/** The texts of a list filled for a row, or its first failure. */
interface FilledList {
  texts: string[];
  /** The smallest length among the texts (Performance Max needs a short headline). */
  shortest: number;
  failure?: TextFailure;
}

const NO_TEXTS: readonly string[] = Object.freeze([]);

/** The failure of a text whose placeholder resolves to nothing for the row, if any. */
function findEmptyPlaceholder(
  pattern: CompiledPattern,
  rule: FieldRule,
  index: number,
  facts: ValueFacts,
): TextFailure | undefined {
  const { slotAt } = pattern;
  for (let i = 0; i < slotAt.length; i++) {
    if (facts.emptyAt[slotAt[i] as number] === 1) {
      const token = `{${pattern.slots[i] as string}}`;
      return ruleFailure(
        rule.field,
        index,
        pattern.source,
        'empty-placeholder',
        `has ${token}, which is empty for this row`,
      );
    }
  }
  return undefined;
}

/**
 * Fills and checks a list of texts for one row: every placeholder has a value, each text is
 * within its lengths and Google's editorial rules, and (for distinct lists) no text repeats
 * another ignoring case. Only a list that passes is copied out of `scratch` (a compiled
 * fallback's own list, reused row after row), unless `isLent`: the list is then `scratch`
 * itself. Pinned positions stay with the compiled fallback, so an ad holds only its strings.
 * `isDeferred` (lent lists only): a text joined from a tidy frame and tidy values is checked
 * from its pieces' facts and not made (see `pendingAt`); read the texts through `filledText`.
 */
export function fillTexts(
  list: CompiledTexts,
  values: PlaceholderValues,
  rule: FieldRule,
  facts: ValueFacts,
  scratch: string[],
  isLent = false,
  isDeferred = false,
): FilledList {
  const { patterns, dynamicAt } = list;
  const s = slotFactsFor(facts);
  const staticFailures = staticFailuresFor(list, rule);
  // A lent list still holds its fixed texts, which pass: only the others are filled.
  const onlyDynamic = isLent && list.lentFixed === scratch;
  let shortest = onlyDynamic ? list.fixedShortest : Number.MAX_SAFE_INTEGER;
  const count = onlyDynamic ? dynamicAt.length : patterns.length;
  for (let k = 0; k < count; k++) {
    const i = onlyDynamic ? (dynamicAt[k] as number) : k;
    const pattern = patterns[i] as CompiledPattern;
    if (pattern.isStatic) {
      // A fixed text passes or fails alike for every row (a copy: failures are the caller's).
      const failure = staticFailures[i];
      if (failure) return { texts: NO_TEXTS as string[], shortest, failure: { ...failure } };
      list.joinedAt[i] = 0;
      if (pattern.staticLength < shortest) shortest = pattern.staticLength;
      scratch[i] = pattern.staticText;
      continue;
    }
    const empty = findEmptyPlaceholder(pattern, rule, i, facts);
    if (empty) return { texts: NO_TEXTS as string[], shortest, failure: empty };
    const isJoined = isJoinedFill(pattern, facts);
    list.joinedAt[i] = isJoined ? 1 : 0;
    // A joined text is not empty (tidy values are not) and its length is its pieces'.
    const isPending = isDeferred && isJoined;
    list.pendingAt[i] = isPending ? 1 : 0;
    const text = isPending ? '' : measureFill(pattern, values, facts);
    const length = isPending ? joinedLength(pattern, facts) : facts.measured;
    scratch[i] = text;
    if (length < rule.min || length > rule.max) {
      const failure = checkText(rule, i, filledText(list, i, scratch, values, facts), length);
      if (failure) return { texts: NO_TEXTS as string[], shortest, failure };
    }
    if (rule.isEditorial && (isPending || text !== '')) {
      const plan = list.editorial[i] as EditorialPlan;
      const isHeadline = rule.isHeadline === true;
      const problem = judgeEditorial(
        list,
        i,
        scratch,
        plan,
        isJoined,
        isHeadline,
        values,
        facts,
        s,
      );
      if (problem) {
        const failed = filledText(list, i, scratch, values, facts);
        const failure = ruleFailure(rule.field, i, failed, problem.code, problem.message);
        return { texts: NO_TEXTS as string[], shortest, failure };
      }
    }
    if (length < shortest) shortest = length;
  }
  if (rule.isDistinct) {
    const failure = findRepeat(scratch, list, rule, values, facts, s);
    if (failure) return { texts: NO_TEXTS as string[], shortest, failure };
  }
  // Lent: the caller reads the texts before the next fill with `scratch` (no copy per row).
  if (isLent) {
    // Setting an array's length is a runtime call: only when it changes.
    if (scratch.length !== patterns.length) scratch.length = patterns.length;
    if (list.lentFixed !== scratch && staticFailures.every((f) => f === null))
      list.lentFixed = scratch;
    return { texts: scratch, shortest };
  }
  return { texts: scratch.slice(0, patterns.length), shortest };
}

/**
 * The failure of the row's final URL under the one final URL rule (`findFinalUrlProblem`),
 * found once per row; undefined when it is fine.
 */
export function findRowUrlFailure(
  values: PlaceholderValues,
  facts: ValueFacts,
): TextFailure | undefined {
  const s = slotFactsFor(facts);
  if (s.urlStamp !== facts.generation) {
    s.urlStamp = facts.generation;
    const url = values.row.url.trim();
    const problem = url === '' ? undefined : findFinalUrlProblem(url);
    s.url =
      url === ''
        ? ruleFailure('Final URL', -1, '', 'missing-final-url', 'is missing (Google needs one)')
        : problem === undefined
          ? null
          : ruleFailure('Final URL', -1, '', 'invalid-final-url', `${quoteUrl(url)} ${problem}`);
  }
  return s.url ?? undefined;
}

/** Path 2 set while path 1 is empty (Google shows path 2 only after path 1). */
export const PATH_ORDER_FAILURE: TextFailure = {
  field: 'Path',
  index: 0,
  text: '',
  length: 0,
  min: 0,
  max: 0,
  code: 'path-order',
  reason: 'is empty while path 2 is set (Google needs path 1 first)',
};

/**
 * The failure of pins that leave a position with nothing to show: each of positions
 * 1..`maxPin` needs a text pinned there or unpinned (Google rejects the ad otherwise).
 */
export function findPinFailure(
  field: string,
  positions: readonly number[],
  maxPin: number,
): TextFailure | undefined {
  if (positions.some((pos) => pos <= 0 || pos > maxPin)) return undefined;
  for (let p = 1; p <= maxPin; p++) {
    if (!positions.includes(p)) {
      const list = pluralField(field);
      return ruleFailure(
        `${field} position`,
        p - 1,
        '',
        'pins-leave-position-empty',
        `has no ${field.toLowerCase()}: every ${field.toLowerCase()} is pinned to another position (unpin one, or pin one of the ${list} to ${p})`,
      );
    }
  }
  return undefined;
}

/** Labels of a fallback that Editor can take, and those it cannot (a ';' splits a label). */
export function splitLabels(labels: readonly string[]): { kept: string[]; refused: string[] } {
  const kept: string[] = [];
  const refused: string[] = [];
  for (const label of labels) {
    if (label.trim() === '') continue;
    (label.includes(';') ? refused : kept).push(label);
  }
  return { kept, refused };
}

/** Why a label is refused (the web's label field shows the same text). */
export const LABEL_SEPARATOR_REASON =
  'contains ";", which Google Ads Editor reads as a separator between labels';

/** Issues of labels refused by `splitLabels`, once per fallback label, as cleaned template issues. */
export function labelIssues(
  output: string,
  fallbacks: ReadonlyArray<{ refused: readonly string[] }>,
): RowIssue[] {
  const issues: RowIssue[] = [];
  fallbacks.forEach((f, i) => {
    for (const label of f.refused) {
      issues.push({
        kind: 'cleaned',
        output,
        rowId: '',
        rowNumber: 0,
        code: 'label-separator',
        message: `Fallback ${i + 1}, label "${label}" ${LABEL_SEPARATOR_REASON}; it is not written`,
      });
    }
  });
  return issues;
}

/** Texts with their positions, as the preview and the template editors use them. */
export function pinnedTexts(texts: readonly string[], positions: readonly number[]): PinnedText[] {
  return texts.map((text, i) => ({ text, pos: positions[i] ?? 0 }));
}

/**
 * Finds the index of a row by id (-1: none) for groups read in row order, as the structure makes
 * them: the store's own `indexOfId` when it has one, else the row found last or the one after it,
 * else an index of every id, made once, at the first group out of that order.
 */
export function rowFinder(rows: FeedRows): (id: string) => number {
  if (rows.indexOfId) return rows.indexOfId.bind(rows);
  let next = 0;
  let byId: Map<string, number> | undefined;
  return (id) => {
    if (byId === undefined) {
      for (let at = Math.max(next - 1, 0); at <= next && at < rows.length; at++) {
        if (rows.at(at)?.id !== id) continue;
        next = at + 1;
        return at;
      }
      byId = new Map();
      for (let i = 0; i < rows.length; i++) {
        const rowId = (rows.at(i) as FeedRow).id;
        if (!byId.has(rowId)) byId.set(rowId, i);
      }
    }
    return byId.get(id) ?? -1;
  };
}

/** The failure of a list of `count` texts when Google needs `min..max` of them. */
export function countFailure(
  field: string,
  count: number,
  min: number,
  max: number,
): TextFailure | undefined {
  if (count >= min && count <= max) return undefined;
  return { field, index: -1, text: '', length: 0, min, max, count };
}

/** Where a fallback's texts are: field name and the texts' patterns, for template checks. */
type TemplateTexts = ReadonlyArray<readonly [field: string, texts: readonly string[]]>;

/**
 * Template problems that hold for every row: dynamic insertions without default text (such as
 * `{KeyWord}`), once per text of each fallback, as warnings not bound to a row.
 */
export function findTemplateTextIssues(
  output: string,
  fallbacks: ReadonlyArray<{ label: string; texts: TemplateTexts }>,
): RowIssue[] {
  const issues: RowIssue[] = [];
  for (const { label, texts } of fallbacks) {
    for (const [field, list] of texts) {
      list.forEach((text, i) => {
        const tokens = new Set<string>();
        for (const t of findAdTextIssues(text))
          if (t.code === 'insertion-without-default') tokens.add(t.token);
        for (const token of tokens) {
          issues.push({
            kind: 'warning',
            output,
            rowId: '',
            rowNumber: 0,
            code: 'insertion-without-default',
            message: `${label}, ${field} ${i + 1} "${text}": ${token} has no default text (write ${token.slice(0, -1)}:default text}); it is counted as ${KEYWORD_INSERTION_FALLBACK_CHARS} characters`,
          });
        }
      });
    }
  }
  return issues;
}

/** A final URL as a message shows it: in quotes, cut after 60 characters. */
function quoteUrl(url: string): string {
  return url.length > 60 ? `"${url.slice(0, 60)}..."` : `"${url}"`;
}

/** A row (or a group without its row, `rowNumber` 0) left without an ad, and why. */
export function skippedIssue(
  output: string,
  rowId: string,
  rowNumber: number,
  code: 'missing-row' | 'no-valid-fallback' | 'missing-final-url' | 'invalid-final-url',
  message: string,
): RowIssue {
  return { kind: 'skipped', output, rowId, rowNumber, code, message };
}

/**
 * Why a group of a row gets no ad (`where`: 'Ad group "x"'): its final URL (skipped, with the
 * URL's code), or no valid fallback (the first fallback's `failure`; undefined: the template has
 * no fallback).
 */
export function noAdIssue(
  output: string,
  where: string,
  failure: TextFailure | undefined,
  row: FeedRow,
  rowNumber: number,
): RowIssue {
  if (failure && (failure.code === 'missing-final-url' || failure.code === 'invalid-final-url'))
    return skippedIssue(
      output,
      row.id,
      rowNumber,
      failure.code,
      `${where}: ${describeFailure(failure)}; no ad is made`,
    );
  const reason = failure
    ? `no valid fallback (${describeFailure(failure)})`
    : 'The template has no fallback';
  return skippedIssue(output, row.id, rowNumber, 'no-valid-fallback', `${where}: ${reason}`);
}

/** A group whose feed row is gone (`where`: 'ad group "x"'): it gets no ad. */
export function missingRowIssue(output: string, groupId: string, where: string): RowIssue {
  return skippedIssue(output, groupId, 0, 'missing-row', `No feed row for ${where}`);
}
