/**
 * The lines of the Microsoft bulk file's records: its columns, a record's CSV line from its
 * cells, and the parts made once and reused for the runs of keywords and ads of one ad group
 * (their first cells, the commas after their last, an ad's headline and description lists).
 * The lists and paths of an ad are checked in the same pass that writes them (`rsaProblem`).
 */
import { formatCsvCell } from '../csv.ts';
import {
  MICROSOFT_DOMAIN_AND_PATHS_MAX_CHARS,
  MICROSOFT_URL_MAX_CHARS,
  GOOGLE_ONLY_INSERTION,
  cell,
  hostOf,
  pathProblem,
  pinOf,
  widthOf,
} from './microsoftRules.ts';

/** The bulk file's columns: every record's fields that Adloom fills, under one header. */
export const MICROSOFT_BULK_HEADERS: readonly string[] = [
  'Type',
  'Status',
  'Id',
  'Parent Id',
  'Campaign',
  'Ad Group',
  'Name',
  'Budget',
  'Budget Type',
  'Campaign Type',
  'Language',
  'Target',
  'Keyword',
  'Match Type',
  'Final Url',
  'Headline',
  'Description',
  'Path 1',
  'Path 2',
  'Sitelink Extension Link Text',
  'Sitelink Extension Description1',
  'Sitelink Extension Description2',
  'Callout Text',
  'Structured Snippet Header',
  'Structured Snippet Values',
];
/** Each column's index in a record's cells, by its header. */
export const C = Object.fromEntries(MICROSOFT_BULK_HEADERS.map((h, i) => [h, i])) as Record<
  string,
  number
>;

/**
 * The columns of a file that carries the client's label: the bulk file's, then `Label` (the
 * Label record's name; label.md).
 */
export const MICROSOFT_LABELLED_HEADERS: readonly string[] = [...MICROSOFT_BULK_HEADERS, 'Label'];

/**
 * The columns of a file, by what it holds: the extensions' columns only when the build has
 * extension tables, `Label` last when it carries the client's label. Microsoft reads a bulk
 * file's columns by their headers, in any order, and its record pages' examples carry only the
 * columns their records use; every line has a comma per column, so a column no line fills costs
 * a comma on each of millions of lines.
 */
export function microsoftColumns(extensions: boolean, labelled: boolean): readonly string[] {
  const columns = extensions
    ? MICROSOFT_BULK_HEADERS
    : MICROSOFT_BULK_HEADERS.slice(0, C['Sitelink Extension Link Text']);
  return labelled ? [...columns, 'Label'] : columns;
}

/** The record types that take the client's label, as indices of `LABEL_ASSOCIATION_TYPES`. */
export const Labelled = { Campaign: 0, AdGroup: 1, Keyword: 2, Ad: 3 } as const;
export type Labelled = (typeof Labelled)[keyof typeof Labelled];
/** Their label association record types (campaign-label.md, ad-group-label.md...). */
export const LABEL_ASSOCIATION_TYPES: readonly string[] = [
  'Campaign Label',
  'Ad Group Label',
  'Keyword Label',
  'Responsive Search Ad Label',
];

/** An asset text's facts (`AssetList`): a line break, a Google-only insertion, not plain JSON. */
const HAS_LINE_BREAK = 1;
const HAS_GOOGLE_ONLY = 2;
const NOT_PLAIN_JSON = 4;

/**
 * One list of an RSA table (headlines or descriptions): its problem for Microsoft and its JSON
 * cell, from one scan of each text. Each place of the list keeps its last text's facts and its
 * last JSON item: an ad's texts repeat from row to row (a fixed headline, the same pins), and a
 * repeated text is compared, not scanned, parsed or written again.
 */
export class AssetList {
  private readonly texts: string[];
  private readonly flags: number[];
  private readonly widths: number[];
  private readonly pinCells: string[];
  private readonly pins: number[];
  private readonly itemTexts: string[];
  private readonly itemPins: string[];
  private readonly items: string[];

  constructor(
    /** Each place's text and position columns (-1: none). */
    private readonly list: readonly [number, number][],
    /** The noun of the report ('headline') and of `pinnedField` ('Headline'). */
    private readonly noun: string,
    private readonly field: string,
    private readonly min: number,
    private readonly max: number,
    private readonly maxPin: number,
  ) {
    const n = list.length;
    // No text is '' here: an empty text is passed over before its facts are asked.
    this.texts = new Array<string>(n).fill('');
    this.flags = new Array<number>(n).fill(0);
    this.widths = new Array<number>(n).fill(0);
    this.pinCells = new Array<string>(n).fill('');
    this.pins = new Array<number>(n).fill(0);
    this.itemTexts = new Array<string>(n).fill('');
    this.itemPins = new Array<string>(n).fill('');
    this.items = new Array<string>(n).fill('');
  }

  /** Scans `text` of place `k` unless it is that place's last text. */
  private facts(k: number, text: string): void {
    if (this.texts[k] === text) return;
    let flags = 0;
    let slow = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20) {
        flags |= NOT_PLAIN_JSON;
        if (c === 10 || c === 13) flags |= HAS_LINE_BREAK;
      } else if (c === 0x22 || c === 0x5c) flags |= NOT_PLAIN_JSON;
      else if (c === 0x7b) slow = true;
      else if (c >= 0x1100) {
        slow = true;
        if (c >= 0xd800 && c <= 0xdfff) flags |= NOT_PLAIN_JSON;
      }
    }
    // A brace or a character that may be wide: measured as Microsoft counts.
    if (slow && text.includes('{') && GOOGLE_ONLY_INSERTION.test(text)) flags |= HAS_GOOGLE_ONLY;
    this.texts[k] = text;
    this.flags[k] = flags;
    this.widths[k] = slow ? widthOf(text) : text.length;
  }

  /** Place `k`'s position in `pinCell` as a number (0 for none). */
  private pin(k: number, pinCell: string): number {
    if (this.pinCells[k] !== pinCell) {
      this.pinCells[k] = pinCell;
      this.pins[k] = pinOf(pinCell);
    }
    return this.pins[k]!;
  }

  /**
   * What is wrong with the list in `row` for Microsoft, or undefined: how many, their width, line
   * breaks, Google-only insertions, and pins that leave a position empty.
   */
  problem(row: readonly string[]): string | undefined {
    const { list, noun, max, maxPin } = this;
    let n = 0;
    let pinned = 0;
    let unpinned = false;
    for (let k = 0; k < list.length; k++) {
      const text = cell(row, list[k]![0]);
      if (text === '') continue;
      n++;
      this.facts(k, text);
      const flags = this.flags[k]!;
      if ((flags & HAS_LINE_BREAK) !== 0) return `a ${noun} holds a line break`;
      if ((flags & HAS_GOOGLE_ONLY) !== 0)
        return `${noun} "${text}" uses a Google-only insertion Microsoft does not read`;
      if (this.widths[k]! > max)
        return `${noun} "${text}" is longer than Microsoft's ${max} (wide characters and emoji count 2)`;
      const pin = this.pin(k, cell(row, list[k]![1]));
      if (pin >= 1 && pin <= maxPin) pinned |= 1 << pin;
      else unpinned = true;
    }
    if (n < this.min) return `Microsoft needs at least ${this.min} ${noun}s`;
    if (!unpinned && pinned !== (1 << (maxPin + 1)) - 2)
      return `every ${noun} is pinned and some position has none`;
    return undefined;
  }

  /**
   * The list's cell in `row`, CSV-quoted: the JSON's quotes come doubled, as the CSV cell needs
   * them (the Responsive Search Ad page's example: `"[{""text"":""Contoso"",…}]"`).
   */
  cell(row: readonly string[]): string {
    const { list } = this;
    let csv = '"[';
    let first = true;
    for (let k = 0; k < list.length; k++) {
      const text = cell(row, list[k]![0]);
      if (text === '') continue;
      if (!first) csv += ',';
      first = false;
      const pinCell = cell(row, list[k]![1]);
      if (this.itemTexts[k] !== text || this.itemPins[k] !== pinCell) {
        this.facts(k, text);
        const json =
          (this.flags[k]! & NOT_PLAIN_JSON) === 0
            ? `""${text}""`
            : JSON.stringify(text).replaceAll('"', '""');
        const pin = this.pin(k, pinCell);
        this.itemTexts[k] = text;
        this.itemPins[k] = pinCell;
        this.items[k] =
          pin >= 1
            ? `{""text"":${json},""pinnedField"":""${this.field}${pin}""}`
            : `{""text"":${json}}`;
      }
      csv += this.items[k]!;
    }
    return csv + ']"';
  }
}

/**
 * A path column of an RSA table: the last text read, its width, problem and CSV cell (kept:
 * an ad's paths repeat from row to row).
 */
export class PathColumn {
  private text: string | undefined;
  width = 0;
  problem: string | undefined;
  csv = '';

  constructor(private readonly at: number) {}

  /** The path of `row` (its facts above). */
  read(row: readonly string[]): string {
    const p = cell(row, this.at);
    if (p !== this.text) {
      this.text = p;
      this.width = widthOf(p);
      this.problem = pathProblem(p, this.width);
      this.csv = formatCsvCell(p);
    }
    return p;
  }
}

/**
 * What is wrong with an RSA row for Microsoft, or undefined. A row without a problem has had
 * its paths read: their `csv` is this row's.
 */
export function rsaProblem(
  row: readonly string[],
  heads: AssetList,
  descs: AssetList,
  url: string,
  path1: PathColumn,
  path2: PathColumn,
): string | undefined {
  const problem = heads.problem(row) ?? descs.problem(row);
  if (problem !== undefined) return problem;
  const host = hostOf(url);
  if (host === '') return 'Microsoft needs a final URL starting with http:// or https://';
  if (url.length > MICROSOFT_URL_MAX_CHARS)
    return `the final URL is longer than Microsoft's ${MICROSOFT_URL_MAX_CHARS} characters`;
  const p1 = path1.read(row);
  const p2 = path2.read(row);
  const pathWrong = path1.problem ?? path2.problem;
  if (pathWrong !== undefined) return pathWrong;
  if (p2 !== '' && p1 === '') return 'path 2 without path 1';
  if (host.length + path1.width + path2.width > MICROSOFT_DOMAIN_AND_PATHS_MAX_CHARS)
    return `the final URL's domain with the paths is longer than Microsoft's ${MICROSOFT_DOMAIN_AND_PATHS_MAX_CHARS} characters`;
  return undefined;
}

/** `COMMAS[n]`: n commas, the cells skipped between two written ones. */
export const COMMAS: readonly string[] = Array.from(
  { length: MICROSOFT_BULK_HEADERS.length + 1 },
  (_, n) => ','.repeat(n),
);

/**
 * A record's CSV line: only its filled cells are formatted (a record fills a few of the file's
 * columns), and each is emptied again for the next record.
 */
export function bulkLine(cells: string[]): string {
  let line = cells[0]!;
  cells[0] = '';
  let last = 0;
  const n = cells.length;
  for (let i = 1; i < n; i++) {
    const v = cells[i]!;
    if (v === '') continue;
    line += COMMAS[i - last]! + formatCsvCell(v);
    cells[i] = '';
    last = i;
  }
  return line + COMMAS[n - 1 - last]! + '\r\n';
}

/**
 * The first six cells of a record's line (Type, Status, Id, Parent Id, Campaign, Ad Group), made
 * once for a run of records of one place: keywords and ads come grouped by ad group. The Id cell
 * is empty (`prefix`), or a key given per record (`withId`, for a record that takes a label).
 */
export class RecordPrefixes {
  private type = '';
  private status = '';
  private parent: string | undefined;
  private campaign = '';
  private adGroup = '';
  private group = -1;
  private last = '';
  /** The last prefix's Type and Status cells, and its cells after Id. */
  private head = '';
  private rest = '';

  /** `placeOf(i)`: the Parent Id, Campaign and Ad Group cells of the new ad group of index i. */
  constructor(private readonly placeOf: (i: number) => string) {}

  /**
   * `group`, the index of the record's ad group when it is new in this file (-1: none): its
   * cells are then `placeOf(group)`, the names formatted with the ad group.
   */
  prefix(
    type: string,
    status: string,
    parent: string | undefined,
    campaign: string,
    adGroup: string,
    group: number,
  ): string {
    if (group >= 0) {
      if (group !== this.group || type !== this.type || status !== this.status) {
        this.type = type;
        this.status = status;
        this.group = group;
        this.set(`${type},${status},`, `,${this.placeOf(group)}`);
      }
      return this.last;
    }
    if (
      this.group >= 0 ||
      type !== this.type ||
      status !== this.status ||
      parent !== this.parent ||
      campaign !== this.campaign ||
      adGroup !== this.adGroup ||
      this.last === ''
    ) {
      this.type = type;
      this.status = status;
      this.parent = parent;
      this.campaign = campaign;
      this.adGroup = adGroup;
      this.group = -1;
      this.set(
        `${type},${status},`,
        `,${parent ?? ''},${formatCsvCell(campaign)},${formatCsvCell(adGroup)}`,
      );
    }
    return this.last;
  }

  /** The prefix `prefix` gave last, with `id` in its Id cell. */
  withId(id: string): string {
    return this.head + id + this.rest;
  }

  private set(head: string, rest: string): void {
    this.head = head;
    this.rest = rest;
    this.last = head + rest;
  }
}

/** From Ad Group to Keyword. */
const KEYWORD_GAP = ','.repeat(C.Keyword! - C['Ad Group']!);

/** The ends of the lines made whole (the commas after their last cell, and the line break). */
export interface LineTails {
  /** Each match type with the commas after it. */
  match: ReadonlyMap<string, string>;
  /** After Ad Group (an ad group's line, a label association's). */
  adGroup: string;
  /** After Path 2. */
  rsa: string;
  /** After Parent Id (a label association's). */
  label: string;
}

/** The tails of lines of `columns` columns. */
export function lineTails(columns: number): LineTails {
  const last = columns - 1;
  return {
    match: new Map(
      ['Broad', 'Phrase', 'Exact'].map((m) => [
        m,
        `,${m}${','.repeat(last - C['Match Type']!)}\r\n`,
      ]),
    ),
    adGroup: `${','.repeat(last - C['Ad Group']!)}\r\n`,
    rsa: `${','.repeat(last - C['Path 2']!)}\r\n`,
    label: `${','.repeat(last - C['Parent Id']!)}\r\n`,
  };
}

/** Keyword and negative keyword lines: the prefix of their place, the text, the match type. */
export class KeywordLines {
  private readonly prefixes: RecordPrefixes;

  constructor(
    placeOf: (i: number) => string,
    private readonly tails: LineTails,
  ) {
    this.prefixes = new RecordPrefixes(placeOf);
  }

  /** The line of a keyword (its Id `id`, or none when ''). */
  line(
    type: string,
    status: string,
    parent: string | undefined,
    campaign: string,
    adGroup: string,
    group: number,
    keyword: string,
    match: string,
    id = '',
  ): string {
    const prefix = this.prefixes.prefix(type, status, parent, campaign, adGroup, group);
    return (
      (id === '' ? prefix : this.prefixes.withId(id)) +
      KEYWORD_GAP +
      formatCsvCell(keyword) +
      this.tails.match.get(match)!
    );
  }
}
