/** Keyword hygiene: what Google accepts as a keyword, cleaned where possible. */
import { KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS, KEYWORD_REJECTED_CHARS } from './limits.ts';
import { countPlainTextWidth } from './text.ts';
import type { FeedRow } from './types.ts';

/** 1 at the code of each character keywords reject (all of them ASCII). */
export const KEYWORD_REJECTED_ASCII: Readonly<Uint8Array> = new Uint8Array(128);
for (const c of KEYWORD_REJECTED_CHARS) (KEYWORD_REJECTED_ASCII as Uint8Array)[c.charCodeAt(0)] = 1;
const REJECTED_RE = new RegExp(`[${KEYWORD_REJECTED_CHARS.map((c) => '\\' + c).join('')}]`, 'g');

/** Result of cleaning one keyword. */
export type CleanKeywordResult =
  | {
      ok: true;
      keyword: string;
      isChanged: boolean;
      /** Rejected characters that were replaced by spaces. */
      removed: string[];
      /** Match type notation that was stripped: '-' (leading, negative) and '+' (modifier). */
      notation: string[];
    }
  | {
      ok: false;
      keyword: string;
      reason: 'empty' | 'too-long' | 'too-many-words';
      message: string;
    };

/** Lowercases and collapses spaces (the spec's keyword normal form). */
export function normaliseKeyword(raw: string): string {
  const lower = raw.toLowerCase();
  return lower.includes('  ') || /^\s|\s$|[\t\n\r]/.test(lower)
    ? lower.replace(/\s+/g, ' ').trim()
    : lower;
}

function hasRejected(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (KEYWORD_REJECTED_ASCII[s.charCodeAt(i)] === 1) return true;
  return false;
}

function countWords(s: string): number {
  if (s.length === 0) return 0;
  let n = 1;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 32) n++;
  return n;
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * Brings a generated keyword within Google's rules: lowercased, spaces collapsed, rejected
 * characters (`, ! @ % ^ ( ) = { } ; ~ < > ? \ |` and the backtick and `*`) replaced by spaces,
 * and match type notation stripped: a leading `-` (Google's text notation for a negative) and
 * `+` at the start of a word (the retired broad match modifier); the match type is its own
 * column. A keyword that is still empty, longer than 80 characters or over 10 words is dropped.
 */
export function cleanKeyword(raw: string): CleanKeywordResult {
  const fast = cleanKeywordQuick(raw);
  if (fast !== undefined)
    return {
      ok: true,
      keyword: fast,
      isChanged: false,
      removed: NONE as string[],
      notation: NONE as string[],
    };
  return cleanKeywordSlow(raw);
}

/**
 * The hot path of `cleanKeyword`: the clean keyword when it needed nothing but lowercasing and
 * space tidying, else undefined (call `cleanKeyword` for the reason or the report).
 */
export function cleanKeywordQuick(raw: string): string | undefined {
  // One scan over plain ASCII text without rejected characters.
  const n = raw.length;
  let isAscii = true;
  let hasUpper = false;
  let needsTidy = false;
  let spaces = 0;
  let prevSpace = true;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 128 || KEYWORD_REJECTED_ASCII[c] === 1) {
      isAscii = false;
      break;
    }
    if (c <= 32) {
      if (c !== 32 || prevSpace) needsTidy = true;
      spaces++;
      prevSpace = true;
    } else {
      // '-' or '+' starting a word may be match type notation (see cleanKeyword).
      if (prevSpace && (c === 45 || c === 43)) {
        isAscii = false;
        break;
      }
      if (c >= 65 && c <= 90) hasUpper = true;
      prevSpace = false;
    }
  }
  if (!isAscii) return undefined;
  if (prevSpace && n > 0) needsTidy = true;
  let keyword = hasUpper ? raw.toLowerCase() : raw;
  let words = spaces + 1;
  if (needsTidy) {
    keyword = keyword.replace(/\s+/g, ' ').trim();
    words = countWords(keyword);
  }
  if (keyword.length === 0 || keyword.length > KEYWORD_MAX_CHARS || words > KEYWORD_MAX_WORDS)
    return undefined;
  return keyword;
}

function cleanKeywordSlow(raw: string): CleanKeywordResult {
  let keyword = normaliseKeyword(raw);
  const removed: string[] = [];
  if (hasRejected(keyword)) {
    for (const m of keyword.matchAll(REJECTED_RE)) if (!removed.includes(m[0])) removed.push(m[0]);
    keyword = keyword.replace(REJECTED_RE, ' ').replace(/\s+/g, ' ').trim();
  }
  const notation: string[] = [];
  keyword = stripMatchNotation(keyword, notation);
  if (keyword.length === 0)
    return { ok: false, keyword, reason: 'empty', message: 'Keyword is empty' };
  if (countPlainTextWidth(keyword) > KEYWORD_MAX_CHARS) {
    return {
      ok: false,
      keyword,
      reason: 'too-long',
      message: `Keyword is longer than ${KEYWORD_MAX_CHARS} characters`,
    };
  }
  if (countWords(keyword) > KEYWORD_MAX_WORDS) {
    return {
      ok: false,
      keyword,
      reason: 'too-many-words',
      message: `Keyword has more than ${KEYWORD_MAX_WORDS} words`,
    };
  }
  return {
    ok: true,
    keyword,
    isChanged: removed.length > 0 || notation.length > 0,
    removed,
    notation,
  };
}

/**
 * `keyword` (normalised: single spaces, trimmed) without match type notation: its leading run of
 * `-` and `+` (a leading `-` is Google's negative notation) and `+` at the start of any other word
 * (the broad match modifier Google retired); what was stripped is added to `found`.
 */
function stripMatchNotation(keyword: string, found: string[]): string {
  let start = 0;
  for (; start < keyword.length; start++) {
    const c = keyword[start] as string;
    if (c === ' ') continue;
    if (c !== '-' && c !== '+') break;
    if (!found.includes(c)) found.push(c);
  }
  let out = start ? keyword.slice(start) : keyword;
  if (out.includes(' +')) {
    out = out.replace(MODIFIER_RE, () => {
      if (!found.includes('+')) found.push('+');
      return ' ';
    });
  }
  return out;
}

/** `+` (one or more) starting a word that follows: the broad match modifier. */
const MODIFIER_RE = / \++(?=[^ +])/g;

const NOTATION_NAMES: Record<string, string> = {
  '-': 'the leading - (negative keyword notation)',
  '+': '+ (the retired broad match modifier)',
};

/** Reports a row's keyword problem (skipped or cleaned) to the generator that made the keyword. */
export type KeywordIssueReporter = (
  kind: 'skipped' | 'cleaned',
  row: FeedRow,
  rowNumber: number,
  code: string,
  message: string,
) => void;

/**
 * A filled keyword pattern cleaned as Google takes it, or undefined when the row gets no keyword
 * from it; what was skipped or cleaned is reported for the row (`source` is the pattern's text).
 * Messages about a negative keyword (`isNegative`) end with " (negative)".
 */
export function cleanFilledKeyword(
  raw: string,
  source: string,
  report: KeywordIssueReporter,
  row: FeedRow,
  rowNumber: number,
  isNegative = false,
): string | undefined {
  const quick = cleanKeywordQuick(raw);
  if (quick !== undefined) return quick;
  const cleaned = cleanKeyword(raw);
  const tail = isNegative ? ' (negative)' : '';
  if (!cleaned.ok) {
    if (raw !== '')
      report('skipped', row, rowNumber, cleaned.reason, `${cleaned.message}: "${raw}"${tail}`);
    else
      report(
        'skipped',
        row,
        rowNumber,
        'empty',
        `Keyword "${source}" is empty for this row${tail}`,
      );
    return undefined;
  }
  if (cleaned.removed.length) {
    report(
      'cleaned',
      row,
      rowNumber,
      'rejected-characters',
      `Removed ${cleaned.removed.join(' ')} from "${raw}" -> "${cleaned.keyword}"${tail}`,
    );
  }
  if (cleaned.notation.length) {
    report(
      'cleaned',
      row,
      rowNumber,
      'match-notation',
      `Removed ${cleaned.notation.map((c) => NOTATION_NAMES[c]).join(' and ')} from "${raw}" -> "${cleaned.keyword}"${tail}`,
    );
  }
  return cleaned.keyword;
}
