/**
 * The lines of a version 1 build record (until 2026-12-07): one JSON entry per line after the
 * header, `{"kind"}`, `{"place"}` and `{"field"}` marks and item arrays `[line change, status,
 * contents, identity cells after the place]` (a run of empty cells as its length), then
 * `],"counts":{…}}`. Kept so the records the server and earlier command runs hold still plan.
 */
import type { BaselineBuilder } from './baseline.ts';
import { ITEM_STATUSES, PLAN_ITEM_KINDS, PLAN_KIND_SPECS, type PlanItemKind } from './kinds.ts';

/** How a version 1 header line ends. */
export const V1_ITEMS_START = ',"items":[';

/** Reads the lines after a version 1 header into a baseline builder. */
export class RecordV1Lines {
  private kind: PlanItemKind | undefined;
  private place: string[] = [];
  private lastLine = 0;
  private readonly fieldIndices: number[] = [];
  /** The per-kind counts, once the last line is read. */
  counts: Partial<Record<PlanItemKind, number>> | undefined;

  constructor(
    private readonly builder: BaselineBuilder,
    private readonly fail: (message: string) => never,
  ) {}

  /** Reads one line (without its line break). */
  line(line: string): void {
    if (line.startsWith('],"counts":')) {
      const tail = parseJson(`{${line.slice(2)}`, () => this.fail('unreadable counts')) as {
        counts?: Partial<Record<PlanItemKind, number>>;
      };
      this.counts = tail.counts ?? {};
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

/** `JSON.parse`, or `onError` when the text is not JSON. */
export function parseJson(text: string, onError: () => never): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return onError();
  }
}
