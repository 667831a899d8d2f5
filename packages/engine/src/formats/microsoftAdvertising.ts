/**
 * The Microsoft Advertising format: one bulk file (Microsoft's Bulk File Schema, format version
 * 6.0, UTF-8 CSV) from the same tables the Google Ads Editor format takes, and a report of every
 * item that could not go to Microsoft or went changed, with its reason. Sources and choices:
 * docs/decisions.md, "Microsoft Advertising bulk file".
 *
 * New parents get negative reference keys (`Id` -1, -2, …) that their children name in
 * `Parent Id`, beside the Campaign and Ad Group names (the schema's logical reference keys), so
 * every record type finds its parent whichever key it reads. Records follow the schema's type
 * hierarchy: campaigns with their location criteria, ad groups, keywords, negative keywords,
 * responsive search ads, then each extension before its first association.
 */
import { formatCsv, formatCsvCell, formatCsvLine, type Table } from '../csv.ts';
import { normalizeHeader, parseItemStatus, type ItemStatus } from '../plan/kinds.ts';
import { countAdTextLength, isSpaceCode } from '../text.ts';
import type { MicrosoftLocationAnswer } from './microsoftLocations.ts';
import {
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_DESCRIPTION_MAX_PIN,
  RSA_HEADLINE_MAX_CHARS,
  RSA_HEADLINE_MAX_PIN,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
  RSA_MIN_DESCRIPTIONS,
  RSA_MIN_HEADLINES,
  RSA_PATH_MAX_CHARS,
} from '../limits.ts';
import type {
  ExportContext,
  ExportFile,
  ExportFormat,
  ExportTable,
  ExportTableKind,
} from './exportFormat.ts';

/** The bulk file's stem: the command's `microsoft-advertising.csv`. */
export const MICROSOFT_BULK_FILE_STEM = 'microsoft advertising';
/** The report's stem: what could not go to Microsoft, or went changed. */
export const MICROSOFT_REPORT_FILE_STEM = 'microsoft advertising report';

/** The only bulk format version Microsoft supports (Bulk File Schema, "Format Versions"). */
export const MICROSOFT_FORMAT_VERSION = '6.0';

// Microsoft's limits where they are not Google's (docs/decisions.md gives each source).
/** Keyword and negative keyword text (Keyword record: "a maximum of 100 characters"). */
export const MICROSOFT_KEYWORD_MAX_CHARS = 100;
/** The final URL's domain with path 1 and path 2 (Responsive Search Ad record, Final Url). */
export const MICROSOFT_DOMAIN_AND_PATHS_MAX_CHARS = 67;
/** Final URLs (Responsive Search Ad record, Final Url). */
export const MICROSOFT_URL_MAX_CHARS = 2048;
/** Sitelink link text with descriptions; without them the limit is 35 (entity limits). */
export const MICROSOFT_SITELINK_TEXT_MAX_CHARS = 25;
export const MICROSOFT_SITELINK_TEXT_ALONE_MAX_CHARS = 35;
export const MICROSOFT_SITELINK_DESCRIPTION_MAX_CHARS = 35;
export const MICROSOFT_CALLOUT_MAX_CHARS = 25;
export const MICROSOFT_SNIPPET_VALUE_MAX_CHARS = 25;
/** Associations of one extension type per campaign or ad group (entity limits). */
export const MICROSOFT_EXTENSIONS_PER_ENTITY = 20;
/** Active responsive search ads per ad group (entity limits). */
export const MICROSOFT_ACTIVE_RSAS_PER_AD_GROUP = 3;
/** Keywords per ad group; negatives per ad group or campaign (entity limits). */
export const MICROSOFT_KEYWORDS_PER_AD_GROUP = 20_000;
export const MICROSOFT_NEGATIVES_PER_PARENT = 20_000;
/** Ad groups per campaign; campaigns per account (entity limits). */
export const MICROSOFT_AD_GROUPS_PER_CAMPAIGN = 20_000;
export const MICROSOFT_CAMPAIGNS_PER_ACCOUNT = 10_000;
/** Ad group and campaign names (entity limits: 256 characters). */
export const MICROSOFT_NAME_MAX_CHARS = 256;

/** Structured snippet headers Microsoft takes in English (ad languages, extension headers). */
const MICROSOFT_SNIPPET_HEADERS: ReadonlySet<string> = new Set(
  'Amenities,Brands,Classes,Courses,Daily rates,Deals,Degree programs,Departments,Destinations,Featured hotels,Goods,Grades,Highlights,Insurance coverage,Items,Languages,Locations,Models,Neighborhoods,Prices,Rates,Ratings,School districts,Service catalog,Services,Shows,Sizes,Styles,Tools,Topics,Types,Vacations,Vehicles,What,Who,Why'
    .split(',')
    .map((h) => h.toLowerCase()),
);
const SNIPPET_HEADER_SPELLING: ReadonlyMap<string, string> = new Map(
  'Amenities,Brands,Classes,Courses,Daily rates,Deals,Degree programs,Departments,Destinations,Featured hotels,Goods,Grades,Highlights,Insurance coverage,Items,Languages,Locations,Models,Neighborhoods,Prices,Rates,Ratings,School districts,Service catalog,Services,Shows,Sizes,Styles,Tools,Topics,Types,Vacations,Vehicles,What,Who,Why'
    .split(',')
    .map((h) => [h.toLowerCase(), h]),
);

/** Microsoft's campaign languages for Search, by their name and Google's language codes. */
const MICROSOFT_LANGUAGES: ReadonlyMap<string, string> = (() => {
  const byCode: [string, string][] = [
    ['bg', 'Bulgarian'],
    ['hr', 'Croatian'],
    ['cs', 'Czech'],
    ['da', 'Danish'],
    ['nl', 'Dutch'],
    ['en', 'English'],
    ['et', 'Estonian'],
    ['fi', 'Finnish'],
    ['fr', 'French'],
    ['de', 'German'],
    ['el', 'Greek'],
    ['hu', 'Hungarian'],
    ['it', 'Italian'],
    ['lv', 'Latvian'],
    ['lt', 'Lithuanian'],
    ['mt', 'Maltese'],
    ['no', 'Norwegian'],
    ['nb', 'Norwegian'],
    ['pl', 'Polish'],
    ['pt', 'Portuguese'],
    ['ro', 'Romanian'],
    ['sk', 'Slovak'],
    ['sl', 'Slovenian'],
    ['es', 'Spanish'],
    ['sv', 'Swedish'],
    ['zh-tw', 'TraditionalChinese'],
    ['zh_tw', 'TraditionalChinese'],
  ];
  const m = new Map<string, string>();
  for (const [code, name] of byCode) {
    m.set(code, name);
    m.set(name.toLowerCase(), name);
  }
  m.set('traditional chinese', 'TraditionalChinese');
  m.set('chinese (traditional)', 'TraditionalChinese');
  m.set('all', 'All');
  return m;
})();

/** The bulk file's columns: every record's fields that Adloom fills, under one header. */
export const MICROSOFT_BULK_HEADERS: readonly string[] = [
  'Type',
  'Status',
  'Id',
  'Parent Id',
  'Campaign',
  'Ad Group',
  'Client Id',
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
const C = Object.fromEntries(MICROSOFT_BULK_HEADERS.map((h, i) => [h, i])) as Record<
  string,
  number
>;

/**
 * The columns of a file that carries the client's label: the bulk file's, then `Label` (the
 * Label record's name; label.md).
 */
export const MICROSOFT_LABELLED_HEADERS: readonly string[] = [...MICROSOFT_BULK_HEADERS, 'Label'];
const LABEL_AT = MICROSOFT_BULK_HEADERS.length;

/** The record types that take the client's label, as indices of `LABEL_ASSOCIATION_TYPES`. */
const Labelled = { Campaign: 0, AdGroup: 1, Keyword: 2, Ad: 3 } as const;
type Labelled = (typeof Labelled)[keyof typeof Labelled];
/** Their label association record types (campaign-label.md, ad-group-label.md...). */
const LABEL_ASSOCIATION_TYPES: readonly string[] = [
  'Campaign Label',
  'Ad Group Label',
  'Keyword Label',
  'Responsive Search Ad Label',
];

/** The report's columns. */
export const MICROSOFT_REPORT_HEADERS: readonly string[] = [
  'Type',
  'Campaign',
  'Ad Group',
  'Item',
  'Outcome',
  'Reason',
];

/** What happened to a reported item. */
export type MicrosoftOutcome = 'Not written' | 'Changed' | 'Paused';

/** Counts of one bulk file: records written per record type, and the report's outcomes. */
export interface MicrosoftBulkCounts {
  records: Record<string, number>;
  notWritten: number;
  changed: number;
  paused: number;
}

/** What the host tells the format beyond `ExportContext`. */
export interface MicrosoftBulkOptions {
  /**
   * The Microsoft Location Id of a Google criteria ID, when the host knows one, or why it knows
   * none (`{ reason }`, for the report; `microsoftLocations.ts` answers so). Google's IDs are not
   * Microsoft's: without an Id a location is reported, never written as it is.
   */
  microsoftLocationId?: (googleCriteriaId: string) => string | MicrosoftLocationAnswer | undefined;
  /**
   * Told of each row whose item is not written (`table`: its index in the tables given, `row`:
   * its index in the table's rows, `line`: its report line): the Microsoft change plan leaves
   * these items out (plan/microsoftRefusals.ts).
   */
  onNotWritten?: (table: number, row: number, line: readonly string[]) => void;
  /**
   * Only the checks: the keywords', negatives' and ads' lines are not made (the file is not
   * whole), its report and `onNotWritten` are as they would be.
   */
  checkOnly?: boolean;
  /**
   * The client's label, put on every campaign, ad group, keyword and responsive search ad the
   * file adds (a `Label` record first, unless `id` names the account's, then one label
   * association record after each), so a download of the account tells Adloom's items from
   * hand-made ones. The file then has a `Label` column (`MICROSOFT_LABELLED_HEADERS`).
   */
  label?: { name: string; id?: string };
}

/** Editor's negative criterion types: where the negative is, and its match type. */
const NEGATIVE_TYPES: ReadonlyMap<string, { onCampaign: boolean; match: string }> = new Map(
  ['Broad', 'Phrase', 'Exact'].flatMap(
    (match): [string, { onCampaign: boolean; match: string }][] => [
      [`Negative ${match}`, { onCampaign: false, match }],
      [`Campaign Negative ${match}`, { onCampaign: true, match }],
    ],
  ),
);

/** Microsoft's status for a build's status; Removed has no add (a delete needs Microsoft's Id). */
function microsoftStatus(status: ItemStatus): 'Active' | 'Paused' | undefined {
  return status === 'Enabled' ? 'Active' : status === 'Paused' ? 'Paused' : undefined;
}

/** A row's Microsoft status from its status column (Active without one). */
function statusOf(row: readonly string[], at: number): 'Active' | 'Paused' | undefined {
  if (at < 0) return 'Active';
  const value = row[at];
  return value === undefined || value === '' || value === 'Enabled'
    ? 'Active'
    : microsoftStatus(parseItemStatus(value));
}

/** The index of a column in a table (headers compared as Editor compares them), -1 if none. */
function columnOf(headers: readonly string[], ...names: string[]): number {
  const wanted = names.map(normalizeHeader);
  return headers.findIndex((h) => wanted.includes(normalizeHeader(h)));
}

const cell = (row: readonly string[], at: number): string => (at < 0 ? '' : (row[at] ?? ''));

/** The width Microsoft counts: code points, East Asian wide characters and emoji as 2. */
const widthOf = (text: string): number => countAdTextLength(text);

/** Google-only dynamic insertions Microsoft does not read ({CUSTOMIZER.…}, {LOCATION(…)}, …). */
const GOOGLE_ONLY_INSERTION = /\{\s*(?:CUSTOMIZER\.|LOCATION\(|COUNTDOWN\(|GLOBAL_COUNTDOWN\()/i;

/**
 * The host of an http or https URL ('' when the URL is neither or has none): what
 * `/^https?:\/\/([^/?#\s]*)/i` captures, told by character codes (a regular expression per ad
 * was a twentieth of the ads' time).
 */
export function hostOf(url: string): string {
  const n = url.length;
  if (n < 8) return '';
  // 'http', then an optional 's' (letters of either case), then '://'.
  if (
    (url.charCodeAt(0) | 0x20) !== 0x68 ||
    (url.charCodeAt(1) | 0x20) !== 0x74 ||
    (url.charCodeAt(2) | 0x20) !== 0x74 ||
    (url.charCodeAt(3) | 0x20) !== 0x70
  )
    return '';
  let i = (url.charCodeAt(4) | 0x20) === 0x73 ? 5 : 4;
  if (
    url.charCodeAt(i) !== 0x3a ||
    url.charCodeAt(i + 1) !== 0x2f ||
    url.charCodeAt(i + 2) !== 0x2f
  )
    return '';
  i += 3;
  const from = i;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23 || isSpaceCode(c)) break;
  }
  return url.slice(from, i);
}

function isHttpUrl(url: string): boolean {
  return hostOf(url) !== '';
}

/** The ids of a Location ID cell (`;`, `,` or line breaks between them). */
function locationIdsOf(value: string): string[] {
  const ids: string[] = [];
  for (const part of value.split(/[;,\r\n]/)) {
    const id = part.trim();
    if (id !== '' && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The Microsoft languages of a Google Languages cell, and the ones Microsoft has no name for. */
function languagesOf(value: string): { names: string[]; unknown: string[] } {
  const names: string[] = [];
  const unknown: string[] = [];
  for (const part of value.split(/[;,]/)) {
    const v = part.trim();
    if (v === '') continue;
    const name = MICROSOFT_LANGUAGES.get(v.toLowerCase());
    if (name === undefined) unknown.push(v);
    else if (!names.includes(name)) names.push(name);
  }
  return { names, unknown };
}

/** A 30-bit hash (FNV-1a) of an ad group's name in the campaign of number `id`. */
function groupHash(name: string, id: number): number {
  let h = 0x811c9dc5 ^ id;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/** The tables of each kind, in the order given. */
function byKind(tables: readonly ExportTable[], kind: ExportTableKind): ExportTable[] {
  return tables.filter((t) => t.kind === kind);
}

/**
 * The distinct Google location IDs of a build's campaigns tables (their Location ID cells), in
 * order of first use: what a host maps to Microsoft Location Ids before writing the file.
 */
export function googleLocationIdsOf(tables: readonly ExportTable[]): string[] {
  const ids = new Set<string>();
  for (const table of byKind(tables, 'campaigns')) {
    const { headers, rows } = table.read();
    const at = columnOf(headers, 'Location ID');
    if (at < 0) continue;
    for (const row of rows) for (const id of locationIdsOf(cell(row, at))) ids.add(id);
  }
  return [...ids];
}

/**
 * One pass over a build's tables: yields the bulk file's CSV (its header first) in chunks of
 * about `CHUNK_LINES` lines, returns the last chunk, and adds to `report` every item that could
 * not go to Microsoft or went changed. Tables are read in the schema's order whatever order they
 * come in; each is read once. Lines are added to the chunk where they are made: no yield per
 * record (a generator's step per line was a tenth of the file's CPU).
 */
function* bulkChunks(
  tables: readonly ExportTable[],
  options: MicrosoftBulkOptions,
  report: string[][],
  counts: MicrosoftBulkCounts,
): Generator<string, string> {
  const label = options.label;
  const headers = label ? MICROSOFT_LABELLED_HEADERS : MICROSOFT_BULK_HEADERS;
  const tails = label ? LABELLED_TAILS : PLAIN_TAILS;
  let chunk = formatCsvLine(headers);
  let lines = 1;
  const add = (line: string) => {
    chunk += line;
    lines++;
  };
  /** The chunk so far, the next one started (each row loop yields it once it is full). */
  const take = () => {
    const full = chunk;
    chunk = '';
    lines = 0;
    return full;
  };
  // One array for every record: `bulkLine` writes its cells and leaves it empty again.
  const out = new Array<string>(headers.length).fill('');
  const count = (type: string) => {
    counts.records[type] = (counts.records[type] ?? 0) + 1;
  };
  const record = (type: string) => {
    out[C.Type!] = type;
    count(type);
    return out;
  };
  /** The Parent Id, Campaign and Ad Group cells of a child of the new ad group of index `i`. */
  const placeOf = (i: number): string => `${groupKeyList[i]},${groupIn[i]!.cell},${groupCells[i]}`;
  const keywordLines = new KeywordLines(placeOf, tails);
  const rsaLines = new RecordPrefixes(placeOf);
  // The client's label: its Id (the account's, or key -1 of the Label record this file adds
  // before the first association), and the line of an association of it with the record of key
  // `key`: Type, the label's Id, the entity's key in Parent Id, as keyword-label.md's example
  // (Status is read-only on add; no names). Counted per type at the end.
  let labelId = '';
  let labelRecord = false;
  const labelCounts = [0, 0, 0, 0];
  let labelHeads: string[] = [];
  const labelLine = (type: Labelled, key: string): string => {
    labelCounts[type]!++;
    lines++;
    const line = labelHeads[type]! + key + tails.label;
    if (!labelRecord) return line;
    labelRecord = false;
    const r = record('Label');
    r[C.Status!] = 'Active';
    r[C.Id!] = labelId;
    r[LABEL_AT] = label!.name;
    lines++;
    return bulkLine(r) + line;
  };
  const note = (
    type: string,
    campaign: string,
    adGroup: string,
    item: string,
    outcome: MicrosoftOutcome,
    reason: string,
  ) => {
    report.push([type, campaign, adGroup, item, outcome, reason]);
    if (outcome === 'Not written') counts.notWritten++;
    else if (outcome === 'Changed') counts.changed++;
    else counts.paused++;
  };

  // The item a `reject` reports: set once per row (no closure per row on the hot path).
  let itemType = '';
  let itemCampaign = '';
  let itemAdGroup = '';
  let item = '';
  const setItem = (type: string, campaign: string, adGroup: string, text: string) => {
    itemType = type;
    itemCampaign = campaign;
    itemAdGroup = adGroup;
    item = text;
  };
  // The table and row being read, for `onNotWritten`.
  const { onNotWritten, checkOnly = false } = options;
  let tableAt = -1;
  let rowAt = -1;
  const begin = (table: ExportTable): Table => {
    tableAt = tables.indexOf(table);
    rowAt = -1;
    return table.read();
  };
  const reject = (reason: string) => {
    note(itemType, itemCampaign, itemAdGroup, item, 'Not written', reason);
    onNotWritten?.(tableAt, rowAt, report[report.length - 1]!);
  };

  let nextKey = -1;
  const campaignKeys = new Map<string, string>();
  // Each new ad group's index (for its counts), by campaign then name, and by index its
  // campaign, name and negative key. Per campaign named by an ad group: its number, how many ad
  // groups, its key ('' for a campaign not in this file) and its cell. Ad groups are found by a
  // hash of their name and campaign number (a number keys the map: no string is hashed per ad
  // group, which cost a microsecond each), then compared by name and campaign.
  interface GroupsOf {
    id: number;
    count: number;
    key: string;
    cell: string;
  }
  const groupsOfCampaign = new Map<string, GroupsOf>();
  const groupCampaigns: string[] = [];
  const groupNames: string[] = [];
  /** The last ad group of each hash, and by index the ad group before it of the same hash (-1). */
  const groupOfHash = new Map<number, number>();
  const sameHash: number[] = [];
  const groupKeyList: string[] = [];
  // By index, the ad group's campaign record and its Ad Group cell, formatted once: the runs of
  // keywords, negatives and ads of a group do not quote its names again (`placeOf`).
  const groupIn: GroupsOf[] = [];
  const groupCells: string[] = [];
  // Rows of one ad group come together, and the tables list the ad groups in one order: a new
  // run of rows is first compared with the ad group after the last one found (no hashing), and
  // looked up by its hash only when it is another. The last campaign looked up is kept.
  let lastCampaign: string | undefined;
  let lastAdGroup: string | undefined;
  let lastIndex = -1;
  let found = -1;
  let groupsCampaign: string | undefined;
  let groups: GroupsOf | undefined;
  /** The new ad groups of `campaign` (undefined: none yet). */
  const groupsOf = (campaign: string): GroupsOf | undefined => {
    if (campaign !== groupsCampaign) {
      groupsCampaign = campaign;
      groups = groupsOfCampaign.get(campaign);
    }
    return groups;
  };
  // The last hash made (an ad group looked up, then taken, is hashed once).
  let hashedName: string | undefined;
  let hashedIn: GroupsOf | undefined;
  let hashed = 0;
  /** The index of a new ad group of this file, -1 for none. */
  const indexOf = (campaign: string, adGroup: string): number => {
    if (campaign !== lastCampaign || adGroup !== lastAdGroup) {
      lastCampaign = campaign;
      lastAdGroup = adGroup;
      const next = found + 1;
      if (
        next < groupNames.length &&
        groupNames[next] === adGroup &&
        groupCampaigns[next] === campaign
      )
        lastIndex = next;
      else {
        const g = groupsOf(campaign);
        let i = -1;
        if (g !== undefined) {
          hashedName = adGroup;
          hashedIn = g;
          hashed = groupHash(adGroup, g.id);
          i = groupOfHash.get(hashed) ?? -1;
        }
        while (i >= 0 && (groupNames[i] !== adGroup || groupCampaigns[i] !== campaign))
          i = sameHash[i]!;
        lastIndex = i;
      }
      if (lastIndex >= 0) found = lastIndex;
    }
    return lastIndex;
  };
  /** Takes index `i` for a new ad group; its campaign's groups (made on its first). */
  const setIndex = (campaign: string, adGroup: string, i: number): GroupsOf => {
    let g = groupsOf(campaign);
    if (g === undefined) {
      g = {
        id: groupsOfCampaign.size,
        count: 0,
        key: campaignKeys.get(campaign) ?? '',
        cell: formatCsvCell(campaign),
      };
      groupsOfCampaign.set(campaign, (groups = g));
    }
    const h = hashedName === adGroup && hashedIn === g ? hashed : groupHash(adGroup, g.id);
    sameHash.push(groupOfHash.get(h) ?? -1);
    groupOfHash.set(h, i);
    g.count++;
    groupCampaigns.push(campaign);
    groupNames.push(adGroup);
    lastCampaign = undefined;
    found = i;
    return g;
  };
  /** The negative key of the ad group of index `i` (-1: none). */
  const keyOfIndex = (i: number): string | undefined => (i < 0 ? undefined : groupKeyList[i]);
  /** An ad group's place as one string (for the rare sets: refused groups, associations). */
  const groupOf = (campaign: string, adGroup: string) => `${campaign}\u0000${adGroup}`;

  out[C.Type!] = 'Format Version';
  out[C.Name!] = MICROSOFT_FORMAT_VERSION;
  add(bulkLine(out));
  if (label) {
    if (label.id !== undefined && label.id !== '') labelId = label.id;
    else {
      labelId = String(nextKey--);
      labelRecord = true;
    }
    labelHeads = LABEL_ASSOCIATION_TYPES.map((type) => `${type},,${labelId},`);
  }

  // Campaigns, each followed by its location criteria.
  const locate = options.microsoftLocationId;
  for (const table of byKind(tables, 'campaigns')) {
    const { headers, rows } = begin(table);
    const at = {
      campaign: columnOf(headers, 'Campaign'),
      type: columnOf(headers, 'Campaign Type'),
      budget: columnOf(headers, 'Budget'),
      location: columnOf(headers, 'Location ID'),
      languages: columnOf(headers, 'Languages', 'Language'),
      status: columnOf(headers, 'Campaign Status'),
    };
    // A campaign's location rows follow its own row: they are gathered, then written with it.
    let pending:
      | {
          name: string;
          key: string;
          status: string;
          budget: string;
          language: string;
          locations: string[];
        }
      | undefined;
    const flush = (): void => {
      if (!pending) return;
      const p = pending;
      pending = undefined;
      const mapped: string[] = [];
      for (const google of p.locations) {
        const answer = locate?.(google);
        const id = typeof answer === 'object' ? ('id' in answer ? answer.id : undefined) : answer;
        if (id === undefined)
          note(
            'Campaign Location Criterion',
            p.name,
            '',
            google,
            'Not written',
            typeof answer === 'object' && 'reason' in answer
              ? answer.reason
              : `Google location ${google} has no Microsoft location ID known to Adloom: add the location in Microsoft Advertising`,
          );
        else if (!mapped.includes(id)) mapped.push(id);
      }
      if (p.locations.length > 0 && mapped.length === 0 && p.status === 'Active') {
        p.status = 'Paused';
        note(
          'Campaign',
          p.name,
          '',
          p.name,
          'Paused',
          'none of its locations could be written, and a Microsoft campaign without locations shows everywhere: add its locations, then enable it',
        );
      }
      const r = record('Campaign');
      r[C.Status!] = p.status;
      r[C.Id!] = p.key;
      r[C['Parent Id']!] = '0';
      r[C.Campaign!] = p.name;
      r[C['Budget Type']!] = 'DailyBudgetStandard';
      r[C['Campaign Type']!] = 'Search';
      r[C.Budget!] = p.budget;
      r[C.Language!] = p.language;
      add(bulkLine(r));
      if (label) add(labelLine(Labelled.Campaign, p.key));
      for (const id of mapped) {
        const l = record('Campaign Location Criterion');
        l[C.Status!] = 'Active';
        l[C['Parent Id']!] = p.key;
        l[C.Campaign!] = p.name;
        l[C.Target!] = id;
        add(bulkLine(l));
      }
    };
    for (const row of rows) {
      rowAt++;
      if (lines >= CHUNK_LINES) yield take();
      const name = cell(row, at.campaign);
      const location = cell(row, at.location);
      if (location !== '' && cell(row, at.type) === '') {
        // A location row: its campaign's, or one of a campaign already reported.
        if (pending && name === pending.name)
          for (const id of locationIdsOf(location))
            if (!pending.locations.includes(id)) pending.locations.push(id);
        continue;
      }
      flush();
      const type = cell(row, at.type) || 'Search';
      setItem('Campaign', name, '', name);
      if (name === '') continue;
      if (type.toLowerCase() !== 'search') {
        reject(
          `${type} campaigns are not in this file: Microsoft's bulk file here holds Search campaigns`,
        );
        continue;
      }
      if (campaignKeys.has(name)) continue;
      if (name.length > MICROSOFT_NAME_MAX_CHARS) {
        reject(`the name is longer than Microsoft's ${MICROSOFT_NAME_MAX_CHARS} characters`);
        continue;
      }
      const budget = cell(row, at.budget).trim();
      if (budget === '' || !(Number(budget) > 0)) {
        reject('Microsoft needs a budget to add a campaign');
        continue;
      }
      const status = statusOf(row, at.status);
      if (status === undefined) {
        reject('a removed campaign is not added (removing needs its Microsoft Id)');
        continue;
      }
      if (campaignKeys.size >= MICROSOFT_CAMPAIGNS_PER_ACCOUNT) {
        reject(`Microsoft takes at most ${MICROSOFT_CAMPAIGNS_PER_ACCOUNT} campaigns per account`);
        continue;
      }
      const { names, unknown } = languagesOf(cell(row, at.languages));
      if (unknown.length > 0)
        note(
          'Campaign',
          name,
          '',
          unknown.join(';'),
          'Changed',
          `Microsoft has no Search language for ${unknown.join(', ')}: ${names.length > 0 ? 'left out' : 'the campaign targets all languages'}`,
        );
      const key = String(nextKey--);
      campaignKeys.set(name, key);
      pending = {
        name,
        key,
        status,
        budget,
        language: names.length > 0 ? names.join(';') : 'All',
        locations: locationIdsOf(location),
      };
    }
    flush();
  }

  // Ad groups: the ad groups table's, and an ad group a keyword, negative, ad or extension names
  // in a campaign of this file (a new campaign's ad groups are new: Microsoft does not make one
  // from its keywords as Editor does).
  const refusedGroups = new Set<string>();
  let perGroup = new Uint32Array(1024);
  /** The line of a new ad group (its key and index taken), from a row that passed the checks. */
  const newGroupLine = (campaign: string, adGroup: string, status: string) => {
    const key = String(nextKey--);
    const g = setIndex(campaign, adGroup, groupKeyList.length);
    groupKeyList.push(key);
    const adGroupCell = formatCsvCell(adGroup);
    groupIn.push(g);
    groupCells.push(adGroupCell);
    if (groupKeyList.length > perGroup.length) {
      const grown = new Uint32Array(perGroup.length * 2);
      grown.set(perGroup);
      perGroup = grown;
    }
    count('Ad Group');
    // Microsoft adds an ad group Paused unless told: the status is always written.
    const line = `Ad Group,${status},${key},${g.key},${g.cell},${adGroupCell}${tails.adGroup}`;
    return label ? line + labelLine(Labelled.AdGroup, key) : line;
  };
  /** Why Microsoft cannot take a new ad group, or undefined. */
  const groupProblem = (campaign: string, adGroup: string): string | undefined =>
    adGroup.length > MICROSOFT_NAME_MAX_CHARS
      ? `the name is longer than Microsoft's ${MICROSOFT_NAME_MAX_CHARS} characters`
      : (groupsOf(campaign)?.count ?? 0) >= MICROSOFT_AD_GROUPS_PER_CAMPAIGN
        ? `Microsoft takes at most ${MICROSOFT_AD_GROUPS_PER_CAMPAIGN} ad groups per campaign`
        : undefined;
  /** The line of an ad group a child names in a campaign of this file, when it is new. */
  const impliedGroupLine = (campaign: string, adGroup: string): string | undefined => {
    if (adGroup === '' || indexOf(campaign, adGroup) >= 0 || !campaignKeys.has(campaign))
      return undefined;
    const k = groupOf(campaign, adGroup);
    if (refusedGroups.size > 0 && refusedGroups.has(k)) return undefined;
    const problem = groupProblem(campaign, adGroup);
    if (problem !== undefined) {
      refusedGroups.add(k);
      note('Ad Group', campaign, adGroup, adGroup, 'Not written', problem);
      return undefined;
    }
    return newGroupLine(campaign, adGroup, 'Active');
  };
  for (const table of byKind(tables, 'ad-groups')) {
    const { headers, rows } = begin(table);
    const at = {
      campaign: columnOf(headers, 'Campaign'),
      adGroup: columnOf(headers, 'Ad Group'),
      status: columnOf(headers, 'Ad Group Status'),
    };
    for (const row of rows) {
      rowAt++;
      if (lines >= CHUNK_LINES) yield take();
      const campaign = cell(row, at.campaign);
      const adGroup = cell(row, at.adGroup);
      if (adGroup === '' || indexOf(campaign, adGroup) >= 0) continue;
      if (refusedGroups.size > 0 && refusedGroups.has(groupOf(campaign, adGroup))) continue;
      setItem('Ad Group', campaign, adGroup, adGroup);
      const status = statusOf(row, at.status);
      if (status === undefined) {
        refusedGroups.add(groupOf(campaign, adGroup));
        reject('a removed ad group is not added (removing needs its Microsoft Id)');
        continue;
      }
      const problem = groupProblem(campaign, adGroup);
      if (problem !== undefined) {
        refusedGroups.add(groupOf(campaign, adGroup));
        reject(problem);
        continue;
      }
      add(newGroupLine(campaign, adGroup, status));
    }
  }

  // Keywords.
  for (const table of byKind(tables, 'keywords')) {
    const { headers, rows } = begin(table);
    const at = {
      campaign: columnOf(headers, 'Campaign'),
      adGroup: columnOf(headers, 'Ad Group'),
      keyword: columnOf(headers, 'Keyword'),
      type: columnOf(headers, 'Criterion Type', 'Match Type'),
      status: columnOf(headers, 'Status'),
    };
    for (const row of rows) {
      rowAt++;
      if (lines >= CHUNK_LINES) yield take();
      const campaign = cell(row, at.campaign);
      const adGroup = cell(row, at.adGroup);
      const keyword = cell(row, at.keyword);
      const match = cell(row, at.type) || 'Broad';
      setItem('Keyword', campaign, adGroup, keyword);
      if (match !== 'Broad' && match !== 'Phrase' && match !== 'Exact') {
        reject(`Microsoft has no ${match} keyword`);
        continue;
      }
      if (keyword.length > MICROSOFT_KEYWORD_MAX_CHARS) {
        reject(`longer than Microsoft's ${MICROSOFT_KEYWORD_MAX_CHARS} characters`);
        continue;
      }
      const status = statusOf(row, at.status);
      if (status === undefined) {
        reject('a removed keyword is not added (removing needs its Microsoft Id)');
        continue;
      }
      const implied = impliedGroupLine(campaign, adGroup);
      if (implied !== undefined) add(implied);
      const gi = indexOf(campaign, adGroup);
      if (gi >= 0 && perGroup[gi]! >= MICROSOFT_KEYWORDS_PER_AD_GROUP) {
        reject(`Microsoft takes at most ${MICROSOFT_KEYWORDS_PER_AD_GROUP} keywords per ad group`);
        continue;
      }
      if (gi >= 0) perGroup[gi]!++;
      count('Keyword');
      const parent = keyOfIndex(gi);
      if (checkOnly) continue;
      if (label) {
        const key = String(nextKey--);
        add(
          keywordLines.line('Keyword', status, parent, campaign, adGroup, gi, keyword, match, key) +
            labelLine(Labelled.Keyword, key),
        );
      } else
        add(keywordLines.line('Keyword', status, parent, campaign, adGroup, gi, keyword, match));
    }
  }

  // Negative keywords, on their ad group or, without one, their campaign.
  perGroup.fill(0);
  const perCampaign = new Map<string, number>();
  for (const table of byKind(tables, 'negatives')) {
    const { headers, rows } = begin(table);
    const at = {
      campaign: columnOf(headers, 'Campaign'),
      adGroup: columnOf(headers, 'Ad Group'),
      keyword: columnOf(headers, 'Keyword'),
      type: columnOf(headers, 'Criterion Type', 'Match Type'),
    };
    for (const row of rows) {
      rowAt++;
      if (lines >= CHUNK_LINES) yield take();
      const campaign = cell(row, at.campaign);
      const adGroup = cell(row, at.adGroup);
      const keyword = cell(row, at.keyword);
      const type = cell(row, at.type);
      const parsed = NEGATIVE_TYPES.get(type);
      const onCampaign = adGroup === '' || (parsed?.onCampaign ?? false);
      const kind = onCampaign ? 'Campaign Negative Keyword' : 'Ad Group Negative Keyword';
      setItem(kind, campaign, adGroup, keyword);
      if (keyword.length > MICROSOFT_KEYWORD_MAX_CHARS) {
        reject(`longer than Microsoft's ${MICROSOFT_KEYWORD_MAX_CHARS} characters`);
        continue;
      }
      let match = parsed?.match ?? type;
      if (match === 'Broad') {
        // Microsoft's negatives are Phrase or Exact. A one-word phrase negative blocks what a
        // broad one does; a longer one blocks only the words in that order: said in the report.
        match = 'Phrase';
        if (/\s/.test(keyword.trim()))
          note(
            kind,
            campaign,
            adGroup,
            keyword,
            'Changed',
            'Microsoft has no broad match negative: written as a phrase negative, which blocks only searches with these words in this order',
          );
      }
      if (match !== 'Phrase' && match !== 'Exact') {
        reject(`Microsoft has no ${type} negative`);
        continue;
      }
      let parent: string | undefined;
      let group = -1;
      if (onCampaign) {
        const n = perCampaign.get(campaign) ?? 0;
        if (n >= MICROSOFT_NEGATIVES_PER_PARENT) {
          reject(
            `Microsoft takes at most ${MICROSOFT_NEGATIVES_PER_PARENT} negatives per campaign`,
          );
          continue;
        }
        perCampaign.set(campaign, n + 1);
        parent = campaignKeys.get(campaign);
      } else {
        const implied = impliedGroupLine(campaign, adGroup);
        if (implied !== undefined) add(implied);
        const gi = indexOf(campaign, adGroup);
        if (gi >= 0 && perGroup[gi]! >= MICROSOFT_NEGATIVES_PER_PARENT) {
          reject(
            `Microsoft takes at most ${MICROSOFT_NEGATIVES_PER_PARENT} negatives per ad group`,
          );
          continue;
        }
        if (gi >= 0) perGroup[gi]!++;
        parent = keyOfIndex(gi);
        group = gi;
      }
      count(kind);
      if (checkOnly) continue;
      add(
        keywordLines.line(
          kind,
          'Active',
          parent,
          campaign,
          onCampaign ? '' : adGroup,
          group,
          keyword,
          match,
        ),
      );
    }
  }

  // Responsive search ads.
  perGroup.fill(0);
  for (const table of byKind(tables, 'responsive-search-ads')) {
    const { headers, rows } = begin(table);
    const headColumns: [number, number][] = [];
    for (let i = 1; i <= RSA_MAX_HEADLINES; i++)
      headColumns.push([
        columnOf(headers, `Headline ${i}`),
        columnOf(headers, `Headline ${i} position`),
      ]);
    const descColumns: [number, number][] = [];
    for (let i = 1; i <= RSA_MAX_DESCRIPTIONS; i++)
      descColumns.push([
        columnOf(headers, `Description ${i}`),
        columnOf(headers, `Description ${i} position`),
      ]);
    const heads = new AssetList(
      headColumns,
      'headline',
      'Headline',
      RSA_MIN_HEADLINES,
      RSA_HEADLINE_MAX_CHARS,
      RSA_HEADLINE_MAX_PIN,
    );
    const descs = new AssetList(
      descColumns,
      'description',
      'Description',
      RSA_MIN_DESCRIPTIONS,
      RSA_DESCRIPTION_MAX_CHARS,
      RSA_DESCRIPTION_MAX_PIN,
    );
    const at = {
      campaign: columnOf(headers, 'Campaign'),
      adGroup: columnOf(headers, 'Ad Group'),
      path1: columnOf(headers, 'Path 1'),
      path2: columnOf(headers, 'Path 2'),
      url: columnOf(headers, 'Final URL'),
      status: columnOf(headers, 'Status'),
    };
    const path1 = new PathColumn(at.path1);
    const path2 = new PathColumn(at.path2);
    for (const row of rows) {
      rowAt++;
      if (lines >= CHUNK_LINES) yield take();
      const campaign = cell(row, at.campaign);
      const adGroup = cell(row, at.adGroup);
      const h1 = cell(row, headColumns[0]![0]);
      setItem('Responsive Search Ad', campaign, adGroup, h1);
      const url = cell(row, at.url);
      const problem = rsaProblem(row, heads, descs, url, path1, path2);
      if (problem !== undefined) {
        reject(problem);
        continue;
      }
      const status = statusOf(row, at.status);
      if (status === undefined) {
        reject('a removed ad is not added (removing needs its Microsoft Id)');
        continue;
      }
      const implied = impliedGroupLine(campaign, adGroup);
      if (implied !== undefined) add(implied);
      const gi = indexOf(campaign, adGroup);
      if (status === 'Active' && gi >= 0) {
        if (perGroup[gi]! >= MICROSOFT_ACTIVE_RSAS_PER_AD_GROUP) {
          reject(
            `Microsoft takes at most ${MICROSOFT_ACTIVE_RSAS_PER_AD_GROUP} active responsive search ads per ad group`,
          );
          continue;
        }
        perGroup[gi]!++;
      }
      count('Responsive Search Ad');
      if (checkOnly) continue;
      // Type to Ad Group, 10 commas to Final Url, its cells, the commas to the end.
      const prefix = rsaLines.prefix(
        'Responsive Search Ad',
        status,
        keyOfIndex(gi),
        campaign,
        adGroup,
        gi,
      );
      const key = label ? String(nextKey--) : '';
      add(
        (label ? rsaLines.withId(key) : prefix) +
          COMMAS[C['Final Url']! - C['Ad Group']!]! +
          formatCsvCell(url) +
          ',' +
          heads.cell(row) +
          ',' +
          descs.cell(row) +
          ',' +
          path1.csv +
          ',' +
          path2.csv +
          tails.rsa +
          (label ? labelLine(Labelled.Ad, key) : ''),
      );
    }
  }

  // Extensions: each distinct one once (Microsoft keeps them in the account's library), then
  // its association with the campaign or ad group the row names.
  const extensionKeys = new Map<string, string>();
  const associations = new Map<string, number>();
  const associated = new Set<string>();
  for (const [kind, noun] of [
    ['sitelinks', 'Sitelink'],
    ['callouts', 'Callout'],
    ['structured-snippets', 'Structured Snippet'],
  ] as const) {
    for (const table of byKind(tables, kind)) {
      const { headers, rows } = begin(table);
      const at = {
        campaign: columnOf(headers, 'Campaign'),
        adGroup: columnOf(headers, 'Ad Group'),
        linkText: columnOf(headers, 'Link Text'),
        d1: columnOf(headers, 'Description Line 1'),
        d2: columnOf(headers, 'Description Line 2'),
        url: columnOf(headers, 'Final URL'),
        callout: columnOf(headers, 'Callout text'),
        header: columnOf(headers, 'Header'),
        values: columnOf(headers, 'Snippet Values'),
        status: columnOf(headers, 'Status'),
      };
      const type = `${noun} Ad Extension`;
      for (const row of rows) {
        rowAt++;
        if (lines >= CHUNK_LINES) yield take();
        const campaign = cell(row, at.campaign);
        const adGroup = cell(row, at.adGroup);
        const cells = extensionCells(kind, row, at);
        setItem(type, campaign, adGroup, cells.item);
        if (cells.problem !== undefined) {
          reject(cells.problem);
          continue;
        }
        const status = statusOf(row, at.status);
        if (status === undefined) {
          reject('a removed extension is not added (removing needs its Microsoft Id)');
          continue;
        }
        const account = campaign === '<Account-level>';
        const library = campaign === '' && adGroup === '';
        const onGroup = !account && !library && adGroup !== '';
        const place = account ? '' : onGroup ? groupOf(campaign, adGroup) : campaign;
        const assocType = `${onGroup ? 'Ad Group' : 'Campaign'} ${type}`;
        if (!account && !library) {
          const count = associations.get(`${noun}\u0000${place}`) ?? 0;
          if (count >= MICROSOFT_EXTENSIONS_PER_ENTITY) {
            reject(
              `Microsoft takes at most ${MICROSOFT_EXTENSIONS_PER_ENTITY} ${noun.toLowerCase()} extensions per ${onGroup ? 'ad group' : 'campaign'}`,
            );
            continue;
          }
        }
        if (onGroup) {
          const implied = impliedGroupLine(campaign, adGroup);
          if (implied !== undefined) add(implied);
        }
        const contentKey = `${kind}\u0000${cells.key}`;
        let key = extensionKeys.get(contentKey);
        if (key === undefined) {
          key = String(nextKey--);
          extensionKeys.set(contentKey, key);
          const r = record(type);
          r[C.Status!] = 'Active';
          r[C.Id!] = key;
          r[C['Parent Id']!] = '0';
          for (const [column, value] of cells.columns) r[C[column]!] = value;
          add(bulkLine(r));
        }
        if (library) continue;
        if (account) {
          note(
            type,
            campaign,
            adGroup,
            cells.item,
            'Changed',
            "written to the account's library only: associate it with the account in Microsoft Advertising",
          );
          continue;
        }
        const pair = `${place}\u0000${key}`;
        if (associated.has(pair)) continue;
        associated.add(pair);
        associations.set(
          `${noun}\u0000${place}`,
          (associations.get(`${noun}\u0000${place}`) ?? 0) + 1,
        );
        const a = record(assocType);
        a[C.Status!] = status;
        a[C.Id!] = key;
        const parent = onGroup
          ? keyOfIndex(indexOf(campaign, adGroup))
          : campaignKeys.get(campaign);
        if (parent !== undefined) a[C['Parent Id']!] = parent;
        a[C.Campaign!] = campaign;
        if (onGroup) a[C['Ad Group']!] = adGroup;
        add(bulkLine(a));
      }
    }
  }
  // Callouts serve only in twos or more per campaign or ad group (entity limits): said once each.
  for (const [k, n] of associations)
    if (k.startsWith('Callout\u0000') && n < 2) {
      const place = k.slice('Callout\u0000'.length);
      const [campaign, adGroup = ''] = place.split('\u0000');
      note(
        'Callout Ad Extension',
        campaign!,
        adGroup,
        '',
        'Changed',
        'only one callout here: Microsoft shows callouts only when at least two are associated',
      );
    }

  // What Microsoft's file here does not hold: Performance Max.
  for (const kind of ['asset-groups', 'performance-max-ads'] as const)
    for (const table of byKind(tables, kind)) {
      const { headers, rows } = begin(table);
      const campaignAt = columnOf(headers, 'Campaign');
      const groupAt = columnOf(headers, 'Asset Group');
      for (const row of rows) {
        rowAt++;
        setItem(
          kind === 'asset-groups' ? 'Asset Group' : 'Performance Max ad',
          cell(row, campaignAt),
          '',
          cell(row, groupAt),
        );
        reject(
          'Performance Max is not in this file: create it in Microsoft Advertising (or import from Google Ads)',
        );
      }
    }
  labelCounts.forEach((n, type) => {
    if (n > 0) counts.records[LABEL_ASSOCIATION_TYPES[type]!] = n;
  });
  return chunk;
}

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
class AssetList {
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

/** A position cell as a number (0 for none). */
function pinOf(value: string): number {
  return value === '' ? 0 : Number(value) || 0;
}

/** What is wrong with a path for Microsoft, or undefined. */
function pathProblem(p: string, width: number): string | undefined {
  if (p.includes('/') || p.includes('\n') || p.includes('\r'))
    return `path "${p}" holds a slash or a line break`;
  if (width > RSA_PATH_MAX_CHARS)
    return `path "${p}" is longer than Microsoft's ${RSA_PATH_MAX_CHARS}`;
  return undefined;
}

/**
 * A path column of an RSA table: the last text read, its width, problem and CSV cell (kept:
 * an ad's paths repeat from row to row).
 */
class PathColumn {
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
function rsaProblem(
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

/** An extension row's bulk cells, the text that names it, its identity, or its problem. */
function extensionCells(
  kind: 'sitelinks' | 'callouts' | 'structured-snippets',
  row: readonly string[],
  at: Record<string, number>,
): { columns: [string, string][]; item: string; key: string; problem?: string } {
  if (kind === 'sitelinks') {
    const text = cell(row, at.linkText!);
    const d1 = cell(row, at.d1!);
    const d2 = cell(row, at.d2!);
    const url = cell(row, at.url!);
    const columns: [string, string][] = [
      ['Sitelink Extension Link Text', text],
      ['Sitelink Extension Description1', d1],
      ['Sitelink Extension Description2', d2],
      ['Final Url', url],
    ];
    const out = { columns, item: text, key: `${text}\u0000${d1}\u0000${d2}\u0000${url}` };
    const textMax =
      d1 === '' && d2 === ''
        ? MICROSOFT_SITELINK_TEXT_ALONE_MAX_CHARS
        : MICROSOFT_SITELINK_TEXT_MAX_CHARS;
    if (text === '') return { ...out, problem: 'a sitelink needs link text' };
    if (widthOf(text) > textMax)
      return { ...out, problem: `link text longer than Microsoft's ${textMax}` };
    if ((d1 === '') !== (d2 === ''))
      return { ...out, problem: 'a sitelink takes both description lines or neither' };
    for (const d of [d1, d2])
      if (widthOf(d) > MICROSOFT_SITELINK_DESCRIPTION_MAX_CHARS)
        return {
          ...out,
          problem: `description "${d}" longer than Microsoft's ${MICROSOFT_SITELINK_DESCRIPTION_MAX_CHARS}`,
        };
    if (!isHttpUrl(url))
      return { ...out, problem: 'Microsoft needs a final URL starting with http:// or https://' };
    return out;
  }
  if (kind === 'callouts') {
    const text = cell(row, at.callout!);
    const out = { columns: [['Callout Text', text]] as [string, string][], item: text, key: text };
    if (text === '') return { ...out, problem: 'a callout needs text' };
    if (widthOf(text) > MICROSOFT_CALLOUT_MAX_CHARS)
      return { ...out, problem: `longer than Microsoft's ${MICROSOFT_CALLOUT_MAX_CHARS}` };
    return out;
  }
  const header = cell(row, at.header!).trim();
  const values = cell(row, at.values!)
    .split(';')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const spelled = SNIPPET_HEADER_SPELLING.get(header.toLowerCase()) ?? header;
  const joined = values.join(';');
  const out = {
    columns: [
      ['Structured Snippet Header', spelled],
      ['Structured Snippet Values', joined],
    ] as [string, string][],
    item: `${header}: ${joined}`,
    key: `${spelled}\u0000${joined}`,
  };
  if (!MICROSOFT_SNIPPET_HEADERS.has(header.toLowerCase()))
    return { ...out, problem: `Microsoft has no snippet header "${header}"` };
  if (values.length === 0) return { ...out, problem: 'a structured snippet needs values' };
  for (const v of values)
    if (widthOf(v) > MICROSOFT_SNIPPET_VALUE_MAX_CHARS)
      return {
        ...out,
        problem: `value "${v}" longer than Microsoft's ${MICROSOFT_SNIPPET_VALUE_MAX_CHARS}`,
      };
  return out;
}

/** `COMMAS[n]`: n commas, the cells skipped between two written ones. */
const COMMAS: readonly string[] = Array.from(
  { length: MICROSOFT_BULK_HEADERS.length + 1 },
  (_, n) => ','.repeat(n),
);

/**
 * A record's CSV line: only its filled cells are formatted (a record fills a few of the file's
 * columns), and each is emptied again for the next record.
 */
function bulkLine(cells: string[]): string {
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
class RecordPrefixes {
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
interface LineTails {
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
function lineTails(columns: number): LineTails {
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
/** The tails of a file without labels, and of one with its `Label` column. */
const PLAIN_TAILS = lineTails(MICROSOFT_BULK_HEADERS.length);
const LABELLED_TAILS = lineTails(MICROSOFT_BULK_HEADERS.length + 1);

/** Keyword and negative keyword lines: the prefix of their place, the text, the match type. */
class KeywordLines {
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

/** Lines per chunk of the bulk file (as `formatCsv`'s). */
const CHUNK_LINES = 1024;

/** A bulk file being made: its CSV chunks, then its report and counts once they are read. */
export interface MicrosoftBulk {
  /** The bulk file's CSV in chunks (no BOM), made as they are read. */
  chunks(): Generator<string>;
  /** The report's table: complete once `chunks` has been read to its end (it is read if not). */
  report(): Table;
  /** The counts: complete once `chunks` has been read to its end (it is read if not). */
  counts(): MicrosoftBulkCounts;
}

/**
 * A bulk file made on demand: `make` yields its chunks and, before the last one, hands over its
 * report and counts (`done`); asked for them before the chunks were read to their end, it reads
 * the whole file first.
 */
export function bulkOnDemand<Counts>(
  make: (done: (report: string[][], counts: Counts) => void) => Generator<string>,
): { chunks(): Generator<string>; report(): Table; counts(): Counts } {
  let result: { report: string[][]; counts: Counts } | undefined;
  const chunks = () =>
    make((report, counts) => {
      result = { report, counts };
    });
  const finish = () => {
    if (!result) for (const _ of chunks());
    return result!;
  };
  return {
    chunks,
    report: () => ({ headers: MICROSOFT_REPORT_HEADERS, rows: finish().report }),
    counts: () => finish().counts,
  };
}

/** The Microsoft bulk file of a build's tables (see the module's comment). */
export function writeMicrosoftBulk(
  tables: readonly ExportTable[],
  options: MicrosoftBulkOptions = {},
): MicrosoftBulk {
  return bulkOnDemand<MicrosoftBulkCounts>(function* (done) {
    const report: string[][] = [];
    const counts: MicrosoftBulkCounts = { records: {}, notWritten: 0, changed: 0, paused: 0 };
    const last = yield* bulkChunks(tables, options, report, counts);
    done(report, counts);
    if (last !== '') yield last;
  });
}

/** `ExportContext` with what this format may also be told. */
export type MicrosoftExportContext = ExportContext & MicrosoftBulkOptions;

/**
 * Microsoft Advertising: the bulk file (a BOM, then the CSV; with the client's label when the
 * context gives one), then the report of what did not go or went changed (formulas neutralised: it is for a spreadsheet), then the build's
 * skipped-and-cleaned report when the host gives one.
 */
export const MICROSOFT_ADVERTISING: ExportFormat = {
  id: 'microsoft-advertising',
  label: 'Microsoft Advertising',
  files(tables, context: MicrosoftExportContext) {
    if (tables.length === 0) return [];
    const bulk = writeMicrosoftBulk(tables, {
      ...(context.microsoftLocationId ? { microsoftLocationId: context.microsoftLocationId } : {}),
      ...(context.clientLabel ? { label: { name: context.clientLabel } } : {}),
    });
    const files: ExportFile[] = [
      {
        name: context.fileName(MICROSOFT_BULK_FILE_STEM, 'csv'),
        type: 'text/csv;charset=utf-8',
        bom: true,
        chunks: () => bulk.chunks(),
      },
      {
        name: context.fileName(MICROSOFT_REPORT_FILE_STEM, 'csv'),
        type: 'text/csv;charset=utf-8',
        bom: true,
        chunks: () => formatCsv(bulk.report(), { neutraliseFormulas: true }),
      },
    ];
    const { report } = context;
    if (report)
      files.push({
        name: context.fileName(report.stem, 'csv'),
        type: 'text/csv;charset=utf-8',
        bom: true,
        chunks: () => formatCsv(report.read(), { neutraliseFormulas: true }),
      });
    return files;
  },
};
