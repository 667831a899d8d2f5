/** The reported items of an `adloom generate` run: adloom-report.csv and the summary's part. */
import { formatCsvLine, type RowIssue } from '@adloom/engine';
import type { OutputSink } from './files.ts';

/** Items of each kind the summary lists. */
export const MAX_LISTED_ISSUES = 20;

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** An `IssueReport`'s counts as data (see `IssueReport.tallies`). */
export interface ReportTallies {
  count: number;
  skipped: TallyData;
  cleaned: TallyData;
  warning: TallyData;
}

/** The columns of adloom-report.csv. */
const REPORT_HEADERS = ['Kind', 'Output', 'Line', 'Code', 'Message'];

/** A `KindTally` as data (structured-cloneable). */
export interface TallyData {
  count: number;
  hasTemplateItems: boolean;
  fromTemplates: RowIssue[];
  fromRows: RowIssue[];
  rowBits: Uint32Array;
}

/** Set bits of a 32-bit word. */
function bitCount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The summary's part for one kind of item: its count and what it lists, not every item. */
class KindTally {
  count = 0;
  /** The first items not bound to a row (template problems), and the first bound to one. */
  readonly fromTemplates: RowIssue[] = [];
  readonly fromRows: RowIssue[] = [];
  hasTemplateItems = false;
  /** The feed rows with an item: one bit per row number (a Set of a million numbers holds 50 MB). */
  private rowBits: Uint32Array;
  rowsAffected = 0;

  constructor(rowCount: number) {
    this.rowBits = new Uint32Array((rowCount >>> 5) + 1);
  }

  /** Adds the items of `later` (a tally of items reported after this one's, as another thread sent it). */
  merge(later: TallyData): void {
    this.count += later.count;
    this.hasTemplateItems ||= later.hasTemplateItems;
    for (const i of later.fromTemplates)
      if (this.fromTemplates.length < MAX_LISTED_ISSUES) this.fromTemplates.push(i);
    for (const i of later.fromRows)
      if (this.fromRows.length < MAX_LISTED_ISSUES) this.fromRows.push(i);
    const bits = later.rowBits;
    if (bits.length > this.rowBits.length) {
      const grown = new Uint32Array(bits.length);
      grown.set(this.rowBits);
      this.rowBits = grown;
    }
    let rows = 0;
    for (let w = 0; w < this.rowBits.length; w++) {
      const word = ((this.rowBits[w] as number) | (bits[w] ?? 0)) >>> 0;
      this.rowBits[w] = word;
      rows += bitCount(word);
    }
    this.rowsAffected = rows;
  }

  /** What `merge` needs, to send to another thread. */
  data(): TallyData {
    return {
      count: this.count,
      hasTemplateItems: this.hasTemplateItems,
      fromTemplates: this.fromTemplates,
      fromRows: this.fromRows,
      rowBits: this.rowBits,
    };
  }

  add(i: RowIssue): void {
    this.count++;
    if (i.rowNumber === 0) {
      this.hasTemplateItems = true;
      if (this.fromTemplates.length < MAX_LISTED_ISSUES) this.fromTemplates.push(i);
      return;
    }
    if (this.fromRows.length < MAX_LISTED_ISSUES) this.fromRows.push(i);
    const n = i.rowNumber;
    const word = n >>> 5;
    if (word >= this.rowBits.length) {
      // A row number past the feed's end (not expected): the bit set grows to hold it.
      const grown = new Uint32Array(2 * word + 1);
      grown.set(this.rowBits);
      this.rowBits = grown;
    }
    const bit = 1 << (n & 31);
    if ((this.rowBits[word] as number) & bit) return;
    this.rowBits[word] = (this.rowBits[word] as number) | bit;
    this.rowsAffected++;
  }
}

/**
 * The reported items of a run: each written to adloom-report.csv as it comes (when the report is
 * written), and counted for the summary, which lists only the first items of each kind. A run
 * that warns once per row of a million-row feed then holds no item after it is written.
 */
export class IssueReport {
  /** Items reported so far. */
  count = 0;
  private readonly kinds: Record<RowIssue['kind'], KindTally>;
  private readonly cells = ['', '', '', '', ''];

  /**
   * `out`: the report's sink (undefined: not written); `lineOfRow`: the physical feed line of a
   * row number; `rowCount`: the feed's rows; `header`: false for a part of a report, whose
   * lines another report takes (`merge`).
   */
  constructor(
    private readonly out: OutputSink | undefined,
    private readonly lineOfRow: (rowNumber: number) => number,
    rowCount: number,
    header = true,
  ) {
    this.kinds = {
      skipped: new KindTally(rowCount),
      cleaned: new KindTally(rowCount),
      warning: new KindTally(rowCount),
    };
    if (header) out?.text(formatCsvLine(REPORT_HEADERS));
  }

  /** The tallies, to send to another thread (see `merge`). */
  tallies(): ReportTallies {
    return {
      count: this.count,
      skipped: this.kinds.skipped.data(),
      cleaned: this.kinds.cleaned.data(),
      warning: this.kinds.warning.data(),
    };
  }

  /**
   * Takes the items of a report part made after this report's items (by the ads' thread): its
   * tallies, and its lines, which `lines` hands over as bytes in order.
   */
  merge(later: ReportTallies, lines: Iterable<Uint8Array>): void {
    this.count += later.count;
    this.kinds.skipped.merge(later.skipped);
    this.kinds.cleaned.merge(later.cleaned);
    this.kinds.warning.merge(later.warning);
    for (const bytes of lines) this.out?.bytes(bytes);
  }

  add(i: RowIssue): void {
    this.count++;
    this.kinds[i.kind].add(i);
    if (!this.out) return;
    const cells = this.cells;
    cells[0] = i.kind;
    cells[1] = i.output;
    cells[2] = i.rowNumber ? String(this.lineOfRow(i.rowNumber)) : '';
    cells[3] = i.code;
    cells[4] = i.message;
    // The report is for a spreadsheet: cells starting with = + - @ get an apostrophe.
    this.out.text(formatCsvLine(cells, true));
  }

  /** The summary's lines on the items: per kind the count, their sources and the first items. */
  summaryLines(): string[] {
    const lines: string[] = [];
    const where = (i: RowIssue): string =>
      i.rowNumber ? `line ${this.lineOfRow(i.rowNumber)}` : 'template';
    for (const [kind, title] of [
      ['skipped', 'Skipped'],
      ['cleaned', 'Cleaned'],
      ['warning', 'Warnings'],
    ] as const) {
      const tally = this.kinds[kind];
      if (tally.count === 0) continue;
      const sources = [
        ...(tally.rowsAffected ? [plural(tally.rowsAffected, 'feed row')] : []),
        ...(tally.hasTemplateItems ? ['the templates'] : []),
      ];
      lines.push(`${title}: ${plural(tally.count, 'item')} from ${sources.join(' and ')}`);
      // Template problems (not bound to a row) first: they concern every row.
      const listed = [...tally.fromTemplates, ...tally.fromRows].slice(0, MAX_LISTED_ISSUES);
      for (const i of listed) lines.push(`  ${where(i)}, ${i.output}: ${i.message}`);
      if (tally.count > MAX_LISTED_ISSUES)
        lines.push(`  ... and ${tally.count - MAX_LISTED_ISSUES} more (see adloom-report.csv)`);
    }
    if (this.count === 0) lines.push('No rows skipped or cleaned.');
    return lines;
  }
}
