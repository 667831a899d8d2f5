/**
 * The live account as a baseline: a Google Ads Editor export of the account read into items.
 * Editor's own CSV is UTF-16 LE with a BOM and tab-separated; a UTF-8 file with commas (with or
 * without BOM) is read too. Headers are matched ignoring case, spaces and underscores. One file
 * may hold rows of every entity type ("the whole account"), or there may be one file per type.
 * Each row is classed by the columns it fills (Keyword, Ad type, Link Text, Callout text,
 * Header, Asset Group, Ad Group, Campaign). Read in pieces: an export of 100 MB never becomes one
 * string.
 */
import { forEachCsvRecord } from '../csv.ts';
import { ACCOUNT_LEVEL_CAMPAIGN } from '../extensions.ts';
import { type Baseline, BaselineBuilder } from './baseline.ts';
import {
  PLAN_KIND_SPECS,
  isNegativeCriterion,
  normalizeHeader,
  type PlanItemKind,
} from './kinds.ts';
import {
  ColumnMap,
  DEFAULT_CLIENT_LABEL,
  hashField,
  newBuildItem,
  splitLabels,
  type BuildItem,
} from './items.ts';

/** Options of reading an account export. */
export interface AccountExportOptions {
  /** The client's label (default `adloom`): items without it are never changed. */
  label?: string;
}

/** What an account export held besides its items. */
export interface AccountExportSummary {
  /** Rows read (header rows not counted). */
  rows: number;
  /** Rows of entities a build does not make (other ad types, audiences, bids…), left alone. */
  otherRows: number;
}

/** Content columns compared per kind: what Adloom's tables can set (campaigns: every column). */
const ACCOUNT_CONTENT: Partial<Record<PlanItemKind, ReadonlySet<string>>> = {
  'ad-group': new Set(),
  keyword: new Set(['finalurl', 'labels']),
  negative: new Set(),
  'asset-group': new Set(),
  'responsive-search-ad': new Set(['finalurl', 'labels']),
  'performance-max-ad': new Set([
    ...Array.from({ length: 15 }, (_, i) => `headline${i + 1}`),
    ...Array.from({ length: 5 }, (_, i) => `longheadline${i + 1}`),
    ...Array.from({ length: 5 }, (_, i) => `description${i + 1}`),
    'businessname',
    'calltoaction',
    'path1',
    'path2',
    'finalurl',
    'labels',
  ]),
  callout: new Set(),
  sitelink: new Set(['descriptionline1', 'descriptionline2', 'finalurl']),
  'structured-snippet': new Set(),
};

/** The columns of one file of an export. */
class FileColumns {
  readonly at: Map<string, number>;
  readonly maps: Map<PlanItemKind, ColumnMap>;
  constructor(readonly headers: readonly string[]) {
    this.at = new Map();
    headers.forEach((h, i) => {
      const n = normalizeHeader(h);
      if (!this.at.has(n)) this.at.set(n, i);
    });
    this.maps = new Map();
  }
  map(kind: PlanItemKind): ColumnMap {
    let m = this.maps.get(kind);
    if (!m) {
      m = new ColumnMap(PLAN_KIND_SPECS[kind], this.headers, ACCOUNT_CONTENT[kind]);
      this.maps.set(kind, m);
    }
    return m;
  }
  cell(row: readonly string[], name: string): string {
    const i = this.at.get(name);
    return i === undefined ? '' : (row[i] ?? '').trim();
  }
}

/** A campaign held until every location row of the export is read. */
interface HeldCampaign {
  item: BuildItem;
  labelled: boolean;
  locations: Set<string>;
}

/**
 * Decodes the bytes of one file: UTF-16 LE/BE by its BOM, else UTF-8 (its BOM dropped), across
 * pieces (a character cut between two pieces is decoded with the second).
 */
export class TextDecoding {
  private encoding: 'utf-16le' | 'utf-16be' | 'utf-8' | undefined;
  private carry: number[] = [];

  decode(bytes: Uint8Array): string {
    let data = bytes;
    if (this.carry.length > 0) {
      const joined = new Uint8Array(this.carry.length + bytes.length);
      joined.set(this.carry);
      joined.set(bytes, this.carry.length);
      data = joined;
      this.carry = [];
    }
    let start = 0;
    if (!this.encoding) {
      if (data.length < 3) {
        this.carry = [...data];
        return '';
      }
      if (data[0] === 0xff && data[1] === 0xfe) {
        this.encoding = 'utf-16le';
        start = 2;
      } else if (data[0] === 0xfe && data[1] === 0xff) {
        this.encoding = 'utf-16be';
        start = 2;
      } else {
        this.encoding = 'utf-8';
        if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) start = 3;
      }
    }
    return this.encoding === 'utf-8'
      ? this.utf8(data, start)
      : this.utf16(data, start, this.encoding === 'utf-16le');
  }

  /** The bytes left at the end (a cut character), decoded as replacement characters. */
  end(): string {
    if (!this.encoding && this.carry.length > 0) {
      const rest = new Uint8Array(this.carry);
      this.carry = [];
      this.encoding = 'utf-8';
      return this.utf8(rest, rest[0] === 0xef && rest[1] === 0xbb && rest[2] === 0xbf ? 3 : 0);
    }
    const cut = this.carry.length > 0;
    this.carry = [];
    return cut ? '\ufffd' : '';
  }

  private utf16(data: Uint8Array, start: number, little: boolean): string {
    const end = start + ((data.length - start) & ~1);
    const parts: string[] = [];
    const units: number[] = [];
    for (let i = start; i < end; i += 2) {
      units.push(little ? data[i]! | (data[i + 1]! << 8) : (data[i]! << 8) | data[i + 1]!);
      if (units.length === 8192) {
        parts.push(String.fromCharCode(...units));
        units.length = 0;
      }
    }
    if (units.length > 0) parts.push(String.fromCharCode(...units));
    if (end < data.length) this.carry = [data[end]!];
    return parts.join('');
  }

  private utf8(data: Uint8Array, start: number): string {
    const parts: string[] = [];
    const units: number[] = [];
    let i = start;
    const n = data.length;
    while (i < n) {
      const b = data[i]!;
      let cp: number;
      let len: number;
      if (b < 0x80) {
        cp = b;
        len = 1;
      } else if (b >= 0xc2 && b < 0xe0) {
        cp = b & 0x1f;
        len = 2;
      } else if (b >= 0xe0 && b < 0xf0) {
        cp = b & 0x0f;
        len = 3;
      } else if (b >= 0xf0 && b < 0xf5) {
        cp = b & 0x07;
        len = 4;
      } else {
        units.push(0xfffd);
        i++;
        continue;
      }
      if (i + len > n) {
        this.carry = [...data.subarray(i)];
        break;
      }
      let ok = true;
      for (let k = 1; k < len; k++) {
        const c = data[i + k]!;
        if ((c & 0xc0) !== 0x80) {
          ok = false;
          break;
        }
        cp = (cp << 6) | (c & 0x3f);
      }
      if (!ok) {
        units.push(0xfffd);
        i++;
        continue;
      }
      i += len;
      if (cp >= 0x10000) {
        cp -= 0x10000;
        units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else units.push(cp);
      if (units.length >= 8192) {
        parts.push(String.fromCharCode(...units));
        units.length = 0;
      }
    }
    if (units.length > 0) parts.push(String.fromCharCode(...units));
    return parts.join('');
  }
}

/**
 * Reads a Google Ads Editor export of an account into a baseline. Give it each file's bytes
 * (`pushBytes`, in pieces) or text (`pushText`); call `nextFile` between files; then `end`.
 * Items carry their status (`Campaign Status`, `Ad Group Status`, `Status`), whether they carry
 * the client's label (`Labels`, `;`-separated), and the ad's `Ad ID`. Kinds Editor does not label
 * (negatives, assets, asset groups) belong to whoever owns their ad group, else their campaign;
 * account-level assets without a label may be updated but are never paused or removed.
 */
export class AccountExportReader {
  private readonly label: string;
  private readonly builder = new BaselineBuilder('account');
  private readonly known = new Set<string>();
  private readonly campaigns = new Map<string, HeldCampaign>();
  private readonly locations = new Map<string, Set<string>>();
  private decoding = new TextDecoding();
  private text = '';
  private columns: FileColumns | undefined;
  private delimiter = ',';
  /** Per item: whether it carries the label (only kinds that take labels), in item order. */
  private readonly labelled: boolean[] = [];
  private readonly summary: AccountExportSummary = { rows: 0, otherRows: 0 };
  private readonly fieldIndices: number[] = [];
  private readonly hashes: number[] = [];

  constructor(options: AccountExportOptions = {}) {
    this.label = (options.label ?? DEFAULT_CLIENT_LABEL).toLowerCase();
  }

  /** The next piece of the current file's bytes. */
  pushBytes(bytes: Uint8Array): void {
    this.pushText(this.decoding.decode(bytes));
  }

  /** The next piece of the current file's text (decoded by the host). */
  pushText(text: string): void {
    this.text += text;
    this.parse(false);
  }

  /** Ends the current file: the next bytes start another (with its own header). */
  nextFile(): void {
    this.text += this.decoding.end();
    this.parse(true);
    this.decoding = new TextDecoding();
    this.text = '';
    this.columns = undefined;
  }

  /** The baseline of every file read, and what was read. */
  end(): Baseline & { summary: AccountExportSummary } {
    this.nextFile();
    for (const [name, held] of this.campaigns) {
      const ids = new Set([...held.locations, ...(this.locations.get(name) ?? [])]);
      if (ids.size > 0) {
        held.item.fields.push('locationid');
        held.item.values.push([...ids].sort().join(';'));
      }
      this.add(held.item, held.labelled, undefined);
    }
    if (this.known.has('locationid') || this.locations.size > 0) this.known.add('locationid');
    const baseline = this.builder.finish(this.known);
    this.resolveOwnership(baseline);
    const result = baseline as Baseline & { summary: AccountExportSummary };
    Object.defineProperty(result, 'summary', { value: this.summary, enumerable: true });
    return result;
  }

  /** Kinds without labels take their ad group's ownership, else their campaign's. */
  private resolveOwnership(baseline: Baseline): void {
    for (let i = 0; i < baseline.size; i++) {
      const kind = baseline.kindOf(i);
      if (PLAN_KIND_SPECS[kind].takesLabels) {
        baseline.setOwnership(i, this.labelled[i] ?? false, true);
        continue;
      }
      const identity = baseline.identityOf(i);
      const campaign = identity[0] ?? '';
      if (campaign === '' || campaign === ACCOUNT_LEVEL_CAMPAIGN) {
        baseline.setOwnership(i, true, false);
        continue;
      }
      const spec = PLAN_KIND_SPECS[kind];
      const adGroup = spec.placeCells >= 2 ? (identity[1] ?? '') : '';
      const parent =
        adGroup !== ''
          ? baseline.find('ad-group', [campaign, adGroup])
          : baseline.find('campaign', [campaign]);
      baseline.setOwnership(i, parent >= 0 && baseline.isOwned(parent), true);
    }
  }

  private parse(final: boolean): void {
    const text = this.text;
    if (text === '') return;
    if (!this.columns) {
      const firstBreak = text.search(/[\r\n]/);
      if (firstBreak < 0 && !final) return;
      const headerLine = firstBreak < 0 ? text : text.slice(0, firstBreak);
      this.delimiter = headerLine.includes('\t') ? '\t' : ',';
    }
    let keepFrom = -1;
    let last: { cells: string[]; start: number } | undefined;
    forEachCsvRecord(
      text,
      (cells, _line, start) => {
        if (last) this.record(last.cells);
        last = { cells, start };
      },
      this.delimiter,
    );
    if (last) {
      if (final) this.record(last.cells);
      else keepFrom = last.start;
    }
    this.text = keepFrom >= 0 ? text.slice(keepFrom) : '';
  }

  private record(cells: string[]): void {
    if (!this.columns) {
      this.columns = new FileColumns(cells);
      for (const n of this.columns.at.keys()) this.known.add(n);
      return;
    }
    if (cells.length === 1 && cells[0] === '') return;
    this.summary.rows++;
    const cols = this.columns;
    const campaign = cols.cell(cells, 'campaign');
    const has = (name: string): boolean => cols.cell(cells, name) !== '';
    let kinds: PlanItemKind[];
    if (has('keyword'))
      kinds = [isNegativeCriterion(cols.cell(cells, 'criteriontype')) ? 'negative' : 'keyword'];
    else if (has('adtype'))
      kinds = /responsive search ad/i.test(cols.cell(cells, 'adtype'))
        ? ['responsive-search-ad']
        : [];
    else if (has('linktext')) kinds = ['sitelink'];
    else if (has('callouttext')) kinds = ['callout'];
    else if (has('header') && has('snippetvalues')) kinds = ['structured-snippet'];
    else if (has('assetgroup'))
      kinds =
        has('headline1') || has('longheadline1') || has('description1')
          ? ['asset-group', 'performance-max-ad']
          : ['asset-group'];
    else if (has('adgroup')) kinds = ['ad-group'];
    else if (campaign !== '') {
      if (has('campaigntype') || has('budget') || has('campaignstatus') || has('labels'))
        kinds = ['campaign'];
      else if (has('locationid')) {
        let set = this.locations.get(campaign);
        if (!set) this.locations.set(campaign, (set = new Set()));
        set.add(cols.cell(cells, 'locationid'));
        return;
      } else kinds = [];
    } else kinds = [];
    if (kinds.length === 0) {
      this.summary.otherRows++;
      return;
    }
    const labels = splitLabels(cols.cell(cells, 'labels'));
    const labelled = labels.some((l) => l.toLowerCase() === this.label);
    for (const kind of kinds) {
      const map = cols.map(kind);
      const item = newBuildItem();
      item.kind = kind;
      map.readIdentity(cells, item.identity);
      item.status = map.readStatus(cells);
      map.readContent(cells, item, this.label);
      if (kind === 'campaign') {
        const at = item.fields.indexOf('locationid');
        const locations = new Set<string>();
        if (at >= 0) {
          locations.add(item.values[at]!.trim());
          item.fields.splice(at, 1);
          item.values.splice(at, 1);
        }
        const held = this.campaigns.get(item.identity[0]!);
        if (held) for (const l of locations) held.locations.add(l);
        else this.campaigns.set(item.identity[0]!, { item, labelled, locations });
        continue;
      }
      const adId = kind === 'responsive-search-ad' ? cols.cell(cells, 'adid') : '';
      this.add(item, labelled, adId || undefined);
    }
  }

  private add(item: BuildItem, labelled: boolean, adId: string | undefined): void {
    this.fieldIndices.length = 0;
    this.hashes.length = 0;
    for (let f = 0; f < item.fields.length; f++) {
      this.fieldIndices.push(this.builder.fieldIndex(item.fields[f]!));
      this.hashes.push(hashField(item.fields[f]!, item.values[f]!));
    }
    this.labelled.push(labelled);
    this.builder.add({
      kind: item.kind,
      identity: item.identity,
      status: item.status,
      line: 0,
      fieldIndices: this.fieldIndices,
      hashes: this.hashes,
      owned: labelled,
      droppable: true,
      ...(adId ? { adId } : {}),
    });
  }
}

/** Reads a whole account export from its files' bytes (a convenience over the reader). */
export function readAccountExport(
  files: readonly Uint8Array[],
  options: AccountExportOptions = {},
): Baseline & { summary: AccountExportSummary } {
  const reader = new AccountExportReader(options);
  files.forEach((bytes, i) => {
    if (i > 0) reader.nextFile();
    reader.pushBytes(bytes);
  });
  return reader.end();
}
