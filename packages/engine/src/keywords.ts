/** Keyword hygiene: what Google accepts as a keyword, cleaned where possible. */
import {
  KEYWORD_ALLOWED_SYMBOLS,
  KEYWORD_MAX_CHARS,
  KEYWORD_MAX_WORDS,
  KEYWORD_TYPOGRAPHIC_FORMS,
} from './limits.ts';
import { countPlainTextWidth } from './text.ts';
import type { RowIssue, RowIssueKind } from './issues.ts';
import type { CampaignTemplate, FeedRow, KeywordPattern, MatchType } from './types.ts';

/**
 * 1 at the code of each ASCII character a keyword does not take as it is: every character but
 * letters, digits, the space and `KEYWORD_ALLOWED_SYMBOLS` (control characters included).
 */
export const KEYWORD_REJECTED_ASCII: Readonly<Uint8Array> = new Uint8Array(128).fill(1);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[a-zA-Z0-9 ]/.test(ch) || (KEYWORD_ALLOWED_SYMBOLS as readonly string[]).includes(ch))
    (KEYWORD_REJECTED_ASCII as Uint8Array)[c] = 0;
}

/** Result of cleaning one keyword. */
export type CleanKeywordResult =
  | {
      ok: true;
      keyword: string;
      isChanged: boolean;
      /** Characters Google rejects, replaced by spaces (or dropped, for a stray mark). */
      removed: string[];
      /** Spaces other than the plain space that became plain spaces (named, see `nameOf`). */
      spaces: string[];
      /** Invisible characters dropped: zero-width characters, soft hyphens, controls (named). */
      invisible: string[];
      /** Typographic forms replaced by the allowed symbol, as "’ by '". */
      replaced: string[];
      /**
       * Match type notation that was stripped: '-' (leading, negative), '+' (modifier), '[]'
       * (brackets around the keyword: exact) and '""' (quotes around it: phrase).
       */
      notation: string[];
      /** The match type the brackets or quotes around the whole keyword stated, if any. */
      stated?: StatedMatchType;
      /** Words of punctuation alone that were removed ("adidas -"). */
      punctuation: string[];
    }
  | {
      ok: false;
      keyword: string;
      reason: 'empty' | 'too-long' | 'too-many-words';
      message: string;
    };

function countWords(s: string): number {
  if (s.length === 0) return 0;
  let n = 1;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 32) n++;
  return n;
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * Brings a generated keyword within Google's rules (GOOGLE-ADS.md "Keywords"): lowercased, in
 * NFC, with every kind of space (tab, line break, no-break, ideographic, the other Unicode
 * spaces) a plain space and runs of spaces collapsed; invisible characters (zero-width
 * characters, soft hyphens, byte order marks, controls) dropped; curly quotes, primes and dashes
 * taken as ' " and -; letters, digits and their marks of every script kept, like
 * `KEYWORD_ALLOWED_SYMBOLS`; any other character (emoji, € £ ¥, ©®™, ¿¡, `, ! @ % ...`) replaced by a
 * space. Match type notation is stripped: a leading `-` (Google's text notation for a negative)
 * and `+` at the start of a word (the retired broad match modifier); the match type is its own
 * column. A keyword that is then empty, longer than 80 characters or over 10 words is dropped.
 */
export function cleanKeyword(raw: string): CleanKeywordResult {
  const fast = cleanKeywordQuick(raw);
  if (fast !== undefined)
    return {
      ok: true,
      keyword: fast,
      isChanged: false,
      removed: NONE as string[],
      spaces: NONE as string[],
      invisible: NONE as string[],
      replaced: NONE as string[],
      notation: NONE as string[],
      punctuation: NONE as string[],
    };
  return cleanKeywordSlow(raw);
}

/**
 * The hot path of `cleanKeyword`: the clean keyword when it needed nothing but lowercasing and
 * space tidying, else undefined (call `cleanKeyword` for the reason or the report).
 */
export function cleanKeywordQuick(raw: string): string | undefined {
  // One scan over plain ASCII text of allowed characters.
  const n = raw.length;
  let hasUpper = false;
  let needsTidy = false;
  let spaces = 0;
  let prevSpace = true;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 128 || KEYWORD_REJECTED_ASCII[c] === 1) return undefined;
    if (c === 32) {
      if (prevSpace) needsTidy = true;
      spaces++;
      prevSpace = true;
    } else {
      // A symbol starting a word may be match type notation ('-', '+', '[', '"') or start a
      // word of punctuation alone (see cleanKeyword).
      if (prevSpace && KEYWORD_WORD_START_SYMBOL[c] === 1) return undefined;
      if (c >= 65 && c <= 90) hasUpper = true;
      prevSpace = false;
    }
  }
  if (prevSpace && n > 0) needsTidy = true;
  let keyword = hasUpper ? raw.toLowerCase() : raw;
  let words = spaces + 1;
  if (needsTidy) {
    keyword = keyword.replace(/ +/g, ' ').trim();
    words = countWords(keyword);
  }
  if (keyword.length === 0 || keyword.length > KEYWORD_MAX_CHARS || words > KEYWORD_MAX_WORDS)
    return undefined;
  return keyword;
}

/** Letters and digits of every script. */
const LETTER_OR_DIGIT = /^[\p{L}\p{Nl}\p{Nd}]$/u;
/** Marks (accents, vowel signs) other than enclosing marks: kept after a letter or digit. */
const MARK = /^[\p{Mn}\p{Mc}]$/u;
/** Spaces of every kind (Unicode spaces, NEL, line and paragraph separators). */
const SPACE = /^[\p{Zs}\u0085\u2028\u2029]$/u;
/** Invisible characters: format characters (zero-width, soft hyphen, BOM), controls, variation selectors. */
const INVISIBLE = /^[\p{Cf}\p{Cc}\u{fe00}-\u{fe0f}\u{e0100}-\u{e01ef}]$/u;

/** Names of the spaces and invisible characters a report mentions. */
const CHARACTER_NAMES: Readonly<Record<string, string>> = {
  '\t': 'tab',
  '\n': 'line break',
  '\r': 'line break',
  '\u00a0': 'no-break space',
  '\u3000': 'ideographic space',
  '\u202f': 'narrow no-break space',
  '\u200b': 'zero-width space',
  '\u200c': 'zero-width non-joiner',
  '\u200d': 'zero-width joiner',
  '\u2060': 'word joiner',
  '\ufeff': 'byte order mark',
  '\u00ad': 'soft hyphen',
};

/** "no-break space (U+00A0)", or "U+2009" for a character without a name here. */
function nameOf(ch: string): string {
  const code = `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CHARACTER_NAMES[ch];
  return name === undefined ? code : `${name} (${code})`;
}

function addOnce(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

/** The match types bracket and quote notation state. */
export type StatedMatchType = 'Exact' | 'Phrase';

/**
 * Symbols that make a word of punctuation alone, which is removed from a keyword ("adidas -"):
 * the allowed symbols but '&', which reads "and" (h & m).
 */
const PUNCTUATION_WORD = /^[#$_\-"[\]'+./:]+$/;

/**
 * 1 at the code of each ASCII symbol that sends a keyword with a word starting with it to the
 * general cleaning: notation ('-', '+', '[', '"') or a word that may be punctuation alone.
 */
export const KEYWORD_WORD_START_SYMBOL: Readonly<Uint8Array> = new Uint8Array(128);
for (const ch of '#$_-"[]\'+./:') (KEYWORD_WORD_START_SYMBOL as Uint8Array)[ch.charCodeAt(0)] = 1;

/**
 * `keyword` (normalised: single spaces, trimmed) without brackets or quotes around it (Google's
 * text notation of exact and phrase match): the text inside, trimmed, and what it stated.
 */
function stripStatedNotation(keyword: string): { keyword: string; stated?: StatedMatchType } {
  const n = keyword.length;
  if (n < 2) return { keyword };
  const first = keyword.charCodeAt(0);
  const last = keyword.charCodeAt(n - 1);
  const inside = keyword.slice(1, -1);
  // Brackets: one pair around the whole keyword, none inside ("[a] [b]" is no notation).
  if (first === 91 && last === 93 && !/[[\]]/.test(inside))
    return { keyword: inside.trim(), stated: 'Exact' };
  if (first === 34 && last === 34 && !inside.includes('"'))
    return { keyword: inside.trim(), stated: 'Phrase' };
  return { keyword };
}

/** `keyword` without its words of punctuation alone; the words removed are added to `found`. */
function removePunctuationWords(keyword: string, found: string[]): string {
  if (keyword === '') return keyword;
  const words = keyword.split(' ');
  const kept = words.filter((w) => {
    if (!PUNCTUATION_WORD.test(w)) return true;
    addOnce(found, w);
    return false;
  });
  return kept.length === words.length ? keyword : kept.join(' ');
}

function cleanKeywordSlow(raw: string): CleanKeywordResult {
  const removed: string[] = [];
  const spaces: string[] = [];
  const invisible: string[] = [];
  const replaced: string[] = [];
  let out = '';
  // The last character written was a letter, digit or mark (a mark may follow it).
  let afterLetter = false;
  for (const ch of raw.toLowerCase().normalize('NFC')) {
    const c = ch.charCodeAt(0);
    if (c < 128) {
      if (c === 32) out += ' ';
      else if (c >= 9 && c <= 13) {
        out += ' ';
        addOnce(spaces, nameOf(ch));
      } else if (KEYWORD_REJECTED_ASCII[c] === 0) {
        out += ch;
        afterLetter = (c >= 97 && c <= 122) || (c >= 48 && c <= 57); // a-z, 0-9 (lower-cased)
        continue;
      } else if (c < 32 || c === 127) addOnce(invisible, nameOf(ch));
      else {
        out += ' ';
        addOnce(removed, ch);
      }
      afterLetter = false;
      continue;
    }
    const typographic = KEYWORD_TYPOGRAPHIC_FORMS[ch];
    if (typographic !== undefined) {
      out += typographic;
      addOnce(replaced, `${ch} by ${typographic}`);
      afterLetter = false;
    } else if (LETTER_OR_DIGIT.test(ch)) {
      out += ch;
      afterLetter = true;
    } else if (SPACE.test(ch)) {
      out += ' ';
      addOnce(spaces, nameOf(ch));
      afterLetter = false;
    } else if (INVISIBLE.test(ch)) addOnce(invisible, nameOf(ch));
    else if (MARK.test(ch)) {
      if (afterLetter) out += ch;
      else addOnce(removed, ch);
    } else {
      out += ' ';
      addOnce(removed, ch);
      afterLetter = false;
    }
  }
  let keyword = out.replace(/ +/g, ' ').trim();
  const notation: string[] = [];
  keyword = stripMatchNotation(keyword, notation);
  const outer = stripStatedNotation(keyword);
  const stated = outer.stated;
  if (stated !== undefined) {
    notation.push(stated === 'Exact' ? '[]' : '""');
    keyword = outer.keyword;
  }
  const punctuation: string[] = [];
  keyword = removePunctuationWords(keyword, punctuation);
  if (keyword.length === 0) {
    const message =
      raw.trim() === ''
        ? 'Keyword is empty'
        : 'Keyword is empty without the characters Google rejects';
    return { ok: false, keyword, reason: 'empty', message };
  }
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
    isChanged:
      removed.length > 0 ||
      spaces.length > 0 ||
      invisible.length > 0 ||
      replaced.length > 0 ||
      notation.length > 0 ||
      punctuation.length > 0,
    removed,
    spaces,
    invisible,
    replaced,
    notation,
    ...(stated !== undefined ? { stated } : {}),
    punctuation,
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
  '[]': 'the [ ] (exact match notation)',
  '""': 'the quotes (phrase match notation)',
};

/** Reports a row's keyword problem (skipped, cleaned or a warning) to the generator that made it. */
export type KeywordIssueReporter = (
  kind: RowIssueKind,
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
  /** The pattern's match type: a row's notation stating another is reported with it. */
  matchType?: MatchType,
): string | undefined {
  const quick = cleanKeywordQuick(raw);
  if (quick !== undefined) return quick;
  const cleaned = cleanKeyword(raw);
  const tail = isNegative ? ' (negative)' : '';
  if (!cleaned.ok) {
    if (raw.trim() !== '')
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
  const change = `"${raw}" -> "${cleaned.keyword}"${tail}`;
  if (cleaned.removed.length)
    report(
      'cleaned',
      row,
      rowNumber,
      'rejected-characters',
      `Removed ${cleaned.removed.join(' ')} from ${change}`,
    );
  if (cleaned.spaces.length)
    report(
      'cleaned',
      row,
      rowNumber,
      'other-spaces',
      `Replaced ${cleaned.spaces.join(', ')} by plain spaces in ${change}`,
    );
  if (cleaned.invisible.length)
    report(
      'cleaned',
      row,
      rowNumber,
      'invisible-characters',
      `Removed the invisible ${cleaned.invisible.join(', ')} from ${change}`,
    );
  if (cleaned.replaced.length)
    report(
      'cleaned',
      row,
      rowNumber,
      'typographic-characters',
      `Replaced ${cleaned.replaced.join(', ')} in ${change}`,
    );
  if (cleaned.notation.length) {
    const stated = cleaned.stated;
    // The template decides a keyword's match type (and so its ad group): a row's notation
    // stating another is removed, and said.
    const kept =
      stated !== undefined && matchType !== undefined && !matchType.endsWith(stated)
        ? `: written as ${matchType}, the template's match type, not ${stated}`
        : '';
    report(
      'cleaned',
      row,
      rowNumber,
      'match-notation',
      `Removed ${cleaned.notation.map((c) => NOTATION_NAMES[c]).join(' and ')} from ${change}${kept}`,
    );
  }
  if (cleaned.punctuation.length)
    report(
      'cleaned',
      row,
      rowNumber,
      'punctuation-word',
      `Removed ${cleaned.punctuation.map((w) => `"${w}"`).join(', ')} (punctuation alone) from ${change}`,
    );
  return cleaned.keyword;
}

/** Match types by the notation they state, positive and negative. */
const STATED_TYPES: Readonly<Record<StatedMatchType, readonly [MatchType, MatchType]>> = {
  Exact: ['Exact', 'Negative Exact'],
  Phrase: ['Phrase', 'Negative Phrase'],
};
const NOTATION_MARKS: Readonly<Record<StatedMatchType, string>> = { Exact: '[ ]', Phrase: '" "' };

/**
 * A template keyword written in Google's text notation (`[{root}]` exact, `"{root} {mod}"`
 * phrase) under `matchType`: its text without the notation and the match type it is read as
 * (Broad takes the stated one, Negative Broad its negative; the same type stays), or the
 * conflict when the notation contradicts the match type (`[东京]` under Phrase); undefined when
 * it has no notation.
 */
export function readKeywordNotation(
  keyword: string,
  matchType: MatchType,
):
  | { text: string; matchType: MatchType; stated: StatedMatchType }
  | { conflict: string }
  | undefined {
  const { keyword: text, stated } = stripStatedNotation(keyword.trim());
  if (stated === undefined) return undefined;
  const [positive, negative] = STATED_TYPES[stated];
  const isNegative = matchType.startsWith('Negative');
  const read =
    matchType === 'Broad'
      ? positive
      : matchType === 'Negative Broad'
        ? negative
        : matchType === positive || matchType === negative
          ? matchType
          : undefined;
  if (read !== undefined) return { text, matchType: read, stated };
  const marks = NOTATION_MARKS[stated];
  return {
    conflict: `${marks} states ${stated}, but the match type is ${matchType}: remove the ${marks} or choose ${isNegative ? negative : positive}`,
  };
}

/**
 * The template with its keywords' notation read (`readKeywordNotation`): each such keyword
 * written without it under the match type it is read as, a contradicting one left out; each
 * reported once, as a problem of the template (no row). The same template when none has any.
 */
export function resolveKeywordNotation(template: CampaignTemplate): {
  template: CampaignTemplate;
  issues: RowIssue[];
} {
  const issues: RowIssue[] = [];
  const keywords: KeywordPattern[] = [];
  for (const k of template.keywords) {
    const read = readKeywordNotation(k.keyword, k.matchType);
    if (read === undefined) keywords.push(k);
    else if ('conflict' in read)
      issues.push({
        kind: 'skipped',
        output: 'keywords',
        rowId: '',
        rowNumber: 0,
        code: 'match-notation-conflict',
        message: `Keyword "${k.keyword}" of the template is not generated: ${read.conflict}`,
      });
    else {
      keywords.push({ ...k, keyword: read.text, matchType: read.matchType });
      issues.push({
        kind: 'cleaned',
        output: 'keywords',
        rowId: '',
        rowNumber: 0,
        code: 'match-notation',
        message: `Keyword "${k.keyword}" of the template is read as ${read.matchType} "${read.text}": ${NOTATION_MARKS[read.stated]} is the notation of ${read.stated.toLowerCase()} match`,
      });
    }
  }
  return issues.length === 0
    ? { template, issues }
    : { template: { ...template, keywords }, issues };
}
