/**
 * The identity cells of some items of a build record (version 2 or 3), read again from the record: a
 * baseline read with `identities: 'on-demand'` keeps no text, and a plan needs the cells of the
 * items it writes again (the ones the feed dropped). Two passes over the record: the first notes
 * which texts those items name, the second keeps only those texts and puts the cells together.
 * What is held is in proportion to the items asked for, not to the record.
 */
import { droppedBaselineItems } from './baseline.ts';
import { PLAN_ITEM_KINDS, PLAN_KIND_SPECS, type PlanItemKind } from './kinds.ts';
import { digit36, forEachLine, inlineCellEnd, unescapeText } from './record.ts';

/** Reads a record's text piece by piece with `push` (once per call of the function given). */
export type RecordPasses = (push: (text: string) => void) => void;

/** A text's key: its part of the record and its index there. */
function textKey(part: number, index: number): number {
  return part * 0x1_0000_0000 + index;
}

/**
 * A text of an `S` line or a cell, unescaped, as a string of its own: a slice of a piece would keep the
 * whole piece (a megabyte) alive for the few texts kept from it.
 */
function ownText(s: string): string {
  return s.includes('\\') ? unescapeText(s) : ownCopy(s);
}

/** `s` copied out of the string it was sliced from (V8 keeps a slice's parent alive). */
function ownCopy(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

/** One pass's reading state. */
class IdentityPass {
  private carry = '';
  private part = 0;
  private texts = 0;
  private kind: PlanItemKind | undefined;
  private identityLength = 0;
  /** The place's cells: text indices, or texts written in place (escaped, as sliced). */
  private place: Array<number | string> = [];
  private ordinal = 0;
  private next = 0;
  private header = true;
  private at = 0;

  constructor(
    private readonly wanted: Int32Array,
    /** First pass: the texts the wanted items name. */
    private readonly need: Set<number>,
    /** Second pass: the kept texts, and the items' cells. */
    private readonly kept: Map<number, string> | undefined,
    private readonly out: Map<number, string[]>,
  ) {}

  push(text: string): void {
    this.carry = forEachLine(this.carry, text, this.onLine);
  }

  private readonly onLine = (s: string, from: number, to: number): void => this.line(s, from, to);

  end(): void {
    if (this.carry !== '') this.line(this.carry, 0, this.carry.length);
    this.carry = '';
    if (this.next < this.wanted.length)
      throw new Error('The build record changed while it was read (items missing)');
  }

  private number(s: string, from: number, to: number): number {
    let v = 0;
    let p = from;
    for (; p < to; p++) {
      const d = digit36(s.charCodeAt(p));
      if (d < 0) break;
      v = v * 36 + d;
    }
    this.at = p;
    return v;
  }

  /**
   * The cell at s[from…): a text index, or a text written in place, escaped (`this.at`: where
   * it ended).
   */
  private cell(s: string, from: number, to: number): number | string {
    if (s.charCodeAt(from) !== 39 /* ' */) return this.number(s, from, to);
    this.at = inlineCellEnd(s, from + 1, to);
    return s.slice(from + 1, this.at);
  }

  private line(s: string, from: number, to: number): void {
    if (this.header) {
      this.header = false;
      return;
    }
    const tag = s.charCodeAt(from);
    if (tag === 83 /* S */) {
      const key = textKey(this.part, this.texts++);
      if (this.kept && this.need.has(key)) this.kept.set(key, ownText(s.slice(from + 1, to)));
    } else if (tag === 84 /* T */) {
      this.part++;
      this.texts = 0;
      this.kind = undefined;
    } else if (tag === 75 /* K */) {
      this.kind = s.slice(from + 1, to) as PlanItemKind;
      if (!PLAN_ITEM_KINDS.includes(this.kind)) throw new Error('The build record is damaged');
      this.identityLength = PLAN_KIND_SPECS[this.kind].identity.length;
      this.place = [];
    } else if (tag === 80 /* P */) {
      const place: Array<number | string> = [];
      let p = from + 1;
      while (p < to) {
        place.push(this.cell(s, p, to));
        p = this.at + 1;
      }
      this.place = place;
    } else if (digit36(tag) >= 0 || tag === 45 /* - */) {
      const o = this.ordinal++;
      if (this.next < this.wanted.length && this.wanted[this.next] === o) {
        this.next++;
        this.item(o, s, from, to);
      }
    }
  }

  /** A wanted item: its texts noted (first pass), or its cells put together (second). */
  private item(o: number, s: string, from: number, to: number): void {
    // The line change, the status, the contents: three fields before the cells.
    let p = s.indexOf(',', from);
    p = s.indexOf(',', p + 1);
    const contentsEnd = s.indexOf(',', p + 1);
    p = contentsEnd < 0 || contentsEnd > to ? to : contentsEnd;
    const refs: Array<number | string> = [...this.place];
    while (p < to) {
      p++;
      const c = s.charCodeAt(p);
      if (p >= to || c === 44) refs.push(-1);
      else if (c === 42 /* * */) {
        const run = this.number(s, p + 1, to);
        for (let k = 0; k < run && refs.length < this.identityLength; k++) refs.push(-1);
        p = this.at;
      } else {
        refs.push(this.cell(s, p, to));
        p = this.at;
      }
    }
    if (!this.kept) {
      for (const r of refs)
        if (typeof r === 'number' && r >= 0) this.need.add(textKey(this.part, r));
      return;
    }
    this.out.set(
      o,
      refs.map((r) =>
        typeof r === 'string'
          ? ownText(r)
          : r < 0
            ? ''
            : (this.kept!.get(textKey(this.part, r)) ?? ''),
      ),
    );
  }
}

/**
 * The identity cells of the record's items at the ordinals `wanted` (ascending): the order a
 * `BuildRecordReader` gave them as baseline indices. `passes` reads the record (a version 2
 * one: an on-demand baseline is only made from those) from its start each time it is called.
 */
export function readRecordIdentities(
  wanted: Int32Array,
  passes: RecordPasses,
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (wanted.length === 0) return out;
  const need = new Set<number>();
  const first = new IdentityPass(wanted, need, undefined, out);
  passes((text) => first.push(text));
  first.end();
  const second = new IdentityPass(wanted, need, new Map(), out);
  passes((text) => second.push(text));
  second.end();
  return out;
}

/**
 * The baseline items a plan may write again (not made by the new build, the client's, not
 * removed): the items whose identities an on-demand baseline loads (`readRecordIdentities`).
 */
export function baselineItemsToLoad(plan: {
  baseline: {
    size: number;
    isDroppable(i: number): boolean;
    statusOf(i: number): string;
  };
  seen: { has(i: number): boolean };
}): Int32Array {
  return Int32Array.from(droppedBaselineItems(plan.baseline, plan.seen));
}
