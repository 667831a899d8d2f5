/**
 * What the ad kinds share: the failure model and its messages, filling and checking lists of
 * texts, finding repeated texts (ignoring case) by case-folded hashes, template text warnings
 * and the final URL checks. Everything a run reuses row after row is held by that run (see
 * `RowFold`, the compiled fallbacks' scratch lists), never by this module.
 */
import { composeHash, foldHash, type FoldedHash } from '../hash.ts';
import type { RowIssue } from '../issues.ts';
import { FINAL_URL_MAX_CHARS, KEYWORD_INSERTION_FALLBACK_CHARS } from '../limits.ts';
import {
  compilePattern,
  countAdTextLength,
  findAdTextIssues,
  measureFill,
  newValueFacts,
  PLACEHOLDERS,
  prepareValueFacts,
  SLOT_NUMBER,
  type CompiledPattern,
  type PlaceholderName,
  type PlaceholderValues,
  type ValueFacts,
} from '../text.ts';
import type { FeedRow, PinnedText } from '../types.ts';

/** Generated ads and the reasons for rows left without one. */
export interface GenerateAdsResult<Ad> {
  ads: Ad[];
  issues: RowIssue[];
}

/** What every ad generator reads besides its groups. */
export interface GenerateAdsInputBase<Template> {
  template: Template;
  rows: readonly FeedRow[];
  /** Today's date as yyyymmdd for the label helpers. */
  today: string;
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
 * Why a fallback fails for a row: a text out of its length limits, or (with `count`) a list of
 * texts with too few or too many entries.
 */
export interface TextFailure {
  field: string;
  index: number;
  text: string;
  length: number;
  min: number;
  max: number;
  /** Set when the number of entries is the problem: how many there are (min..max allowed). */
  count?: number;
  /** With `count`: only `count` entries differ after substitution; `text` is one that repeats. */
  isDistinctCount?: boolean;
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

/** Field rule for one list of texts: min/max per entry (max of entry i via `maxAt`). */
export interface FieldRule {
  field: string;
  min: number;
  max: number;
  /** Optional tighter limit for the first entry (Performance Max's first description). */
  firstMax?: number;
}

/** Checks one text; returns the failure or undefined. */
export function checkText(
  rule: FieldRule,
  index: number,
  text: string,
  knownLength?: number,
): TextFailure | undefined {
  const max = index === 0 && rule.firstMax !== undefined ? rule.firstMax : rule.max;
  if (text.length === 0 && rule.min === 0) return undefined;
  const length = knownLength ?? countAdTextLength(text);
  if (length < rule.min || length > max)
    return { field: rule.field, index, text, length, min: rule.min, max };
  return undefined;
}

/** Human reason for a failure: 'Headline 2 is empty' / 'Headline 2 has 34 characters (max 30)'. */
export function describeFailure(f: TextFailure): string {
  if (f.count !== undefined) {
    const what = f.count === 1 ? f.field.toLowerCase() : pluralField(f.field);
    if (f.isDistinctCount)
      return `only ${f.count} different ${what} after substitution ("${f.text}" repeats; Google rejects duplicates), at least ${f.min} needed`;
    return f.count < f.min
      ? `${f.count} ${what}, at least ${f.min} needed`
      : `${f.count} ${what}, at most ${f.max} allowed`;
  }
  const what = `${f.field} ${f.index + 1}`;
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

/** A compiled list of texts whose repeats are found (see `findDuplicates`). */
export interface CompiledTexts {
  patterns: CompiledPattern[];
  /** Case-folded hashes of each pattern's literal parts. */
  folds: FoldPlan[];
}

/** Compiles a list of pinned texts (their positions stay with the caller). */
export function compileTexts(list: readonly PinnedText[]): CompiledTexts {
  const patterns = list.map((p) => compilePattern(p.text));
  return { patterns, folds: patterns.map(foldPlanOf) };
}

/**
 * Case-folded hashes of one row's values by slot number (for the slots the fallbacks use), and
 * the scratch of one run's duplicate checks.
 */
export interface RowFold {
  hashAt: Int32Array;
  powAt: Int32Array;
  isAsciiAt: Uint8Array;
  /** Scratch of `foldHash`. */
  scan: FoldedHash;
  /** Per text of the list being checked: its folded hash, or wild (not ASCII). */
  textHashes: Int32Array;
  textWild: Uint8Array;
}

export function newRowFold(): RowFold {
  const n = PLACEHOLDERS.length;
  return {
    hashAt: new Int32Array(n),
    powAt: new Int32Array(n),
    isAsciiAt: new Uint8Array(n),
    scan: { hash: 0, pow: 1 },
    textHashes: new Int32Array(32),
    textWild: new Uint8Array(32),
  };
}

/** Refreshes `fold` for the values of one row (the `slots` the fallbacks use). */
export function prepareRowFold(
  fold: RowFold,
  values: PlaceholderValues,
  slots: readonly PlaceholderName[],
): void {
  for (const slot of slots) {
    const value =
      slot === 'const'
        ? (values.const ?? '')
        : slot === 'mt'
          ? (values.mt ?? '')
          : values.row[slot];
    const at = SLOT_NUMBER[slot];
    const isAscii = foldHash(value, fold.scan);
    fold.isAsciiAt[at] = isAscii ? 1 : 0;
    fold.hashAt[at] = isAscii ? fold.scan.hash : 0;
    fold.powAt[at] = fold.scan.pow;
  }
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
  facts: ValueFacts,
  fold: RowFold,
): number | undefined {
  if (pattern.isStatic) return plan.staticHash;
  let isJoined = pattern.isTidyFrame;
  for (let i = 0; isJoined && i < pattern.slotAt.length; i++)
    if (facts.tidyAt[pattern.slotAt[i] as number] === 0) isJoined = false;
  if (!isJoined) return foldHash(text, fold.scan) ? fold.scan.hash : undefined;
  if (!plan.isAscii) return undefined;
  const { hashes, pows } = plan;
  const slotAt = pattern.slotAt;
  let h = hashes[0] as number;
  for (let i = 0; i < slotAt.length; i++) {
    const at = slotAt[i] as number;
    if (fold.isAsciiAt[at] === 0) return undefined;
    h = composeHash(h, fold.powAt[at] as number, fold.hashAt[at] as number);
    h = composeHash(h, pows[i + 1] as number, hashes[i + 1] as number);
  }
  return h;
}

const NO_TEXTS: readonly string[] = Object.freeze([]);

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
  failure?: TextFailure;
}

/**
 * Fills and checks a list of texts; only a list that passes is copied out of `scratch` (a
 * compiled fallback's own list, reused row after row). Pinned positions stay with the compiled
 * fallback, so an ad holds only its strings (a list of 15 headline objects per ad is most of a
 * large output's memory).
 */
export function fillTexts(
  list: readonly CompiledPattern[],
  values: PlaceholderValues,
  rule: FieldRule,
  facts: ValueFacts,
  scratch: string[],
): FilledList {
  for (let i = 0; i < list.length; i++) {
    const text = measureFill(list[i] as CompiledPattern, values, facts);
    const failure = checkText(rule, i, text, facts.measured);
    if (failure) return { texts: NO_TEXTS as string[], failure };
    scratch[i] = text;
  }
  return { texts: scratch.slice(0, list.length) };
}

/** Texts with their positions, as the preview and the template editors use them. */
export function pinnedTexts(texts: readonly string[], positions: readonly number[]): PinnedText[] {
  return texts.map((text, i) => ({ text, pos: positions[i] ?? 0 }));
}

export function rowMap(rows: readonly FeedRow[]): Map<string, { row: FeedRow; rowNumber: number }> {
  const m = new Map<string, { row: FeedRow; rowNumber: number }>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as FeedRow;
    if (!m.has(row.id)) m.set(row.id, { row, rowNumber: i + 1 });
  }
  return m;
}

/** Index of each row id's first row (no object per row). */
export function rowIndexMap(rows: readonly FeedRow[]): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const id = (rows[i] as FeedRow).id;
    if (!m.has(id)) m.set(id, i);
  }
  return m;
}

export const NO_DUPLICATES: readonly string[] = Object.freeze([]);

/** Case-insensitive equality without allocating for ASCII text. */
function equalsIgnoringCase(a: string, b: string): boolean {
  if (a === b) return true;
  const n = a.length;
  if (n !== b.length) return false;
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
 * Texts identical (ignoring case) to an earlier one, in order; `compiled.patterns[i]` made
 * `texts[i]` for the row of `facts` and `fold`. Texts compare only when their folded hashes match
 * (or are not ASCII).
 */
export function findDuplicates(
  texts: readonly string[],
  compiled: CompiledTexts,
  facts: ValueFacts,
  fold: RowFold,
): readonly string[] {
  const n = texts.length;
  if (n < 2) return NO_DUPLICATES;
  if (n > fold.textHashes.length) {
    fold.textHashes = new Int32Array(n * 2);
    fold.textWild = new Uint8Array(n * 2);
  }
  const hashes = fold.textHashes;
  const wild = fold.textWild;
  for (let i = 0; i < n; i++) {
    const pattern = compiled.patterns[i] as CompiledPattern;
    const h = foldedHash(pattern, compiled.folds[i] as FoldPlan, texts[i] as string, facts, fold);
    wild[i] = h === undefined ? 1 : 0;
    hashes[i] = h ?? 0;
  }
  let duplicates: string[] | undefined;
  for (let i = 1; i < n; i++) {
    const t = texts[i] as string;
    for (let j = 0; j < i; j++) {
      // Different hashes of plain ASCII texts: they differ, ignoring case too.
      if (wild[i] === 0 && wild[j] === 0 && hashes[i] !== hashes[j]) continue;
      if (equalsIgnoringCase(texts[j] as string, t)) {
        (duplicates ??= []).push(t);
        break;
      }
    }
  }
  return duplicates ?? NO_DUPLICATES;
}

/** The texts without those identical (ignoring case) to an earlier one, with their positions. */
export function withoutDuplicates(
  texts: readonly string[],
  positions: readonly number[],
): { texts: string[]; positions: number[] } {
  const seen = new Set<string>();
  const out = { texts: [] as string[], positions: [] as number[] };
  texts.forEach((text, i) => {
    const key = text.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.texts.push(text);
    out.positions.push(positions[i] ?? 0);
  });
  return out;
}

/** The failure of a list of `count` texts when Google needs `min..max` of them. */
export function countFailure(
  field: string,
  count: number,
  min: number,
  max: number,
): TextFailure | undefined {
  if (count >= min && count <= max) return undefined;
  return { field, index: 0, text: '', length: 0, min, max, count };
}

/**
 * The failure of filled texts of which fewer than `min` differ (ignoring case): Google rejects
 * duplicate assets, so removing the repeats would leave too few. Stops at `min` different texts.
 */
export function findTooFewDistinct(
  texts: readonly string[],
  field: string,
  min: number,
  max: number,
): TextFailure | undefined {
  let distinct = 0;
  let repeated: string | undefined;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i] as string;
    let isRepeat = false;
    for (let j = 0; j < i && !isRepeat; j++) isRepeat = equalsIgnoringCase(texts[j] as string, t);
    if (isRepeat) repeated ??= t;
    else if (++distinct >= min) return undefined;
  }
  return {
    field,
    index: 0,
    text: repeated ?? '',
    length: 0,
    min,
    max,
    count: distinct,
    isDistinctCount: true,
  };
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

/**
 * Why a row's final URL (trimmed, not empty) will not pass Google Ads: not an http(s) address or
 * longer than 2048 characters; undefined when it is fine.
 */
export function findFinalUrlProblem(url: string): string | undefined {
  if (url.length > FINAL_URL_MAX_CHARS)
    return `has ${url.length} characters (max ${FINAL_URL_MAX_CHARS})`;
  if (!/^https?:\/\/[^\s/?#]/i.test(url)) return 'is not an http:// or https:// address';
  return undefined;
}

/** A final URL as a message shows it: in quotes, cut after 60 characters. */
function quoteUrl(url: string): string {
  return url.length > 60 ? `"${url.slice(0, 60)}..."` : `"${url}"`;
}

/** A warning about a row's final URL: its code and message (after "Ad group ...: "). */
export interface FinalUrlWarning {
  code: 'missing-final-url' | 'invalid-final-url';
  message: string;
}

/** The warning about a row's final URL, or undefined when the URL is fine. */
export function findFinalUrlWarning(row: FeedRow): FinalUrlWarning | undefined {
  const url = row.url.trim();
  if (url === '') return { code: 'missing-final-url', message: 'the row has no final URL' };
  const problem = findFinalUrlProblem(url);
  if (problem === undefined) return undefined;
  return { code: 'invalid-final-url', message: `the final URL ${quoteUrl(url)} ${problem}` };
}

/** A row (or a group without its row, `rowNumber` 0) left without an ad, and why. */
export function skippedIssue(
  output: string,
  rowId: string,
  rowNumber: number,
  code: 'missing-row' | 'no-valid-fallback',
  message: string,
): RowIssue {
  return { kind: 'skipped', output, rowId, rowNumber, code, message };
}

/** A group whose feed row is gone (`where`: 'ad group "x"'): it gets no ad. */
export function missingRowIssue(output: string, groupId: string, where: string): RowIssue {
  return skippedIssue(output, groupId, 0, 'missing-row', `No feed row for ${where}`);
}

/** Adds the warning about the row's final URL, if any (`where`: 'Ad group "x"'). */
export function reportFinalUrl(
  issues: RowIssue[],
  output: string,
  row: FeedRow,
  rowNumber: number,
  where: string,
): void {
  const warning = findFinalUrlWarning(row);
  if (warning) issues.push(finalUrlIssue(warning, output, row, rowNumber, where));
}

export function finalUrlIssue(
  w: FinalUrlWarning,
  output: string,
  row: FeedRow,
  rowNumber: number,
  where: string,
): RowIssue {
  return {
    kind: 'warning',
    output,
    rowId: row.id,
    rowNumber,
    code: w.code,
    message: `${where}: ${w.message}`,
  };
}
