/**
 * Responsive search ads, Performance Max ads and legacy expanded text ads: per row and group the
 * first fallback valid for that row (spec section 5), with the reason when none is.
 */
import type { RowIssue } from './issues.ts';
import {
  AD_TEXT_MIN_CHARS,
  FINAL_URL_MAX_CHARS,
  LEGACY_DESCRIPTION_MAX_CHARS,
  LEGACY_HEADLINE_MAX_CHARS,
  LEGACY_PATH_MAX_CHARS,
  PMAX_BUSINESS_NAME_MAX_CHARS,
  PMAX_DESCRIPTION_MAX_CHARS,
  PMAX_FIRST_DESCRIPTION_MAX_CHARS,
  PMAX_HEADLINE_MAX_CHARS,
  PMAX_LONG_HEADLINE_MAX_CHARS,
  PMAX_MAX_DESCRIPTIONS,
  PMAX_MAX_HEADLINES,
  PMAX_MAX_LONG_HEADLINES,
  PMAX_MIN_DESCRIPTIONS,
  PMAX_MIN_HEADLINES,
  PMAX_MIN_LONG_HEADLINES,
  PMAX_PATH_MAX_CHARS,
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_HEADLINE_MAX_CHARS,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
  RSA_MIN_DESCRIPTIONS,
  RSA_MIN_HEADLINES,
  RSA_PATH_MAX_CHARS,
  KEYWORD_INSERTION_FALLBACK_CHARS,
} from './limits.ts';
import {
  compilePattern,
  countAdTextLength,
  findAdTextIssues,
  measureFill,
  newValueFacts,
  prepareValueFacts,
  usedSlots,
  type ValueFacts,
  fillPattern,
  type CompiledPattern,
  type PlaceholderName,
  type PlaceholderValues,
} from './text.ts';
import type {
  AdFallback,
  AdTemplate,
  CallToAction,
  FeedRow,
  PerformanceMaxFallback,
  PerformanceMaxTemplate,
  PinnedText,
  RsaTemplate,
} from './types.ts';

/** A group an ad is generated for: an ad group or asset group with the id of its feed row. */
export interface AdTarget {
  campaign: string;
  group: string;
  /** Feed row id. */
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
interface FieldRule {
  field: string;
  min: number;
  max: number;
  /** Optional tighter limit for the first entry (Performance Max's first description). */
  firstMax?: number;
}

/** Checks one text; returns the failure or undefined. */
function checkText(
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

interface CompiledPinned {
  pattern: CompiledPattern;
  pos: number;
  /** Case-folded hashes of the literal parts, for duplicate checks (see `foldedHash`). */
  fold: FoldPlan;
}

/**
 * Polynomial hash of ASCII-lowercased text (equal for texts equal ignoring case). It composes:
 * hash(x + y) = hash(x) * FOLD_BASE^|y| + hash(y), so a filled text is hashed from its pieces.
 */
const FOLD_BASE = 0x01000193;

interface FoldPlan {
  hashes: Int32Array;
  pows: Int32Array;
  /** All parts are ASCII. */
  isAscii: boolean;
  /** For a static pattern: the hash of its text, or undefined when it is not ASCII. */
  staticHash: number | undefined;
}

let foldPow = 1;
/** Folded hash of `s` (FOLD_BASE^|s| lands in `foldPow`); undefined for non-ASCII text. */
function foldScan(s: string): number | undefined {
  let h = 0;
  let pow = 1;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 128) return undefined;
    if (c >= 65 && c <= 90) c += 32;
    h = (Math.imul(h, FOLD_BASE) + c) | 0;
    pow = Math.imul(pow, FOLD_BASE);
  }
  foldPow = pow;
  return h;
}

function foldPlanOf(pattern: CompiledPattern): FoldPlan {
  const n = pattern.joinParts.length;
  const hashes = new Int32Array(n);
  const pows = new Int32Array(n);
  let isAscii = true;
  for (let i = 0; i < n; i++) {
    const h = foldScan(pattern.joinParts[i] ?? '');
    if (h === undefined) isAscii = false;
    else {
      hashes[i] = h;
      pows[i] = foldPow;
    }
  }
  return {
    hashes,
    pows,
    isAscii,
    staticHash: pattern.isStatic ? foldScan(pattern.staticText) : undefined,
  };
}

function compilePinned(list: readonly PinnedText[]): CompiledPinned[] {
  return list.map((p) => {
    const pattern = compilePattern(p.text);
    return { pattern, pos: p.pos, fold: foldPlanOf(pattern) };
  });
}

/** Folded hashes of one row's values (for the slots the fallbacks use). */
interface RowFold {
  hash: Record<PlaceholderName, number>;
  pow: Record<PlaceholderName, number>;
  isAscii: Record<PlaceholderName, boolean>;
}

function newRowFold(): RowFold {
  const zero = (): Record<PlaceholderName, number> => ({
    root: 0,
    mod: 0,
    var1: 0,
    var2: 0,
    var3: 0,
    url: 0,
    const: 0,
    mt: 0,
  });
  return {
    hash: zero(),
    pow: zero(),
    isAscii: {
      root: false,
      mod: false,
      var1: false,
      var2: false,
      var3: false,
      url: false,
      const: false,
      mt: false,
    },
  };
}

function prepareRowFold(
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
    const h = foldScan(value);
    fold.isAscii[slot] = h !== undefined;
    fold.hash[slot] = h ?? 0;
    fold.pow[slot] = foldPow;
  }
}

/**
 * The folded hash of the text `measureFill` made from `p` for the row (undefined: not ASCII). When
 * `measureFill` joined the pieces without tidying (tidy frame and values), the hash is composed
 * from the pieces' hashes; the text itself is not read.
 */
function foldedHash(
  p: CompiledPinned,
  text: string,
  facts: ValueFacts,
  fold: RowFold,
): number | undefined {
  const pattern = p.pattern;
  if (pattern.isStatic) return p.fold.staticHash;
  const slots = pattern.slots;
  let isJoined = pattern.isTidyFrame;
  for (let i = 0; isJoined && i < slots.length; i++)
    if (facts.tidyAt[pattern.slotAt[i] as number] === 0) isJoined = false;
  if (!isJoined) return foldScan(text);
  if (!p.fold.isAscii) return undefined;
  const { hashes, pows } = p.fold;
  let h = hashes[0] as number;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as PlaceholderName;
    if (!fold.isAscii[slot]) return undefined;
    h = (Math.imul(h, fold.pow[slot]) + fold.hash[slot]) | 0;
    h = (Math.imul(h, pows[i + 1] as number) + (hashes[i + 1] as number)) | 0;
  }
  return h;
}

const NO_TEXTS: string[] = [];
const scratch: string[] = [];
const sharedFacts = newValueFacts();

/** Facts for `values`: the caller's (already prepared for the row) or fresh ones. */
function factsFor(values: PlaceholderValues, facts: ValueFacts | undefined): ValueFacts {
  if (facts) return facts;
  prepareValueFacts(sharedFacts, values);
  return sharedFacts;
}

/**
 * Fills pinned texts; their positions stay with the compiled fallback, so an ad
 * holds only its strings (a list of 15 headline objects per ad is most of a large output's memory).
 */
function fillPinned(
  list: readonly CompiledPinned[],
  values: PlaceholderValues,
  rule: FieldRule,
  facts: ValueFacts,
): { texts: string[]; failure?: TextFailure } {
  // Check first into a scratch list; the list is made only for a fallback that passes.
  for (let i = 0; i < list.length; i++) {
    const text = measureFill((list[i] as CompiledPinned).pattern, values, facts);
    const failure = checkText(rule, i, text, facts.measured);
    if (failure) return { texts: NO_TEXTS, failure };
    scratch[i] = text;
  }
  return { texts: scratch.slice(0, list.length) };
}

/** Texts with their positions, as the preview and the template editors use them. */
export function pinnedTexts(texts: readonly string[], positions: readonly number[]): PinnedText[] {
  return texts.map((text, i) => ({ text, pos: positions[i] ?? 0 }));
}

function fillPlain(
  list: readonly CompiledPattern[],
  values: PlaceholderValues,
  rule: FieldRule,
  facts: ValueFacts,
): { texts: string[]; failure?: TextFailure } {
  for (let i = 0; i < list.length; i++) {
    const text = measureFill(list[i] as CompiledPattern, values, facts);
    const failure = checkText(rule, i, text, facts.measured);
    if (failure) return { texts: NO_TEXTS, failure };
    scratch[i] = text;
  }
  return { texts: scratch.slice(0, list.length) };
}

function rowMap(rows: readonly FeedRow[]): Map<string, { row: FeedRow; rowNumber: number }> {
  const m = new Map<string, { row: FeedRow; rowNumber: number }>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as FeedRow;
    if (!m.has(row.id)) m.set(row.id, { row, rowNumber: i + 1 });
  }
  return m;
}

/** Index of each row id's first row (no object per row). */
function rowIndexMap(rows: readonly FeedRow[]): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const id = (rows[i] as FeedRow).id;
    if (!m.has(id)) m.set(id, i);
  }
  return m;
}

const NO_DUPLICATES: string[] = [];

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

let dedupeHashes = new Int32Array(32);
let dedupeWild = new Uint8Array(32);

/**
 * Texts identical (ignoring case) to an earlier one, in order; `patterns[i]` made `texts[i]` for
 * the row of `facts` and `fold`. Texts compare only when their folded hashes match (or are not
 * ASCII).
 */
function findDuplicates(
  texts: readonly string[],
  patterns: readonly CompiledPinned[],
  facts: ValueFacts,
  fold: RowFold,
): string[] {
  let duplicates = NO_DUPLICATES;
  const n = texts.length;
  if (n < 2) return duplicates;
  if (n > dedupeHashes.length) {
    dedupeHashes = new Int32Array(n * 2);
    dedupeWild = new Uint8Array(n * 2);
  }
  const hashes = dedupeHashes;
  const wild = dedupeWild;
  for (let i = 0; i < n; i++) {
    const h = foldedHash(patterns[i] as CompiledPinned, texts[i] as string, facts, fold);
    wild[i] = h === undefined ? 1 : 0;
    hashes[i] = h ?? 0;
  }
  for (let i = 1; i < n; i++) {
    const t = texts[i] as string;
    for (let j = 0; j < i; j++) {
      // Different hashes of plain ASCII texts: they differ, ignoring case too.
      if (wild[i] === 0 && wild[j] === 0 && hashes[i] !== hashes[j]) continue;
      if (equalsIgnoringCase(texts[j] as string, t)) {
        if (duplicates === NO_DUPLICATES) duplicates = [];
        duplicates.push(t);
        break;
      }
    }
  }
  return duplicates;
}

/** The texts without those identical (ignoring case) to an earlier one, with their positions. */
function withoutDuplicates(
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
function countFailure(
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
function findTooFewDistinct(
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
function findTemplateTextIssues(
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
interface FinalUrlWarning {
  code: 'missing-final-url' | 'invalid-final-url';
  message: string;
}

/** The warning about a row's final URL, or undefined when the URL is fine. */
function findFinalUrlWarning(row: FeedRow): FinalUrlWarning | undefined {
  const url = row.url.trim();
  if (url === '') return { code: 'missing-final-url', message: 'the row has no final URL' };
  const problem = findFinalUrlProblem(url);
  if (problem === undefined) return undefined;
  return { code: 'invalid-final-url', message: `the final URL ${quoteUrl(url)} ${problem}` };
}

function finalUrlIssue(
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

// ---------------------------------------------------------------------------------------------
// Responsive search ads

const RSA_RULES = {
  headline: { field: 'Headline', min: AD_TEXT_MIN_CHARS, max: RSA_HEADLINE_MAX_CHARS },
  description: { field: 'Description', min: AD_TEXT_MIN_CHARS, max: RSA_DESCRIPTION_MAX_CHARS },
  path: { field: 'Path', min: 0, max: RSA_PATH_MAX_CHARS },
} as const;

/** One generated responsive search ad. */
export interface RsaAd {
  campaign: string;
  adGroup: string;
  rowId: string;
  /** Index of the fallback used (0 = first). */
  fallbackIndex: number;
  headlines: string[];
  /**
   * Each headline's pinned position (1-3; 0 = unpinned). The ads of one fallback share this list
   * (when no headline was dropped as a repeat): do not change it.
   */
  headlinePositions: readonly number[];
  descriptions: string[];
  /** Each description's pinned position (1-2; 0 = unpinned); shared like `headlinePositions`. */
  descriptionPositions: readonly number[];
  paths: [string, string];
  labels: string[];
  finalUrl: string;
}

/** A compiled RSA fallback: compile once, check and fill many rows. */
export interface CompiledRsaFallback {
  headlines: CompiledPinned[];
  descriptions: CompiledPinned[];
  headlinePositions: readonly number[];
  descriptionPositions: readonly number[];
  paths: CompiledPattern[];
  labels: string[];
  /** Too few or too many headlines or descriptions: the fallback fails every row. */
  countFailure: TextFailure | undefined;
}

/** Compiles the fallbacks of an RSA template. */
export function compileRsaTemplate(template: RsaTemplate): CompiledRsaFallback[] {
  return template.templates.map((f) => ({
    headlines: compilePinned(f.headlines),
    descriptions: compilePinned(f.descriptions),
    headlinePositions: f.headlines.map((h) => h.pos),
    descriptionPositions: f.descriptions.map((d) => d.pos),
    paths: [compilePattern(f.paths[0] ?? ''), compilePattern(f.paths[1] ?? '')],
    labels: f.labels.filter((l) => l.trim() !== ''),
    countFailure:
      countFailure('Headline', f.headlines.length, RSA_MIN_HEADLINES, RSA_MAX_HEADLINES) ??
      countFailure(
        'Description',
        f.descriptions.length,
        RSA_MIN_DESCRIPTIONS,
        RSA_MAX_DESCRIPTIONS,
      ),
  }));
}

/** The filled texts of one fallback for one row (positions as in the fallback), or the first failure. */
export type FilledRsa =
  | {
      ok: true;
      headlines: string[];
      headlinePositions: readonly number[];
      descriptions: string[];
      descriptionPositions: readonly number[];
      paths: [string, string];
    }
  | { ok: false; failure: TextFailure };

/**
 * Fills and checks one compiled RSA fallback for one row: the spec's validity rule (every text
 * 1..limit after substitution, paths within limit), plus Google's: 3..15 headlines and 2..4
 * descriptions that stay that many once repeats are removed, and path 2 needs path 1.
 */
export function fillRsaFallback(
  f: CompiledRsaFallback,
  values: PlaceholderValues,
  rowFacts?: ValueFacts,
): FilledRsa {
  if (f.countFailure) return { ok: false, failure: f.countFailure };
  const facts = factsFor(values, rowFacts);
  const h = fillPinned(f.headlines, values, RSA_RULES.headline, facts);
  if (h.failure) return { ok: false, failure: h.failure };
  const hd = findTooFewDistinct(h.texts, 'Headline', RSA_MIN_HEADLINES, RSA_MAX_HEADLINES);
  if (hd) return { ok: false, failure: hd };
  const d = fillPinned(f.descriptions, values, RSA_RULES.description, facts);
  if (d.failure) return { ok: false, failure: d.failure };
  const dd = findTooFewDistinct(d.texts, 'Description', RSA_MIN_DESCRIPTIONS, RSA_MAX_DESCRIPTIONS);
  if (dd) return { ok: false, failure: dd };
  const p = fillPlain(f.paths, values, RSA_RULES.path, facts);
  if (p.failure) return { ok: false, failure: p.failure };
  const paths: [string, string] = [p.texts[0] ?? '', p.texts[1] ?? ''];
  if (paths[0] === '' && paths[1] !== '') {
    return {
      ok: false,
      failure: { field: 'Path', index: 0, text: '', length: 0, min: 1, max: RSA_PATH_MAX_CHARS },
    };
  }
  return {
    ok: true,
    headlines: h.texts,
    headlinePositions: f.headlinePositions,
    descriptions: d.texts,
    descriptionPositions: f.descriptionPositions,
    paths,
  };
}

/** Input of `generateResponsiveSearchAds`. */
export interface GenerateResponsiveSearchAdsInput {
  template: RsaTemplate;
  rows: readonly FeedRow[];
  /** Ad groups from `generateCampaignStructure` (their id is the feed row id), read in order. */
  adGroups: Iterable<{ campaign: string; adGroup: string; id: string }>;
  /** Today's date as yyyymmdd for the label helpers. */
  today: string;
}

/** Generated ads and the reasons for rows left without one. */
export interface GenerateAdsResult<Ad> {
  ads: Ad[];
  issues: RowIssue[];
}

const OUTPUT_RSA = 'responsive search ads';

/**
 * One responsive search ad per ad group, from the first fallback valid for the group's row.
 * Rows with no valid fallback are reported with the first fallback's reason; headlines or
 * descriptions identical after substitution are reported and emitted once (a fallback left with
 * fewer than 3 headlines or 2 descriptions by that is not valid for the row). A missing or
 * unusable final URL is a warning; keyword insertions without default text are reported once
 * per template text.
 */
export function generateResponsiveSearchAds(
  input: GenerateResponsiveSearchAdsInput,
): GenerateAdsResult<RsaAd> {
  const ads: RsaAd[] = [];
  const issues = forEachResponsiveSearchAd(input, (ad) => ads.push(ad));
  return { ads, issues };
}

/**
 * `generateResponsiveSearchAds` for outputs too big to hold as objects: each ad goes to `onAd`
 * as it is made, in the same order, and the issues are returned. A consumer that writes each ad
 * into its output (a CSV, packed columns) and keeps nothing else lets the ads die young, which
 * spares the garbage collector copying 100k ads of 20 strings each between generations.
 */
export function forEachResponsiveSearchAd(
  input: GenerateResponsiveSearchAdsInput,
  onAd: (ad: RsaAd) => void,
): RowIssue[] {
  const fallbacks = compileRsaTemplate(input.template);
  const byId = rowIndexMap(input.rows);
  const issues: RowIssue[] = findTemplateTextIssues(
    OUTPUT_RSA,
    input.template.templates.map((f, i) => ({
      label: `Fallback ${i + 1}`,
      texts: [
        ['Headline', f.headlines.map((h) => h.text)],
        ['Description', f.descriptions.map((d) => d.text)],
      ],
    })),
  );
  const labelsByFallback = fallbacks.map((f) =>
    f.labels.map((l) => replaceLabelDate(l, input.today)),
  );
  const values: PlaceholderValues = {
    row: { root: '', mod: '', var1: '', var2: '', var3: '', url: '' },
  };
  const rowFacts = newValueFacts();
  const rowFold = newRowFold();
  // Facts only for the placeholders the fallbacks use (the url column is rarely one of them).
  const slotsUsed = usedSlots(
    fallbacks.flatMap((f) => [
      ...f.headlines.map((h) => h.pattern),
      ...f.descriptions.map((d) => d.pattern),
      ...f.paths,
    ]),
  );
  let lastRowId: string | undefined;
  let lastResult: { index: number; filled: FilledRsa } | undefined;
  // Duplicate headlines and descriptions of the row's chosen fallback.
  let headlineDuplicates = NO_DUPLICATES;
  let descriptionDuplicates = NO_DUPLICATES;
  let urlWarning: FinalUrlWarning | undefined;
  for (const g of input.adGroups) {
    const at = byId.get(g.id);
    if (at === undefined) {
      issues.push({
        kind: 'skipped',
        output: OUTPUT_RSA,
        rowId: g.id,
        rowNumber: 0,
        code: 'missing-row',
        message: `No feed row for ad group "${g.adGroup}"`,
      });
      continue;
    }
    const row = input.rows[at] as FeedRow;
    const rowNumber = at + 1;
    // Ad groups of one row share its substitution (the fallback choice does not depend on the group).
    if (lastRowId !== row.id || !lastResult) {
      values.row = row;
      prepareValueFacts(rowFacts, values, slotsUsed);
      let chosen: { index: number; filled: FilledRsa } | undefined;
      let firstFailure: FilledRsa | undefined;
      for (let i = 0; i < fallbacks.length; i++) {
        const filled = fillRsaFallback(fallbacks[i] as CompiledRsaFallback, values, rowFacts);
        if (filled.ok) {
          chosen = { index: i, filled };
          break;
        }
        firstFailure ??= filled;
      }
      lastRowId = row.id;
      urlWarning = findFinalUrlWarning(row);
      if (chosen?.filled.ok) {
        const f = fallbacks[chosen.index] as CompiledRsaFallback;
        prepareRowFold(rowFold, values, slotsUsed);
        headlineDuplicates = findDuplicates(
          chosen.filled.headlines,
          f.headlines,
          rowFacts,
          rowFold,
        );
        descriptionDuplicates = findDuplicates(
          chosen.filled.descriptions,
          f.descriptions,
          rowFacts,
          rowFold,
        );
      }
      lastResult = chosen ?? {
        index: -1,
        filled: firstFailure ?? {
          ok: false,
          failure: { field: 'Fallback', index: 0, text: '', length: 0, min: 1, max: 0 },
        },
      };
    }
    const { index, filled } = lastResult;
    if (!filled.ok) {
      const reason =
        fallbacks.length === 0
          ? 'The template has no fallback'
          : `no valid fallback (${describeFailure(filled.failure)})`;
      issues.push({
        kind: 'skipped',
        output: OUTPUT_RSA,
        rowId: row.id,
        rowNumber,
        code: 'no-valid-fallback',
        message: `Ad group "${g.adGroup}": ${reason}`,
      });
      continue;
    }
    for (const dup of headlineDuplicates.length + descriptionDuplicates.length
      ? [...headlineDuplicates, ...descriptionDuplicates]
      : NO_DUPLICATES) {
      issues.push({
        kind: 'cleaned',
        output: OUTPUT_RSA,
        rowId: row.id,
        rowNumber,
        code: 'duplicate-asset',
        message: `Ad group "${g.adGroup}": "${dup}" appears twice after substitution; kept once`,
      });
    }
    if (urlWarning)
      issues.push(finalUrlIssue(urlWarning, OUTPUT_RSA, row, rowNumber, `Ad group "${g.adGroup}"`));
    const headlines = headlineDuplicates.length
      ? withoutDuplicates(filled.headlines, filled.headlinePositions)
      : { texts: filled.headlines, positions: filled.headlinePositions };
    const descriptions = descriptionDuplicates.length
      ? withoutDuplicates(filled.descriptions, filled.descriptionPositions)
      : { texts: filled.descriptions, positions: filled.descriptionPositions };
    onAd({
      campaign: g.campaign,
      adGroup: g.adGroup,
      rowId: row.id,
      fallbackIndex: index,
      headlines: headlines.texts,
      headlinePositions: headlines.positions,
      descriptions: descriptions.texts,
      descriptionPositions: descriptions.positions,
      paths: filled.paths,
      labels: labelsByFallback[index] ?? [],
      finalUrl: row.url.trim(),
    });
  }
  return issues;
}

// ---------------------------------------------------------------------------------------------
// Performance Max

const PMAX_RULES = {
  headline: { field: 'Headline', min: AD_TEXT_MIN_CHARS, max: PMAX_HEADLINE_MAX_CHARS },
  longHeadline: {
    field: 'Long headline',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_LONG_HEADLINE_MAX_CHARS,
  },
  description: {
    field: 'Description',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_DESCRIPTION_MAX_CHARS,
    firstMax: PMAX_FIRST_DESCRIPTION_MAX_CHARS,
  },
  path: { field: 'Path', min: 0, max: PMAX_PATH_MAX_CHARS },
  businessName: {
    field: 'Business name',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_BUSINESS_NAME_MAX_CHARS,
  },
} as const;

/** One generated Performance Max ad (asset group assets). */
export interface PerformanceMaxAd {
  campaign: string;
  assetGroup: string;
  rowId: string;
  fallbackIndex: number;
  headlines: string[];
  longHeadlines: string[];
  descriptions: string[];
  paths: [string, string];
  labels: string[];
  businessName: string;
  callToAction: CallToAction;
  finalUrl: string;
}

/** A compiled Performance Max fallback. */
export interface CompiledPerformanceMaxFallback {
  headlines: CompiledPattern[];
  longHeadlines: CompiledPattern[];
  descriptions: CompiledPattern[];
  paths: CompiledPattern[];
  businessName: CompiledPattern;
  labels: string[];
  callToAction: CallToAction;
  /** Too few or too many headlines, long headlines or descriptions: fails every row. */
  countFailure: TextFailure | undefined;
}

/** Compiles the fallbacks of a Performance Max template. */
export function compilePerformanceMaxTemplate(
  t: PerformanceMaxTemplate,
): CompiledPerformanceMaxFallback[] {
  return t.templates.map((f: PerformanceMaxFallback) => ({
    headlines: f.headlines.map((h) => compilePattern(h.text)),
    longHeadlines: f.longHeadlines.map((h) => compilePattern(h.text)),
    descriptions: f.descriptions.map((h) => compilePattern(h.text)),
    paths: [compilePattern(f.paths[0] ?? ''), compilePattern(f.paths[1] ?? '')],
    businessName: compilePattern(f.businessName),
    labels: f.labels.filter((l) => l.trim() !== ''),
    callToAction: f.callToAction === 'None' ? '' : f.callToAction,
    countFailure:
      countFailure('Headline', f.headlines.length, PMAX_MIN_HEADLINES, PMAX_MAX_HEADLINES) ??
      countFailure(
        'Long headline',
        f.longHeadlines.length,
        PMAX_MIN_LONG_HEADLINES,
        PMAX_MAX_LONG_HEADLINES,
      ) ??
      countFailure(
        'Description',
        f.descriptions.length,
        PMAX_MIN_DESCRIPTIONS,
        PMAX_MAX_DESCRIPTIONS,
      ),
  }));
}

/** Filled Performance Max texts for one row, or the first failure. */
export type FilledPerformanceMax =
  | {
      ok: true;
      headlines: string[];
      longHeadlines: string[];
      descriptions: string[];
      paths: [string, string];
      businessName: string;
    }
  | { ok: false; failure: TextFailure };

/**
 * Fills and checks one Performance Max fallback: 3..5 headlines of 1..30, 1..5 long headlines of
 * 1..90, 2..5 descriptions of 1..90 with the first at most 60, paths up to 15, business name
 * 1..25.
 */
export function fillPerformanceMaxFallback(
  f: CompiledPerformanceMaxFallback,
  values: PlaceholderValues,
  rowFacts?: ValueFacts,
): FilledPerformanceMax {
  if (f.countFailure) return { ok: false, failure: f.countFailure };
  const facts = factsFor(values, rowFacts);
  const h = fillPlain(f.headlines, values, PMAX_RULES.headline, facts);
  if (h.failure) return { ok: false, failure: h.failure };
  const lh = fillPlain(f.longHeadlines, values, PMAX_RULES.longHeadline, facts);
  if (lh.failure) return { ok: false, failure: lh.failure };
  const d = fillPlain(f.descriptions, values, PMAX_RULES.description, facts);
  if (d.failure) return { ok: false, failure: d.failure };
  const p = fillPlain(f.paths, values, PMAX_RULES.path, facts);
  if (p.failure) return { ok: false, failure: p.failure };
  const b = fillPlain([f.businessName], values, PMAX_RULES.businessName, facts);
  if (b.failure) return { ok: false, failure: b.failure };
  return {
    ok: true,
    headlines: h.texts,
    longHeadlines: lh.texts,
    descriptions: d.texts,
    paths: [p.texts[0] ?? '', p.texts[1] ?? ''],
    businessName: b.texts[0] ?? '',
  };
}

/** Input of `generatePerformanceMaxAds`. */
export interface GeneratePerformanceMaxAdsInput {
  template: PerformanceMaxTemplate;
  rows: readonly FeedRow[];
  assetGroups: ReadonlyArray<{ campaign: string; assetGroup: string; id: string }>;
  today: string;
}

const OUTPUT_PMAX = 'performance max ads';

/**
 * One Performance Max ad per asset group from the first fallback valid for its row; a missing or
 * unusable final URL is a warning; keyword insertions without default text are reported once per
 * template text.
 */
export function generatePerformanceMaxAds(
  input: GeneratePerformanceMaxAdsInput,
): GenerateAdsResult<PerformanceMaxAd> {
  const fallbacks = compilePerformanceMaxTemplate(input.template);
  const byId = rowMap(input.rows);
  const rowFacts = newValueFacts();
  const ads: PerformanceMaxAd[] = [];
  const issues: RowIssue[] = findTemplateTextIssues(
    OUTPUT_PMAX,
    input.template.templates.map((f, i) => ({
      label: `Fallback ${i + 1}`,
      texts: [
        ['Headline', f.headlines.map((h) => h.text)],
        ['Long headline', f.longHeadlines.map((h) => h.text)],
        ['Description', f.descriptions.map((d) => d.text)],
      ],
    })),
  );
  const values: PlaceholderValues = {
    row: { root: '', mod: '', var1: '', var2: '', var3: '', url: '' },
  };
  for (const g of input.assetGroups) {
    const found = byId.get(g.id);
    if (!found) {
      issues.push({
        kind: 'skipped',
        output: OUTPUT_PMAX,
        rowId: g.id,
        rowNumber: 0,
        code: 'missing-row',
        message: `No feed row for asset group "${g.assetGroup}"`,
      });
      continue;
    }
    const { row, rowNumber } = found;
    values.row = row;
    prepareValueFacts(rowFacts, values);
    let firstFailure: TextFailure | undefined;
    let done = false;
    for (let i = 0; i < fallbacks.length && !done; i++) {
      const f = fallbacks[i] as CompiledPerformanceMaxFallback;
      const filled = fillPerformanceMaxFallback(f, values, rowFacts);
      if (!filled.ok) {
        firstFailure ??= filled.failure;
        continue;
      }
      done = true;
      ads.push({
        campaign: g.campaign,
        assetGroup: g.assetGroup,
        rowId: row.id,
        fallbackIndex: i,
        headlines: filled.headlines,
        longHeadlines: filled.longHeadlines,
        descriptions: filled.descriptions,
        paths: filled.paths,
        labels: f.labels.map((l) => replaceLabelDate(l, input.today)),
        businessName: filled.businessName,
        callToAction: f.callToAction,
        finalUrl: row.url.trim(),
      });
    }
    const urlWarning = done ? findFinalUrlWarning(row) : undefined;
    if (urlWarning) {
      const where = `Asset group "${g.assetGroup}"`;
      issues.push(finalUrlIssue(urlWarning, OUTPUT_PMAX, row, rowNumber, where));
    }
    if (!done) {
      const reason = firstFailure
        ? `no valid fallback (${describeFailure(firstFailure)})`
        : 'The template has no fallback';
      issues.push({
        kind: 'skipped',
        output: OUTPUT_PMAX,
        rowId: row.id,
        rowNumber,
        code: 'no-valid-fallback',
        message: `Asset group "${g.assetGroup}": ${reason}`,
      });
    }
  }
  return { ads, issues };
}

// ---------------------------------------------------------------------------------------------
// Legacy expanded text ads

/** One generated legacy expanded text ad. */
export interface LegacyAd {
  campaign: string;
  adGroup: string;
  rowId: string;
  version: number;
  fallbackIndex: number;
  h1: string;
  h2: string;
  h3: string;
  dl1: string;
  dl2: string;
  p1: string;
  p2: string;
  label: string;
  finalUrl: string;
}

const LEGACY_FIELDS: ReadonlyArray<{
  key: keyof Omit<AdFallback, 'adType' | 'label'>;
  rule: FieldRule;
}> = [
  { key: 'h1', rule: { field: 'Headline', min: 1, max: LEGACY_HEADLINE_MAX_CHARS } },
  { key: 'h2', rule: { field: 'Headline', min: 1, max: LEGACY_HEADLINE_MAX_CHARS } },
  { key: 'h3', rule: { field: 'Headline', min: 0, max: LEGACY_HEADLINE_MAX_CHARS } },
  { key: 'dl1', rule: { field: 'Description', min: 1, max: LEGACY_DESCRIPTION_MAX_CHARS } },
  { key: 'dl2', rule: { field: 'Description', min: 0, max: LEGACY_DESCRIPTION_MAX_CHARS } },
  { key: 'p1', rule: { field: 'Path', min: 0, max: LEGACY_PATH_MAX_CHARS } },
  { key: 'p2', rule: { field: 'Path', min: 0, max: LEGACY_PATH_MAX_CHARS } },
];
const LEGACY_INDEX: Record<string, number> = { h1: 0, h2: 1, h3: 2, dl1: 0, dl2: 1, p1: 0, p2: 1 };

/**
 * Fills and checks a legacy fallback: headlines 1 and 2 required (1..30), headline 3 at most 30,
 * description 1 required (1..90), description 2 at most 90, paths at most 15.
 */
export function fillLegacyFallback(
  f: AdFallback,
  values: PlaceholderValues,
): { ok: true; ad: Record<string, string> } | { ok: false; failure: TextFailure } {
  const ad: Record<string, string> = {};
  for (const { key, rule } of LEGACY_FIELDS) {
    const text = fillPattern(compilePattern(f[key]), values);
    const failure = checkText(rule, LEGACY_INDEX[key] ?? 0, text);
    if (failure) return { ok: false, failure: { ...failure, index: LEGACY_INDEX[key] ?? 0 } };
    ad[key] = text;
  }
  return { ok: true, ad };
}

/** Input of `generateLegacyAds`. */
export interface GenerateLegacyAdsInput {
  template: AdTemplate;
  rows: readonly FeedRow[];
  adGroups: Iterable<{ campaign: string; adGroup: string; id: string }>;
  today: string;
}

const OUTPUT_LEGACY = 'legacy ads';

/**
 * Per ad group and template version, one expanded text ad from the first valid fallback. Groups
 * without a feed row and rows without a valid fallback are reported; a missing or unusable final
 * URL is a warning (once per ad group); keyword insertions without default text are reported
 * once per template text.
 */
export function generateLegacyAds(input: GenerateLegacyAdsInput): GenerateAdsResult<LegacyAd> {
  const byId = rowMap(input.rows);
  const ads: LegacyAd[] = [];
  const issues: RowIssue[] = findTemplateTextIssues(
    OUTPUT_LEGACY,
    input.template.templates.flatMap((version, v) =>
      version.map((f, i) => ({
        label: `Version ${v + 1}, fallback ${i + 1}`,
        texts: [
          ['Headline', [f.h1, f.h2, f.h3]],
          ['Description', [f.dl1, f.dl2]],
        ] as const,
      })),
    ),
  );
  const values: PlaceholderValues = {
    row: { root: '', mod: '', var1: '', var2: '', var3: '', url: '' },
  };
  for (const g of input.adGroups) {
    const found = byId.get(g.id);
    if (!found) {
      issues.push({
        kind: 'skipped',
        output: OUTPUT_LEGACY,
        rowId: g.id,
        rowNumber: 0,
        code: 'missing-row',
        message: `No feed row for ad group "${g.adGroup}"`,
      });
      continue;
    }
    values.row = found.row;
    const adsBefore = ads.length;
    input.template.templates.forEach((version, v) => {
      let firstFailure: TextFailure | undefined;
      for (let i = 0; i < version.length; i++) {
        const f = version[i] as AdFallback;
        const filled = fillLegacyFallback(f, values);
        if (!filled.ok) {
          firstFailure ??= filled.failure;
          continue;
        }
        const a = filled.ad;
        ads.push({
          campaign: g.campaign,
          adGroup: g.adGroup,
          rowId: found.row.id,
          version: v,
          fallbackIndex: i,
          h1: a.h1 ?? '',
          h2: a.h2 ?? '',
          h3: a.h3 ?? '',
          dl1: a.dl1 ?? '',
          dl2: a.dl2 ?? '',
          p1: a.p1 ?? '',
          p2: a.p2 ?? '',
          label: replaceLabelDate(f.label, input.today),
          finalUrl: found.row.url.trim(),
        });
        return;
      }
      issues.push({
        kind: 'skipped',
        output: OUTPUT_LEGACY,
        rowId: found.row.id,
        rowNumber: found.rowNumber,
        code: 'no-valid-fallback',
        message: `Ad group "${g.adGroup}", version ${v + 1}: ${firstFailure ? `no valid fallback (${describeFailure(firstFailure)})` : 'no fallback'}`,
      });
    });
    const urlWarning = ads.length > adsBefore ? findFinalUrlWarning(found.row) : undefined;
    if (urlWarning) {
      const where = `Ad group "${g.adGroup}"`;
      issues.push(finalUrlIssue(urlWarning, OUTPUT_LEGACY, found.row, found.rowNumber, where));
    }
  }
  return { ads, issues };
}

/** Final URL check: present, an http(s) address and at most 2048 characters. */
export function isFinalUrlValid(url: string): boolean {
  return url.length > 0 && findFinalUrlProblem(url) === undefined;
}
