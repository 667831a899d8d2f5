/**
 * The build record, `adloom-build.json`: what a build exported for a client, so the next build
 * can be planned against it. Version 3 is a line format written and read as a stream: a JSON
 * header line, then one entry per line, tagged by its first character, then an end line. A cell
 * is written in place (`'` then its text) unless its column repeats the text above it: then the
 * text is written once as an `S` line (a string table) and the cells name it by index. Contents
 * are 32-bit hashes per field, six characters each; numbers are base 36. Nothing but the header
 * and the end line is JSON: the reader scans the lines by hand.
 *
 *   {"format":"adloom-build","version":3,"created":"…","client":"…","feed":"…","templates":[…],"label":"adloom"}
 *   Kkeyword                    the items below are keywords
 *   P'Shoes - Nike,'Nike Air    the place (campaign, ad group) of the items below, as cells
 *   Ffinalurl                   content field 0
 *   2,,0AbC4_x,'nike air,*3     line change, status (empty: Enabled), contents (field then its
 *                               6-character hash, `;` between fields), the identity cells after
 *                               the place (empty: an empty cell; `*n`: n empty cells; `'text`:
 *                               a text, backslash, comma, CR and LF escaped as \\, \,, \r, \n;
 *                               a number: a text of an `S` line)
 *   SExact                      text 0 (backslash, CR and LF escaped)
 *   1,,0AbC4_x,'nike air max,0  a cell naming text 0
 *   T                           a part with texts and fields of its own begins (another
 *                               thread's ads): texts, fields, kind, place and line start again
 *   E{"items":1,"counts":{"keyword":1}}
 *
 * Version 2 records (every text an `S` line: no `'` cells) and version 1 records (one JSON entry
 * per line, recordVersion1.ts) are still read.
 */
import type { ExportTable } from '../formats/exportFormat.ts';
import { BaselineBuilder, Int32List, type Baseline } from './baseline.ts';
import { HASH_BASE as HASH_BASE_A, sealHash } from '../hash.ts';
import {
  ITEM_STATUSES,
  kindCode,
  PLAN_ITEM_KINDS,
  PLAN_KIND_SPECS,
  type ItemStatus,
  type PlanItemKind,
} from './kinds.ts';
import {
  DEFAULT_CLIENT_LABEL,
  HASH_BASE_B,
  hashField,
  readBuildItems,
  type BuildItem,
} from './items.ts';
import { parseJson, RecordV1Lines, V1_ITEMS_START } from './recordVersion1.ts';

/** The record's format name and version (the first line's `format` and `version`). */
export const BUILD_RECORD_FORMAT = 'adloom-build';
export const BUILD_RECORD_VERSION = 3;

/** The file name of a build record beside a build's files. */
export const BUILD_RECORD_FILE_NAME = 'adloom-build.json';

/** What a record says about its build, besides its items. */
export interface BuildRecordInfo {
  /** When the build was made, as an ISO date-time. */
  created: string;
  client: string;
  feed: string;
  /** The templates' names (campaign, ads, extensions). */
  templates: string[];
  /** The client's label, which marks what Adloom made. */
  label: string;
}

/** A record's header: its info and the number of items of each kind. */
export interface BuildRecordHeader extends BuildRecordInfo {
  format: typeof BUILD_RECORD_FORMAT;
  version: number;
  counts: Partial<Record<PlanItemKind, number>>;
}

/** One item as the record writer takes it. */
export interface RecordItem {
  kind: PlanItemKind;
  identity: readonly string[];
  status: ItemStatus;
  line: number;
  /** Content field names and their hashes (`hashField`). */
  fields: readonly string[];
  hashes: readonly number[];
}

/** An item as a record reader hands it over (`onItem`); reused: copy what you keep. */
export interface RecordItemView {
  kind: PlanItemKind;
  status: ItemStatus;
  line: number;
  /** Its identity hash (`hashIdentity`). */
  h: { lo: number; hi: number };
  /** Its place's ad group key (`Baseline.adGroupKeyOf`). */
  groupKey: { lo: number; hi: number };
  /** Its content fields' names and hashes. */
  fields: string[];
  hashes: number[];
}

/** Characters gathered before a chunk is handed over. */
const CHUNK_CHARS = 1 << 16;

/**
 * The texts of each column the writer remembers: a text one of the last this many of its column
 * is named by reference (a campaign of rows that take turns among a few campaigns, a match type),
 * another is written in place.
 */
const RECENT_CELLS = 8;

/** The six characters of a content hash: 6 bits each, the first holding the top 2 bits. */
const HASH_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HASH_CHARS = 6;

/** A 32-bit hash as its six characters. */
function encodeRecordHash(h: number): string {
  const u = h >>> 0;
  return (
    HASH_DIGITS[u >>> 30]! +
    HASH_DIGITS[(u >>> 24) & 63]! +
    HASH_DIGITS[(u >>> 18) & 63]! +
    HASH_DIGITS[(u >>> 12) & 63]! +
    HASH_DIGITS[(u >>> 6) & 63]! +
    HASH_DIGITS[u & 63]!
  );
}

/** A text as a record line holds it: backslash, CR and LF escaped. */
function escapeText(text: string): string {
  if (!/[\\\r\n]/.test(text)) return text;
  return text.replace(/[\\\r\n]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : '\\n'));
}

/** A text as a cell holds it in place: `'`, then the text, backslash, comma, CR and LF escaped. */
function inlineCell(text: string): string {
  if (!/[\\\r\n,]/.test(text)) return `'${text}`;
  return `'${text.replace(/[\\\r\n,]/g, (c) => (c === '\r' ? '\\r' : c === '\n' ? '\\n' : `\\${c}`))}`;
}

/** Writes a record's text in chunks. */
export class BuildRecordWriter {
  private chunk = '';
  private readonly out: string[] = [];
  private kind: PlanItemKind | undefined;
  private place: string[] = [];
  private lastLine = 0;
  private items = 0;
  private texts = 0;
  private readonly fields = new Map<string, number>();
  private counts: Partial<Record<PlanItemKind, number>> = {};
  private readonly hashes: number[] = [];
  /**
   * Per identity column (the place's first), the last texts written there (`RECENT_CELLS`
   * slots from `c * RECENT_CELLS`, `recentNext[c]` the next to reuse), each with its reference
   * once the column has repeated it (undefined before).
   */
  private recentTexts: Array<string | undefined> = [];
  private recentRefs: Array<string | undefined> = [];
  private recentNext: number[] = [];

  /** A record's writer; without `info`, a part's (`part`). */
  constructor(info: BuildRecordInfo | undefined) {
    if (!info) {
      this.chunk = 'T\n';
      return;
    }
    this.chunk = `${JSON.stringify({
      format: BUILD_RECORD_FORMAT,
      version: BUILD_RECORD_VERSION,
      created: info.created,
      client: info.client,
      feed: info.feed,
      templates: info.templates,
      label: info.label,
    })}\n`;
  }

  /**
   * Column `c`'s cell as the record writes it: in place, or, when the text is one of the last
   * few the column held, the index of its `S` line (written the first time it repeats). Older
   * texts are written again: no table of every text is searched (most texts of a build are its
   * feed rows' own, written once; a table of them cost more time than the bytes it saved).
   */
  private cell(c: number, text: string): string {
    const base = c * RECENT_CELLS;
    const texts = this.recentTexts;
    for (let k = base; k < base + RECENT_CELLS; k++) {
      if (texts[k] !== text) continue;
      let ref = this.recentRefs[k];
      if (ref === undefined) {
        ref = (this.texts++).toString(36);
        this.chunk += `S${escapeText(text)}\n`;
        this.recentRefs[k] = ref;
      }
      return ref;
    }
    const next = this.recentNext[c] ?? 0;
    this.recentNext[c] = (next + 1) % RECENT_CELLS;
    texts[base + next] = text;
    this.recentRefs[base + next] = undefined;
    return inlineCell(text);
  }

  /** Forgets the columns' texts (a new kind or part: its columns are others). */
  private forgetCells(): void {
    this.recentTexts = [];
    this.recentRefs = [];
    this.recentNext = [];
  }

  /** Adds an item. */
  add(item: RecordItem): void {
    const spec = PLAN_KIND_SPECS[item.kind];
    if (item.kind !== this.kind) {
      this.kind = item.kind;
      this.place = [];
      this.forgetCells();
      this.chunk += `K${item.kind}\n`;
    }
    const n = spec.placeCells;
    const { identity } = item;
    let samePlace = this.place.length === n;
    for (let c = 0; c < n && samePlace; c++) if (this.place[c] !== identity[c]) samePlace = false;
    if (!samePlace) {
      this.place = identity.slice(0, n);
      let line = 'P';
      for (let c = 0; c < n; c++) line += (c > 0 ? ',' : '') + this.cell(c, identity[c]!);
      this.chunk += `${line}\n`;
    }
    let text = `${(item.line - this.lastLine).toString(36)},${item.status === 'Enabled' ? '' : ITEM_STATUSES.indexOf(item.status)},`;
    for (let f = 0; f < item.fields.length; f++) {
      const name = item.fields[f]!;
      let index = this.fields.get(name);
      if (index === undefined) {
        index = this.fields.size;
        this.fields.set(name, index);
        this.chunk += `F${escapeText(name)}\n`;
      }
      text += `${f > 0 ? ';' : ''}${index.toString(36)}${encodeRecordHash(item.hashes[f]!)}`;
    }
    // A run of two or more empty cells (an ad's unused headlines and pins) is written as `*n`.
    for (let c = n; c < identity.length; c++) {
      const cell = identity[c]!;
      if (cell === '') {
        let run = 1;
        while (identity[c + run] === '') run++;
        if (run === 1) text += ',';
        else {
          text += `,*${run.toString(36)}`;
          c += run - 1;
        }
      } else text += `,${this.cell(c, cell)}`;
    }
    this.chunk += `${text}\n`;
    this.lastLine = item.line;
    this.items++;
    this.counts[item.kind] = (this.counts[item.kind] ?? 0) + 1;
    if (this.chunk.length >= CHUNK_CHARS) {
      this.out.push(this.chunk);
      this.chunk = '';
    }
  }

  /** Adds a build item, each content field hashed (`hashField`). */
  addBuildItem(item: BuildItem): void {
    const hashes = this.hashes;
    const n = item.fields.length;
    if (hashes.length !== n) hashes.length = n;
    for (let f = 0; f < n; f++) hashes[f] = hashField(item.fields[f]!, item.values[f]!);
    this.add({
      kind: item.kind,
      identity: item.identity,
      status: item.status,
      line: item.line,
      fields: item.fields,
      hashes,
    });
  }

  /**
   * A writer of a part of a record, made elsewhere (another thread) with its own texts: its
   * text (`take`, then `endPart`) goes into the record between two `part` calls of the record's
   * writer, its `partCounts` to the second.
   */
  static part(): BuildRecordWriter {
    return new BuildRecordWriter(undefined);
  }

  /** A part's last chunks (no end line). */
  endPart(): string[] {
    this.out.push(this.chunk);
    this.chunk = '';
    return this.take();
  }

  /** What a part holds, for the record's end line. */
  partCounts(): { items: number; counts: Partial<Record<PlanItemKind, number>> } {
    return { items: this.items, counts: { ...this.counts } };
  }

  /**
   * The chunks written so far, before a part (undefined) or after one (its counts): what this
   * writer writes next starts with its own texts again (a `T` line).
   */
  part(after?: { items: number; counts: Partial<Record<PlanItemKind, number>> }): string[] {
    if (after) {
      this.items += after.items;
      for (const k of PLAN_ITEM_KINDS)
        if (after.counts[k]) this.counts[k] = (this.counts[k] ?? 0) + after.counts[k];
    }
    this.out.push(this.chunk);
    this.chunk = after ? 'T\n' : '';
    this.kind = undefined;
    this.forgetCells();
    this.place = [];
    this.lastLine = 0;
    this.texts = 0;
    this.fields.clear();
    return this.take();
  }

  /** The chunks made since the last call. */
  take(): string[] {
    return this.out.splice(0, this.out.length);
  }

  /** The last chunks, with the end line (the number of items and the per-kind counts). */
  end(): string[] {
    const counts: Partial<Record<PlanItemKind, number>> = {};
    for (const k of PLAN_ITEM_KINDS) if (this.counts[k]) counts[k] = this.counts[k];
    this.out.push(`${this.chunk}E${JSON.stringify({ items: this.items, counts })}\n`);
    this.chunk = '';
    return this.take();
  }
}

/**
 * The per-kind counts in a record's last chunk (its end line), or {} when the chunk holds none;
 * a host that writes a record learns them without reading it.
 */
export function recordCountsOfLastChunk(last: string): Partial<Record<PlanItemKind, number>> {
  const at = last.lastIndexOf('\nE{');
  const start = at >= 0 ? at + 2 : last.startsWith('E{') ? 1 : -1;
  if (start < 0) return {};
  const end = parseJson(last.slice(start).trimEnd(), () => {
    throw new Error('unreadable end of a build record');
  }) as { counts?: Partial<Record<PlanItemKind, number>> };
  return end.counts ?? {};
}

/** Options of `buildRecordChunks`. */
export interface BuildRecordOptions {
  /**
   * Items to write after the build's own (a plan's dropped items that stay in the account,
   * paused or kept), and next items to leave out (collisions). See `planRecordItems`.
   */
  extra?: () => Iterable<RecordItem>;
  skip?: (ordinal: number) => boolean;
}

/**
 * The record of a build made of `tables`, in chunks (a 1M-row build never becomes one string).
 * The client label in `info.label` is left out of the labels compared.
 */
export function* buildRecordChunks(
  info: BuildRecordInfo,
  tables: readonly ExportTable[],
  options: BuildRecordOptions = {},
): Generator<string> {
  const writer = new BuildRecordWriter(info);
  let ordinal = 0;
  for (const item of readBuildItems(tables, { label: info.label || DEFAULT_CLIENT_LABEL })) {
    if (options.skip?.(ordinal++)) continue;
    writer.addBuildItem(item);
    yield* writer.take();
  }
  for (const item of options.extra?.() ?? []) {
    writer.add(item);
    yield* writer.take();
  }
  yield* writer.end();
}

/** The value of a base-36 digit's character code, or -1. */
export function digit36(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  return -1;
}

/** Character code to the 6-bit value of a hash character, -1 for others. */
const HASH_VALUES = (() => {
  const v = new Int8Array(128).fill(-1);
  for (let i = 0; i < HASH_DIGITS.length; i++) v[HASH_DIGITS.charCodeAt(i)] = i;
  return v;
})();

/**
 * Calls `line(s, from, to)` for each whole line of `carry + text` (without its CR LF or LF);
 * returns the text after the last line break, to be given as the next call's `carry`. The line
 * the carry begins is read on its own: `text` stays one flat string (a string joined to it is
 * read through the join, several times slower).
 */
export function forEachLine(
  carry: string,
  text: string,
  line: (s: string, from: number, to: number) => void,
): string {
  let from = 0;
  if (carry !== '') {
    const nl = text.indexOf('\n');
    if (nl < 0) return carry + text;
    const s = carry + text.slice(0, nl);
    line(s, 0, s.length > 0 && s.charCodeAt(s.length - 1) === 13 ? s.length - 1 : s.length);
    from = nl + 1;
  }
  for (;;) {
    const nl = text.indexOf('\n', from);
    if (nl < 0) break;
    line(text, from, nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
    from = nl + 1;
  }
  return from === 0 ? text : text.slice(from);
}

/**
 * The end of a text written in place whose characters start at s[from]: the first comma not
 * escaped, or `to`.
 */
export function inlineCellEnd(s: string, from: number, to: number): number {
  for (let p = from; p < to; p++) {
    const c = s.charCodeAt(p);
    if (c === 44 /* , */) return p;
    if (c === 92 /* \\ */) p++;
  }
  return to;
}

/** A text of an `S` or `F` line or of a cell, unescaped. */
export function unescapeText(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(.?)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}

/** Reads a record's text, chunk by chunk, into a baseline (version 2, and version 1). */
export class BuildRecordReader {
  private carry = '';
  private lineNumber = 0;
  private header: BuildRecordHeader | undefined;
  private ended = false;
  private builder!: BaselineBuilder;
  private v1: RecordV1Lines | undefined;
  /** On demand: per text, its two hash lanes and their multipliers to its length. */
  private readonly onDemand: boolean;
  private readonly textA = new Int32List();
  private readonly textB = new Int32List();
  private readonly powA = new Int32List();
  private readonly powB = new Int32List();
  /** On demand: the hash lanes after the kind and the place, and the place's index. */
  private placeA = 0;
  private placeB = 0;
  private placeIndex = -1;
  private readonly texts: string[] = [];
  private readonly fieldIndices: number[] = [];
  private kind: PlanItemKind | undefined;
  private identityLength = 0;
  private placeCells = 0;
  private readonly identity: string[] = [];
  private lastLine = 0;
  private items = 0;
  private readonly fieldBuf: number[] = [];
  private readonly hashBuf: number[] = [];
  /** Where a number read by `base36` ended. */
  private at = 0;

  /**
   * `identities: 'on-demand'` keeps no text (a 1M-row build's record holds millions): items are
   * known by their identity hashes, and the plan reads the identities it writes again
   * (`readRecordIdentities`). Version 1 records are read with their texts either way.
   */
  constructor(
    options: {
      identities?: 'kept' | 'on-demand';
      /**
       * Each item handed over as it is read, and not kept (the baseline `end` gives is then
       * empty): a plan compares a new build's items without holding them. Implies on demand.
       */
      onItem?: (item: RecordItemView) => void;
      /** The number of items the record holds, when known (`BaselineBuilder`'s `expected`). */
      expectedItems?: number;
    } = {},
  ) {
    this.onItem = options.onItem;
    this.expectedItems = options.expectedItems ?? 0;
    this.onDemand = options.identities === 'on-demand' || this.onItem !== undefined;
  }

  private readonly onItem: ((item: RecordItemView) => void) | undefined;
  private readonly expectedItems: number;
  private readonly view: RecordItemView = {
    kind: 'campaign',
    status: 'Enabled',
    line: 0,
    h: { lo: 0, hi: 0 },
    groupKey: { lo: 0, hi: 0 },
    fields: [],
    hashes: [],
  };

  /** Reads the next piece of the record's text. */
  push(text: string): void {
    this.carry = forEachLine(this.carry, text, this.onLine);
  }

  /** One line (`forEachLine`). */
  private readonly onLine = (s: string, from: number, to: number): void => {
    this.lineNumber++;
    this.line(s, from, to);
  };

  /** The baseline of every item read; throws when the record is cut or is not a record. */
  end(): Baseline & { header: BuildRecordHeader } {
    if (this.carry.trim() !== '') {
      // A line after the last line break is the end line, or a line cut short.
      if (this.carry.charCodeAt(0) !== 69 /* E */)
        throw new Error('The build record is incomplete (its end is missing)');
      this.lineNumber++;
      this.line(this.carry, 0, this.carry.length);
    }
    this.carry = '';
    if (!this.header || !this.ended)
      throw new Error('The build record is incomplete (its end is missing)');
    const baseline = this.builder.finish() as Baseline & { header: BuildRecordHeader };
    Object.defineProperty(baseline, 'header', { value: this.header, enumerable: true });
    return baseline;
  }

  private fail(message: string): never {
    throw new Error(`Build record, line ${this.lineNumber}: ${message}`);
  }

  /** Reads the line s[from, to). */
  private line(s: string, from: number, to: number): void {
    if (!this.header) return this.headerLine(s.slice(from, to));
    if (this.ended) {
      if (s.slice(from, to).trim() !== '') this.fail('text after the end of the record');
      return;
    }
    if (this.v1) {
      this.v1.line(s.slice(from, to));
      if (this.v1.counts) {
        this.header.counts = this.v1.counts;
        this.ended = true;
      }
      return;
    }
    const tag = s.charCodeAt(from);
    if (tag === 83 /* S */) {
      if (this.onDemand) this.hashText(s, from + 1, to);
      else this.texts.push(unescapeText(s.slice(from + 1, to)));
    } else if (tag === 84 /* T */) this.newPart();
    else if (digit36(tag) >= 0 || tag === 45 /* - */) {
      if (this.onDemand) this.hashedItem(s, from, to);
      else this.item(s, from, to);
    } else if (tag === 80 /* P */) {
      if (this.onDemand) this.hashedPlace(s, from + 1, to);
      else this.placeLine(s, from + 1, to);
    } else if (tag === 75 /* K */) this.kindLine(s.slice(from + 1, to));
    else if (tag === 70 /* F */)
      this.fieldIndices.push(this.builder.fieldIndex(unescapeText(s.slice(from + 1, to))));
    else if (tag === 69 /* E */) this.endLine(s.slice(from + 1, to));
    else if (from === to) this.fail('an empty line (the record is damaged)');
    else this.fail('an unknown entry (the record is damaged)');
  }

  private headerLine(line: string): void {
    const v1 = line.endsWith(V1_ITEMS_START);
    const head = parseJson(v1 ? `${line.slice(0, -V1_ITEMS_START.length)}}` : line, () =>
      this.fail('not an Adloom build record'),
    ) as Partial<BuildRecordHeader> | null;
    if (!head || typeof head !== 'object' || head.format !== BUILD_RECORD_FORMAT)
      this.fail('not an Adloom build record');
    const version = head.version;
    if (typeof version === 'number' && version > BUILD_RECORD_VERSION)
      this.fail(
        `format version ${version} was written by a newer Adloom; update Adloom to read it`,
      );
    if (v1 ? version !== 1 : version !== 2 && version !== BUILD_RECORD_VERSION)
      this.fail(
        `format version ${String(version)} is not one this version reads; generate the build again`,
      );
    this.header = {
      format: BUILD_RECORD_FORMAT,
      version: version as number,
      created: String(head.created ?? ''),
      client: String(head.client ?? ''),
      feed: String(head.feed ?? ''),
      templates: Array.isArray(head.templates) ? head.templates.map(String) : [],
      label: String(head.label ?? DEFAULT_CLIENT_LABEL),
      counts: {},
    };
    this.builder = new BaselineBuilder(
      'record',
      this.onDemand && !v1 ? 'on-demand' : 'kept',
      this.onItem ? 0 : this.expectedItems,
    );
    if (v1) this.v1 = new RecordV1Lines(this.builder, (m) => this.fail(m));
  }

  /** A part of the record with texts and fields of its own begins. */
  private newPart(): void {
    this.texts.length = 0;
    this.textA.length = 0;
    this.textB.length = 0;
    this.powA.length = 0;
    this.powB.length = 0;
    this.placeIndex = -1;
    this.fieldIndices.length = 0;
    this.kind = undefined;
    this.identity.length = 0;
    this.lastLine = 0;
  }

  private kindLine(kind: string): void {
    if (!(PLAN_ITEM_KINDS as readonly string[]).includes(kind)) this.fail(`unknown kind "${kind}"`);
    this.kind = kind as PlanItemKind;
    const spec = PLAN_KIND_SPECS[this.kind];
    this.placeCells = spec.placeCells;
    this.identityLength = spec.identity.length;
    this.identity.length = 0;
    this.placeIndex = -1;
    if (this.onDemand && this.placeCells === 0) {
      this.placeA = this.placeB = kindCode(this.kind) + 1;
      this.placeIndex = this.onItem ? 0 : this.builder.addPlace(0, 0);
    }
  }

  /** On demand: an `S` line's text as its hash lanes (as `hashIdentity` hashes a cell). */
  private hashText(s: string, from: number, to: number): void {
    this.hashSpan(s, from, to, false);
    this.textA.push(this.spanA);
    this.textB.push(this.spanB);
    this.powA.push(this.spanPowA);
    this.powB.push(this.spanPowB);
  }

  /** The lanes of the text hashed last (`hashSpan`) and their multipliers to its length. */
  private spanA = 0;
  private spanB = 0;
  private spanPowA = 1;
  private spanPowB = 1;

  /**
   * The escaped text at s[from, to) hashed (`span*`), up to its end or, for a cell written in
   * place (`inCell`), to the first comma not escaped (`this.at`: where it ended).
   */
  private hashSpan(s: string, from: number, to: number, inCell: boolean): void {
    let a = 0;
    let b = 0;
    let pa = 1;
    let pb = 1;
    let p = from;
    for (; p < to; p++) {
      let c = s.charCodeAt(p);
      if (c === 44 /* , */ && inCell) break;
      if (c === 92 /* \\ */ && p + 1 < to) {
        p++;
        const e = s.charCodeAt(p);
        c = e === 110 ? 10 : e === 114 ? 13 : e;
      }
      a = (Math.imul(a, HASH_BASE_A) + c) | 0;
      b = (Math.imul(b, HASH_BASE_B) + c) | 0;
      pa = Math.imul(pa, HASH_BASE_A);
      pb = Math.imul(pb, HASH_BASE_B);
    }
    this.spanA = a;
    this.spanB = b;
    this.spanPowA = pa;
    this.spanPowB = pb;
    this.at = p;
  }

  /** On demand: the hash lanes being made (`addSpan`, `endCell`). */
  private laneA = 0;
  private laneB = 0;
  /** On demand: the place's cells' lanes and multipliers. */
  private readonly placeA4: number[] = [];

  /**
   * On demand: the cell at s[from…) hashed into `span*`, a text in place or a reference
   * (`this.at`: where it ended).
   */
  private cellSpan(s: string, from: number, to: number): void {
    if (s.charCodeAt(from) === 39 /* ' */) return this.hashSpan(s, from + 1, to, true);
    const t = this.base36(s, from, to);
    if (t >= this.textA.length) this.fail('a text not written before (the record is damaged)');
    this.spanA = this.textA.data[t]!;
    this.spanB = this.textB.data[t]!;
    this.spanPowA = this.powA.data[t]!;
    this.spanPowB = this.powB.data[t]!;
  }

  /** A cell's text (its lanes and multipliers) and the separator after it, added to the lanes. */
  private addSpan(a: number, b: number, pa: number, pb: number): void {
    this.laneA = (Math.imul(this.laneA, pa) + a) | 0;
    this.laneB = (Math.imul(this.laneB, pb) + b) | 0;
    this.endCell();
  }

  /** The separator after a cell (an empty cell is only this). */
  private endCell(): void {
    this.laneA = (Math.imul(this.laneA, HASH_BASE_A) + 0x1f) | 0;
    this.laneB = (Math.imul(this.laneB, HASH_BASE_B) + 0x1f) | 0;
  }

  /** Place cell `c` (`placeA4`), added to the lanes. */
  private addPlaceCell(c: number): void {
    const q = this.placeA4;
    this.addSpan(q[4 * c]!, q[4 * c + 1]!, q[4 * c + 2]!, q[4 * c + 3]!);
  }

  /** On demand: a `P` line's place as hash lanes, and its ad group key. */
  private hashedPlace(s: string, from: number, to: number): void {
    if (!this.kind) this.fail('a place before its kind');
    const q = this.placeA4;
    let cells = 0;
    let p = from;
    while (p < to) {
      this.cellSpan(s, p, to);
      q[4 * cells] = this.spanA;
      q[4 * cells + 1] = this.spanB;
      q[4 * cells + 2] = this.spanPowA;
      q[4 * cells + 3] = this.spanPowB;
      cells++;
      p = this.at + 1;
    }
    if (cells !== this.placeCells) this.fail('a place of the wrong size');
    // The key responsive search ads are paired by: the place hashed as an ad group's identity.
    this.laneA = this.laneB = kindCode('ad-group') + 1;
    for (let c = 0; c < 2; c++) {
      if (c < cells) this.addPlaceCell(c);
      else this.endCell();
    }
    const keyLo = sealHash(this.laneA, 2, 1);
    const keyHi = sealHash(this.laneB, 2, 2);
    this.laneA = this.laneB = kindCode(this.kind) + 1;
    for (let c = 0; c < cells; c++) this.addPlaceCell(c);
    this.placeA = this.laneA;
    this.placeB = this.laneB;
    this.view.groupKey.lo = keyLo;
    this.view.groupKey.hi = keyHi;
    this.placeIndex = this.onItem ? 0 : this.builder.addPlace(keyLo, keyHi);
  }

  /** The base-36 number at s[from…), up to the first character that is not a digit. */
  private base36(s: string, from: number, to: number): number {
    let v = 0;
    let p = from;
    for (; p < to; p++) {
      const d = digit36(s.charCodeAt(p));
      if (d < 0) break;
      v = v * 36 + d;
    }
    if (p === from) this.fail('a number is missing (the record is damaged)');
    this.at = p;
    return v;
  }

  /** The text of the cell at s[from…): in place, or a reference (`this.at`: where it ended). */
  private textAt(s: string, from: number, to: number): string {
    if (s.charCodeAt(from) === 39 /* ' */) {
      const end = inlineCellEnd(s, from + 1, to);
      this.at = end;
      return unescapeText(s.slice(from + 1, end));
    }
    const t = this.texts[this.base36(s, from, to)];
    if (t === undefined) this.fail('a text not written before (the record is damaged)');
    return t;
  }

  private placeLine(s: string, from: number, to: number): void {
    if (!this.kind) this.fail('a place before its kind');
    const identity = this.identity;
    identity.length = 0;
    let p = from;
    while (p < to) {
      identity.push(this.textAt(s, p, to));
      p = this.at + 1;
    }
    if (identity.length !== this.placeCells) this.fail('a place of the wrong size');
  }

  /** The line change, status and contents of an item line; returns where its cells begin. */
  private itemHead(s: string, from: number, to: number): number {
    let p = from;
    const negative = s.charCodeAt(p) === 45;
    if (negative) p++;
    const delta = this.base36(s, p, to);
    p = this.at;
    if (s.charCodeAt(p) !== 44) this.fail('unreadable item');
    p++;
    let status = 0;
    if (s.charCodeAt(p) !== 44) {
      status = this.base36(s, p, to);
      p = this.at;
      if (status >= ITEM_STATUSES.length) this.fail('unknown status');
    }
    if (s.charCodeAt(p) !== 44) this.fail('unreadable item');
    p++;
    const fields = this.fieldBuf;
    const hashes = this.hashBuf;
    let k = 0;
    while (p < to && s.charCodeAt(p) !== 44) {
      const f = this.fieldIndices[this.base36(s, p, to)];
      if (f === undefined) this.fail('a content field not named before');
      p = this.at;
      if (p + HASH_CHARS > to) this.fail('unreadable contents');
      let h = 0;
      for (let d = 0; d < HASH_CHARS; d++) {
        const c = s.charCodeAt(p + d);
        const v = c < 128 ? HASH_VALUES[c]! : -1;
        if (v < 0) this.fail('unreadable contents');
        h = (h << 6) | v;
      }
      fields[k] = f;
      hashes[k++] = h | 0;
      p += HASH_CHARS;
      if (s.charCodeAt(p) === 59) p++;
    }
    // Lengths set only when they change (setting one is a call of its own, item after item).
    if (fields.length !== k) {
      fields.length = k;
      hashes.length = k;
    }
    this.lastLine += negative ? -delta : delta;
    this.status = status;
    return p;
  }

  /** The status of the item line read last (`itemHead`). */
  private status = 0;

  private item(s: string, from: number, to: number): void {
    const kind = this.kind;
    if (!kind) return this.fail('an item before its kind');
    const identity = this.identity;
    if (identity.length < this.placeCells) this.fail('an item without its place');
    identity.length = this.placeCells;
    let p = this.itemHead(s, from, to);
    const fields = this.fieldBuf;
    const hashes = this.hashBuf;
    while (p < to) {
      p++; // the comma before the cell
      const c = s.charCodeAt(p);
      if (p >= to || c === 44) identity.push('');
      else if (c === 42 /* * */) {
        const run = this.base36(s, p + 1, to);
        for (let k = 0; k < run && identity.length < this.identityLength; k++) identity.push('');
        p = this.at;
      } else {
        identity.push(this.textAt(s, p, to));
        p = this.at;
      }
      if (p < to && s.charCodeAt(p) !== 44) this.fail('unreadable item');
    }
    if (identity.length !== this.identityLength) this.fail('an item with missing cells');
    this.items++;
    this.builder.add({
      kind,
      identity,
      status: ITEM_STATUSES[this.status]!,
      line: this.lastLine,
      fieldIndices: fields,
      hashes,
      owned: true,
      droppable: true,
    });
  }

  /** On demand: an item by its identity hash (the place's lanes, then its own cells). */
  private hashedItem(s: string, from: number, to: number): void {
    const kind = this.kind;
    if (!kind) return this.fail('an item before its kind');
    if (this.placeIndex < 0) this.fail('an item without its place');
    let p = this.itemHead(s, from, to);
    this.laneA = this.placeA;
    this.laneB = this.placeB;
    let cells = this.placeCells;
    while (p < to) {
      p++; // the comma before the cell
      const c = s.charCodeAt(p);
      if (p >= to || c === 44) {
        this.endCell();
        cells++;
      } else if (c === 42 /* * */) {
        const run = this.base36(s, p + 1, to);
        for (let k = 0; k < run && cells < this.identityLength; k++) {
          this.endCell();
          cells++;
        }
        p = this.at;
      } else {
        this.cellSpan(s, p, to);
        this.addSpan(this.spanA, this.spanB, this.spanPowA, this.spanPowB);
        cells++;
        p = this.at;
      }
      if (p < to && s.charCodeAt(p) !== 44) this.fail('unreadable item');
    }
    if (cells !== this.identityLength) this.fail('an item with missing cells');
    this.items++;
    if (this.onItem) {
      const view = this.view;
      view.kind = kind;
      view.status = ITEM_STATUSES[this.status]!;
      view.line = this.lastLine;
      view.h.lo = sealHash(this.laneA, cells, 1);
      view.h.hi = sealHash(this.laneB, cells, 2);
      const names = this.builder.fieldNames;
      const n = this.fieldBuf.length;
      if (view.fields.length !== n) {
        view.fields.length = n;
        view.hashes.length = n;
      }
      for (let f = 0; f < n; f++) {
        view.fields[f] = names[this.fieldBuf[f]!]!;
        view.hashes[f] = this.hashBuf[f]!;
      }
      this.onItem(view);
      return;
    }
    this.builder.addHashed(
      kind,
      sealHash(this.laneA, cells, 1),
      sealHash(this.laneB, cells, 2),
      this.placeIndex,
      this.status,
      this.lastLine,
      this.fieldBuf,
      this.hashBuf,
    );
  }

  private endLine(text: string): void {
    const end = parseJson(text, () => this.fail('unreadable end')) as {
      items?: unknown;
      counts?: Partial<Record<PlanItemKind, number>>;
    } | null;
    if (!end || end.items !== this.items)
      this.fail(
        `${this.items} items read where the record says ${String(end?.items)} (the record is damaged)`,
      );
    this.header!.counts = end.counts ?? {};
    this.ended = true;
  }
}

/** Reads a whole record from its chunks (a convenience over `BuildRecordReader`). */
export function readBuildRecord(
  chunks: Iterable<string>,
): Baseline & { header: BuildRecordHeader } {
  const reader = new BuildRecordReader();
  for (const c of chunks) reader.push(c);
  return reader.end();
}
