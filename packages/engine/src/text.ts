/**
 * Placeholders and Google's way of counting ad text.
 *
 * Feed placeholders (each feed column's key, `{root}` to `{url}`, then `{const}` and `{mt}`) are
 * matched case-insensitively and replaced with the row's values. Google's own dynamic syntax
 * (`{KeyWord:default}`, `{CUSTOMIZER.name:default}`, `{LOCATION(City):default}`, `{COUNTDOWN(...)}`,
 * `{=IF(...):default}`) passes through untouched and is counted as its default text.
 */
import { KEYWORD_INSERTION_FALLBACK_CHARS } from './limits.ts';
import { FEED_COLUMNS, newFeedCells, type FeedCells, type FeedColumn } from './feedColumns.ts';

/** A placeholder name: a feed column, the template's constant or the match type. */
export type PlaceholderName = FeedColumn | 'const' | 'mt';

/** Names of the placeholders a pattern may use: the feed's columns, then `const` and `mt`. */
export const PLACEHOLDERS: readonly PlaceholderName[] = [...FEED_COLUMNS, 'const', 'mt'];

const PLACEHOLDER_SET = new Set<string>(PLACEHOLDERS);

/** The values a compiled pattern is filled from: a feed row plus the template's constant and match type. */
export interface PlaceholderValues {
  row: FeedCells;
  const?: string;
  mt?: string;
}

/** Values of no row: what a reused `PlaceholderValues` holds before its first row. */
export const NO_ROW_VALUES: Readonly<PlaceholderValues['row']> = Object.freeze(newFeedCells());

/** A pattern split once into literal parts and placeholder slots: parts.length === slots.length + 1. */
export interface CompiledPattern {
  source: string;
  parts: string[];
  slots: PlaceholderName[];
  /** True when the pattern contains no placeholder (its output never varies). */
  isStatic: boolean;
  /** For a static pattern: its tidied text and Google length, computed once. */
  staticText: string;
  staticLength: number;
  /**
   * True when the spacing `fillPattern` tidies is known from the literal parts alone: then, with
   * tidy non-empty values, the filled text is `joinParts` joined with the values and its length is
   * `frameLength` plus the values' lengths (see `measureFill`).
   */
  isTidyFrame: boolean;
  /** The literal parts as tidying leaves them around tidy values (`parts` when not a tidy frame). */
  joinParts: string[];
  /** The slots by number (the index in PLACEHOLDERS). */
  slotAt: number[];
  frameLength: number;
}

const BRACE_TOKEN = /\{([^{}]*)\}/g;

/** True when `inner` (text between braces) is Google dynamic syntax rather than a feed placeholder. */
export function isDynamicInsertion(inner: string): boolean {
  return /^\s*(keyword|customizer\.[^:]+|location\([^)]*\)|countdown\(.*\)|global_countdown\(.*\)|=.+)(:.*)?$/is.test(
    inner,
  );
}

/** Characters from the first combining mark (U+0300) on: a text with none is in NFC. */
const MAY_NEED_NFC = /[\u0300-\uffff]/;
/** A combining mark first: it would join the character before it once filled in. */
const STARTS_WITH_MARK = /^\p{M}/u;

/** `text` in NFC (every ad and asset text is written in NFC, as keywords are: issue 36). */
function toNfc(text: string): string {
  return MAY_NEED_NFC.test(text) ? text.normalize('NFC') : text;
}

/**
 * Compiles a pattern once; substitute many rows with `fillPattern`. Its text is taken in NFC
 * (`source` keeps it as typed).
 */
export function compilePattern(source: string): CompiledPattern {
  const parts: string[] = [];
  const slots: PlaceholderName[] = [];
  let last = 0;
  let literal = '';
  const text = toNfc(source);
  for (const m of text.matchAll(BRACE_TOKEN)) {
    const name = (m[1] ?? '').trim().toLowerCase();
    const at = m.index ?? 0;
    if (PLACEHOLDER_SET.has(name)) {
      parts.push(literal + text.slice(last, at));
      literal = '';
      slots.push(name as PlaceholderName);
    } else {
      literal += text.slice(last, at + m[0].length);
    }
    last = at + m[0].length;
  }
  parts.push(literal + text.slice(last));
  const isStatic = slots.length === 0;
  const staticText = isStatic ? tidySpaces(parts[0] ?? '') : '';
  const joinParts = isStatic ? undefined : tidiedFrame(parts);
  // A part after a slot that starts with a combining mark joins the value: filled the slow way.
  const isTidyFrame =
    joinParts !== undefined &&
    joinParts.every(hasBalancedBraces) &&
    joinParts.every((part, i) => i === 0 || !STARTS_WITH_MARK.test(part));
  const frameLength =
    isTidyFrame && joinParts ? joinParts.reduce((n, part) => n + countAdTextLength(part), 0) : 0;
  return {
    source,
    parts,
    slots,
    isStatic,
    staticText,
    staticLength: isStatic ? countAdTextLength(staticText) : 0,
    isTidyFrame,
    joinParts: isTidyFrame && joinParts ? joinParts : parts,
    slotAt: slots.map((slot) => SLOT_NUMBER[slot]),
    frameLength,
  };
}

/**
 * The parts as `tidySpaces` leaves them when every value between them is tidy (see
 * `isTidyValue`): runs of white space then never cross a value, and trimming stops at the first
 * and last value at the latest.
 */
function tidiedFrame(parts: readonly string[]): string[] {
  // Does tidySpaces run its collapse-and-trim path whatever the values? (See tidySpaces' scan.)
  let collapses = false;
  for (let i = 0; i < parts.length && !collapses; i++) {
    const part = parts[i] as string;
    let prevSpace = i === 0;
    for (let j = 0; j < part.length; j++) {
      const c = part.charCodeAt(j);
      if (c <= 32) {
        if (c !== 32 || prevSpace) {
          collapses = true;
          break;
        }
        prevSpace = true;
      } else prevSpace = false;
    }
  }
  const last = parts.length - 1;
  const end = parts[last] as string;
  if (!collapses) {
    // Only a trailing space is trimmed (trimEnd); a tidy value ends with nothing it removes.
    if (end.length === 0 || end.charCodeAt(end.length - 1) > 32) return [...parts];
    return [...parts.slice(0, last), end.trimEnd()];
  }
  const out = parts.map((part) => part.replace(/[\t\n\v\f\r ]+/g, ' '));
  out[0] = (out[0] as string).trimStart();
  out[last] = (out[last] as string).trimEnd();
  return out;
}

/** Slot numbers: the index of each placeholder in PLACEHOLDERS. */
export const SLOT_NUMBER: Readonly<Record<PlaceholderName, number>> = Object.fromEntries(
  PLACEHOLDERS.map((name, i) => [name, i]),
) as Record<PlaceholderName, number>;

const CONST_SLOT = FEED_COLUMNS.length;

/** The value of slot number `at` (the index in PLACEHOLDERS). */
export function slotValueAt(at: number, v: PlaceholderValues): string {
  if (at < CONST_SLOT) return v.row[FEED_COLUMNS[at]!] ?? '';
  return (at === CONST_SLOT ? v.const : v.mt) ?? '';
}

function slotValue(slot: PlaceholderName, v: PlaceholderValues): string {
  switch (slot) {
    case 'const':
      return v.const ?? '';
    case 'mt':
      return v.mt ?? '';
    default:
      return v.row[slot] ?? '';
  }
}

/** Collapses runs of white space to one space and trims: an empty variable must not leave double spaces. */
export function tidySpaces(s: string): string {
  const n = s.length;
  if (n === 0) return s;
  let prevSpace = true;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32) {
      if (c !== 32 || prevSpace) return s.replace(/[\t\n\v\f\r ]+/g, ' ').trim();
      prevSpace = true;
    } else prevSpace = false;
  }
  return prevSpace ? s.trimEnd() : s;
}

function hasBalancedBraces(part: string): boolean {
  let depth = 0;
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125 && --depth < 0) return false;
  }
  return depth === 0;
}

/** Per-row facts about the values, computed once per row for many patterns (see `measureFill`). */
export interface ValueFacts {
  /**
   * By slot number (the index in PLACEHOLDERS; see `CompiledPattern.slotAt`): 1 when the value is
   * non-empty, has no outer or double white space and no braces.
   */
  tidyAt: Uint8Array;
  /** By slot number: Google length of the value (valid when tidy). */
  lengthAt: Int32Array;
  /** By slot number: 1 when the value is empty or white space only (it resolves to nothing). */
  emptyAt: Uint8Array;
  /** Length of the text last filled by `measureFill`. */
  measured: number;
  /** Counts the rows prepared: facts derived from these (the ads' per-value facts) key on it. */
  generation: number;
  /** Facts other modules derive from the values, kept with them (the ads' `SlotFacts`). */
  derived: object | undefined;
}

/** The placeholders any of the patterns uses, once each. */
export function usedSlots(patterns: Iterable<CompiledPattern>): PlaceholderName[] {
  const out: PlaceholderName[] = [];
  for (const p of patterns) for (const slot of p.slots) if (!out.includes(slot)) out.push(slot);
  return out;
}

/** Empty facts to be filled by `prepareValueFacts`. */
export function newValueFacts(): ValueFacts {
  const n = PLACEHOLDERS.length;
  return {
    tidyAt: new Uint8Array(n),
    lengthAt: new Int32Array(n),
    emptyAt: new Uint8Array(n),
    measured: 0,
    generation: 0,
    derived: undefined,
  };
}

/** `\s` of a regular expression: ASCII and Unicode white space. */
export function isSpaceCode(c: number): boolean {
  return c <= 0x20
    ? c === 0x20 || (c >= 9 && c <= 13)
    : c >= 0xa0 &&
        (c === 0xa0 ||
          c === 0x1680 ||
          (c >= 0x2000 && c <= 0x200a) ||
          c === 0x2028 ||
          c === 0x2029 ||
          c === 0x202f ||
          c === 0x205f ||
          c === 0x3000 ||
          c === 0xfeff);
}

/** True for the characters String.prototype.trim removes (white space and line terminators). */
function isTrimmed(c: number): boolean {
  return c <= 32 || isSpaceCode(c);
}

/**
 * The Google length of a value that fills a slot without tidying, or -1 when it is not one: a
 * tidy value is non-empty, with no double or other white space, no brace, and nothing `trim`
 * would remove at its ends (so trimming a filled text never reaches into it).
 */
function tidyValueWidth(s: string): number {
  const n = s.length;
  if (n === 0 || isTrimmed(s.charCodeAt(0)) || isTrimmed(s.charCodeAt(n - 1))) return -1;
  let prevSpace = false;
  // Below U+1100 every character counts 1 (see `countPlainTextWidth`): such a value is not
  // scanned again for its width.
  let isNarrow = true;
  // Below U+0300 (the first combining mark) a value is in NFC.
  let isNfc = true;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32) {
      if (c !== 32 || prevSpace) return -1;
      prevSpace = true;
    } else {
      if (c === 123 || c === 125) return -1;
      if (c >= 0x300) {
        isNfc = false;
        if (c >= 0x1100) isNarrow = false;
      }
      prevSpace = false;
    }
  }
  // A value not in NFC, or one whose first mark would join the text before it, is not tidy: its
  // text is filled and normalised the slow way (`fillPattern`).
  if (!isNfc && (STARTS_WITH_MARK.test(s) || s.normalize('NFC') !== s)) return -1;
  return isNarrow ? n : countPlainTextWidth(s);
}

/**
 * Refreshes `facts` for the values of one row; `slots` limits the work to the placeholders the
 * patterns use (see `usedSlots`); the facts of other slots are then stale.
 */
export function prepareValueFacts(
  facts: ValueFacts,
  v: PlaceholderValues,
  slots: readonly PlaceholderName[] = PLACEHOLDERS,
): void {
  prepareSlotFacts(
    facts,
    v,
    slots.map((slot) => SLOT_NUMBER[slot]),
  );
}

/** `prepareValueFacts` for the slots by number (a run's are looked up once, not per row). */
function prepareSlotFacts(
  facts: ValueFacts,
  v: PlaceholderValues,
  slotAt: readonly number[],
): void {
  for (let i = 0; i < slotAt.length; i++) {
    const at = slotAt[i] as number;
    const value = slotValueAt(at, v);
    const width = tidyValueWidth(value);
    facts.tidyAt[at] = width >= 0 ? 1 : 0;
    facts.lengthAt[at] = width >= 0 ? width : 0;
    facts.emptyAt[at] = width >= 0 || value.trim() !== '' ? 0 : 1;
  }
  facts.generation++;
}

/**
 * One run's current row: its placeholder values and their facts, reused row after row (no
 * object per row). `slots` limits the facts to the placeholders the run's patterns use.
 */
export class RowValues {
  readonly values: PlaceholderValues = { row: NO_ROW_VALUES };
  readonly facts: ValueFacts = newValueFacts();
  private readonly slotAt: readonly number[];

  constructor(slots: readonly PlaceholderName[] = PLACEHOLDERS) {
    this.slotAt = slots.map((slot) => SLOT_NUMBER[slot]);
  }

  /** Moves to `row`: its values, and their facts. */
  setRow(row: PlaceholderValues['row']): void {
    this.values.row = row;
    prepareSlotFacts(this.facts, this.values, this.slotAt);
  }
}

/**
 * Fills a pattern and measures it as `countAdTextLength` would (the length lands in
 * `facts.measured`), without re-scanning the text when the frame and values are tidy: the hot
 * path of validating many rows.
 */
export function measureFill(p: CompiledPattern, v: PlaceholderValues, facts: ValueFacts): string {
  if (p.isStatic) {
    facts.measured = p.staticLength;
    return p.staticText;
  }
  if (p.isTidyFrame) {
    const { joinParts: parts, slotAt } = p;
    const { tidyAt, lengthAt } = facts;
    let length = p.frameLength;
    let ok = true;
    for (let i = 0; i < slotAt.length; i++) {
      const at = slotAt[i] as number;
      if (tidyAt[at] === 0) {
        ok = false;
        break;
      }
      length += lengthAt[at] as number;
    }
    if (ok) {
      let out = parts[0] ?? '';
      for (let i = 0; i < slotAt.length; i++)
        out += slotValueAt(slotAt[i] as number, v) + (parts[i + 1] ?? '');
      facts.measured = length;
      return out;
    }
  }
  const text = fillPattern(p, v);
  facts.measured = countAdTextLength(text);
  return text;
}

/** Fills a compiled pattern with one row's values; spaces are tidied, the text is in NFC. */
export function fillPattern(p: CompiledPattern, v: PlaceholderValues): string {
  if (p.isStatic) return p.staticText;
  const { parts, slots } = p;
  let out = parts[0] ?? '';
  for (let i = 0; i < slots.length; i++)
    out += slotValue(slots[i] as PlaceholderName, v) + (parts[i + 1] ?? '');
  return toNfc(tidySpaces(out));
}

/** One-off substitution (compile + fill). Prefer compiling once in loops. */
export function substitutePlaceholders(source: string, v: PlaceholderValues): string {
  return fillPattern(compilePattern(source), v);
}

/** Brace tokens in `text` that are neither feed placeholders nor Google dynamic syntax (e.g. `{foo}`). */
export function findUnknownPlaceholders(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(BRACE_TOKEN)) {
    const inner = m[1] ?? '';
    if (!PLACEHOLDER_SET.has(inner.trim().toLowerCase()) && !isDynamicInsertion(inner))
      out.push(m[0]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Counting

/**
 * True for code points of East Asian Width W or F (Chinese, Japanese, Korean, full-width forms,
 * most emoji): Google counts them as 2.
 */
export function isWideCodePoint(cp: number): boolean {
  if (cp < 0x1100) return false;
  return (
    cp <= 0x115f ||
    (cp >= 0x231a && cp <= 0x231b) ||
    (cp >= 0x2329 && cp <= 0x232a) ||
    (cp >= 0x23e9 && cp <= 0x23ec) ||
    cp === 0x23f0 ||
    cp === 0x23f3 ||
    (cp >= 0x25fd && cp <= 0x25fe) ||
    (cp >= 0x2614 && cp <= 0x2615) ||
    (cp >= 0x2648 && cp <= 0x2653) ||
    cp === 0x267f ||
    cp === 0x2693 ||
    cp === 0x26a1 ||
    (cp >= 0x26aa && cp <= 0x26ab) ||
    (cp >= 0x26bd && cp <= 0x26be) ||
    (cp >= 0x26c4 && cp <= 0x26c5) ||
    cp === 0x26ce ||
    cp === 0x26d4 ||
    cp === 0x26ea ||
    (cp >= 0x26f2 && cp <= 0x26f3) ||
    cp === 0x26f5 ||
    cp === 0x26fa ||
    cp === 0x26fd ||
    cp === 0x2705 ||
    (cp >= 0x270a && cp <= 0x270b) ||
    cp === 0x2728 ||
    cp === 0x274c ||
    cp === 0x274e ||
    (cp >= 0x2753 && cp <= 0x2755) ||
    cp === 0x2757 ||
    (cp >= 0x2795 && cp <= 0x2797) ||
    cp === 0x27b0 ||
    cp === 0x27bf ||
    (cp >= 0x2b1b && cp <= 0x2b1c) ||
    cp === 0x2b50 ||
    cp === 0x2b55 ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xa960 && cp <= 0xa97f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe10 && cp <= 0xfe19) ||
    (cp >= 0xfe30 && cp <= 0xfe6f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x16fe0 && cp <= 0x16fe4) ||
    (cp >= 0x17000 && cp <= 0x18cff) ||
    (cp >= 0x1b000 && cp <= 0x1b2ff) ||
    cp === 0x1f004 ||
    cp === 0x1f0cf ||
    cp === 0x1f18e ||
    (cp >= 0x1f191 && cp <= 0x1f19a) ||
    (cp >= 0x1f200 && cp <= 0x1f251) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f680 && cp <= 0x1f6ff) ||
    (cp >= 0x1f7e0 && cp <= 0x1f7eb) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x1fa70 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Width of plain text (no dynamic syntax handling): code points, wide ones counting 2. */
export function countPlainTextWidth(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x1100) {
      n++;
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    n += isWideCodePoint(cp) ? 2 : 1;
  }
  return n;
}

/**
 * Length of ad text as Google counts it: characters (code points, not UTF-16 units), East Asian
 * wide and full-width characters 2, each dynamic insertion as its default text; an insertion
 * without default text counts `KEYWORD_INSERTION_FALLBACK_CHARS` (see `findAdTextIssues`).
 * The one counting function of the product: validators and the UI's live counters use it.
 */
export function countAdTextLength(text: string): number {
  let open = text.indexOf('{');
  if (open < 0) return countPlainTextWidth(text);
  let n = 0;
  let from = 0;
  while (open >= 0) {
    const close = text.indexOf('}', open + 1);
    if (close < 0) break;
    const nested = text.indexOf('{', open + 1);
    if (nested >= 0 && nested < close) {
      n += countPlainTextWidth(text, from, nested);
      from = nested;
      open = nested;
      continue;
    }
    const inner = text.slice(open + 1, close);
    if (isDynamicInsertion(inner)) {
      n += countPlainTextWidth(text, from, open);
      n += insertionWidth(inner);
      from = close + 1;
    }
    open = text.indexOf('{', close + 1);
  }
  return n + countPlainTextWidth(text, from);
}

function defaultTextOf(inner: string): string | undefined {
  // The default follows the first ':' outside parentheses (COUNTDOWN's time holds colons).
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ':' && depth === 0) return inner.slice(i + 1);
  }
  return undefined;
}

/** The text with every dynamic insertion replaced by its default text (none: nothing). */
export function withDefaultTexts(text: string): string {
  if (!text.includes('{')) return text;
  return text.replace(BRACE_TOKEN, (token, inner: string) =>
    isDynamicInsertion(inner) ? (defaultTextOf(inner) ?? '') : token,
  );
}

function insertionWidth(inner: string): number {
  const def = defaultTextOf(inner);
  return def === undefined ? KEYWORD_INSERTION_FALLBACK_CHARS : countPlainTextWidth(def);
}

/** A problem in one ad text that is not about its length. */
export interface TextIssue {
  code: 'insertion-without-default' | 'unknown-placeholder';
  token: string;
  message: string;
}

/** Dynamic insertions without default text and unknown `{placeholders}` in `text`. */
export function findAdTextIssues(text: string): TextIssue[] {
  if (!text.includes('{')) return [];
  const issues: TextIssue[] = [];
  for (const m of text.matchAll(BRACE_TOKEN)) {
    const inner = m[1] ?? '';
    if (isDynamicInsertion(inner)) {
      const isCountdown = /^\s*(global_)?countdown\(/i.test(inner);
      if (!isCountdown && defaultTextOf(inner) === undefined) {
        issues.push({
          code: 'insertion-without-default',
          token: m[0],
          message: `${m[0]} has no default text; it is counted as ${KEYWORD_INSERTION_FALLBACK_CHARS} characters`,
        });
      }
    } else if (!PLACEHOLDER_SET.has(inner.trim().toLowerCase())) {
      issues.push({
        code: 'unknown-placeholder',
        token: m[0],
        message: `Unknown placeholder ${m[0]}`,
      });
    }
  }
  return issues;
}
