/** Keyword hygiene: what Google accepts as a keyword, cleaned where possible. */
import { KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS, KEYWORD_REJECTED_CHARS } from './limits.ts';
import { countPlainTextWidth } from './text.ts';

const REJECTED = new Set<number>(KEYWORD_REJECTED_CHARS.map((c) => c.charCodeAt(0)));
const REJECTED_RE = new RegExp(`[${KEYWORD_REJECTED_CHARS.map((c) => '\\' + c).join('')}]`, 'g');

/** Result of cleaning one keyword. */
export type CleanKeywordResult =
  | { ok: true; keyword: string; isChanged: boolean; removed: string[] }
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
  for (let i = 0; i < s.length; i++) if (REJECTED.has(s.charCodeAt(i))) return true;
  return false;
}

function countWords(s: string): number {
  if (s.length === 0) return 0;
  let n = 1;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 32) n++;
  return n;
}

/**
 * Brings a generated keyword within Google's rules: lowercased, spaces collapsed, rejected
 * characters (`, ! @ % ^ ( ) = { } ; ~ < > ? \ |` and the backtick and `*`) replaced by spaces.
 * A keyword that is still empty, longer than 80 characters or over 10 words is dropped.
 */
export function cleanKeyword(raw: string): CleanKeywordResult {
  let keyword = normaliseKeyword(raw);
  const removed: string[] = [];
  let isChanged = keyword !== raw;
  if (hasRejected(keyword)) {
    for (const m of keyword.matchAll(REJECTED_RE)) if (!removed.includes(m[0])) removed.push(m[0]);
    keyword = keyword.replace(REJECTED_RE, ' ').replace(/\s+/g, ' ').trim();
    isChanged = true;
  }
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
  return { ok: true, keyword, isChanged: isChanged && removed.length > 0, removed };
}
