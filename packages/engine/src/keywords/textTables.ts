/**
 * The keyword path's sets of texts stored without the texts (see keywordsCsv.ts): campaigns and
 * ad groups (`TextKeyTable`) and each group's lines (`GroupLineSets`).
 */
import { grownInts, IntList } from './intLists.ts';

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
    // At most three quarters of the slots are used (at half, the slots of a table of 3M lines
    // took 67 MB instead of 34 MB; linear probing stays within a cache line or two).
    if (4 * ++this.live > 3 * (this.mask + 1)) this.growSlots();
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
