/** Template negatives that block a keyword of their own ad group: found, and reported or dropped. */
import { polyHash } from '../hash.ts';
import type { RowIssue } from '../issues.ts';
import type { FeedRow, FeedRows } from '../types.ts';
import { grownInts } from './intLists.ts';
import { EXACT, MATCH_TYPE_CODES, NEGATIVE_EXACT, NEGATIVE_PHRASE } from './matchTypes.ts';
import { OUTPUT_KEYWORDS } from './rowIssues.ts';
import type { GroupLineSets } from './textTables.ts';

/** True when `word` is one of the space-separated words of `text`. */
function hasWord(text: string, word: string): boolean {
  const n = word.length;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (
      (at === 0 || text.charCodeAt(at - 1) === 32) &&
      (at + n === text.length || text.charCodeAt(at + n) === 32)
    )
      return true;
  }
  return false;
}

/** A group's keywords are indexed by word when it has this many lines at least... */
const INDEX_MIN_LINES = 64;
/** ...and this many held negatives are checked against it at once. */
const INDEX_MIN_NEGATIVES = 3;

/**
 * Checks held template negatives for a keyword of their own group they block: a Negative Exact
 * equal to an Exact keyword (no search reaches it), a Negative Broad whose words the keyword
 * all holds. Each find goes to `found`: the blocked keyword (a warning on its row), or with
 * `drop` the negative, which is then not written (the check answers true; only the first keyword
 * it blocks is reported). Keywords are looked at in their group's order (`lines`,
 * listed), so finds come in that order. Campaign negatives are not checked (by the caller).
 *
 * No find is ever made twice, so no find needs a duplicate check: a keyword line (its row's,
 * text and match type) belongs to one group, whose lines differ in text or match type, and each
 * held negative (one per group, text and match type) is checked once.
 *
 * A group's texts are made when it is loaded (`load`) and kept until another group is. Held
 * negatives come in row order: with big groups (each row adds to one of a few, as an ad group
 * `{mod} {var1}` does) those of the groups interleave, and a one-group cache made every text of
 * a group again for nearly each negative, then tried each: negatives times keywords. So the
 * caller checks a batch of interleaved groups' negatives group by group (`checkByGroup` in
 * `runSearchKeywordLines`, which reports their finds in the held order), and a big group checked
 * against several negatives is indexed: per word of its keywords the lines that hold it, in the
 * group's order (word hashes in an open-addressing table, lists as linked int arrays). A Broad
 * negative is then tried only on the lines of its rarest word, and one with a word no line
 * holds (most: "cheap") blocks nothing at once; a Negative Exact is found in a map of the Exact
 * texts. Hash collisions only add candidates, each checked on its text as before.
 * Weighed and not taken: a set of each group's words kept as lines are added (it skips the texts
 * for most negatives, but costs every open group memory and every line its words, on the path of
 * templates whose groups are a row's); a bounded cache of several groups' texts (each negative
 * still tries every line).
 * Still slow: a negative each of whose words many of the group's lines hold but few hold all
 * (e.g. "red shoes" where half the keywords say "red" and the other half "shoes"): the lines of
 * its rarest word are each tried. A big group whose held negatives are written in many batches
 * (each stopped by another group still open) while other groups are loaded between them has its
 * texts made again in each batch. Small groups (a row's few lines, as most templates make) are
 * not indexed: each negative tries each line.
 */
export class BlockingCheck {
  /** The group loaded, its line count and per line its text, row and pattern. */
  private group = -1;
  private count = 0;
  private readonly texts: string[] = [];
  private textRows: Int32Array = new Int32Array(1024);
  private textPatterns: Int32Array = new Int32Array(1024);
  /** The index (see the class): whether the loaded group has one. */
  private indexed = false;
  private mask = 0;
  /** Per slot: word hash, list count (0 = empty slot), first and last posting + 1. */
  private slots = new Int32Array(0);
  /** Per posting: its line and the next posting of its word + 1 (0 = none). */
  private postLines = new Int32Array(0);
  private postNext = new Int32Array(0);
  /** The loaded group's Exact texts and the first line of each, made when first needed. */
  private exactLines: Map<string, number> | undefined;

  constructor(
    private readonly lines: GroupLineSets,
    private readonly mts: readonly number[],
    private readonly remakeKeyword: (row: number, pattern: number) => string,
    private readonly found: (
      group: number,
      negativeRow: number,
      negativePattern: number,
      keywordRow: number,
      keywordPattern: number,
    ) => void,
    private readonly drop: boolean,
  ) {}

  /** Reports that a negative blocks line `j` of the loaded group. */
  private foundLine(group: number, negativeRow: number, negativePattern: number, j: number): void {
    this.found(
      group,
      negativeRow,
      negativePattern,
      this.textRows[j] as number,
      this.textPatterns[j] as number,
    );
  }

  private readonly read = (row: number, pattern: number): void => {
    const c = this.count;
    if (c === this.textRows.length) {
      this.textRows = grownInts(this.textRows, c + 1);
      this.textPatterns = grownInts(this.textPatterns, c + 1);
    }
    this.texts[c] = this.remakeKeyword(row, pattern);
    this.textRows[c] = row;
    this.textPatterns[c] = pattern;
    this.count = c + 1;
  };

  /**
   * Makes `group`'s texts (unless it is loaded already), and its index when `negatives` (the
   * held negatives about to be checked against it) make that worth it.
   */
  load(group: number, negatives: number): void {
    if (group !== this.group) {
      this.group = group;
      this.count = 0;
      this.indexed = false;
      this.exactLines = undefined;
      this.lines.forEachLine(group, this.read);
      // Texts of a much bigger group loaded before are let go (not every time: a list made
      // shorter is allocated again as it grows).
      if (this.texts.length > 4 * this.count + 1024) this.texts.length = this.count;
    }
    if (!this.indexed && this.count >= INDEX_MIN_LINES && negatives >= INDEX_MIN_NEGATIVES)
      this.buildIndex();
  }

  private buildIndex(): void {
    const texts = this.texts;
    const count = this.count;
    let words = 0;
    for (let j = 0; j < count; j++) {
      const t = texts[j] as string;
      words++;
      for (let i = t.indexOf(' '); i >= 0; i = t.indexOf(' ', i + 1)) words++;
    }
    const slotCount = 2 ** Math.ceil(Math.log2(2 * words + 2));
    if (this.slots.length < 4 * slotCount) this.slots = new Int32Array(4 * slotCount);
    else this.slots.fill(0, 0, 4 * slotCount);
    if (this.postLines.length < words) {
      this.postLines = new Int32Array(words);
      this.postNext = new Int32Array(words);
    }
    this.mask = slotCount - 1;
    const slots = this.slots;
    const postLines = this.postLines;
    const postNext = this.postNext;
    let posts = 0;
    for (let j = 0; j < count; j++) {
      const t = texts[j] as string;
      for (let from = 0; from <= t.length;) {
        let to = t.indexOf(' ', from);
        if (to < 0) to = t.length;
        if (to > from) {
          const s = this.slotOf(polyHash(t, from, to));
          const last = slots[s + 3] as number;
          // A word twice in one keyword lists it once.
          if (last === 0 || postLines[last - 1] !== j) {
            postLines[posts] = j;
            postNext[posts] = 0;
            if (last === 0) slots[s + 2] = posts + 1;
            else postNext[last - 1] = posts + 1;
            slots[s + 3] = posts + 1;
            (slots[s + 1] as number)++;
            posts++;
          }
        }
        from = to + 1;
      }
    }
    this.indexed = true;
  }

  /** The slot (index into `slots`) of word hash `h`: its own, else the empty one to take. */
  private slotOf(h: number): number {
    const slots = this.slots;
    let s = (h ^ (h >>> 15)) & this.mask;
    for (; slots[4 * s + 1] !== 0 && slots[4 * s] !== h; s = (s + 1) & this.mask);
    slots[4 * s] = h;
    return 4 * s;
  }

  /** Whether a held negative (not a campaign negative: those are not checked) is dropped. */
  check(
    group: number,
    negativeRow: number,
    negativePattern: number,
    negative: string,
    /** The negative's last word, when the caller knows it. */
    lastWord?: string,
  ): boolean {
    this.load(group, 1);
    const texts = this.texts;
    const count = this.count;
    // The common case blocks nothing: no list is made for it.
    if (this.mts[negativePattern] === NEGATIVE_EXACT) {
      if (this.indexed) {
        const j = this.exactLineOf(negative);
        if (j < 0) return false;
        this.foundLine(group, negativeRow, negativePattern, j);
        return this.drop;
      }
      for (let j = 0; j < count; j++) {
        if (this.mts[this.textPatterns[j] as number] === EXACT && texts[j] === negative) {
          this.foundLine(group, negativeRow, negativePattern, j);
          return this.drop;
        }
      }
      return false;
    }
    // A Negative Phrase blocks a keyword that holds its words in its order, one after another: a
    // Negative Broad's check first (each word held), then the phrase.
    const isPhrase = this.mts[negativePattern] === NEGATIVE_PHRASE;
    if (this.indexed) {
      const first = this.firstCandidate(negative);
      if (first !== -1)
        return (
          first !== 0 &&
          this.checkLines(group, negativeRow, negativePattern, negative, first, isPhrase)
        );
    }
    // A keyword without the negative's last word is not blocked: most are ruled out by that,
    // before the negative is split into words.
    let last = lastWord;
    if (last === undefined) {
      const space = negative.lastIndexOf(' ');
      last = space < 0 ? negative : negative.slice(space + 1);
    }
    let words: string[] | undefined;
    for (let j = 0; j < count; j++) {
      const keyword = texts[j] as string;
      if (!hasWord(keyword, last)) continue;
      words ??= negative.split(' ');
      if (!holdsAll(keyword, words) || (isPhrase && !holdsPhrase(keyword, negative))) continue;
      this.foundLine(group, negativeRow, negativePattern, j);
      if (this.drop) return true;
    }
    return false;
  }

  /**
   * The first posting + 1 of the negative's rarest word (0: a word no line holds, so nothing is
   * blocked); -1 when the index cannot tell (a negative with an empty word: two spaces, or none).
   */
  private firstCandidate(negative: string): number {
    let best = -1;
    let bestCount = 0;
    for (let from = 0; from <= negative.length;) {
      let to = negative.indexOf(' ', from);
      if (to < 0) to = negative.length;
      if (to === from) return -1;
      const s = this.slotOf(polyHash(negative, from, to));
      const n = this.slots[s + 1] as number;
      // Not a word of the group (the empty slot found keeps no word: its count is 0).
      if (n === 0) return 0;
      if (best < 0 || n < bestCount) {
        best = s;
        bestCount = n;
      }
      from = to + 1;
    }
    return this.slots[best + 2] as number;
  }

  /** The Broad check on the lines of postings from `first` (+ 1) on, in the group's order. */
  private checkLines(
    group: number,
    negativeRow: number,
    negativePattern: number,
    negative: string,
    first: number,
    isPhrase: boolean,
  ): boolean {
    const words = negative.split(' ');
    for (let p = first; p > 0; p = this.postNext[p - 1] as number) {
      const j = this.postLines[p - 1] as number;
      const keyword = this.texts[j] as string;
      if (!holdsAll(keyword, words) || (isPhrase && !holdsPhrase(keyword, negative))) continue;
      this.foundLine(group, negativeRow, negativePattern, j);
      if (this.drop) return true;
    }
    return false;
  }

  /** The first Exact line whose text is `negative`, else -1. */
  private exactLineOf(negative: string): number {
    let exact = this.exactLines;
    if (!exact) {
      exact = this.exactLines = new Map();
      for (let j = 0; j < this.count; j++) {
        const t = this.texts[j] as string;
        if (this.mts[this.textPatterns[j] as number] === EXACT && !exact.has(t)) exact.set(t, j);
      }
    }
    return exact.get(negative) ?? -1;
  }
}

/** True when `keyword` holds the words of `phrase` in its order, one after another. */
function holdsPhrase(keyword: string, phrase: string): boolean {
  return ` ${keyword} `.includes(` ${phrase} `);
}

/** True when `keyword` holds each of `words`. */
function holdsAll(keyword: string, words: readonly string[]): boolean {
  for (const word of words) if (!hasWord(keyword, word)) return false;
  return true;
}

/**
 * Makes the report of a find of `BlockingCheck` (the texts are made again from their rows
 * and patterns, the group's name from its number).
 */
export function blockingIssueMaker(
  rows: FeedRows,
  mts: readonly number[],
  remakeKeyword: (row: number, pattern: number) => string,
  groupText: (group: number) => string,
  rowLabel: (rowNumber: number) => string,
  drop: boolean,
): (
  group: number,
  negativeRow: number,
  negativePattern: number,
  keywordRow: number,
  keywordPattern: number,
) => RowIssue {
  return (group, negativeRow, negativePattern, row, pattern) => {
    const negativeName = `${MATCH_TYPE_CODES[mts[negativePattern] as number] as string} "${remakeKeyword(negativeRow, negativePattern)}"`;
    const keyword = `"${remakeKeyword(row, pattern)}" (${MATCH_TYPE_CODES[mts[pattern] as number] as string}`;
    if (drop) {
      return {
        kind: 'skipped',
        output: OUTPUT_KEYWORDS,
        rowId: (rows.at(negativeRow) as FeedRow).id,
        rowNumber: negativeRow + 1,
        code: 'blocking-negative-dropped',
        message: `${negativeName} of ad group "${groupText(group)}" is not written: it blocks the group's keyword ${keyword}, ${rowLabel(row + 1)})`,
      };
    }
    return {
      kind: 'warning',
      output: OUTPUT_KEYWORDS,
      rowId: (rows.at(row) as FeedRow).id,
      rowNumber: row + 1,
      code: 'blocked-keyword',
      message: `Keyword ${keyword}) of ad group "${groupText(group)}" cannot serve: the group's ${negativeName} (${rowLabel(negativeRow + 1)}) blocks it`,
    };
  };
}
