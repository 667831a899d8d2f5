/**
 * The build record, `adloom-build.json`: what a build exported for a client, so the next build
 * can be planned against it. A JSON document written and read as a stream of lines: the header
 * on the first line, then one entry per line (a content field's name, an item's place, an item),
 * then the per-kind counts. Items are compact arrays; the place cells (campaign, ad group) are
 * written once for the items that share them; contents are 32-bit hashes per field.
 *
 *   {"format":"adloom-build","version":1,"created":"…","client":"…","feed":"…","templates":[…],"label":"adloom","items":[
 *   {"kind":"keyword"}
 *   ,{"place":["Shoes - Nike","Nike Air Max Broad"]}
 *   ,[2,0,0,"nike air max","Broad"]          line change, status code, contents, identity after the place
 *                                              (a run of n empty cells written as the number n)
 *   ,{"field":"finalurl"}                      names content field 0
 *   ,[1,0,[0,-1534]…]                          contents: field index, hash, field index, hash…
 *   ],"counts":{"keyword":1,…}}
 */
import type { ExportTable } from '../formats/exportFormat.ts';
import { BaselineBuilder, type Baseline } from './baseline.ts';
import {
  ITEM_STATUSES,
  PLAN_ITEM_KINDS,
  PLAN_KIND_SPECS,
  type ItemStatus,
  type PlanItemKind,
} from './kinds.ts';
import { DEFAULT_CLIENT_LABEL, hashField, readBuildItems, type BuildItem } from './items.ts';

/** The record's format name and version (the first line's `format` and `version`). */
export const BUILD_RECORD_FORMAT = 'adloom-build';
export const BUILD_RECORD_VERSION = 1;

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

/** Characters gathered before a chunk is handed over. */
const CHUNK_CHARS = 1 << 16;

/** Writes a record's text in chunks. */
export class BuildRecordWriter {
  private chunk = '';
  private readonly out: string[] = [];
  private kind: PlanItemKind | undefined;
  private place: string[] = [];
  private lastLine = 0;
  private entries = 0;
  private readonly fields = new Map<string, number>();
  private readonly counts: Partial<Record<PlanItemKind, number>> = {};

  constructor(info: BuildRecordInfo) {
    const head = JSON.stringify({
      format: BUILD_RECORD_FORMAT,
      version: BUILD_RECORD_VERSION,
      created: info.created,
      client: info.client,
      feed: info.feed,
      templates: info.templates,
      label: info.label,
    });
    this.chunk = `${head.slice(0, -1)},"items":[`;
  }

  private entry(text: string): void {
    this.chunk += this.entries++ === 0 ? `\n${text}` : `\n,${text}`;
    if (this.chunk.length >= CHUNK_CHARS) {
      this.out.push(this.chunk);
      this.chunk = '';
    }
  }

  /** Adds an item. */
  add(item: RecordItem): void {
    const spec = PLAN_KIND_SPECS[item.kind];
    if (item.kind !== this.kind) {
      this.kind = item.kind;
      this.place = [];
      this.entry(JSON.stringify({ kind: item.kind }));
    }
    const n = spec.placeCells;
    let samePlace = this.place.length === n;
    for (let c = 0; c < n && samePlace; c++)
      if (this.place[c] !== item.identity[c]) samePlace = false;
    if (!samePlace) {
      this.place = item.identity.slice(0, n);
      this.entry(JSON.stringify({ place: this.place }));
    }
    let content = '0';
    if (item.fields.length > 0) {
      const parts: number[] = [];
      for (let f = 0; f < item.fields.length; f++) {
        const name = item.fields[f]!;
        let index = this.fields.get(name);
        if (index === undefined) {
          index = this.fields.size;
          this.fields.set(name, index);
          this.entry(JSON.stringify({ field: name }));
        }
        parts.push(index, item.hashes[f]!);
      }
      content = `[${parts.join(',')}]`;
    }
    let text = `[${item.line - this.lastLine},${ITEM_STATUSES.indexOf(item.status)},${content}`;
    // A run of two or more empty cells (an ad's unused headlines and pins) is written as its length.
    for (let c = n; c < item.identity.length; c++) {
      const cell = item.identity[c]!;
      if (cell === '' && item.identity[c + 1] === '') {
        let run = 1;
        while (item.identity[c + run] === '') run++;
        text += `,${run}`;
        c += run - 1;
      } else text += `,${JSON.stringify(cell)}`;
    }
    this.entry(`${text}]`);
    this.lastLine = item.line;
    this.counts[item.kind] = (this.counts[item.kind] ?? 0) + 1;
  }

  /** The chunks made since the last call. */
  take(): string[] {
    return this.out.splice(0, this.out.length);
  }

  /** The last chunks, with the counts. */
  end(): string[] {
    const counts: Partial<Record<PlanItemKind, number>> = {};
    for (const k of PLAN_ITEM_KINDS) if (this.counts[k]) counts[k] = this.counts[k];
    this.out.push(`${this.chunk}\n],"counts":${JSON.stringify(counts)}}\n`);
    this.chunk = '';
    return this.take();
  }
}

/** A build item's contents as the record keeps them: each field's hash. */
export function hashItemFields(item: Pick<BuildItem, 'fields' | 'values'>): number[] {
  const hashes: number[] = [];
  for (let f = 0; f < item.fields.length; f++)
    hashes.push(hashField(item.fields[f]!, item.values[f]!));
  return hashes;
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
    writer.add({ ...item, hashes: hashItemFields(item) });
    yield* writer.take();
  }
  for (const item of options.extra?.() ?? []) {
    writer.add(item);
    yield* writer.take();
  }
  yield* writer.end();
}

/** Reads a record's text, chunk by chunk, into a baseline. */
export class BuildRecordReader {
  private carry = '';
  private lineNumber = 0;
  private header: BuildRecordHeader | undefined;
  private ended = false;
  private readonly builder = new BaselineBuilder('record');
  private kind: PlanItemKind | undefined;
  private place: string[] = [];
  private lastLine = 0;
  private readonly fieldIndices: number[] = [];

  /** Reads the next piece of the record's text. */
  push(text: string): void {
    let s = this.carry + text;
    let from = 0;
    for (;;) {
      const nl = s.indexOf('\n', from);
      if (nl < 0) break;
      this.line(s.slice(from, nl));
      from = nl + 1;
    }
    s = s.slice(from);
    this.carry = s;
  }

  /** The baseline of every item read; throws when the record is cut or is not a record. */
  end(): Baseline & { header: BuildRecordHeader } {
    if (this.carry.trim() !== '') this.line(this.carry);
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

  private line(raw: string): void {
    this.lineNumber++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!this.header) {
      if (!line.endsWith(',"items":[')) this.fail('not an Adloom build record');
      const head = parseJson(`${line.slice(0, -',"items":['.length)}}`, () =>
        this.fail('not an Adloom build record'),
      ) as Partial<BuildRecordHeader>;
      if (head.format !== BUILD_RECORD_FORMAT) this.fail('not an Adloom build record');
      if (head.version !== BUILD_RECORD_VERSION)
        this.fail(`format version ${String(head.version)} is not one this version reads`);
      this.header = {
        format: BUILD_RECORD_FORMAT,
        version: BUILD_RECORD_VERSION,
        created: String(head.created ?? ''),
        client: String(head.client ?? ''),
        feed: String(head.feed ?? ''),
        templates: Array.isArray(head.templates) ? head.templates.map(String) : [],
        label: String(head.label ?? DEFAULT_CLIENT_LABEL),
        counts: {},
      };
      return;
    }
    if (this.ended) {
      if (line.trim() !== '') this.fail('text after the end of the record');
      return;
    }
    if (line.startsWith('],"counts":')) {
      const tail = parseJson(`{${line.slice(2)}`, () => this.fail('unreadable counts')) as {
        counts?: Partial<Record<PlanItemKind, number>>;
      };
      this.header.counts = tail.counts ?? {};
      this.ended = true;
      return;
    }
    const text = line.startsWith(',') ? line.slice(1) : line;
    const entry = parseJson(text, () => this.fail('unreadable entry')) as unknown;
    if (Array.isArray(entry)) this.item(entry);
    else if (entry && typeof entry === 'object') this.mark(entry as Record<string, unknown>);
    else this.fail('unreadable entry');
  }

  private mark(entry: Record<string, unknown>): void {
    if (typeof entry.kind === 'string') {
      if (!(PLAN_ITEM_KINDS as readonly string[]).includes(entry.kind))
        this.fail(`unknown kind "${entry.kind}"`);
      this.kind = entry.kind as PlanItemKind;
      this.place = [];
    } else if (Array.isArray(entry.place)) {
      this.place = entry.place.map(String);
    } else if (typeof entry.field === 'string') {
      this.fieldIndices.push(this.builder.fieldIndex(entry.field));
    } else this.fail('unknown entry');
  }

  private item(entry: unknown[]): void {
    const kind = this.kind;
    if (!kind) return this.fail('an item before its kind');
    const spec = PLAN_KIND_SPECS[kind];
    const [lineDelta, statusCode, content] = entry;
    if (typeof lineDelta !== 'number' || typeof statusCode !== 'number')
      this.fail('unreadable item');
    const status = ITEM_STATUSES[statusCode];
    if (!status) this.fail('unknown status');
    if (this.place.length !== spec.placeCells) this.fail('an item without its place');
    const identity = [...this.place];
    for (let c = 3; c < entry.length; c++) {
      const cell = entry[c];
      if (typeof cell === 'number') for (let k = 0; k < cell && k < 64; k++) identity.push('');
      else identity.push(String(cell));
    }
    if (identity.length !== spec.identity.length) this.fail('an item with missing cells');
    const fieldIndices: number[] = [];
    const hashes: number[] = [];
    if (Array.isArray(content))
      for (let p = 0; p + 1 < content.length; p += 2) {
        const f = this.fieldIndices[Number(content[p])];
        if (f === undefined) this.fail('a content field not named before');
        fieldIndices.push(f);
        hashes.push(Number(content[p + 1]) | 0);
      }
    this.lastLine += lineDelta;
    this.builder.add({
      kind,
      identity,
      status,
      line: this.lastLine,
      fieldIndices,
      hashes,
      owned: true,
      droppable: true,
    });
  }
}

function parseJson(text: string, onError: () => never): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return onError();
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
