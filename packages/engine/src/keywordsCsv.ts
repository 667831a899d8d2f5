/**
 * The keyword lines of a search template, streamed: as Editor CSV chunks (`writeKeywordsCsv`) or
 * as fields (`forEachKeywordLine`, which the object API collects), for feeds of a million rows.
 * It is checked against a plain implementation of the same rules (test/reference).
 *
 * What makes it fast: no line, campaign or group objects and no Map entry per group. Campaigns,
 * ad groups and keyword lines are remembered in open-addressing hash tables of typed arrays
 * (hash, the row and pattern that first made the entry). A name or keyword is not kept: when a
 * later one has the same hash, the first one is made again from its row and compared (and then
 * kept, as such a name recurs). The same row and pattern always make the same text, so the common
 * case compares no text at all. Exact keywords waiting to become Negative Exact lines are kept
 * as (row, pattern) numbers and made again at the end.
 */
import { formatCsvCell, resolveCsvOptions, type FormatCsvOptions } from './csv.ts';
import { KEYWORD_HEADERS } from './export.ts';
import { compileCampaignRow, GeneratedAdGroup } from './campaignRows.ts';
import { composeHash, HASH_BASE, polyHash, sealHash } from './hash.ts';
import type { RowIssue } from './issues.ts';
import {
  cleanFilledKeyword,
  cleanKeyword,
  cleanKeywordQuick,
  KEYWORD_REJECTED_ASCII,
} from './keywords.ts';
import { KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS, NAME_MAX_CHARS } from './limits.ts';
import {
  cleanName,
  defaultRowLabel,
  fillRaw,
  foldName,
  mergeIssue,
  nameProblem,
  type NameKind,
} from './names.ts';
import {
  PLACEHOLDERS,
  SLOT_NUMBER,
  compilePattern,
  type CompiledPattern,
  type PlaceholderValues,
} from './text.ts';
import type { GenerateCampaignStructureInput, KeywordsCsvSinks, RowGroupKeys } from './campaign.ts';
import { newFeedCells } from './feedColumns.ts';
import {
  FEED_COLUMNS,
  type CampaignTemplate,
  type FeedRow,
  type FeedRows,
  type MatchType,
} from './types.ts';

/** Match types by code (the code is the index). */
const MATCH_TYPE_CODES: readonly MatchType[] = [
  'Broad',
  'Phrase',
  'Exact',
  'Negative Broad',
  'Negative Exact',
];
const BROAD = 0;
const EXACT = 2;
const NEGATIVE_EXACT = 4;
/** What a pending Exact keyword's Broad group decided when it closed (see `pendingLine`). */
const PENDING_OPEN = 0;
const PENDING_WRITTEN = 1;
const PENDING_DUPLICATE = 2;
/** Group "match type" code of an ad group pattern without `{mt}`. */
const NO_MT = 5;
/** Bits of `lastRowsOfGroups`: no later row names the row's group; another row names it. */
const LAST_ROW = 1;
const SHARED_GROUP = 2;

function matchTypeCode(mt: MatchType): number {
  return MATCH_TYPE_CODES.indexOf(mt);
}

/**
 * A set of texts keyed by two integers (a, b), stored without the texts: per entry the hash and
 * the (row, pattern) that made it; `remake(row, pattern)` makes the text again when a hash
 * matches. Entries are numbered from 0 in order of insertion.
 */
export class TextKeyTable {
  /** Per slot: hash, entry + 1 (0 = empty): one cache line per probe. */
  private slots: Int32Array;
  private mask: number;
  /** Per entry: a, b, row, pattern. */
  private entries: Int32Array;
  /** Texts made again or kept, by entry (few: only for hashes that matched). */
  private readonly texts = new Map<number, string>();
  /** With `removable`: per entry its hash (to find its slot); removed entries to use again. */
  private hashes: Int32Array;
  private readonly free: IntList | undefined;
  /** Entries numbered so far (removed ones included). */
  size = 0;
  /** Entries in the table. */
  private live = 0;
  /** True when the last `findOrAdd` added the entry. */
  added = false;
  /**
   * The text of the entry the last `find` returned, when it was made by another row or pattern
   * (with `fold`, it may differ from the text looked up); undefined when it is that text.
   */
  foundText: string | undefined;

  /**
   * `capacity`: the entries expected (the slots start at twice that). `maxEntries`: at most this
   * many entries will be added; the entry list is allocated that long at once. Its memory is
   * written in order, so the pages never reached are never touched: an upper bound costs nothing,
   * while growing by doubling touches every page twice. `fold`: texts equal in this form are one
   * entry (the hashes are of it); it is applied only when a hash matches and the texts differ.
   * `removable`: entries can be removed (`remove`), and their numbers are used again.
   */
  constructor(
    private readonly remake: (row: number, pattern: number) => string,
    capacity = 1024,
    maxEntries = 0,
    private readonly fold?: (text: string) => string,
    removable = false,
  ) {
    const slotCount = Math.max(4, 2 ** Math.ceil(Math.log2(capacity * 2)));
    this.slots = new Int32Array(slotCount * 2);
    this.mask = slotCount - 1;
    this.entries = new Int32Array(Math.max(slotCount / 2, maxEntries) * 4);
    this.hashes = new Int32Array(removable ? this.entries.length / 4 : 0);
    this.free = removable ? new IntList() : undefined;
  }

  /** The entry of (a, b, text), or -1. `row` and `pattern` made `text` (they spare comparisons). */
  find(hash: number, a: number, b: number, text: string, row: number, pattern: number): number {
    const { slots, mask, entries } = this;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const e = (slots[2 * s + 1] as number) - 1;
      if (e < 0) return -1;
      if (slots[2 * s] !== hash) continue;
      const at = 4 * e;
      if (entries[at] !== a || entries[at + 1] !== b) continue;
      if (entries[at + 2] === row && entries[at + 3] === pattern) {
        this.foundText = undefined;
        return e;
      }
      const known = this.textOf(e);
      if (known === text || (this.fold && this.fold(known) === this.fold(text))) {
        this.foundText = known;
        return e;
      }
    }
  }

  /** The text of entry `e` (made again from its row and pattern, and kept, when not known). */
  textOf(e: number): string {
    let known = this.texts.get(e);
    if (known === undefined) {
      known = this.remake(this.entries[4 * e + 2] as number, this.entries[4 * e + 3] as number);
      this.texts.set(e, known);
    }
    return known;
  }

  /** The entry of (a, b, text), added when missing (`added` tells which). */
  findOrAdd(
    hash: number,
    a: number,
    b: number,
    text: string,
    row: number,
    pattern: number,
  ): number {
    const found = this.find(hash, a, b, text, row, pattern);
    if (found >= 0) {
      this.added = false;
      return found;
    }
    // At most half the slots are used.
    if (2 * this.live++ === this.mask + 1) this.growSlots();
    const e = this.newEntry(a, b, row, pattern);
    if (this.free) this.hashes[e] = hash;
    this.place(this.slots, this.mask, hash, e);
    return e;
  }

  /**
   * Adds an entry that no `find` will look for (the caller knows that no other text of the run is
   * equal to it): numbered as `findOrAdd` numbers it, but without a probe of the slots or a place
   * in them. Not for a `removable` table.
   */
  addUnlooked(a: number, b: number, row: number, pattern: number): number {
    return this.newEntry(a, b, row, pattern);
  }

  /** A new entry's number, its fields set (`added` true). */
  private newEntry(a: number, b: number, row: number, pattern: number): number {
    this.added = true;
    this.foundText = undefined;
    const free = this.free;
    let e: number;
    if (free && free.length > 0) e = free.data[--free.length] as number;
    else {
      e = this.size++;
      if (4 * e === this.entries.length) this.growEntries();
    }
    const at = 4 * e;
    const entries = this.entries;
    entries[at] = a;
    entries[at + 1] = b;
    entries[at + 2] = row;
    entries[at + 3] = pattern;
    return e;
  }

  /** Removes entry `e` (a `removable` table); its number is given to a later entry. */
  remove(e: number): void {
    this.unslot(e, this.hashes[e] as number);
    // Texts are made again only when hashes match (rarely): mostly there are none.
    if (this.texts.size > 0) this.texts.delete(e);
    (this.free as IntList).push(e);
  }

  /**
   * Takes entry `e`, whose hash is `hash`, out of the look-ups: `find` no longer finds it, but its
   * number is kept (and never given again) and `textOf`, `rowOf` and `patternOf` still answer.
   * The slots then grow with the entries still looked up, not with every entry.
   */
  forget(e: number, hash: number): void {
    this.unslot(e, hash);
  }

  private unslot(e: number, hash: number): void {
    const { slots, mask } = this;
    let s = hash & mask;
    while (slots[2 * s + 1] !== e + 1) {
      if (slots[2 * s + 1] === 0) return; // not looked up (any more)
      s = (s + 1) & mask;
    }
    // Linear probing's deletion: later entries of the probe run move back into the hole.
    for (let j = (s + 1) & mask; slots[2 * j + 1] !== 0; j = (j + 1) & mask) {
      const home = (slots[2 * j] as number) & mask;
      if (s <= j ? s < home && home <= j : s < home || home <= j) continue;
      slots[2 * s] = slots[2 * j] as number;
      slots[2 * s + 1] = slots[2 * j + 1] as number;
      s = j;
    }
    slots[2 * s] = 0;
    slots[2 * s + 1] = 0;
    this.live--;
  }

  /** The text of entry `e`, made again when not known, without keeping it. */
  spell(e: number): string {
    return (
      this.texts.get(e) ??
      this.remake(this.entries[4 * e + 2] as number, this.entries[4 * e + 3] as number)
    );
  }

  /** The row that made entry `e` (-1 for an entry added without one). */
  rowOf(e: number): number {
    return this.entries[4 * e + 2] as number;
  }

  /** The pattern that made entry `e`. */
  patternOf(e: number): number {
    return this.entries[4 * e + 3] as number;
  }

  /** Keeps the text of an entry (when the caller knows it). */
  keep(e: number, text: string): void {
    this.texts.set(e, text);
  }

  private place(slots: Int32Array, mask: number, hash: number, e: number): void {
    let s = hash & mask;
    while (slots[2 * s + 1] !== 0) s = (s + 1) & mask;
    slots[2 * s] = hash;
    slots[2 * s + 1] = e + 1;
  }

  private growEntries(): void {
    const entries = new Int32Array(this.entries.length * 2);
    entries.set(this.entries);
    this.entries = entries;
    if (this.free) {
      const hashes = new Int32Array(this.entries.length / 4);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
  }

  private growSlots(): void {
    const old = this.slots;
    const slotCount = (this.mask + 1) * 2;
    this.slots = new Int32Array(slotCount * 2);
    this.mask = slotCount - 1;
    for (let s = 0; s < old.length; s += 2) {
      const e = (old[s + 1] as number) - 1;
      if (e >= 0) this.place(this.slots, this.mask, old[s] as number, e);
    }
  }
}

/**
 * Per group a set of (match type, text) lines, stored like `TextKeyTable`; the first `inline`
 * lines of a group are kept in the group's place (most groups hold the lines of one row), the
 * others in a table keyed by group. With
 * `listed`, each group's lines can be read back in the order they were added (`forEachLine`).
 * With `droppable`, a group no line will join any more can be dropped (`drop`): its place is
 * used again, so the sets hold the open groups' lines, not every line.
 */
export class GroupLineSets {
  /**
   * Per place `inline` lines, each hash, row, pattern, match type + 1 (0 = no line there yet),
   * filled in order.
   */
  private first: Int32Array;
  /** Texts of those lines made again, by place * inline + line. */
  private readonly firstTexts = new Map<number, string>();
  private readonly rest: TextKeyTable;
  /** With `listed`: per place its first and last entry in `rest` (+ 1; 0 = none). */
  private ends: Int32Array;
  /** With `listed`: per entry of `rest` the group's next entry (+ 1; 0 = none). */
  private readonly next: IntList | undefined;
  /** With `droppable`: per group its place + 1 (0 = none), and the places of dropped groups. */
  private placeOf: Int32Array;
  private readonly freePlaces: IntList | undefined;
  private places = 0;

  /**
   * `groups`: the groups likely at most (more grow the list); `lines`: the lines likely at most
   * (see `TextKeyTable`'s maxEntries). Without `droppable`, a group's place is its number.
   * `inline`: the lines kept in a group's place (the lines one row adds to a group, at most:
   * a set that held more in each place would leave them unused in a group of one line).
   */
  constructor(
    private readonly remake: (row: number, pattern: number) => string,
    groups = 1024,
    lines = 0,
    listed = false,
    droppable = false,
    private readonly inline = 1,
  ) {
    // A droppable set's places are used again: it needs as many as groups are open at once.
    this.first = new Int32Array(4 * inline * (droppable ? 1024 : Math.max(1024, groups)));
    this.rest = new TextKeyTable(remake, 1024, lines, undefined, droppable);
    this.ends = new Int32Array(listed || droppable ? 2 * Math.max(1024, groups) : 0);
    this.next = listed || droppable ? new IntList(lines) : undefined;
    this.placeOf = new Int32Array(droppable ? Math.max(1024, groups) : 0);
    this.freePlaces = droppable ? new IntList() : undefined;
  }

  /** The place of `group` in `first` and `ends`; -1 when it has none and `make` is false. */
  private placeFor(group: number, make: boolean): number {
    const free = this.freePlaces;
    if (!free) return group;
    if (group >= this.placeOf.length) {
      if (!make) return -1;
      this.placeOf = grownInts(this.placeOf, group + 1);
    }
    let p = (this.placeOf[group] as number) - 1;
    if (p < 0 && make) {
      p = free.length > 0 ? (free.data[--free.length] as number) : this.places++;
      this.placeOf[group] = p + 1;
    }
    return p;
  }

  /** Calls `fn` with the row and pattern of each line of `group`, in the order they were added. */
  forEachLine(group: number, fn: (row: number, pattern: number) => void): void {
    const p = this.placeFor(group, false);
    const at = 4 * this.inline * p;
    const f = this.first;
    if (p < 0 || at >= f.length) return;
    for (let i = 0; i < this.inline; i++) {
      if (f[at + 4 * i + 3] === 0) return;
      fn(f[at + 4 * i + 1] as number, f[at + 4 * i + 2] as number);
    }
    const next = (this.next as IntList).data;
    for (let e = this.ends[2 * p] as number; e > 0; e = next[e - 1] as number)
      fn(this.rest.rowOf(e - 1), this.rest.patternOf(e - 1));
  }

  /** Adds the line to the group's set; false when it was there already. */
  add(
    group: number,
    hash: number,
    mt: number,
    text: string,
    row: number,
    pattern: number,
  ): boolean {
    const p = this.placeFor(group, true);
    const inline = this.inline;
    const start = 4 * inline * p;
    if (start >= this.first.length) this.first = grownInts(this.first, start + 4 * inline);
    const f = this.first;
    for (let i = 0; i < inline; i++) {
      const at = start + 4 * i;
      const lineMt = f[at + 3] as number;
      if (lineMt === 0) {
        f[at] = hash;
        f[at + 1] = row;
        f[at + 2] = pattern;
        f[at + 3] = mt + 1;
        return true;
      }
      if (lineMt === mt + 1 && f[at] === hash) {
        if (f[at + 1] === row && f[at + 2] === pattern) return false;
        let known = this.firstTexts.get(inline * p + i);
        if (known === undefined) {
          known = this.remake(f[at + 1] as number, f[at + 2] as number);
          this.firstTexts.set(inline * p + i, known);
        }
        if (known === text) return false;
      }
    }
    const e = this.rest.findOrAdd(hash, group, mt, text, row, pattern);
    if (!this.rest.added) return false;
    const next = this.next;
    if (next) {
      // An entry's number is new, or one a dropped group's line had.
      if (e === next.length) next.push(0);
      else next.data[e] = 0;
      if (2 * p >= this.ends.length) this.ends = grownInts(this.ends, 2 * p + 2);
      const ends = this.ends;
      const last = ends[2 * p + 1] as number;
      if (last === 0) ends[2 * p] = e + 1;
      else next.data[last - 1] = e + 1;
      ends[2 * p + 1] = e + 1;
    }
    return true;
  }

  /** Forgets the lines of `group` (a `droppable` set): no line may join it afterwards. */
  drop(group: number): void {
    const p = this.placeFor(group, false);
    if (p < 0) return;
    this.placeOf[group] = 0;
    const inline = this.inline;
    for (let i = 0; i < inline; i++) {
      const at = 4 * (inline * p + i);
      if (at >= this.first.length || this.first[at + 3] === 0) break;
      this.first[at + 3] = 0;
      // Texts are made again only when hashes match (rarely): mostly there are none.
      if (this.firstTexts.size > 0) this.firstTexts.delete(inline * p + i);
    }
    if (2 * p < this.ends.length) {
      const next = (this.next as IntList).data;
      for (let e = this.ends[2 * p] as number; e > 0;) {
        const after = next[e - 1] as number;
        this.rest.remove(e - 1);
        e = after;
      }
      this.ends[2 * p] = this.ends[2 * p + 1] = 0;
    }
    (this.freePlaces as IntList).push(p);
  }
}

/** `a`, or a copy of it at least `length` long (twice as long when that is more). */
function grownInts(a: Int32Array, length: number): Int32Array {
  if (length <= a.length) return a;
  const b = new Int32Array(Math.max(a.length * 2, length));
  b.set(a);
  return b;
}

/**
 * A growing list of int32 values. `capacity`: the values likely at most, allocated at once (as
 * `TextKeyTable`'s maxEntries: pages never written are never touched, and a list that does not
 * grow by doubling leaves no old copy for the garbage collector).
 */
class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(1024, capacity));
  }

  push(a: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = a;
  }

  private grow(): void {
    const grown = new Int32Array(this.data.length * 2);
    grown.set(this.data);
    this.data = grown;
  }

  push4(a: number, b: number, c: number, d: number): void {
    if (this.length + 4 > this.data.length) this.grow();
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
    this.data[this.length++] = d;
  }
}

/** Values per chunk of an `IntChunks`. */
const CHUNK_INTS = 1 << 16;

/**
 * A growing list of int32 values kept in chunks of `CHUNK_INTS`: it grows without copying itself
 * (an `IntList` grown by doubling holds its old copy and its new one until the old is collected,
 * and its last doubling can leave half of it unused). Values are read with `at`.
 */
export class IntChunks {
  private readonly chunks: Int32Array[] = [];
  private last = new Int32Array(0);
  private used = 0;
  length = 0;

  push(a: number): void {
    if (this.used === this.last.length) {
      this.last = new Int32Array(CHUNK_INTS);
      this.chunks.push(this.last);
      this.used = 0;
    }
    this.last[this.used++] = a;
    this.length++;
  }

  at(i: number): number {
    return (this.chunks[Math.floor(i / CHUNK_INTS)] as Int32Array)[i % CHUNK_INTS] as number;
  }
}

/** Lines joined before they are added to a chunk as one flat string. */
const RUN_LINES = 128;

/**
 * Keyword or negative lines as Editor CSV: the chunks of `formatKeywordsCsv`. Lines are joined
 * into runs of `RUN_LINES` that are flattened (a string made by `+` is a tree of pieces until
 * something reads it): a chunk is then a short list of flat runs, not a tree of ~10 pieces per
 * line that the garbage collector copies and the consumer must walk.
 */
class CsvChunks {
  private chunk: string;
  private run = '';
  private runLines = 0;
  private lines = 0;
  private lastCampaign: string | undefined;
  private lastCampaignPlain = 0;
  private campaignCell = '';
  /** Criterion Type cells by match type code; campaign negatives at code + 5. */
  private readonly typeCells: string[] = [];
  count = 0;
  /** Read from each run to flatten it (kept so the read is not optimised away). */
  probe = 0;

  readonly neutralise: boolean;
  private readonly chunkLines: number;

  /**
   * `kept`: when given, the lines are kept there (formatted as this writer formats them) instead
   * of written, for `append` to add to another writer later.
   */
  constructor(
    private readonly write: (chunk: string) => void,
    options: Required<FormatCsvOptions>,
    readonly kept?: KeptLines,
    private readonly prefix = new LinePrefix(),
  ) {
    this.neutralise = options.neutraliseFormulas;
    this.chunkLines = options.chunkLines;
    const nl = options.newline;
    this.chunk = keywordsCsvHeader(options);
    for (const mt of MATCH_TYPE_CODES) this.typeCells.push(`,${formatCsvCell(mt)}${nl}`);
    for (const mt of MATCH_TYPE_CODES) {
      const ct = mt.startsWith('Negative') ? `Campaign ${mt}` : mt;
      this.typeCells.push(`,${formatCsvCell(ct)}${nl}`);
    }
  }

  /**
   * One line; `groupId` identifies (campaign, group) so the formatted prefix is reused. `plain`
   * holds bits 1 (campaign), 2 (group), 4 (keyword): that text is its own CSV cell.
   */
  line(
    groupId: number,
    campaign: string,
    group: string,
    keyword: string,
    mt: number,
    plain: number,
  ): void {
    const prefix = this.prefix;
    if (groupId !== prefix.group) {
      // The lines of a row share its campaign (the same string): its cell is formatted once.
      if (campaign !== this.lastCampaign || (plain & 1) !== this.lastCampaignPlain) {
        this.lastCampaign = campaign;
        this.lastCampaignPlain = plain & 1;
        this.campaignCell = (plain & 1 ? campaign : formatCsvCell(campaign, this.neutralise)) + ',';
      }
      const g = plain & 2 ? group : formatCsvCell(group, this.neutralise);
      prefix.set(groupId, this.campaignCell + g + ',');
    }
    const campaignLevel = group === '' && mt >= 3 ? 5 : 0;
    const text =
      prefix.text +
      (plain & 4 ? keyword : formatCsvCell(keyword, this.neutralise)) +
      (this.typeCells[mt + campaignLevel] as string);
    if (this.kept) this.kept.add(text);
    else this.push(text);
  }

  private push(text: string): void {
    this.run += text;
    this.count++;
    if (++this.lines === this.chunkLines) {
      handOver(this.write, this.chunk + this.run);
      this.chunk = '';
      this.run = '';
      this.runLines = 0;
      this.lines = 0;
    } else if (++this.runLines === RUN_LINES) {
      // Reading a character flattens the run's tree into one string.
      this.probe ^= this.run.charCodeAt(0);
      this.chunk += this.run;
      this.run = '';
      this.runLines = 0;
    }
  }

  /** Appends the lines kept in `kept`, split at this writer's chunk boundaries. */
  append(kept: KeptLines): void {
    kept.finish();
    this.chunk += this.run;
    this.run = '';
    this.runLines = 0;
    const lengths = kept.lengths.data;
    let line = 0;
    for (const run of kept.runs) {
      const n = Math.min(RUN_LINES, kept.lengths.length - line);
      let at = 0;
      let taken = 0;
      while (taken < n) {
        const k = Math.min(this.chunkLines - this.lines, n - taken);
        let length = 0;
        for (let j = 0; j < k; j++) length += lengths[line + taken + j] as number;
        this.chunk += at === 0 && length === run.length ? run : run.slice(at, at + length);
        at += length;
        taken += k;
        this.count += k;
        this.lines += k;
        if (this.lines === this.chunkLines) {
          this.write(this.chunk);
          this.chunk = '';
          this.lines = 0;
        }
      }
      line += n;
    }
  }

  end(): void {
    const chunk = this.chunk + this.run;
    if (chunk) this.write(chunk);
    this.chunk = '';
    this.run = '';
  }
}

/**
 * Calls `write` with `chunk`. A writer's lines hand their chunks over through this function, not
 * with a call of their own: V8 compiles a call that has seen one target (the keywords' sink) to
 * expect that one, and the negatives' first chunk then throws the writer's optimised code away.
 * This call is too rare to be compiled into the writer's code.
 */
function handOver(write: (chunk: string) => void, chunk: string): void {
  write(chunk);
}

/**
 * The start of a line ("campaign,group,", formatted) of the group written last, shared by a
 * run's writers: a group id names one campaign and ad group, whose cells a writer formats alike
 * whatever its `plain` bits say (they only spare the check), so a group's keyword and negative
 * lines start alike. It is flattened once (a string made by `+` is a tree of its pieces until
 * something reads it): each line then copies it as one piece.
 */
class LinePrefix {
  group = -1;
  text = '';
  /** Read from each prefix to flatten it (kept so the read is not optimised away). */
  probe = 0;

  set(group: number, text: string): void {
    this.group = group;
    this.text = text;
    this.probe ^= text.charCodeAt(0);
  }
}

/** Lines kept for later, in flattened runs of `RUN_LINES` with each line's length. */
class KeptLines {
  readonly runs: string[] = [];
  readonly lengths = new IntList();
  private run = '';
  private runLines = 0;
  probe = 0;

  add(text: string): void {
    this.run += text;
    this.lengths.push(text.length);
    if (++this.runLines === RUN_LINES) this.finish();
  }

  /** Closes the open run. */
  finish(): void {
    if (this.runLines === 0) return;
    this.probe ^= this.run.charCodeAt(0);
    this.runs.push(this.run);
    this.run = '';
    this.runLines = 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Substitution plans: a pattern filled from its pieces, checked from per-row facts.

/** Piece flags. */
const NO_CONTROL = 1; // no character below U+0020, nor DEL
const NO_DOUBLE_SPACE = 2;
const STARTS_SPACE = 4;
const ENDS_SPACE = 8;
const CELL_PLAIN = 16; // no '"' or ',' (with the above: its own CSV cell)
const KEYWORD_PLAIN = 32; // ASCII without characters keywords reject (nor '"'), no word-initial - or +
/** A value that fills a slot without any tidying: non-empty, no outer or double spaces. */
const TIDY_VALUE = 64;
const ASCII = 128;

/** Characters that keep a keyword piece off the fast path: those keywords reject, and '"'. */
const KEYWORD_BLOCKED = Uint8Array.from(KEYWORD_REJECTED_ASCII);
KEYWORD_BLOCKED[34] = 1;

/** Facts of one piece of text: a literal part of a pattern or a row's value. */
interface PieceFacts {
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

function newPiece(): PieceFacts {
  return { text: '', lower: '', hash: 0, lowerHash: 0, pow: 1, length: 0, spaces: 0, flags: 0 };
}

/** Kinds of ASCII characters for `measurePiece` (a character may have several). */
const K_CONTROL = 1; // below U+0020, or DEL
const K_SPACE = 2;
const K_UPPER = 4;
const K_CELL = 8; // '"' or ',': the cell is quoted
const K_KEYWORD = 16; // rejected by keywords, or '"' (see KEYWORD_BLOCKED)
const K_SIGN = 32; // '-' or '+' that keywords allow (notation when it starts a word)
const K_NON_ASCII = 64;
const CHAR_KINDS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  let kind = 0;
  if (c < 32 || c === 127) kind |= K_CONTROL;
  if (c === 32) kind |= K_SPACE;
  if (c >= 65 && c <= 90) kind |= K_UPPER;
  if (c === 34 || c === 44) kind |= K_CELL;
  if (KEYWORD_BLOCKED[c] === 1) kind |= K_KEYWORD;
  else if (c === 45 || c === 43) kind |= K_SIGN;
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
function measurePiece(f: PieceFacts, s: string): void {
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
      // '-' or '+' starting a word may be match type notation: cleanKeyword decides.
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

const MT_SLOT = SLOT_NUMBER.mt;

/** A compiled pattern with its literal parts measured once. */
interface Plan {
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

function planOf(pattern: CompiledPattern): Plan {
  const parts = pattern.parts.map((text) => {
    const f = newPiece();
    measurePiece(f, text);
    return f;
  });
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
class PlanFiller {
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
      const value = row[FEED_COLUMNS[slot]!];
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

/** The `output` of the keyword path's row issues. */
export const OUTPUT_KEYWORDS = 'keywords';

/** The header line of a keywords or negatives CSV. */
export function keywordsCsvHeader(options: FormatCsvOptions): string {
  return KEYWORD_HEADERS.join(',') + resolveCsvOptions(options).newline;
}

/**
 * Where the fast path's lines go: `CsvChunks` (Editor CSV) or `FieldLines` (each line's fields).
 * `groupId` identifies (campaign, group); `plain` is for CSV quoting (see `CsvChunks.line`).
 */
type LineWriter = CsvChunks | FieldLines;

/** Hands each line's fields to a callback (the web worker packs them into its tables). */
class FieldLines {
  count = 0;
  constructor(private readonly onLine: KeywordLineSink) {}

  line(groupId: number, campaign: string, group: string, keyword: string, mt: number): void {
    this.count++;
    this.onLine(campaign, group, keyword, MATCH_TYPE_CODES[mt] as MatchType, groupId);
  }

  end(): void {}
}

/**
 * A keyword or negative line as fields (`adGroup` is '' for a campaign negative). `groupId`, when
 * given, names the line's (campaign, adGroup): lines of one pair share it, lines of two pairs never
 * do, so a consumer can keep each ad group's name once. It is numbered from 0, in no set order;
 * -1 (or absent) when unknown.
 */
export type KeywordLineSink = (
  campaign: string,
  adGroup: string,
  keyword: string,
  matchType: MatchType,
  groupId?: number,
) => void;

/** Where `forEachSearchKeywordLine` hands its lines, campaign rows and ad groups. */
export interface KeywordLineSinks {
  keywords: KeywordLineSink;
  negatives: KeywordLineSink;
  campaigns?: KeywordsCsvSinks['campaigns'];
  adGroups?: KeywordsCsvSinks['adGroups'];
}

/**
 * The fast keyword lines of a search template (see the file comment), written as CSV. Returns
 * the line counts; each issue is handed to `issue` once it is final, in report order. Search
 * templates only (a performance template makes no keyword lines).
 */
export function writeSearchKeywordsCsv(
  input: GenerateCampaignStructureInput,
  sinks: KeywordsCsvSinks,
  options: FormatCsvOptions,
  issue: (issue: RowIssue) => void,
): { keywordLines: number; negativeLines: number } {
  const resolved = resolveCsvOptions(options);
  const prefix = new LinePrefix();
  const keywordCsv = new CsvChunks(sinks.keywords, resolved, undefined, prefix);
  const negativeCsv = new CsvChunks(sinks.negatives, resolved, undefined, prefix);
  const keptCsv = new CsvChunks(() => {}, resolved, new KeptLines(), prefix);
  return runSearchKeywordLines(input, sinks, keywordCsv, negativeCsv, keptCsv, issue);
}

/**
 * The same lines as `writeSearchKeywordsCsv`, in the same order, as fields: no CSV text is made.
 * Returns the line counts; issues are handed to `issue` as in `writeSearchKeywordsCsv`. Search
 * templates only.
 */
export function forEachSearchKeywordLine(
  input: GenerateCampaignStructureInput,
  sinks: KeywordLineSinks,
  issue: (issue: RowIssue) => void,
): { keywordLines: number; negativeLines: number } {
  const keywords = new FieldLines(sinks.keywords);
  const negatives = new FieldLines(sinks.negatives);
  return runSearchKeywordLines(input, sinks, keywords, negatives, undefined, issue);
}

/**
 * Template negatives held until every keyword is known (see `BlockingCheck`), as numbers:
 * their texts are made again from the row when they are written (a million held as strings took
 * about 100 MB).
 */
class HeldNegatives {
  /** Per line: group id, row, campaign id, pattern << 4 | CSV plain bits. */
  readonly ints: IntList;
  constructor(capacity: number) {
    this.ints = new IntList(4 * capacity);
  }

  get length(): number {
    return this.ints.length / 4;
  }

  add(groupId: number, row: number, campaignId: number, pattern: number, plain: number): void {
    this.ints.push4(groupId, row, campaignId, (pattern << 4) | plain);
  }
}

/**
 * The keys of rows' campaign and ad group (the hashes of their folded names, sealed together), as
 * the keyword step's look-ahead keys them (`lastRowsOfGroups`): a template without `{mt}` whose
 * keywords include a positive one (`usesGroupKeys`). A maker keys any range of rows, so the
 * command line keys the feed on two threads, a chunk at a time
 * (`GenerateCampaignStructureInput.groupKeys`). A `{mt}` template's look-ahead (`groupsOfRows`)
 * keys its rows' names one match type at a time (`measureAt`, `campaignHash`, `groupHash`).
 */
export class GroupKeyMaker {
  private readonly campaignPattern: CompiledPattern;
  private readonly groupPattern: CompiledPattern;
  private readonly campaignPlan: Plan;
  private readonly groupPlan: Plan;
  /** The row slots the names use ({mt} and {const} are fixed). */
  private readonly nameSlots: number[] = [];
  private readonly filler = new PlanFiller();
  private readonly values: PlaceholderValues;
  /** {mt} as each match type (by code), and empty (while a campaign name is filled). */
  private readonly mtFacts: PieceFacts[];
  private readonly emptyMt: PieceFacts;
  /** How each name is hashed from a row's bytes (`measureAt`). */
  private readonly campaignWay: NameWay;
  private readonly groupWay: NameWay;
  /** The hash of a FIXED_NAME name (undefined: skipped). */
  private readonly campaignFixed: number | undefined;
  private readonly groupFixed: number | undefined;
  /** Where a row's cells start in its bytes (`FeedRows.asciiCells`). */
  private readonly bounds = new Int32Array(FEED_COLUMNS.length + 1);
  /** Per slot number the folded hash and length of the row's cell (and of {const} and {mt}). */
  private readonly cellHash = new Int32Array(PLACEHOLDERS.length);
  private readonly cellLength = new Int32Array(PLACEHOLDERS.length);
  /** The hash `cellsNameHash` made. */
  private hash = 0;
  /** Both names can be keyed from a row's bytes (neither is GENERAL_NAME). */
  private readonly byBytes: boolean;
  /** The row `measureAt` took, and whether its cells were measured from its bytes. */
  private rows: FeedRows | undefined;
  private rowIndex = -1;
  private fromCells = false;

  /** True when the keyword step keys the rows of `template` (see the class). */
  static usesGroupKeys(template: CampaignTemplate): boolean {
    return (
      !compilePattern(template.adGroup).slots.includes('mt') &&
      template.keywords.some((k) => k.keyword.trim() !== '' && matchTypeCode(k.matchType) <= EXACT)
    );
  }

  constructor(template: CampaignTemplate) {
    this.campaignPattern = compilePattern(template.campaign);
    this.groupPattern = compilePattern(template.adGroup);
    this.campaignPlan = planOf(this.campaignPattern);
    this.groupPlan = planOf(this.groupPattern);
    for (const plan of [this.campaignPlan, this.groupPlan])
      for (const slot of plan.slots)
        if (slot !== MT_SLOT && PLACEHOLDERS[slot] !== 'const' && !this.nameSlots.includes(slot))
          this.nameSlots.push(slot);
    const constFacts = this.filler.slots[SLOT_NUMBER.const] as PieceFacts;
    measurePiece(constFacts, template.const);
    this.mtFacts = MATCH_TYPE_CODES.map((name) => {
      const f = newPiece();
      measurePiece(f, name);
      return f;
    });
    this.emptyMt = newPiece();
    measurePiece(this.emptyMt, '');
    this.filler.slots[MT_SLOT] = this.emptyMt;
    const emptyRow = newFeedCells();
    this.values = { row: emptyRow, const: template.const, mt: '' };
    const constTidy = (constFacts.flags & (TIDY_VALUE | ASCII)) === (TIDY_VALUE | ASCII);
    this.cellHash[SLOT_NUMBER.const] = constFacts.lowerHash;
    this.cellLength[SLOT_NUMBER.const] = constFacts.length;
    this.campaignWay = nameWay(this.campaignPlan, constTidy);
    this.groupWay = nameWay(this.groupPlan, constTidy);
    // A name of no row cell is the same for every row: made once, the general way.
    this.campaignFixed = this.campaignWay === FIXED_NAME ? this.campaignHash() : undefined;
    this.groupFixed = this.groupWay === FIXED_NAME ? this.groupHash(-1) : undefined;
    this.byBytes = this.campaignWay !== GENERAL_NAME && this.groupWay !== GENERAL_NAME;
  }

  /** Keys rows `from` to `to` (not included) of `rows` into `out`. */
  fill(rows: FeedRows, from: number, to: number, out: RowGroupKeys): void {
    const { keys, named } = out;
    for (let r = from; r < to; r++) {
      if (this.byBytes && this.fillFromBytes(rows, r, out)) continue;
      this.measure(rows.at(r) as FeedRow);
      named[r] = 0;
      const campaign = this.campaignHash();
      if (campaign === undefined) continue;
      const group = this.groupHash(-1);
      if (group === undefined) continue;
      keys[r] = sealHash(group, campaign, 1);
      named[r] = 1;
    }
  }

  /**
   * Takes row `r` of `rows` as the row whose names are keyed next: from its bytes, without making
   * the row, when it is ASCII and the cells its names use need no tidying (`measureCells`); else
   * made and measured.
   */
  measureAt(rows: FeedRows, r: number): void {
    this.rows = rows;
    this.rowIndex = r;
    const bytes = this.byBytes ? rows.asciiCells?.(r, this.bounds) : undefined;
    this.fromCells = bytes !== undefined && this.measureCells(bytes);
    if (!this.fromCells) this.measure(rows.at(r) as FeedRow);
  }

  /** Makes and measures the row `measureAt` took from its bytes (for a name too long). */
  private measureMade(): void {
    this.measure((this.rows as FeedRows).at(this.rowIndex) as FeedRow);
  }

  /**
   * `fill` for row `r` from its bytes when `measureAt` would take them and both names are keyed
   * from them; false for any other row. The loop of the keys that the command line makes on both
   * threads before the keyword step: its own few small functions are compiled sooner than
   * `campaignHash` and `groupHash` (a first run of 25k rows took 4 ms less).
   */
  private fillFromBytes(rows: FeedRows, r: number, out: RowGroupKeys): boolean {
    const bytes = rows.asciiCells?.(r, this.bounds);
    if (bytes === undefined || !this.measureCells(bytes)) return false;
    let campaign = this.campaignFixed;
    if (this.campaignWay === CELLS_NAME) {
      if (!this.cellsNameHash(this.campaignPlan)) return false;
      campaign = this.hash;
    }
    let group = this.groupFixed;
    if (this.groupWay === CELLS_NAME) {
      // {mt} as none is empty: not a tidy value.
      if (this.groupPlan.mtAt >= 0 || !this.cellsNameHash(this.groupPlan)) return false;
      group = this.hash;
    }
    if (campaign === undefined || group === undefined) out.named[r] = 0;
    else {
      out.keys[r] = sealHash(group, campaign, 1);
      out.named[r] = 1;
    }
    return true;
  }

  /**
   * Measures the name cells of a row's ASCII `bytes` (cells at `bounds`) into `cellHash` and
   * `cellLength`: false when one is not a TIDY_VALUE (empty, a control character, an outer or a
   * double space), which the general way tidies. Slot numbers of row cells are FEED_COLUMNS
   * indexes, so `bounds[slot]` is where the slot's cell starts.
   */
  private measureCells(bytes: Uint8Array): boolean {
    const { nameSlots, bounds } = this;
    for (let i = 0; i < nameSlots.length; i++) {
      const slot = nameSlots[i] as number;
      const start = bounds[slot] as number;
      const end = bounds[slot + 1] as number;
      if (start === end || bytes[start] === 32 || bytes[end - 1] === 32) return false;
      let hash = 0;
      let prev = 0;
      for (let j = start; j < end; j++) {
        let c = bytes[j] as number;
        if (c < 32 || c === 127 || (c === 32 && prev === 32)) return false;
        prev = c;
        // Folded as `foldName` folds ASCII (the hash is `PieceFacts.lowerHash`).
        if (c >= 65 && c <= 90) c += 32;
        hash = (Math.imul(hash, HASH_BASE) + c) | 0;
      }
      this.cellHash[slot] = hash;
      this.cellLength[slot] = end - start;
    }
    return true;
  }

  /** `PlanFiller.nameHash` from the measured cells, into `hash`: false when too long. */
  private cellsNameHash(plan: Plan): boolean {
    const { parts, slots } = plan;
    let length = plan.frameLength;
    let hash = (parts[0] as PieceFacts).lowerHash;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as number;
      const n = this.cellLength[slot] as number;
      length += n;
      const part = parts[i + 1] as PieceFacts;
      hash = composeHash(
        composeHash(hash, powerOf(n), this.cellHash[slot] as number),
        part.pow,
        part.lowerHash,
      );
    }
    this.hash = hash;
    return length <= NAME_MAX_CHARS;
  }

  /** Takes `row` as the row whose names are keyed next. */
  private measure(row: FeedRow): void {
    this.fromCells = false;
    this.values.row = row;
    this.filler.measureRow(row, this.nameSlots);
  }

  /** The hash of the measured row's folded campaign name; undefined when it is skipped. */
  campaignHash(): number | undefined {
    if (this.fromCells) {
      if (this.campaignWay === FIXED_NAME) return this.campaignFixed;
      if (this.cellsNameHash(this.campaignPlan)) return this.hash;
      this.measureMade();
    }
    return this.foldedNameHash(this.campaignPlan, this.campaignPattern, 'Campaign');
  }

  /** The same for its ad group name, with {mt} as match type `mt` (-1: none). */
  groupHash(mt: number): number | undefined {
    if (this.fromCells) {
      if (this.groupWay === FIXED_NAME) return this.groupFixed;
      if (mt >= 0) {
        const f = this.mtFacts[mt] as PieceFacts;
        this.cellHash[MT_SLOT] = f.lowerHash;
        this.cellLength[MT_SLOT] = f.length;
      }
      // {mt} as none is empty: not a tidy value.
      if ((mt >= 0 || this.groupPlan.mtAt < 0) && this.cellsNameHash(this.groupPlan))
        return this.hash;
      this.measureMade();
    }
    if (mt < 0) return this.foldedNameHash(this.groupPlan, this.groupPattern, 'Ad group');
    this.filler.slots[MT_SLOT] = this.mtFacts[mt] as PieceFacts;
    this.values.mt = MATCH_TYPE_CODES[mt] as string;
    const hash = this.foldedNameHash(this.groupPlan, this.groupPattern, 'Ad group');
    this.values.mt = '';
    this.filler.slots[MT_SLOT] = this.emptyMt;
    return hash;
  }

  /** The hash of a name's folded form as the row fills it; undefined when it is skipped. */
  private foldedNameHash(plan: Plan, pattern: CompiledPattern, what: NameKind): number | undefined {
    if (this.filler.nameHash(plan)) return this.filler.hash;
    const c = cleanName(fillRaw(pattern, this.values));
    if (nameProblem(c, what)?.kind === 'skipped') return undefined;
    return c.name === '' ? undefined : polyHash(foldName(c.name));
  }
}

/**
 * The row cells names use ({mt} and {const} are fixed), compared between two rows as bytes
 * (`FeedRows.asciiCells`).
 */
export class NameCells {
  private readonly slots: number[] = [];
  /** The names' literal parts and {const} are ASCII (else `same` answers false). */
  private readonly isAsciiFrame: boolean;
  private readonly boundsA = new Int32Array(FEED_COLUMNS.length + 1);
  private readonly boundsB = new Int32Array(FEED_COLUMNS.length + 1);

  constructor(template: Pick<CampaignTemplate, 'campaign' | 'adGroup' | 'const'>) {
    const plans = [template.campaign, template.adGroup].map((p) => planOf(compilePattern(p)));
    const constFacts = newPiece();
    measurePiece(constFacts, template.const);
    let isAsciiFrame = plans.every((plan) => plan.isAsciiFrame);
    for (const plan of plans)
      for (const slot of plan.slots)
        if (slot === SLOT_NUMBER.const) isAsciiFrame &&= (constFacts.flags & ASCII) !== 0;
        else if (slot !== MT_SLOT && !this.slots.includes(slot)) this.slots.push(slot);
    this.isAsciiFrame = isAsciiFrame;
  }

  /**
   * True when rows `a` and `b` are ASCII and their cells are equal ignoring ASCII case: with an
   * ASCII frame their names are then ASCII, filled alike but for case, which cleaning keeps (an
   * ASCII name is not normalised), so they fold alike. (A non-ASCII frame could compose a
   * letter with a mark that has a precomposed form in one case only.) False says nothing: cells
   * split another way may fill the same name.
   */
  same(rows: FeedRows, a: number, b: number): boolean {
    if (!this.isAsciiFrame) return false;
    const { slots, boundsA, boundsB } = this;
    const bytesA = rows.asciiCells?.(a, boundsA);
    const bytesB = bytesA && rows.asciiCells?.(b, boundsB);
    if (!bytesA || !bytesB) return false;
    for (const slot of slots) {
      const startA = boundsA[slot] as number;
      const startB = boundsB[slot] as number;
      const n = (boundsA[slot + 1] as number) - startA;
      if ((boundsB[slot + 1] as number) - startB !== n) return false;
      for (let i = 0; i < n; i++) {
        const x = bytesA[startA + i] as number;
        const y = bytesB[startB + i] as number;
        if (x !== y && !(x >= 65 && x <= 90 ? x + 32 === y : y >= 65 && y <= 90 && y + 32 === x))
          return false;
      }
    }
    return true;
  }
}

/** How `GroupKeyMaker.fill` hashes a name from a row's bytes (see `nameWay`). */
type NameWay = typeof FIXED_NAME | typeof CELLS_NAME | typeof GENERAL_NAME;
/** The name uses no row cell: the same hash for every row. */
const FIXED_NAME = 0;
/** The name is hashed from its cells when they need no tidying (`PlanFiller.nameHash`'s rule). */
const CELLS_NAME = 1;
/** Every row is made and measured. */
const GENERAL_NAME = 2;

/**
 * The way of `plan`'s name; `constTidy`: {const} is ASCII and a TIDY_VALUE ({mt}, a match type,
 * always is).
 */
function nameWay(plan: Plan, constTidy: boolean): NameWay {
  const slots = [...plan.slots];
  if (slots.every((slot) => slot === SLOT_NUMBER.const)) return FIXED_NAME;
  if (!plan.isTidyFrame || !plan.isAsciiFrame) return GENERAL_NAME;
  return constTidy || !slots.includes(SLOT_NUMBER.const) ? CELLS_NAME : GENERAL_NAME;
}

/**
 * The fast path itself. `keptCsv` formats the Negative Exact lines that are kept for the end
 * as CSV (see `canKeepPending`); without it those lines are made again at the end instead.
 */
function runSearchKeywordLines(
  input: GenerateCampaignStructureInput,
  sinks: Pick<KeywordsCsvSinks, 'campaigns' | 'adGroups'>,
  keywordCsv: LineWriter,
  negativeCsv: LineWriter,
  keptCsv: CsvChunks | undefined,
  report: (issue: RowIssue) => void,
): { keywordLines: number; negativeLines: number } {
  const { template, rows } = input;
  const rowLabel = input.rowLabel ?? defaultRowLabel;
  // Bits of `CsvChunks.line`'s `plain` that may be set (none when formulas are neutralised).
  const plainMask = keptCsv?.neutralise ? 0 : 7;

  const campaignPattern = compilePattern(template.campaign);
  const groupPattern = compilePattern(template.adGroup);
  const campaignPlan = planOf(campaignPattern);
  const groupPlan = planOf(groupPattern);
  const splitsByMatchType = groupPattern.slots.includes('mt');
  // Patterns by index: positives first, then negatives (each in template order). Every keyword
  // line counts, whatever its `selected` (that is only the keyword table's selection).
  const positives: Array<{ pattern: CompiledPattern; mt: number }> = [];
  const negativePatterns: Array<{ pattern: CompiledPattern; mt: number }> = [];
  for (const k of template.keywords) {
    if (k.keyword.trim() === '') continue;
    const mt = matchTypeCode(k.matchType);
    (mt <= EXACT ? positives : negativePatterns).push({ pattern: compilePattern(k.keyword), mt });
  }
  const positiveCount = positives.length;
  const all = [...positives, ...negativePatterns];
  const pats = all.map((k) => k.pattern);
  const mts = all.map((k) => k.mt);
  const plans = pats.map(planOf);

  // The slots to measure per row: those the patterns use ({mt} and {const} are fixed).
  const rowSlots: number[] = [];
  for (const plan of [campaignPlan, groupPlan, ...plans])
    for (const slot of plan.slots)
      if (slot !== MT_SLOT && PLACEHOLDERS[slot] !== 'const' && !rowSlots.includes(slot))
        rowSlots.push(slot);
  const filler = new PlanFiller();
  measurePiece(filler.slots[SLOT_NUMBER.const] as PieceFacts, template.const);
  const mtFacts = MATCH_TYPE_CODES.map((name) => {
    const f = newPiece();
    measurePiece(f, name);
    return f;
  });
  // {mt} is the match type while an ad group name is filled, else empty (as in fillPattern).
  const emptyMt = newPiece();
  measurePiece(emptyMt, '');
  const setMt = (mt: number): void => {
    filler.slots[MT_SLOT] = mt < 0 ? emptyMt : (mtFacts[mt] as PieceFacts);
  };
  setMt(-1);

  // The fields of a feed row in their order, so that it has the rows' shape. No row is read ahead
  // of the loop: a store that makes rows as they are read (FeedRows) would make the first twice.
  const emptyRow = { id: '', ...newFeedCells() };
  const values: PlaceholderValues = { row: emptyRow, const: template.const, mt: '' };
  // Values for making a remembered text again (never the current row's object).
  const again: PlaceholderValues = { row: emptyRow, const: template.const, mt: '' };

  // The keyword each pattern made last, and its row: a group closed right after its row reads
  // its lines and held negatives from here instead of making them again.
  const madeRow = new Int32Array(pats.length).fill(-1);
  const madeText: string[] = pats.map(() => '');
  // 1 when that keyword was made from its pieces (`fillKeyword`): it ends with its pattern's
  // last part, so its last word is known when that part holds a space (see `lastWords`).
  const madeWhole = new Uint8Array(pats.length);
  const lastWords = plans.map((plan) => {
    const end = (plan.parts[plan.parts.length - 1] as PieceFacts).lower;
    const space = end.lastIndexOf(' ');
    return plan.isTidyFrame && plan.isKeywordFrame && space >= 0 ? end.slice(space + 1) : undefined;
  });
  const madeHash = new Int32Array(pats.length);
  // Per pattern an earlier one with the same text (a keyword under two match types), else -1:
  // the row's keyword made from its pieces for that one is this one's too.
  const sameAs = pats.map((p, k) => {
    const j = pats.findIndex((q) => q.source === p.source);
    return j < k ? j : -1;
  });
  const made = (row: number, pattern: number, keyword: string, hash: number, whole: boolean) => {
    madeRow[pattern] = row;
    madeText[pattern] = keyword;
    madeHash[pattern] = hash;
    madeWhole[pattern] = whole ? 1 : 0;
  };
  const remakeKeyword = (row: number, pattern: number): string => {
    if (madeRow[pattern] === row) return madeText[pattern] as string;
    again.row = rows.at(row) as FeedRow;
    again.mt = '';
    const raw = fillRaw(pats[pattern] as CompiledPattern, again);
    return cleanKeywordQuick(raw) ?? cleanKeyword(raw).keyword;
  };
  // Names as written: an entry's first spelling (the tables fold names when they compare them).
  const spellGroup = (row: number, mt: number): string => {
    again.row = rows.at(row) as FeedRow;
    again.mt = mt === NO_MT ? '' : (MATCH_TYPE_CODES[mt] as string);
    const g = cleanName(fillRaw(groupPattern, again)).name;
    again.mt = '';
    return g;
  };
  const spellCampaign = (row: number): string => {
    again.row = rows.at(row) as FeedRow;
    again.mt = '';
    return cleanName(fillRaw(campaignPattern, again)).name;
  };

  const campaigns = new TextKeyTable(spellCampaign, 1024, 0, foldName);
  const campaignSink = sinks.campaigns;
  const adGroupSink = sinks.adGroups;
  const makeCampaignRow = compileCampaignRow(template);
  // Groups: a = campaign id; pattern = group match type code; campaign level (no group): row -1.
  // At most one group per row and match type (more only for campaign-level negatives). The slots
  // are sized for that too: a hash table's pages are touched only where entries land, so a table
  // sized for the upper bound costs what the groups use, and it is never rebuilt as it fills.
  const maxGroups = rows.length * (splitsByMatchType ? 3 : 1);
  // With {mt} (three groups a row), closed groups are taken out of the look-ups (`TextKeyTable.forget`),
  // so the slots are sized for the open groups.
  const groups = new TextKeyTable(
    spellGroup,
    splitsByMatchType ? 1024 : maxGroups,
    maxGroups,
    foldName,
  );
  // Lines per group: match type code and keyword; pattern = index in `pats`.
  // With template negatives, each group's lines are listed for the blocking check at the end.
  // A template with positive keywords closes each group after the last row that can reach it
  // (see `lastRowsOfGroups` and `groupsOfRows`): its held negatives are written then and its
  // lines dropped, so the sets hold the open groups' lines, not every line of the run.
  const closesGroups = positiveCount > 0;
  // A group's lines are kept in its place up to what one row adds to it (see GroupLineSets).
  const inlineLines = (perRow: number): number => Math.min(4, Math.max(1, perRow));
  const lines = new GroupLineSets(
    remakeKeyword,
    maxGroups,
    rows.length * positiveCount,
    negativePatterns.length > 0,
    closesGroups,
    inlineLines(positiveCount),
  );
  const negatives = new GroupLineSets(
    remakeKeyword,
    maxGroups,
    0,
    false,
    closesGroups,
    inlineLines(negativePatterns.length),
  );
  // Template negatives are held to the end, when the keywords they may block are all known.
  const held = new HeldNegatives(
    rows.length * negativePatterns.length * (splitsByMatchType ? 3 : 1),
  );
  // Exact keywords to add as Negative Exact to their campaign's Broad group at the end.
  const pending = new IntList();
  // Without Negative Exact patterns, only these lines are Negative Exact lines, so as long as each
  // finds its Broad group when it is made (groups are never removed), whether it is a duplicate is
  // known then: such lines are formatted and kept as they come (in order), the rest (from the
  // first that cannot) are made again at the end.
  // Negative lines come from the template's negative patterns first, then the kept ones; with no
  // negative patterns the kept ones go straight to the negatives CSV instead of into memory.
  const writesKeptNow = negativePatterns.length === 0;
  const canKeepPending =
    !mts.some((mt) => mt === NEGATIVE_EXACT) && (writesKeptNow || keptCsv !== undefined);

  // The rows' issues are handed over as they come, each once. Every one is reported while its
  // row is read, rows in order, so the keys seen are only the current row's (a feed whose rows
  // all report kept a key of about 200 bytes per issue).
  const reported = new Set<string>();
  let reportedRow = 0;
  const issue = (
    kind: RowIssue['kind'],
    row: FeedRow,
    rowNumber: number,
    code: string,
    message: string,
  ): void => {
    if (rowNumber !== reportedRow) {
      reported.clear();
      reportedRow = rowNumber;
    }
    const key = `${code}\u001f${message}`;
    if (reported.has(key)) return;
    reported.add(key);
    report({ kind, output: OUTPUT_KEYWORDS, rowId: row.id, rowNumber, code, message });
  };
  /**
   * The row's keyword of pattern `k` in `filler` (`text`, `hash`, `isPlain`): from its pieces when
   * it needs no cleaning, else filled and cleaned the general way (not plain). False when
   * cleaning leaves nothing (reported).
   */
  const fillKeywordOf = (k: number, row: FeedRow, rowNumber: number, isNegative: boolean) => {
    const same = sameAs[k] as number;
    if (same >= 0 && madeRow[same] === rowNumber - 1 && madeWhole[same] === 1) {
      filler.text = madeText[same] as string;
      filler.hash = madeHash[same] as number;
      filler.isPlain = true;
      return true;
    }
    if (filler.fillKeyword(plans[k] as Plan)) return true;
    const pattern = pats[k] as CompiledPattern;
    const cleaned = cleanFilledKeyword(
      fillRaw(pattern, values),
      pattern.source,
      issue,
      row,
      rowNumber,
      isNegative,
    );
    if (cleaned === undefined) return false;
    filler.text = cleaned;
    filler.hash = polyHash(cleaned);
    filler.isPlain = false;
    return true;
  };
  // The blocking checks' reports follow every row's, but checks of closed groups run among the
  // rows: until the rows end they are kept as numbers (five per report: group, negative row and
  // pattern, keyword row and pattern) and their messages are made as they are handed over (a
  // template that blocks a keyword per row kept a million messages, about 700 bytes each).
  const blockedFinds = new IntChunks();
  /** A name that `fillName` could not make: cleaned by `cleanName`, reported when `report`. */
  const slowName = (
    pattern: CompiledPattern,
    what: NameKind,
    row: FeedRow,
    rowNumber: number,
    report: boolean,
  ): string => {
    const c = cleanName(fillRaw(pattern, values));
    const problem = nameProblem(c, what);
    if (problem && report) issue(problem.kind, row, rowNumber, problem.code, problem.message);
    return problem?.kind === 'skipped' ? '' : c.name;
  };

  // The current row's group per match type code (0..2; NO_MT for a pattern without {mt}): its
  // name as the row spells it ('' when unusable), the hash of its folded form, whether its name problem is
  // reported yet, and its id and name as written once the row uses it.
  const rowGroupText: Array<string | undefined> = new Array<string | undefined>(6);
  const rowGroupHash = new Int32Array(6);
  const rowGroupPlain = new Uint8Array(6);
  const rowGroupId = new Int32Array(6);
  const rowGroupName: string[] = new Array<string>(6).fill('');
  const rowGroupReported = new Uint8Array(6);
  /** The row's group name for `mt`; `report`: its problems are reported (once per row). */
  const fillGroup = (mt: number, row: FeedRow, rowNumber: number, report: boolean): string => {
    let g = rowGroupText[mt];
    if (g !== undefined && (rowGroupReported[mt] === 1 || !report)) return g;
    if (mt !== NO_MT) {
      setMt(mt);
      values.mt = MATCH_TYPE_CODES[mt] as string;
    }
    // (The fill below leaves text and hash in `filler`; {mt} is reset right after.)
    if (filler.fillName(groupPlan)) {
      g = filler.text;
      rowGroupHash[mt] = filler.hash;
      rowGroupPlain[mt] = filler.isPlain ? 2 : 0;
    } else {
      g = slowName(groupPattern, 'Ad group', row, rowNumber, report);
      rowGroupHash[mt] = polyHash(foldName(g));
      rowGroupPlain[mt] = 0;
    }
    values.mt = '';
    setMt(-1);
    rowGroupText[mt] = g;
    if (report) rowGroupReported[mt] = 1;
    return g;
  };
  // The groups the current row uses (at most one per match type): ids and CSV plain bits.
  const rowGroupIds = new Int32Array(6);
  const rowGroupPlains = new Int32Array(6);
  let rowGroupCount: number;

  let lastCampaignText: string | undefined;
  let lastCampaignHash = 0;
  let lastCampaignId = -1;
  let lastCampaign = '';

  // The held line being checked by `checkByGroup` (its number from the batch's first), else -1:
  // its finds are kept apart (`batchFinds`, six ints each: that number first) to be reported in
  // the held lines' order.
  let findOf = -1;
  const batchFinds = new IntList();
  // The template negatives, but those that block a keyword of their group when the template
  // drops them (checked once every keyword line of the group is known).
  const blocks = new BlockingCheck(
    lines,
    mts,
    remakeKeyword,
    (group, negativeRow, negativePattern, keywordRow, keywordPattern) => {
      if (findOf >= 0) {
        batchFinds.push4(findOf, group, negativeRow, negativePattern);
        batchFinds.push(keywordRow);
        batchFinds.push(keywordPattern);
        return;
      }
      blockedFinds.push(group);
      blockedFinds.push(negativeRow);
      blockedFinds.push(negativePattern);
      blockedFinds.push(keywordRow);
      blockedFinds.push(keywordPattern);
    },
    template.settings.dropBlockingNegatives,
  );
  // The group of the last held line written (held lines of one group come together).
  let heldGroup = -1;
  let groupName = '';
  // The group a row last named and its name as written: held lines are mostly written right
  // after their row, so their group's name is known without making it again.
  let namedGroup = -1;
  let namedGroupName = '';
  // Per held line of a batch checked by group: where its finds start in `batchFinds` (-1: none);
  // and the batch's line numbers ordered by group.
  let findAt = new Int32Array(0);
  let byGroup = new Int32Array(0);
  const runGroups = new IntList(16);
  const bucketGroups = new IntList(16);
  const bucketCounts = new IntList(16);
  const bucketNext = new IntList(16);
  /**
   * Checks the held lines `from` to `end` (all of closed groups) group by group, when groups
   * interleave among them (big groups: each row adds to one of a few) or are many, so each
   * group's texts are made (and indexed) once for all its lines, not again at each change of
   * group; their finds are kept in `findAt` and `batchFinds`. Lines whose groups each come
   * together are checked as they are written instead.
   */
  const checkByGroup = (from: number, end: number): void => {
    const heldInts = held.ints.data;
    const n = (end - from) / 4;
    if (findAt.length < n) {
      findAt = new Int32Array(Math.max(n, 2 * findAt.length));
      byGroup = new Int32Array(findAt.length);
    }
    // Per line its bucket (in `byGroup` for now); per bucket its group and line count. Buckets
    // are found by a scan of the groups while they are few (a {mt} template's row: three).
    bucketGroups.length = bucketCounts.length = 0;
    let bucketOf: Map<number, number> | undefined;
    let lastGroup = -1;
    let lastBucket = -1;
    for (let i = 0; i < n; i++) {
      const groupId = heldInts[from + 4 * i] as number;
      if (groupId !== lastGroup) {
        lastGroup = groupId;
        lastBucket = -1;
        if (bucketOf) lastBucket = bucketOf.get(groupId) ?? -1;
        else
          for (let b = 0; b < bucketGroups.length && lastBucket < 0; b++)
            if (bucketGroups.data[b] === groupId) lastBucket = b;
        if (lastBucket < 0) {
          lastBucket = bucketGroups.length;
          bucketGroups.push(groupId);
          bucketCounts.push(0);
          if (bucketOf) bucketOf.set(groupId, lastBucket);
          else if (bucketGroups.length > 16) {
            bucketOf = new Map();
            for (let b = 0; b < bucketGroups.length; b++)
              bucketOf.set(bucketGroups.data[b] as number, b);
          }
        }
      }
      byGroup[i] = lastBucket;
      (bucketCounts.data[lastBucket] as number)++;
    }
    // Where each bucket starts in the lines ordered by group, then where its next line goes.
    bucketNext.length = 0;
    for (let b = 0, sum = 0; b < bucketCounts.length; b++) {
      bucketNext.push(sum);
      sum += bucketCounts.data[b] as number;
    }
    // `findAt` holds each line's place in that order for now, then its finds.
    for (let i = 0; i < n; i++) findAt[i] = (bucketNext.data[byGroup[i] as number] as number)++;
    for (let i = 0; i < n; i++) byGroup[findAt[i] as number] = i;
    let x = 0;
    for (let b = 0; b < bucketGroups.length; b++) {
      const groupId = bucketGroups.data[b] as number;
      const count = bucketCounts.data[b] as number;
      // Campaign negatives (the entry of a campaign without a group has no row) are not checked.
      const checks = groups.rowOf(groupId) >= 0;
      if (checks) blocks.load(groupId, count);
      for (const stop = x + count; x < stop; x++) {
        const i = byGroup[x] as number;
        findAt[i] = -1;
        if (!checks) continue;
        const at = from + 4 * i;
        const r = heldInts[at + 1] as number;
        const k = (heldInts[at + 3] as number) >> 4;
        const start = batchFinds.length;
        findOf = i;
        blocks.check(groupId, r, k, remakeKeyword(r, k));
        if (batchFinds.length > start) findAt[i] = start;
      }
    }
    findOf = -1;
  };
  /** Writes held lines from `from` on while their groups are closed; returns where it stopped. */
  const writeHeld = (from: number, isClosed: (group: number) => boolean): number => {
    const heldInts = held.ints.data;
    let end = from;
    // The groups of the runs of lines (a group's lines one after another), while they are few.
    runGroups.length = 0;
    let interleaved = false;
    for (let g = -1; end < held.ints.length; end += 4) {
      const groupId = heldInts[end] as number;
      if (!isClosed(groupId)) break;
      if (groupId === g || interleaved) continue;
      g = groupId;
      for (let i = 0; i < runGroups.length && !interleaved; i++)
        interleaved = runGroups.data[i] === groupId;
      // Many runs: checked by group too (whether they interleave or not).
      if (runGroups.length === 16) interleaved = true;
      else runGroups.push(groupId);
    }
    // A few lines (a {mt} template's row) are checked as they come: sorting them costs more than
    // it saves, and their groups are mostly a row's lines.
    const checked = interleaved && end - from > 4 * BY_GROUP_MIN_LINES;
    if (checked) checkByGroup(from, end);
    const drop = template.settings.dropBlockingNegatives;
    // The group whose run of lines is being written (a run may go on from the last call's).
    let runGroup = -1;
    for (let at = from; at < end; at += 4) {
      const groupId = heldInts[at] as number;
      const r = heldInts[at + 1] as number;
      const bits = heldInts[at + 3] as number;
      const k = bits >> 4;
      const mt = mts[k] as number;
      const keyword = remakeKeyword(r, k);
      if (groupId !== heldGroup) {
        heldGroup = groupId;
        groupName = groupId === namedGroup ? namedGroupName : groups.spell(groupId);
      }
      if (!checked && groupId !== runGroup) {
        runGroup = groupId;
        // The group's lines here, to tell whether indexing it pays.
        let last = at + 4;
        while (last < end && heldInts[last] === groupId) last += 4;
        if (groupName !== '') blocks.load(groupId, (last - at) / 4);
      }
      if (checked) {
        const i = (at - from) / 4;
        let f = findAt[i] as number;
        if (f >= 0) {
          const finds = batchFinds.data;
          for (; f < batchFinds.length && finds[f] === i; f += 6)
            for (let v = 1; v < 6; v++) blockedFinds.push(finds[f + v] as number);
          if (drop) continue;
        }
      } else {
        // The keyword's last word without a scan of it, when it is known (see `madeWhole`).
        const lastWord = madeRow[k] === r && madeWhole[k] === 1 ? lastWords[k] : undefined;
        if (groupName !== '' && blocks.check(groupId, r, k, keyword, lastWord)) continue;
      }
      const campaignId = heldInts[at + 2] as number;
      // Mostly the campaign of the row just read (no table look-up for it).
      const campaign = campaignId === lastCampaignId ? lastCampaign : campaigns.textOf(campaignId);
      negativeCsv.line(groupId, campaign, groupName, keyword, mt, bits & 7);
    }
    batchFinds.length = 0;
    return end;
  };
  const nameCells = new NameCells(template);
  /**
   * True when rows `a` and `b` name one campaign and ad group (their folded names are equal).
   * Rows of a group mostly have the same cells: compared as bytes first, no name is made.
   */
  const sameGroup = (a: number, b: number): boolean =>
    nameCells.same(rows, a, b) ||
    (foldName(spellGroup(a, NO_MT)) === foldName(spellGroup(b, NO_MT)) &&
      foldName(spellCampaign(a)) === foldName(spellCampaign(b)));
  /** True when row `a`'s group for match type `mtA` is row `b`'s for `mtB` (see `sameGroup`). */
  const sameGroupOf = (a: number, mtA: number, b: number, mtB: number): boolean =>
    (mtA === mtB && nameCells.same(rows, a, b)) ||
    (foldName(spellGroup(a, mtA)) === foldName(spellGroup(b, mtB)) &&
      foldName(spellCampaign(a)) === foldName(spellCampaign(b)));
  /**
   * The match types whose ad groups a row of a `{mt}` template can reach: those of its positive
   * patterns, and Broad when it has an Exact one (a row's Exact keywords become Negative Exact
   * lines of the row's Broad group).
   */
  const reachMts = [BROAD, 1, EXACT].filter((mt) => {
    const positiveMts = mts.slice(0, positiveCount);
    return positiveMts.includes(mt) || (mt === BROAD && positiveMts.includes(EXACT));
  });
  /**
   * `lastRowsOfGroups` for a `{mt}` template, whose rows name up to three groups (one per match
   * type; two rows may name one group under different match types). `last`: per row a bit per
   * match type, set when no later row names that group under any match type. `ident`: per row
   * and match type (3 * row + mt) the group's number, -1 when the name is skipped: the 3 * row +
   * mt of the last row to name it (so a row's Exact keywords are listed under their Broad group
   * before it exists, and the group's row and match type are known when it closes).
   */
  const groupsOfRows = (): { last: Uint8Array; ident: Int32Array } => {
    const keyer = new GroupKeyMaker(template);
    const last = new Uint8Array(rows.length);
    const ident = new Int32Array(3 * rows.length).fill(-1);
    // At most three quarters of the slots are used (a third fewer pages than half).
    const mask = 2 ** Math.ceil(Math.log2((4 / 3) * reachMts.length * rows.length + 2)) - 1;
    /** Per slot its key and the group's number + 1 (0 = empty). */
    const slots = new Int32Array(2 * (mask + 1));
    for (let r = rows.length - 1; r >= 0; r--) {
      keyer.measureAt(rows, r);
      const campaign = keyer.campaignHash();
      if (campaign === undefined) continue;
      for (const mt of reachMts) {
        const group = keyer.groupHash(mt);
        if (group === undefined) continue;
        const key = sealHash(group, campaign, 1);
        let s = key & mask;
        for (; slots[2 * s + 1] !== 0; s = (s + 1) & mask) {
          const other = (slots[2 * s + 1] as number) - 1;
          if (slots[2 * s] === key && sameGroupOf(r, mt, Math.floor(other / 3), other % 3)) break;
        }
        if (slots[2 * s + 1] === 0) {
          slots[2 * s] = key;
          slots[2 * s + 1] = 3 * r + mt + 1;
          (last[r] as number) |= 1 << mt;
        }
        ident[3 * r + mt] = (slots[2 * s + 1] as number) - 1;
      }
    }
    return { last, ident };
  };
  /**
   * Per row LAST_ROW when no later row names the same campaign and ad group (so no row after it
   * can reach its group), and SHARED_GROUP when another row names it. Keyed by the hashes of the
   * folded names; names are made again and compared only when the hashes match (a hash shared by
   * two groups would keep the first one open).
   */
  const lastRowsOfGroups = (): Uint8Array => {
    let given = input.groupKeys;
    if (!given || given.keys.length < rows.length || given.named.length < rows.length) {
      given = { keys: new Int32Array(rows.length), named: new Uint8Array(rows.length) };
      new GroupKeyMaker(template).fill(rows, 0, rows.length, given);
    }
    const { keys, named } = given;
    const last = new Uint8Array(rows.length);
    const mask = 2 ** Math.ceil(Math.log2(2 * rows.length + 2)) - 1;
    /** Per slot its key and the row of its key + 1 (0 = empty): one cache line per probe. */
    const slots = new Int32Array(2 * (mask + 1));
    for (let r = rows.length - 1; r >= 0; r--) {
      if (named[r] !== 1) continue;
      const key = keys[r] as number;
      let s = key & mask;
      for (; slots[2 * s + 1] !== 0; s = (s + 1) & mask)
        if (slots[2 * s] === key && sameGroup(r, (slots[2 * s + 1] as number) - 1)) break;
      if (slots[2 * s + 1] !== 0) {
        // The group's last row (the slot's) and this one share it.
        (last[(slots[2 * s + 1] as number) - 1] as number) |= SHARED_GROUP;
        last[r] = SHARED_GROUP;
        continue;
      }
      slots[2 * s] = key;
      slots[2 * s + 1] = r + 1;
      last[r] = LAST_ROW;
    }
    return last;
  };
  // The fields of the line `pendingLine` made.
  let pendingGroup = 0;
  let pendingCampaign = '';
  let pendingName = '';
  let pendingKeyword = '';
  let pendingPlain = 0;
  /**
   * The Negative Exact line of pending entry `i` (its Exact keyword in its row's Broad group),
   * made again into the fields above; false when it is not written. `state`: PENDING_OPEN checks
   * (and adds) it in the group's set; else its group's close did (PENDING_WRITTEN: it was new).
   */
  const pendingLine = (i: number, state: number): boolean => {
    if (state === PENDING_DUPLICATE) return false;
    const p = pending.data;
    const r = p[i] as number;
    const k = p[i + 1] as number;
    const campaignId = p[i + 2] as number;
    let groupId = p[i + 3] as number;
    const row = rows.at(r) as FeedRow;
    filler.measureRow(row, rowSlots);
    values.row = row;
    setMt(BROAD);
    let broad: string;
    let broadHash: number;
    let plain = 0;
    if (filler.fillName(groupPlan)) {
      broad = filler.text;
      broadHash = filler.hash;
      plain = filler.isPlain ? 2 : 0;
    } else {
      broad = spellGroup(r, BROAD);
      broadHash = polyHash(foldName(broad));
      if (cleanName(broad).isTooLong) broad = '';
    }
    setMt(-1);
    if (broad === '') return false;
    let name = broad;
    if (groupId < 0) {
      groupId = groups.find(sealHash(broadHash, campaignId, 1), campaignId, 0, broad, r, BROAD);
      if (groupId < 0) return false;
      name = groups.foundText ?? broad;
    } else if (groups.rowOf(groupId) !== r) name = groups.textOf(groupId);
    if (name !== broad) plain &= ~2;
    let keyword: string;
    let keywordHash: number;
    if (filler.fillKeyword(plans[k] as Plan)) {
      keyword = filler.text;
      keywordHash = filler.hash;
      plain |= 4;
    } else {
      keyword = remakeKeyword(r, k);
      keywordHash = polyHash(keyword);
    }
    const hash = sealHash(keywordHash, groupId, NEGATIVE_EXACT);
    if (state === PENDING_OPEN && !negatives.add(groupId, hash, NEGATIVE_EXACT, keyword, r, k))
      return false;
    let campaign: string;
    if (campaigns.rowOf(campaignId) !== r) campaign = campaigns.textOf(campaignId);
    else if (filler.fillName(campaignPlan)) {
      campaign = filler.text;
      if (filler.isPlain) plain |= 1;
    } else campaign = spellCampaign(r);
    pendingGroup = groupId;
    pendingCampaign = campaign;
    pendingName = name;
    pendingKeyword = keyword;
    pendingPlain = plain;
    return true;
  };
  // Closing: per row 1 when it is the last that can reach its group; per group 1 once closed;
  // the closed groups whose lines wait for their held lines to be written; the first held line
  // not written.
  const lastRows = closesGroups && !splitsByMatchType ? lastRowsOfGroups() : undefined;
  const mtGroups = closesGroups && splitsByMatchType ? groupsOfRows() : undefined;
  // With {mt}: per group number (`mtGroups.ident`) its pending entries' list, newest first (entry
  // + 1; 0 = none); per pending entry the list's next entry + 1, and what its group's close
  // decided (PENDING_OPEN: not yet; PENDING_WRITTEN, PENDING_DUPLICATE).
  const pendingHeads = new Int32Array(mtGroups ? 3 * rows.length : 0);
  const pendingLinks = new IntList();
  const pendingOfGroup = new IntList();
  // Sized for every group at once (pages never reached are never touched): a list grown while the
  // rows are read runs code that the keyword step's optimised code has not seen, which throws it
  // away (V8 deoptimises it) at the first growth.
  let closed = new Uint8Array(closesGroups ? Math.max(1024, maxGroups) : 0);
  const toDrop = new IntList();
  let heldFrom = 0;
  const isClosed = (group: number): boolean => closed[group] === 1;
  const markClosed = (groupId: number): void => {
    if (groupId >= closed.length) {
      const grown = new Uint8Array(Math.max(2 * closed.length, groupId + 1));
      grown.set(closed);
      closed = grown;
    }
    closed[groupId] = 1;
    toDrop.push(groupId);
  };
  /**
   * With {mt}, after row `r`: closes the groups no later row names. A Broad group's pending
   * Exact keywords are checked against its Negative Exact lines first (its set is complete: no
   * later row adds to it), so the set can be dropped; the lines are still written at the end.
   */
  const closeMtGroupsAfter = (r: number): boolean => {
    const { last, ident } = mtGroups as { last: Uint8Array; ident: Int32Array };
    const bits = last[r] as number;
    if (bits === 0) return false;
    let closes = false;
    for (const mt of reachMts) {
      if (((bits >> mt) & 1) === 0) continue;
      const g = 3 * r + mt;
      // Its pending entries, oldest first (they are written in that order).
      pendingOfGroup.length = 0;
      for (let e = pendingHeads[g] as number; e > 0; e = pendingLinks.data[2 * (e - 1)] as number)
        pendingOfGroup.push(e - 1);
      for (let j = pendingOfGroup.length - 1; j >= 0; j--) {
        const e = pendingOfGroup.data[j] as number;
        const written = pendingLine(4 * e, PENDING_OPEN);
        pendingLinks.data[2 * e + 1] = written ? PENDING_WRITTEN : PENDING_DUPLICATE;
        if (written) pending.data[4 * e + 3] = pendingGroup;
      }
      const groupId = groupOfRow(r, mt, g, ident);
      if (groupId < 0) continue;
      markClosed(groupId);
      // No row looks it up again, and its pending lines written at the end keep its id (above):
      // the slots hold the open groups only.
      groups.forget(groupId, closingHash);
      closes = true;
    }
    return closes;
  };
  /**
   * The ad group row `r` (the last row read) names for `mt`, whose number is `g`: the row's own
   * when it made it (under this or another match type), else looked up (-1 when none exists).
   */
  const groupOfRow = (r: number, mt: number, g: number, ident: Int32Array): number => {
    for (const m of reachMts)
      if (ident[3 * r + m] === g && (rowGroupId[m] as number) >= 0) {
        closingHash = sealHash(rowGroupHash[m] as number, lastCampaignId, 1);
        return rowGroupId[m] as number;
      }
    const name = spellGroup(r, mt);
    if (name === '' || cleanName(name).isTooLong) return -1;
    closingHash = sealHash(polyHash(foldName(name)), lastCampaignId, 1);
    return groups.find(closingHash, lastCampaignId, 0, name, r, mt);
  };
  /** The groups table's hash of the group `groupOfRow` returned (to forget it). */
  let closingHash = 0;
  /** After row `r`: closes its group(s) when no later row can reach them. */
  const closeAfter = (r: number): void => {
    if (mtGroups) {
      if (!closeMtGroupsAfter(r)) return;
    } else {
      const groupId = rowGroupId[NO_MT] as number;
      rowGroupId[NO_MT] = -1;
      if (groupId < 0 || (((lastRows as Uint8Array)[r] as number) & LAST_ROW) === 0) return;
      markClosed(groupId);
    }
    heldFrom = writeHeld(heldFrom, isClosed);
    // Dropped once every held line before them is written (their lines may block some).
    if (heldFrom < held.ints.length) return;
    held.ints.length = heldFrom = 0;
    for (let i = 0; i < toDrop.length; i++) {
      lines.drop(toDrop.data[i] as number);
      negatives.drop(toDrop.data[i] as number);
    }
    toDrop.length = 0;
  };

  /** Reads row `r` (a function of its own: see the loop below). */
  const readRow = (r: number): void => {
    if (closesGroups && r > 0) closeAfter(r - 1);
    const row = rows.at(r) as FeedRow;
    const rowNumber = r + 1;
    values.row = row;
    values.mt = '';
    filler.measureRow(row, rowSlots);
    let spelled: string;
    let campaignHash: number;
    let campaignPlain: number;
    if (filler.fillName(campaignPlan)) {
      spelled = filler.text;
      campaignHash = filler.hash;
      campaignPlain = filler.isPlain ? 1 : 0;
    } else {
      spelled = slowName(campaignPattern, 'Campaign', row, rowNumber, true);
      if (spelled === '') return;
      campaignHash = polyHash(foldName(spelled));
      campaignPlain = 0;
    }
    let campaignId: number;
    // The campaign as written: its first spelling.
    let campaign: string;
    if (campaignHash === lastCampaignHash && spelled === lastCampaignText) {
      campaignId = lastCampaignId;
      campaign = lastCampaign;
    } else {
      campaignId = campaigns.findOrAdd(sealHash(campaignHash, 0, 0), 0, 0, spelled, r, 0);
      if (campaigns.added && campaignSink) campaignSink(makeCampaignRow(spelled, row, values));
      campaign = campaigns.foundText ?? spelled;
      lastCampaignText = spelled;
      lastCampaignHash = campaignHash;
      lastCampaignId = campaignId;
      lastCampaign = campaign;
    }
    if (campaign !== spelled) {
      campaignPlain = 0;
      issue(
        'cleaned',
        row,
        rowNumber,
        'campaign-name-variant',
        `Campaign "${spelled}" is written "${campaign}" as in ${rowLabel(campaigns.rowOf(campaignId) + 1)}: names that differ only by case or Unicode form are one campaign`,
      );
    }

    rowGroupText[0] = rowGroupText[1] = rowGroupText[2] = rowGroupText[NO_MT] = undefined;
    rowGroupId[0] = rowGroupId[1] = rowGroupId[2] = rowGroupId[NO_MT] = -1;
    rowGroupReported[0] = rowGroupReported[1] = rowGroupReported[2] = rowGroupReported[NO_MT] = 0;
    if (!splitsByMatchType && fillGroup(NO_MT, row, rowNumber, true) === '') return;
    rowGroupCount = 0;
    let isMerged = false;

    for (let k = 0; k < positiveCount; k++) {
      const mt = mts[k] as number;
      const groupMt = splitsByMatchType ? mt : NO_MT;
      const group = fillGroup(groupMt, row, rowNumber, true);
      if (group === '') continue;
      if (!fillKeywordOf(k, row, rowNumber, false)) continue;
      const { text: keyword, hash: keywordHash } = filler;
      const keywordPlain = filler.isPlain ? 4 : 0;
      made(r, k, keyword, keywordHash, keywordPlain !== 0);
      let groupId = rowGroupId[groupMt] as number;
      if (groupId < 0) {
        // A group no other row names is never looked up: it needs no place in the look-ups.
        if (lastRows !== undefined && lastRows[r] === LAST_ROW)
          groupId = groups.addUnlooked(campaignId, 0, r, groupMt);
        else {
          const hash = sealHash(rowGroupHash[groupMt] as number, campaignId, 1);
          groupId = groups.findOrAdd(hash, campaignId, 0, group, r, groupMt);
        }
        let name = group;
        if (groups.added) {
          if (adGroupSink) adGroupSink(new GeneratedAdGroup(campaign, group, row.id), groupId);
        } else {
          const first = groups.rowOf(groupId);
          name = groups.foundText ?? group;
          if (name !== group) rowGroupPlain[groupMt] = 0;
          if (!isMerged) {
            isMerged = true;
            const m = mergeIssue(
              row,
              rows.at(first) as FeedRow,
              rowLabel(first + 1),
              group,
              name,
              'ad group',
            );
            issue(m.kind, row, rowNumber, m.code, m.message);
          }
        }
        rowGroupId[groupMt] = groupId;
        rowGroupName[groupMt] = name;
        namedGroup = groupId;
        namedGroupName = name;
        rowGroupIds[rowGroupCount] = groupId;
        rowGroupPlains[rowGroupCount++] = rowGroupPlain[groupMt] as number;
      }
      const hash = sealHash(keywordHash, groupId, mt);
      if (!lines.add(groupId, hash, mt, keyword, r, k)) continue;
      const plain = (campaignPlain | (rowGroupPlain[groupMt] as number) | keywordPlain) & plainMask;
      keywordCsv.line(groupId, campaign, rowGroupName[groupMt] as string, keyword, mt, plain);
      if (splitsByMatchType && mt === EXACT) {
        let broadId = rowGroupId[BROAD] as number;
        let broadName = rowGroupName[BROAD] as string;
        if (canKeepPending && pending.length === 0 && broadId < 0) {
          // The row has not used its Broad group (yet): does it exist already?
          const broad = fillGroup(BROAD, row, rowNumber, false);
          if (broad !== '') {
            const hash = sealHash(rowGroupHash[BROAD] as number, campaignId, 1);
            broadId = groups.find(hash, campaignId, 0, broad, r, BROAD);
            broadName = groups.foundText ?? broad;
          }
        }
        if (canKeepPending && pending.length === 0 && broadId >= 0) {
          // The line's place among the Negative Exact lines is known now (see canKeepPending).
          const hash = sealHash(keywordHash, broadId, NEGATIVE_EXACT);
          if (negatives.add(broadId, hash, NEGATIVE_EXACT, keyword, r, k)) {
            let broadPlain = campaignPlain | (rowGroupPlain[BROAD] as number) | keywordPlain;
            if (broadName !== rowGroupText[BROAD]) broadPlain &= ~2;
            // Without negative patterns nothing else goes before these lines: write them now.
            (writesKeptNow ? negativeCsv : (keptCsv as CsvChunks)).line(
              broadId,
              campaign,
              broadName,
              keyword,
              NEGATIVE_EXACT,
              broadPlain & plainMask,
            );
          }
        }
        // Else made again at the end; the Broad group's id when this row has it (ids never
        // change), else -1.
        else {
          const e = pending.length / 4;
          pending.push4(r, k, campaignId, broadId);
          pendingLinks.push(0);
          pendingLinks.push(PENDING_OPEN);
          // Listed under its Broad group's number, to be checked when that group closes.
          const g = mtGroups ? (mtGroups.ident[3 * r + BROAD] as number) : -1;
          if (g >= 0) {
            pendingLinks.data[2 * e] = pendingHeads[g] as number;
            pendingHeads[g] = e + 1;
          }
        }
      }
    }

    if (negativePatterns.length === 0) return;
    if (rowGroupCount === 0 && positiveCount > 0) {
      issue(
        'skipped',
        row,
        rowNumber,
        'negatives-not-written',
        "This row makes no keyword, so its negatives are not written (as campaign negatives they would block the campaign's other keywords)",
      );
      return;
    }
    for (let k = positiveCount; k < pats.length; k++) {
      const mt = mts[k] as number;
      if (!fillKeywordOf(k, row, rowNumber, true)) continue;
      const { text: keyword, hash: keywordHash } = filler;
      const keywordPlain = filler.isPlain ? 4 : 0;
      made(r, k, keyword, keywordHash, keywordPlain !== 0);
      if (rowGroupCount === 0) {
        // A template without positive keywords: its negatives are campaign negatives (the
        // campaign's entry without a group).
        const groupId = groups.findOrAdd(sealHash(0, campaignId, 1), campaignId, 0, '', -1, 0);
        if (groups.added) {
          groups.keep(groupId, '');
          issue(
            'warning',
            row,
            rowNumber,
            'campaign-negatives',
            `Negatives go to campaign "${campaign}" as campaign negatives: the template has no positive keyword, so there is no ad group for them`,
          );
        }
        if (negatives.add(groupId, sealHash(keywordHash, groupId, mt), mt, keyword, r, k))
          held.add(groupId, r, campaignId, k, (campaignPlain | keywordPlain) & plainMask);
        continue;
      }
      for (let i = 0; i < rowGroupCount; i++) {
        const groupId = rowGroupIds[i] as number;
        if (!negatives.add(groupId, sealHash(keywordHash, groupId, mt), mt, keyword, r, k))
          continue;
        const plain = (campaignPlain | (rowGroupPlains[i] as number) | keywordPlain) & plainMask;
        held.add(groupId, r, campaignId, k, plain);
      }
    }
  };
  for (let r = 0; r < rows.length; r++) readRow(r);

  if (closesGroups && rows.length > 0) closeAfter(rows.length - 1);
  // The held lines not written yet; then the Exact keywords as Negative Exact in the ad group
  // whose {mt} is Broad.
  writeHeld(heldFrom, () => true);
  const blockingIssue = blockingIssueMaker(
    rows,
    mts,
    remakeKeyword,
    (group) => groups.spell(group),
    rowLabel,
    template.settings.dropBlockingNegatives,
  );
  const finds = blockedFinds;
  for (let i = 0; i < finds.length; i += 5)
    report(
      blockingIssue(
        finds.at(i),
        finds.at(i + 1),
        finds.at(i + 2),
        finds.at(i + 3),
        finds.at(i + 4),
      ),
    );
  if (negativeCsv instanceof CsvChunks && keptCsv?.kept) negativeCsv.append(keptCsv.kept);
  for (let i = 0; i < pending.length; i += 4)
    if (pendingLine(i, pendingLinks.data[i / 2 + 1] as number))
      negativeCsv.line(
        pendingGroup,
        pendingCampaign,
        pendingName,
        pendingKeyword,
        NEGATIVE_EXACT,
        pendingPlain & plainMask,
      );

  keywordCsv.end();
  negativeCsv.end();
  return { keywordLines: keywordCsv.count, negativeLines: negativeCsv.count };
}

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

/** Held negatives of interleaved groups are checked group by group from this many on. */
const BY_GROUP_MIN_LINES = 32;

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
class BlockingCheck {
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
    if (this.indexed) {
      const first = this.firstCandidate(negative);
      if (first !== -1)
        return first !== 0 && this.checkLines(group, negativeRow, negativePattern, negative, first);
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
      if (!holdsAll(keyword, words)) continue;
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
  ): boolean {
    const words = negative.split(' ');
    for (let p = first; p > 0; p = this.postNext[p - 1] as number) {
      const j = this.postLines[p - 1] as number;
      if (!holdsAll(this.texts[j] as string, words)) continue;
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

/** True when `keyword` holds each of `words`. */
function holdsAll(keyword: string, words: readonly string[]): boolean {
  for (const word of words) if (!hasWord(keyword, word)) return false;
  return true;
}

/**
 * Makes the report of a find of `BlockingCheck` (the texts are made again from their rows
 * and patterns, the group's name from its number).
 */
function blockingIssueMaker(
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
