/**
 * The Microsoft bulk file's writer: one pass over a build's tables makes the bulk file (Microsoft's
 * Bulk File Schema, format version 6.0, UTF-8 CSV) in chunks, and the report of every item that
 * could not go to Microsoft or went changed, with its reason. Microsoft's rules are
 * microsoftRules.ts's, the lines' parts microsoftLines.ts's.
 *
 * New parents get negative reference keys (`Id` -1, -2, …) that their children name in
 * `Parent Id`, beside the Campaign and Ad Group names (the schema's logical reference keys), so
 * every record type finds its parent whichever key it reads. Records follow the schema's type
 * hierarchy: campaigns with their location criteria, ad groups, keywords, negative keywords,
 * responsive search ads, then each extension before its first association.
 */
import { formatCsvCell, formatCsvLine, type Table } from '../csv.ts';
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
} from '../limits.ts';
import type { ExportTable, ExportTableKind } from './exportFormat.ts';
import {
  MICROSOFT_ACTIVE_RSAS_PER_AD_GROUP,
  MICROSOFT_AD_GROUPS_PER_CAMPAIGN,
  MICROSOFT_CAMPAIGNS_PER_ACCOUNT,
  MICROSOFT_EXTENSIONS_PER_ENTITY,
  MICROSOFT_FORMAT_VERSION,
  MICROSOFT_KEYWORDS_PER_AD_GROUP,
  MICROSOFT_KEYWORD_MAX_CHARS,
  MICROSOFT_NAME_MAX_CHARS,
  MICROSOFT_NEGATIVES_PER_PARENT,
  NEGATIVE_TYPES,
  cell,
  columnOf,
  extensionCells,
  languagesOf,
  locationIdsOf,
  statusOf,
} from './microsoftRules.ts';
import {
  AssetList,
  C,
  COMMAS,
  KeywordLines,
  LABEL_ASSOCIATION_TYPES,
  LABEL_AT,
  LABELLED_TAILS,
  Labelled,
  MICROSOFT_BULK_HEADERS,
  MICROSOFT_LABELLED_HEADERS,
  PLAIN_TAILS,
  PathColumn,
  RecordPrefixes,
  bulkLine,
  rsaProblem,
} from './microsoftLines.ts';
import { NewAdGroups } from './microsoftAdGroups.ts';

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
  const placeOf = (i: number): string => newGroups.placeOf(i);
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
  // The new ad groups: their indices, keys and cells, found by campaign and name.
  const newGroups = new NewAdGroups(campaignKeys);
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
    const adGroupCell = formatCsvCell(adGroup);
    const g = newGroups.add(campaign, adGroup, key, adGroupCell);
    if (newGroups.size > perGroup.length) {
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
      : (newGroups.groupsOf(campaign)?.count ?? 0) >= MICROSOFT_AD_GROUPS_PER_CAMPAIGN
        ? `Microsoft takes at most ${MICROSOFT_AD_GROUPS_PER_CAMPAIGN} ad groups per campaign`
        : undefined;
  /** The line of an ad group a child names in a campaign of this file, when it is new. */
  const impliedGroupLine = (campaign: string, adGroup: string): string | undefined => {
    if (adGroup === '' || newGroups.indexOf(campaign, adGroup) >= 0 || !campaignKeys.has(campaign))
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
      if (adGroup === '' || newGroups.indexOf(campaign, adGroup) >= 0) continue;
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
      const gi = newGroups.indexOf(campaign, adGroup);
      if (gi >= 0 && perGroup[gi]! >= MICROSOFT_KEYWORDS_PER_AD_GROUP) {
        reject(`Microsoft takes at most ${MICROSOFT_KEYWORDS_PER_AD_GROUP} keywords per ad group`);
        continue;
      }
      if (gi >= 0) perGroup[gi]!++;
      count('Keyword');
      const parent = newGroups.keyOfIndex(gi);
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
        const gi = newGroups.indexOf(campaign, adGroup);
        if (gi >= 0 && perGroup[gi]! >= MICROSOFT_NEGATIVES_PER_PARENT) {
          reject(
            `Microsoft takes at most ${MICROSOFT_NEGATIVES_PER_PARENT} negatives per ad group`,
          );
          continue;
        }
        if (gi >= 0) perGroup[gi]!++;
        parent = newGroups.keyOfIndex(gi);
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
      const gi = newGroups.indexOf(campaign, adGroup);
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
        newGroups.keyOfIndex(gi),
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
          ? newGroups.keyOfIndex(newGroups.indexOf(campaign, adGroup))
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
