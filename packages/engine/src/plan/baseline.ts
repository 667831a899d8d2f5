/**
 * A baseline: the items a plan compares a new build with, from the last build's record or from an
 * Editor export of the live account. Millions of items are kept as typed arrays (kind, status,
 * identity hash, contents as field hashes) with one string per item for its identity cells
 * after its place, and an open-addressing table from identity hash to item.
 *
 * A record read with `identities: 'on-demand'` keeps no text at all: its items' identity hashes
 * are made from its texts' hashes as it is read, and the identity cells of the few items a plan
 * must write again (the dropped ones) are read from the record once more
 * (`readRecordIdentities`, then `loadIdentities`).
 */
import {
  PLAN_ITEM_KINDS,
  PLAN_KIND_SPECS,
  ITEM_STATUSES,
  kindCode,
  type ItemStatus,
  type PlanItemKind,
} from './kinds.ts';
import { hashIdentity, type IdentityHash } from './items.ts';

/** A growable Int32Array. */
export class Int32List {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(Math.max(16, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/** A growable Uint8Array. */
export class Uint8List {
  data: Uint8Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint8Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint8Array(Math.max(16, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/** Where a baseline comes from: Adloom's own last build, or the live account. */
export type BaselineSource = 'record' | 'account';

/** Flags of a baseline item. */
const OWNED = 1;
/** The item may be paused or removed when the feed no longer makes it. */
const DROPPABLE = 2;
/** A second item of the same identity: only the first one counts. */
const DUPLICATE = 4;

/** Cells joined when none holds this character (Google refuses NUL in names). */
const JOIN = '\u0000';

/** One baseline item, made on demand (the dropped ones, a test). */
export interface BaselineItem {
  kind: PlanItemKind;
  identity: string[];
  status: ItemStatus;
  line: number;
  /** Normalised content field names and their 32-bit hashes (`hashField`). */
  fields: string[];
  hashes: number[];
  /** The account's labels on it (account baselines). */
  owned: boolean;
  /** The Google Ads ID of its ad (`Ad ID` of an account export), when known. */
  adId?: string;
}

/** What a builder is told about each item. */
export interface BaselineItemInput {
  kind: PlanItemKind;
  identity: readonly string[];
  status: ItemStatus;
  line: number;
  /** Global field indices (`fieldIndex`) and hashes, side by side. */
  fieldIndices: readonly number[];
  hashes: readonly number[];
  owned: boolean;
  /** Paused or removed when the feed drops it (false: account-level assets without a label). */
  droppable: boolean;
  adId?: string;
}

/** The items of a baseline. Build one with `BaselineBuilder`, or read one (record, account). */
export class Baseline {
  /** @internal */ constructor(
    readonly source: BaselineSource,
    readonly size: number,
    private readonly kinds: Uint8Array,
    private readonly statuses: Uint8Array,
    private readonly flags: Uint8Array,
    private readonly lines: Int32Array,
    private readonly idLo: Int32Array,
    private readonly idHi: Int32Array,
    private readonly placeOf: Int32Array,
    private readonly places: readonly string[],
    private readonly rests: readonly (string | string[])[],
    /** On-demand baselines: per place, its ad group key (lo, hi); undefined: texts kept. */
    private readonly placeKeys: Int32Array | undefined,
    private readonly contentStart: Int32Array,
    private readonly contentPool: Int32Array,
    /** Field names by global index. */
    readonly fieldNames: readonly string[],
    private readonly adIds: ReadonlyMap<number, string>,
    private readonly table: Int32Array,
    /** Content columns the source has (account exports); undefined: every field is compared. */
    readonly knownFields: ReadonlySet<string> | undefined,
  ) {}

  /** The index of the item of `kind` with these identity cells, or -1. */
  find(kind: PlanItemKind, identity: readonly string[]): number {
    return this.findHash(hashIdentity(kind, identity, { lo: 0, hi: 0 }));
  }

  /** The index of the item of this identity hash, or -1. */
  findHash(h: IdentityHash): number {
    const mask = this.table.length - 1;
    let slot = h.lo & mask;
    for (;;) {
      const v = this.table[slot]!;
      if (v === 0) return -1;
      const i = v - 1;
      if (this.idLo[i] === h.lo && this.idHi[i] === h.hi) return i;
      slot = (slot + 1) & mask;
    }
  }

  /** Where `findNext` looks first: after the last item it found. */
  private after = -1;

  /**
   * `findHash` for items asked in about the baseline's own order (a build planned against its
   * last record): the item after the last one found is compared first, and the table only when
   * it is another. At 1M feed rows the table is 32 MB and a lookup in it reads three places at
   * random: 2.4 s of the command's main thread's 31 s in its profile, finding 6M items.
   */
  findNext(h: IdentityHash): number {
    const next = this.after + 1;
    const i =
      next < this.size &&
      this.idLo[next] === h.lo &&
      this.idHi[next] === h.hi &&
      (this.flags[next]! & DUPLICATE) === 0
        ? next
        : this.findHash(h);
    if (i >= 0) this.after = i;
    return i;
  }

  kindOf(i: number): PlanItemKind {
    return PLAN_ITEM_KINDS[this.kinds[i]!]!;
  }

  statusOf(i: number): ItemStatus {
    return ITEM_STATUSES[this.statuses[i]!]!;
  }

  isOwned(i: number): boolean {
    return (this.flags[i]! & OWNED) !== 0;
  }

  /** How many items are not the client's (without its label: never changed). */
  unownedCount(): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (!this.isOwned(i)) n++;
    return n;
  }

  /** Owned, droppable and not a repeat of an earlier item of the same identity. */
  isDroppable(i: number): boolean {
    return (this.flags[i]! & (OWNED | DROPPABLE | DUPLICATE)) === (OWNED | DROPPABLE);
  }

  lineOf(i: number): number {
    return this.lines[i]!;
  }

  adIdOf(i: number): string | undefined {
    return this.adIds.get(i);
  }

  /**
   * Sets whether item `i` is the client's and may be dropped: the account reader settles the
   * items Editor does not label once their parents are read.
   */
  setOwnership(i: number, owned: boolean, droppable: boolean): void {
    const f = this.flags[i]! & ~(OWNED | DROPPABLE);
    this.flags[i] = f | (owned ? OWNED : 0) | (droppable ? DROPPABLE : 0);
  }

  /** The identity hash of item `i` into `out`. */
  identityHashOf(i: number, out: IdentityHash): IdentityHash {
    out.lo = this.idLo[i]!;
    out.hi = this.idHi[i]!;
    return out;
  }

  /** The index of item `i`'s place (campaign, ad group) among the baseline's places. */
  placeIndexOf(i: number): number {
    return this.placeOf[i]!;
  }

  /** The identity cells of item `i` (on demand: loaded by `loadIdentities` first). */
  identityOf(i: number): string[] {
    if (this.placeKeys) {
      const cells = this.loaded.get(i);
      if (!cells) throw new Error(`The identity of baseline item ${i} was not loaded`);
      return [...cells];
    }
    const spec = PLAN_KIND_SPECS[this.kindOf(i)];
    const place = spec.placeCells === 0 ? [] : splitCells(this.places[this.placeOf[i]!]!);
    const rest = this.rests[i]!;
    const restCells = typeof rest === 'string' ? splitCells(rest) : rest;
    return [...place.slice(0, spec.placeCells), ...restCells];
  }

  /** The baseline keeps no identity text: `loadIdentities` gives the ones a plan writes. */
  get identitiesOnDemand(): boolean {
    return this.placeKeys !== undefined;
  }

  private readonly loaded = new Map<number, readonly string[]>();

  /** The identity cells of items of an on-demand baseline (`readRecordIdentities`). */
  loadIdentities(identities: ReadonlyMap<number, readonly string[]>): void {
    for (const [i, cells] of identities) this.loaded.set(i, cells);
  }

  /**
   * The key of item `i`'s ad group (the identity hash of an ad group of its first two cells) into
   * `out`: responsive search ads of the same ad group share it.
   */
  adGroupKeyOf(i: number, out: IdentityHash): IdentityHash {
    if (this.placeKeys) {
      const p = this.placeOf[i]!;
      out.lo = this.placeKeys[2 * p]!;
      out.hi = this.placeKeys[2 * p + 1]!;
      return out;
    }
    return hashIdentity('ad-group', this.identityOf(i), out, 2);
  }

  /** The content hash of field `fieldIndex` of item `i`, or undefined when it has none. */
  fieldHashOf(i: number, fieldIndex: number): number | undefined {
    for (let p = this.contentStart[i]!; p < this.contentStart[i + 1]!; p += 2)
      if (this.contentPool[p] === fieldIndex) return this.contentPool[p + 1];
    return undefined;
  }

  /** The number of content fields of item `i`. */
  fieldCountOf(i: number): number {
    return (this.contentStart[i + 1]! - this.contentStart[i]!) / 2;
  }

  /** Calls `f` with each content field (global index) and hash of item `i`. */
  forEachField(i: number, f: (fieldIndex: number, hash: number) => void): void {
    for (let p = this.contentStart[i]!; p < this.contentStart[i + 1]!; p += 2)
      f(this.contentPool[p]!, this.contentPool[p + 1]!);
  }

  /** The global index of a field name, or -1. */
  fieldIndex(name: string): number {
    return this.fieldNames.indexOf(name);
  }

  /** Item `i` as an object. */
  item(i: number): BaselineItem {
    const fields: string[] = [];
    const hashes: number[] = [];
    this.forEachField(i, (f, h) => {
      fields.push(this.fieldNames[f]!);
      hashes.push(h);
    });
    const adId = this.adIds.get(i);
    return {
      kind: this.kindOf(i),
      identity: this.identityOf(i),
      status: this.statusOf(i),
      line: this.lines[i]!,
      fields,
      hashes,
      owned: this.isOwned(i),
      ...(adId !== undefined ? { adId } : {}),
    };
  }
}

function joinCells(cells: readonly string[], from: number, to: number): string | string[] {
  const part = cells.slice(from, to);
  for (const c of part) if (c.includes(JOIN)) return part;
  return part.join(JOIN);
}

function splitCells(joined: string): string[] {
  return joined.split(JOIN);
}

/** Collects a baseline's items, then `finish` indexes them. */
export class BaselineBuilder {
  /** On-demand builders (`addHashed`): per place, its ad group key (lo, hi). */
  private placeKeys: Int32List | undefined;
  private kinds: Uint8List;
  private statuses: Uint8List;
  private flags: Uint8List;
  private lines: Int32List;
  private idLo: Int32List;
  private idHi: Int32List;
  private placeOf: Int32List;
  private places: string[] = [];
  private placeIndex = new Map<string, number>();
  private rests: (string | string[])[] = [];
  private contentStart: Int32List;
  private contentPool: Int32List;
  readonly fieldNames: string[] = [];
  private fieldMap = new Map<string, number>();
  private adIds = new Map<number, string>();
  private readonly hash: IdentityHash = { lo: 0, hi: 0 };

  constructor(
    readonly source: BaselineSource,
    /** 'on-demand': items come by `addHashed`, without their identity text. */
    identities: 'kept' | 'on-demand' = 'kept',
    /**
     * The number of items expected, when known (a record's end line): the lists are made that
     * long at once, and `finish` keeps them as they are (no list grown by copying, none copied
     * again to its length: at 6M items those copies held more than the baseline).
     */
    expected = 0,
  ) {
    const n = Math.max(expected, 1024);
    this.kinds = new Uint8List(n);
    this.statuses = new Uint8List(n);
    this.flags = new Uint8List(n);
    this.lines = new Int32List(n);
    this.idLo = new Int32List(n);
    this.idHi = new Int32List(n);
    this.placeOf = new Int32List(n);
    this.contentStart = new Int32List(n + 1);
    // Most items have one content field: its index and its hash.
    this.contentPool = new Int32List(2 * n);
    this.contentStart.push(0);
    if (identities === 'on-demand') this.placeKeys = new Int32List();
  }

  /** A place of on-demand items, by its ad group key; returns its index for `addHashed`. */
  addPlace(keyLo: number, keyHi: number): number {
    const keys = this.placeKeys!;
    keys.push(keyLo);
    keys.push(keyHi);
    return keys.length / 2 - 1;
  }

  /**
   * Adds an item of an on-demand builder by its identity hash and place (`addPlace`); its
   * identity text is not kept.
   */
  addHashed(
    kind: PlanItemKind,
    idLo: number,
    idHi: number,
    place: number,
    status: number,
    line: number,
    fieldIndices: readonly number[],
    hashes: readonly number[],
  ): void {
    this.kinds.push(kindCode(kind));
    this.statuses.push(status);
    this.flags.push(OWNED | DROPPABLE);
    this.lines.push(line);
    this.idLo.push(idLo);
    this.idHi.push(idHi);
    this.placeOf.push(place);
    for (let f = 0; f < fieldIndices.length; f++) {
      this.contentPool.push(fieldIndices[f]!);
      this.contentPool.push(hashes[f]!);
    }
    this.contentStart.push(this.contentPool.length);
  }

  /** Items collected so far. */
  get size(): number {
    return this.kinds.length;
  }

  /** The global index of a content field name, added when new. */
  fieldIndex(name: string): number {
    let i = this.fieldMap.get(name);
    if (i === undefined) {
      i = this.fieldNames.length;
      this.fieldNames.push(name);
      this.fieldMap.set(name, i);
    }
    return i;
  }

  add(input: BaselineItemInput): number {
    if (this.placeKeys) throw new Error('an on-demand baseline takes items by addHashed');
    const i = this.kinds.length;
    const spec = PLAN_KIND_SPECS[input.kind];
    const { identity } = input;
    this.kinds.push(kindCode(input.kind));
    this.statuses.push(ITEM_STATUSES.indexOf(input.status));
    this.flags.push((input.owned ? OWNED : 0) | (input.droppable ? DROPPABLE : 0));
    this.lines.push(input.line);
    hashIdentity(input.kind, identity, this.hash);
    this.idLo.push(this.hash.lo);
    this.idHi.push(this.hash.hi);
    // Every kind but campaigns has a place: its campaign (and ad group).
    const placeKey = identity.slice(0, Math.max(1, spec.placeCells)).join(JOIN);
    let p = this.placeIndex.get(placeKey);
    if (p === undefined) {
      p = this.places.length;
      this.places.push(placeKey);
      this.placeIndex.set(placeKey, p);
    }
    this.placeOf.push(p);
    this.rests.push(joinCells(identity, spec.placeCells, identity.length));
    for (let f = 0; f < input.fieldIndices.length; f++) {
      this.contentPool.push(input.fieldIndices[f]!);
      this.contentPool.push(input.hashes[f]!);
    }
    this.contentStart.push(this.contentPool.length);
    if (input.adId) this.adIds.set(i, input.adId);
    return i;
  }

  /** The baseline, indexed by identity hash. */
  finish(knownFields?: ReadonlySet<string>): Baseline {
    const n = this.kinds.length;
    // At most three quarters full: at half, the 6M items of a 1M-row build took a 64 MB table,
    // and items asked in order seldom probe it (`findNext`).
    let capacity = 16;
    while (capacity * 3 < n * 4) capacity *= 2;
    const table = new Int32Array(capacity);
    const mask = capacity - 1;
    const lo = this.idLo.data;
    const hi = this.idHi.data;
    const flags = this.flags.data;
    for (let i = 0; i < n; i++) {
      let slot = lo[i]! & mask;
      for (;;) {
        const v = table[slot]!;
        if (v === 0) {
          table[slot] = i + 1;
          break;
        }
        if (lo[v - 1] === lo[i] && hi[v - 1] === hi[i]) {
          flags[i] = flags[i]! | DUPLICATE;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    return new Baseline(
      this.source,
      n,
      exactly(this.kinds),
      exactly(this.statuses),
      exactly(this.flags),
      exactly(this.lines),
      exactly(this.idLo),
      exactly(this.idHi),
      exactly(this.placeOf),
      this.places,
      this.rests,
      this.placeKeys && exactly(this.placeKeys),
      exactly(this.contentStart),
      exactly(this.contentPool),
      this.fieldNames,
      this.adIds,
      table,
      knownFields,
    );
  }
}

/** A list's values: its array when it is full, else a copy of its length. */
function exactly<T extends Int32Array | Uint8Array>(list: { data: T; length: number }): T {
  return list.length === list.data.length ? list.data : (list.data.slice(0, list.length) as T);
}

/** A baseline with no items (a client's first plan). */
export function emptyBaseline(source: BaselineSource = 'record'): Baseline {
  return new BaselineBuilder(source).finish();
}

/**
 * The baseline items a plan decides about as dropped, by index: the client's (droppable), not
 * made by the new build (`seen`), not removed already. The one rule behind the plan's dropped
 * items, the dropped items the next record keeps, and the identities an on-demand baseline
 * loads.
 */
export function* droppedBaselineItems(
  baseline: { size: number; isDroppable(i: number): boolean; statusOf(i: number): string },
  seen: { has(i: number): boolean },
): Generator<number> {
  for (let i = 0; i < baseline.size; i++)
    if (!seen.has(i) && baseline.isDroppable(i) && baseline.statusOf(i) !== 'Removed') yield i;
}
