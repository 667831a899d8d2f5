/**
 * Google's editorial rules for ad and asset text, in one place (Google Ads policy: Editorial ›
 * Punctuation and symbols, Capitalization, Spacing; GOOGLE-ADS.md):
 *
 * - no "!" in a headline (headlines and long headlines; descriptions may carry one);
 * - no emoji or unsupported characters: pictographs and emoji (U+1F000–1FAFF and the emoji of
 *   U+2600–27BF), arrows, technical and geometric symbols, box drawing, dingbats, enclosed
 *   numbers, bullets (• ‣ ⁃ ∙), ‼ ⁉, emoji joiners and variation selectors, control characters,
 *   zero-width characters and the soft hyphen, private-use characters, U+FFFD and half-width
 *   katakana. © ® ™, currency signs, ° and letters of every script stay allowed;
 * - no repeated punctuation or symbols for emphasis: the same punctuation or symbol twice in a
 *   row ("!!", "$$$", "***", "--", "..." and the ellipsis "…"), or "!" and "?" together ("?!");
 * - no gimmicky capitals: a word of 6 or more capital letters ("SHIPPING"), 3 or more words in
 *   capitals in one text ("BUY NOW FAST"), or a word whose letters alternate case ("fReE", any 5
 *   letters in a row, or a whole word of 4 or more). Acronyms and short brand names ("USA",
 *   "NIKE", "ASAP", two such words) pass, as do "iPhone", "McDonald" and "eBay";
 * - no leading, trailing or double spaces: generation tidies spaces in every filled text, so
 *   this rule only flags text as typed (counters, extension values checked before tidying).
 *
 * Compatibility forms are judged as NFKC makes them: the full-width `！` is a "!".
 *
 * Dynamic insertions (`{KeyWord:Default}`) are judged by their default text. A filled text is
 * judged from facts about its literal parts (once per fallback) and about each row value (once
 * per row), so the hot path never scans a filled text whose pieces join cleanly (see
 * `judgeJoined`).
 */
import { withDefaultTexts } from './text.ts';

/** One editorial problem of a text. */
export interface EditorialProblem {
  code:
    | 'headline-exclamation'
    | 'unsupported-character'
    | 'repeated-punctuation'
    | 'gimmicky-capitals'
    | 'spacing';
  message: string;
}

/** Bits of `EditorialFacts.flags`. */
const EXCLAMATION = 1;
const UNSUPPORTED = 2;
const REPEATED = 4;
const ALTERNATING = 8;
const LONG_CAPS = 16;
const SPACING = 32;

/** Character classes at the ends of a piece (how pieces join). */
const CLASS_NONE = 0;
const CLASS_SPACE = 1;
const CLASS_LETTER = 2;
const CLASS_DIGIT = 3;
const CLASS_MARK = 4;

/** Three or more words in capitals in one text are shouting. */
const CAPS_WORDS_MAX = 2;
/** A word in capitals of this many letters or more is shouting (acronyms are shorter). */
const CAPS_WORD_MAX_LETTERS = 5;
/** Letters in a row alternating case ("fReEs") that make a word gimmicky. */
const ALTERNATING_RUN = 5;
/** A whole word alternating case of at least this many letters ("FrEe") is gimmicky. */
const ALTERNATING_WORD = 4;

/** What one scan of a piece of text knows: enough to judge pieces joined without a rescan. */
export interface EditorialFacts {
  flags: number;
  /** Words in capitals (2 letters or more). */
  capsWords: number;
  /** Class of the first and last character (CLASS_NONE when empty). */
  first: number;
  last: number;
  /** The first and last character (UTF-16 unit), to find repeats across a join. */
  firstChar: number;
  lastChar: number;
}

export function newEditorialFacts(): EditorialFacts {
  return { flags: 0, capsWords: 0, first: CLASS_NONE, last: CLASS_NONE, firstChar: 0, lastChar: 0 };
}

/** True for code points Google refuses in ad text (see the module comment). */
function isUnsupportedCodePoint(cp: number): boolean {
  if (cp < 0xa0) return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
  if (cp < 0x2000) return cp === 0xad;
  if (cp <= 0x2bff) {
    return (
      (cp >= 0x200b && cp <= 0x200f) ||
      cp === 0x2022 ||
      cp === 0x2023 ||
      cp === 0x203c ||
      cp === 0x2043 ||
      cp === 0x2049 ||
      (cp >= 0x2060 && cp <= 0x206f) ||
      cp === 0x20e3 ||
      (cp >= 0x2190 && cp <= 0x21ff) ||
      cp === 0x2219 ||
      (cp >= 0x2300 && cp <= 0x23ff) ||
      (cp >= 0x2460 && cp <= 0x24ff) ||
      (cp >= 0x2500 && cp <= 0x27bf) ||
      (cp >= 0x2900 && cp <= 0x297f) ||
      (cp >= 0x2b00 && cp <= 0x2bff)
    );
  }
  return (
    cp === 0x3030 ||
    cp === 0x303d ||
    cp === 0x3297 ||
    cp === 0x3299 ||
    (cp >= 0xd800 && cp <= 0xdfff) ||
    (cp >= 0xe000 && cp <= 0xf8ff) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    (cp >= 0xff61 && cp <= 0xff9f) ||
    (cp >= 0xfff0 && cp <= 0xffff) ||
    (cp >= 0x1f000 && cp <= 0x1fbff) ||
    (cp >= 0xe0000 && cp <= 0xe007f) ||
    cp >= 0xf0000
  );
}

/** Case of a letter: 1 upper, 2 lower, 0 uncased (or not a letter). */
function caseOf(c: number, ch: string): number {
  if (c < 128) return c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : 0;
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  if (lower === upper) return 0;
  return ch === upper ? 1 : ch === lower ? 2 : 0;
}

/** Class of a character that is not white space. */
function classOf(c: number, ch: string): number {
  if (c < 128) {
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return CLASS_LETTER;
    if (c >= 48 && c <= 57) return CLASS_DIGIT;
    return CLASS_MARK;
  }
  if (c === 0x2026 || (c >= 0x2010 && c <= 0x205e) || (c >= 0xa1 && c <= 0xbf) || c === 0xd7)
    return CLASS_MARK;
  return /\p{L}|\p{M}/u.test(ch) ? CLASS_LETTER : /\p{N}/u.test(ch) ? CLASS_DIGIT : CLASS_MARK;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000;
}

/** "!" and "?" together are repeated punctuation even when they differ ("?!"). */
function isBang(c: number): boolean {
  return c === 33 || c === 63;
}

/**
 * Compatibility forms of punctuation, symbols and letters (full-width `！`, small and vertical
 * forms `﹗` `︕`, the two-dot leader `‥`): judged as the characters NFKC makes of them, so a
 * rule that refuses "!" refuses `！` too. Half-width katakana stay as typed (refused as such);
 * ‼ and ⁉ are refused as unsupported characters.
 */
const COMPATIBILITY_FORM = /[\u2024\u2025\ufe10-\ufe19\ufe30-\ufe6b\uff01-\uff60\uffe0-\uffee]/;
const COMPATIBILITY_FORMS = new RegExp(COMPATIBILITY_FORM.source, 'g');

/** `text` with its compatibility forms as NFKC makes them (see `COMPATIBILITY_FORM`). */
function foldCompatibilityForms(text: string): string {
  return COMPATIBILITY_FORM.test(text)
    ? text.replace(COMPATIBILITY_FORMS, (ch) => ch.normalize('NFKC'))
    : text;
}

/** Scans `source` (dynamic insertions as their default text) into `out`. */
export function scanEditorial(source: string, out: EditorialFacts): EditorialFacts {
  const text = foldCompatibilityForms(withDefaultTexts(source));
  const n = text.length;
  let flags = 0;
  let capsWords = 0;
  let first = CLASS_NONE;
  let last = CLASS_NONE;
  let firstChar = 0;
  let lastChar = 0;
  let prev = -1; // the previous mark, -1 after anything else
  let prevSpace = false;
  // The current word (a run of letters).
  let wordLength = 0;
  let wordUpper = 0;
  let alternating = 0;
  let prevCase = 0;
  // One step past the end closes the last word.
  for (let i = 0; i <= n; i++) {
    let c = i < n ? text.charCodeAt(i) : 32;
    let ch = '';
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        ch = text.slice(i, i + 2);
        i++;
      }
    }
    if (c >= 128 && ch === '') ch = text[i] as string;
    const space = isSpace(c);
    const cls = space ? CLASS_SPACE : classOf(c, ch);
    if (cls !== CLASS_LETTER && wordLength > 0) {
      if (wordLength >= 2 && wordUpper === wordLength) {
        capsWords++;
        if (wordLength > CAPS_WORD_MAX_LETTERS) flags |= LONG_CAPS;
      }
      if (alternating >= ALTERNATING_WORD && alternating === wordLength) flags |= ALTERNATING;
      wordLength = 0;
      wordUpper = 0;
      alternating = 0;
      prevCase = 0;
    }
    if (i >= n) break;
    if (space) {
      if (prevSpace || first === CLASS_NONE) flags |= SPACING;
      prevSpace = true;
      prev = -1;
    } else {
      prevSpace = false;
      if (c >= 128 && isUnsupportedCodePoint(c)) flags |= UNSUPPORTED;
      else if (c < 32 || c === 127) flags |= UNSUPPORTED;
      if (c === 33) flags |= EXCLAMATION;
      if (cls === CLASS_LETTER) {
        const letterCase = caseOf(c, ch);
        wordLength++;
        if (letterCase === 1) wordUpper++;
        if (letterCase !== 0 && prevCase !== 0 && letterCase !== prevCase) alternating++;
        else alternating = 1;
        if (alternating >= ALTERNATING_RUN) flags |= ALTERNATING;
        prevCase = letterCase;
        prev = -1;
      } else if (cls === CLASS_MARK) {
        if (c === 0x2026 || c === prev || (isBang(c) && isBang(prev))) flags |= REPEATED;
        prev = c;
      } else prev = -1;
    }
    if (first === CLASS_NONE) {
      first = cls;
      firstChar = c;
    }
    last = cls;
    lastChar = c;
  }
  if (prevSpace) flags |= SPACING;
  out.flags = flags;
  out.capsWords = capsWords;
  out.first = first;
  out.last = last;
  out.firstChar = firstChar;
  out.lastChar = lastChar;
  return out;
}

/**
 * `scanEditorial` for the commonest feed values, in one light loop: lowercase ASCII letters and
 * digits, in words split by single spaces ("running shoes", "nike 0"). Such text breaks no rule
 * (no capitals, no mark, no spacing problem) and starts and ends with a letter or digit. Returns
 * false, leaving `out` as it was, for any other text (the caller then scans it).
 */
export function scanLowerAscii(text: string, out: EditorialFacts): boolean {
  const n = text.length;
  if (n === 0) return false;
  let prevSpace = true; // no space first
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (prevSpace) return false;
      prevSpace = true;
    } else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) prevSpace = false;
    else return false;
  }
  if (prevSpace) return false; // no space last
  const firstChar = text.charCodeAt(0);
  const lastChar = text.charCodeAt(n - 1);
  out.flags = 0;
  out.capsWords = 0;
  out.first = firstChar <= 57 ? CLASS_DIGIT : CLASS_LETTER;
  out.last = lastChar <= 57 ? CLASS_DIGIT : CLASS_LETTER;
  out.firstChar = firstChar;
  out.lastChar = lastChar;
  return true;
}

/**
 * Whether pieces of text judged apart can be judged together by adding their facts: a word or
 * a run of marks never spans the join. (Letters meeting letters, or a mark meeting a mark,
 * need a scan of the joined text.)
 */
export function joinsCleanly(left: EditorialFacts, right: EditorialFacts): boolean {
  if (left.last === CLASS_NONE || right.first === CLASS_NONE) return true;
  if (left.last === CLASS_LETTER && right.first === CLASS_LETTER) return false;
  if (left.last === CLASS_MARK && right.first === CLASS_MARK) return false;
  return true;
}

/**
 * A value that joins any frame cleanly and adds nothing to judge: no problem, no word in
 * capitals, and a letter or digit at both ends (see `isPlainSeat`).
 */
export function isPlainValue(f: EditorialFacts): boolean {
  return (
    (f.flags & FILLED_FLAGS) === 0 &&
    f.capsWords === 0 &&
    (f.first === CLASS_LETTER || f.first === CLASS_DIGIT) &&
    (f.last === CLASS_LETTER || f.last === CLASS_DIGIT)
  );
}

/**
 * Whether plain values (`isPlainValue`) in the slots between these parts join them cleanly:
 * no part next to a slot ends or starts with a letter, and no two slots touch.
 */
export function isPlainFrame(parts: readonly EditorialFacts[]): boolean {
  const last = parts.length - 1;
  return parts.every(
    (part, i) =>
      (i === last || part.last !== CLASS_LETTER) &&
      (i === 0 || part.first !== CLASS_LETTER) &&
      (i === 0 || i === last || part.first !== CLASS_NONE),
  );
}

/** The first problem code of facts, or undefined (`isHeadline`: "!" counts). */
export function judgeFacts(
  flags: number,
  capsWords: number,
  isHeadline: boolean,
): EditorialProblem | undefined {
  if (flags & UNSUPPORTED) return PROBLEMS.unsupported;
  if (isHeadline && flags & EXCLAMATION) return PROBLEMS.exclamation;
  if (flags & REPEATED) return PROBLEMS.repeated;
  if (flags & LONG_CAPS || capsWords > CAPS_WORDS_MAX) return PROBLEMS.shouting;
  if (flags & ALTERNATING) return PROBLEMS.alternating;
  if (flags & SPACING) return PROBLEMS.spacing;
  return undefined;
}

const PROBLEMS = {
  unsupported: {
    code: 'unsupported-character',
    message: 'has an emoji or a character Google does not allow in ads',
  },
  exclamation: {
    code: 'headline-exclamation',
    message: 'has "!" (Google allows none in headlines)',
  },
  repeated: {
    code: 'repeated-punctuation',
    message: 'repeats punctuation or symbols ("!!", "?!", "$$", "...")',
  },
  shouting: {
    code: 'gimmicky-capitals',
    message: `is in capitals (a word of more than ${CAPS_WORD_MAX_LETTERS} capitals, or more than ${CAPS_WORDS_MAX} words in capitals)`,
  },
  alternating: { code: 'gimmicky-capitals', message: 'alternates capitals ("fReE")' },
  spacing: { code: 'spacing', message: 'has leading, trailing or double spaces' },
} as const satisfies Record<string, EditorialProblem>;

const scratch = newEditorialFacts();

/**
 * Every editorial problem of `text` (a headline or long headline when `isHeadline`), in the
 * order of the module comment; messages follow the text's name ('Headline 1 has "!" ...').
 * The one check of ad texts and, for the lead's wiring, of extension fields.
 */
export function findEditorialProblems(text: string, isHeadline: boolean): EditorialProblem[] {
  const { flags, capsWords } = scanEditorial(text, scratch);
  const out: EditorialProblem[] = [];
  if (flags & UNSUPPORTED) out.push(PROBLEMS.unsupported);
  if (isHeadline && flags & EXCLAMATION) out.push(PROBLEMS.exclamation);
  if (flags & REPEATED) out.push(PROBLEMS.repeated);
  if (flags & LONG_CAPS || capsWords > CAPS_WORDS_MAX) out.push(PROBLEMS.shouting);
  if (flags & ALTERNATING) out.push(PROBLEMS.alternating);
  if (flags & SPACING) out.push(PROBLEMS.spacing);
  return out;
}

/** Flags a filled (tidied) text can carry: spacing is tidied away by substitution. */
export const FILLED_FLAGS = ~SPACING;
