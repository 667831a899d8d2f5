/**
 * Tables for Google Ads Editor (Account > Import > From file) and for tab-separated copy. Each
 * builder returns a `Table` whose rows are produced lazily, so a million lines stream through
 * `formatCsv` without an intermediate array of rows.
 */
import type { PerformanceMaxAd } from './ads/performanceMax.ts';
import type { RsaAd } from './ads/rsa.ts';
import { pinCell } from './ads/rsaLine.ts';
import type { CampaignRow } from './campaignRows.ts';
import type { Table } from './csv.ts';
import { KEYWORD_HEADERS } from './keywords/lineWriters.ts';
import type { GeneratedExtension } from './extensions.ts';
import {
  PMAX_MAX_DESCRIPTIONS,
  PMAX_MAX_HEADLINES,
  PMAX_MAX_LONG_HEADLINES,
  RSA_AD_TYPE,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
} from './limits.ts';
import type { AdGroupRef, AssetGroupRef, KeywordLine, MatchType } from './types.ts';
import { editorStatus, type BuildStatus } from './buildStatus.ts';

/**
 * `table` with a status column `header` after its columns: each row's cell from `pausedOf(i)`
 * (Paused, Enabled, or '' for a row that only adds to the item of the row before, such as a
 * campaign's location). Rows are copied (a table may hand out one reused row).
 */
export function withStatusColumn(
  table: Table,
  header: string,
  pausedOf: (row: number) => boolean | undefined,
): Table {
  return {
    headers: [...table.headers, header],
    rows: {
      *[Symbol.iterator]() {
        let i = 0;
        for (const row of table.rows) {
          const paused = pausedOf(i++);
          yield [...row, paused === undefined ? '' : editorStatus(paused)];
        }
      },
    },
  };
}

function numbered(name: string, n: number, suffix = ''): string[] {
  return Array.from({ length: n }, (_, i) => `${name} ${i + 1}${suffix}`);
}

/** Editor's Criterion Type: negatives without an ad group are campaign negatives. */
export function criterionType(line: KeywordLine): string {
  return line.adGroup === '' && line.matchType.startsWith('Negative')
    ? `Campaign ${line.matchType}`
    : line.matchType;
}

/** Keywords or negatives: Campaign, Ad Group, Keyword, Criterion Type. */
export function keywordsTable(lines: readonly KeywordLine[], status?: BuildStatus): Table {
  if (status) {
    const plain = keywordsTable(lines);
    return withStatusColumn(plain, 'Status', (i) => {
      const l = lines[i]!;
      return status.keywordPaused(l.campaign, l.adGroup, l.keyword, l.matchType);
    });
  }
  return {
    headers: KEYWORD_HEADERS,
    rows: {
      *[Symbol.iterator]() {
        const row: string[] = ['', '', '', ''];
        for (const l of lines) {
          row[0] = l.campaign;
          row[1] = l.adGroup;
          row[2] = l.keyword;
          row[3] = criterionType(l);
          yield row;
        }
      },
    },
  };
}

/** The text notation of a keyword line (broad bare, "phrase", [exact], leading - for negatives). */
export function keywordNotation(keyword: string, matchType: MatchType): string {
  switch (matchType) {
    case 'Broad':
      return keyword;
    case 'Phrase':
      return `"${keyword}"`;
    case 'Exact':
      return `[${keyword}]`;
    case 'Negative Broad':
      return `-${keyword}`;
    case 'Negative Phrase':
      return `-"${keyword}"`;
    case 'Negative Exact':
      return `-[${keyword}]`;
  }
}

/**
 * Campaign rows: Campaign, Campaign Type, Budget, Location ID and the included optional settings.
 * Editor takes one location per row: a campaign's row leaves Location ID blank and each of its
 * locations follows as a row of its own (Campaign and Location ID; the other cells blank, which
 * Editor reads as "no change"). A location value listing several IDs (separated by `;`, `,` or
 * line breaks) gives a row per ID.
 */
export function campaignsTable(campaigns: readonly CampaignRow[], status?: BuildStatus): Table {
  if (status) {
    // A campaign's own row says its status; its location rows leave it as is.
    const paused: Array<boolean | undefined> = [];
    for (const c of campaigns) {
      paused.push(status.campaignPaused(c.campaign));
      for (let n = locationIds(c.locationId).length; n > 0; n--) paused.push(undefined);
    }
    const plain = campaignsTable(campaigns);
    // A template's own Campaign Status setting stays its column: a paused campaign says Paused.
    const own = plain.headers.findIndex((h) => h.toLowerCase() === 'campaign status');
    if (own >= 0)
      return {
        headers: plain.headers,
        rows: [...plain.rows].map((row, i) =>
          paused[i] === true ? row.map((cell, c) => (c === own ? 'Paused' : cell)) : row,
        ),
      };
    return withStatusColumn(plain, 'Campaign Status', (i) => paused[i]);
  }
  const hasBudget = campaigns.some((c) => c.budget !== undefined);
  const hasLocation = campaigns.some((c) => c.locationId !== undefined);
  const settingNames: string[] = [];
  for (const c of campaigns)
    for (const k of Object.keys(c.settings)) if (!settingNames.includes(k)) settingNames.push(k);
  const headers = [
    'Campaign',
    'Campaign Type',
    ...(hasBudget ? ['Budget'] : []),
    ...(hasLocation ? ['Location ID'] : []),
    ...settingNames,
  ];
  const locationAt = hasBudget ? 3 : 2;
  const rows: string[][] = [];
  for (const c of campaigns) {
    rows.push([
      c.campaign,
      c.campaignType,
      ...(hasBudget ? [c.budget === undefined ? '' : String(c.budget)] : []),
      ...(hasLocation ? [''] : []),
      ...settingNames.map((n) => c.settings[n] ?? ''),
    ]);
    for (const id of locationIds(c.locationId)) {
      const row = new Array<string>(headers.length).fill('');
      row[0] = c.campaign;
      row[locationAt] = id;
      rows.push(row);
    }
  }
  return { headers, rows };
}

/** The location IDs of a campaign's Location ID value (none when it is blank). */
function locationIds(value: string | undefined): string[] {
  if (value === undefined) return [];
  const ids: string[] = [];
  for (const part of value.split(/[;,\r\n]/)) {
    const id = part.trim();
    if (id !== '' && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Ad groups: Campaign, Ad Group. */
export function adGroupsTable(groups: readonly AdGroupRef[], status?: BuildStatus): Table {
  if (status)
    return withStatusColumn(adGroupsTable(groups), 'Ad Group Status', (i) =>
      status.groupPaused(groups[i]!.campaign, groups[i]!.adGroup),
    );
  return { headers: ['Campaign', 'Ad Group'], rows: groups.map((g) => [g.campaign, g.adGroup]) };
}

/** Asset groups of a Performance Max campaign: Campaign, Asset Group, Campaign Type. */
export function assetGroupsTable(groups: readonly AssetGroupRef[], status?: BuildStatus): Table {
  if (status)
    return withStatusColumn(assetGroupsTable(groups), 'Status', (i) =>
      status.groupPaused(groups[i]!.campaign, groups[i]!.assetGroup),
    );
  return {
    headers: ['Campaign', 'Asset Group', 'Campaign Type'],
    rows: groups.map((g) => [g.campaign, g.assetGroup, 'Performance Max']),
  };
}

/** The header of the responsive search ads file, in Editor's columns. */
export const RSA_HEADERS: readonly string[] = [
  'Campaign',
  'Ad Group',
  'Ad type',
  ...numbered('Headline', RSA_MAX_HEADLINES),
  ...numbered('Headline', RSA_MAX_HEADLINES, ' position'),
  ...numbered('Description', RSA_MAX_DESCRIPTIONS),
  ...numbered('Description', RSA_MAX_DESCRIPTIONS, ' position'),
  'Path 1',
  'Path 2',
  'Final URL',
  'Labels',
];

/**
 * One responsive search ad's cells under `RSA_HEADERS`, in `into` when given (a writer that
 * consumes each line at once reuses one array for every ad instead of making one per ad).
 */
export function responsiveSearchAdCells(a: RsaAd, into: string[] = []): string[] {
  const row = into;
  row[0] = a.campaign;
  row[1] = a.adGroup;
  row[2] = RSA_AD_TYPE;
  let c = 3;
  for (let i = 0; i < RSA_MAX_HEADLINES; i++) row[c++] = a.headlines[i] ?? '';
  for (let i = 0; i < RSA_MAX_HEADLINES; i++) row[c++] = pinCell(a.headlinePositions[i]);
  for (let i = 0; i < RSA_MAX_DESCRIPTIONS; i++) row[c++] = a.descriptions[i] ?? '';
  for (let i = 0; i < RSA_MAX_DESCRIPTIONS; i++) row[c++] = pinCell(a.descriptionPositions[i]);
  row[c++] = a.paths[0];
  row[c++] = a.paths[1];
  row[c++] = a.finalUrl;
  row[c++] = a.labels.length === 0 ? '' : a.labels.join(';');
  row.length = c;
  return row;
}

/** Responsive search ads in Editor's columns. */
export function responsiveSearchAdsTable(ads: readonly RsaAd[], status?: BuildStatus): Table {
  if (status)
    return withStatusColumn(responsiveSearchAdsTable(ads), 'Status', (i) =>
      status.groupPaused(ads[i]!.campaign, ads[i]!.adGroup),
    );
  return {
    headers: RSA_HEADERS,
    rows: {
      *[Symbol.iterator]() {
        for (const a of ads) yield responsiveSearchAdCells(a);
      },
    },
  };
}

/** Performance Max asset groups with their assets in Editor's columns. */
export function performanceMaxAdsTable(
  ads: readonly PerformanceMaxAd[],
  status?: BuildStatus,
): Table {
  if (status)
    return withStatusColumn(performanceMaxAdsTable(ads), 'Status', (i) =>
      status.groupPaused(ads[i]!.campaign, ads[i]!.assetGroup),
    );
  const headers = [
    'Campaign',
    'Asset Group',
    ...numbered('Headline', PMAX_MAX_HEADLINES),
    ...numbered('Long headline', PMAX_MAX_LONG_HEADLINES),
    ...numbered('Description', PMAX_MAX_DESCRIPTIONS),
    'Business name',
    'Call to action',
    'Path 1',
    'Path 2',
    'Final URL',
    'Labels',
  ];
  const fill = (xs: readonly string[], n: number): string[] =>
    Array.from({ length: n }, (_, i) => xs[i] ?? '');
  return {
    headers,
    rows: ads.map((a) => [
      a.campaign,
      a.assetGroup,
      ...fill(a.headlines, PMAX_MAX_HEADLINES),
      ...fill(a.longHeadlines, PMAX_MAX_LONG_HEADLINES),
      ...fill(a.descriptions, PMAX_MAX_DESCRIPTIONS),
      a.businessName,
      a.callToAction,
      a.paths[0],
      a.paths[1],
      a.finalUrl,
      a.labels.join(';'),
    ]),
  };
}

/** The place columns of every asset table: Campaign (`<Account-level>` for the account), Ad Group. */
const ASSET_PLACE_HEADERS = ['Campaign', 'Ad Group'] as const;

/** An asset table: its place, then `cells` of each asset. */
function assetTable(
  exts: readonly GeneratedExtension[],
  headers: readonly string[],
  cells: (e: GeneratedExtension) => string[],
  status?: BuildStatus,
): Table {
  const table = {
    headers: [...ASSET_PLACE_HEADERS, ...headers],
    rows: exts.map((e) => [e.campaign, e.adGroup, ...cells(e)]),
  };
  return status
    ? withStatusColumn(table, 'Status', (i) => status.extensionPaused(exts[i]!))
    : table;
}

/** Sitelinks: Campaign, Ad Group, Link Text, Description Line 1, Description Line 2, Final URL. */
export function sitelinksTable(exts: readonly GeneratedExtension[], status?: BuildStatus): Table {
  return assetTable(
    exts,
    ['Link Text', 'Description Line 1', 'Description Line 2', 'Final URL'],
    (e) => [
      e.values['Link Text'] ?? '',
      e.values['Description Line 1'] ?? '',
      e.values['Description Line 2'] ?? '',
      e.values['Final URL'] ?? '',
    ],
    status,
  );
}

/** Callouts: Campaign, Ad Group, Callout text. */
export function calloutsTable(exts: readonly GeneratedExtension[], status?: BuildStatus): Table {
  return assetTable(exts, ['Callout text'], (e) => [e.values['Callout text'] ?? ''], status);
}

/** Structured snippets: Campaign, Ad Group, Header, Snippet Values (values separated by ';'). */
export function structuredSnippetsTable(
  exts: readonly GeneratedExtension[],
  status?: BuildStatus,
): Table {
  return assetTable(
    exts,
    ['Header', 'Snippet Values'],
    (e) => [e.values.Header ?? '', (e.values['Snippet Values'] ?? '').replace(/;\s*/g, ';')],
    status,
  );
}

/**
 * The spec's copy-to-sheet layout for snippets: Campaign, Ad Group, Header, Snippet Values,
 * Upgraded extension.
 */
export function structuredSnippetsCopyTable(exts: readonly GeneratedExtension[]): Table {
  return assetTable(exts, ['Header', 'Snippet Values', 'Upgraded extension'], (e) => [
    e.values.Header ?? '',
    e.values['Snippet Values'] ?? '',
    e.values['Upgraded extension'] ?? '',
  ]);
}

/** The table for a generated extension list of one type. */
export function extensionsTable(exts: readonly GeneratedExtension[], status?: BuildStatus): Table {
  const type = exts[0]?.type ?? 'Callout';
  if (type === 'Sitelink') return sitelinksTable(exts, status);
  if (type === 'Structured Snippet') return structuredSnippetsTable(exts, status);
  return calloutsTable(exts, status);
}

/**
 * Each item's feed line (`ExportTable.lines`): `lineOfRowId` of the id of the row that made it
 * (`rowIdOf`: an ad's or asset's `rowId`, a group's `id`), 0 for none (an account-level asset).
 */
export function linesOfItems<T>(
  items: readonly T[],
  rowIdOf: (item: T) => string,
  lineOfRowId: (rowId: string) => number,
): Uint32Array {
  return Uint32Array.from(items, (item) => {
    const id = rowIdOf(item);
    return id === '' ? 0 : lineOfRowId(id);
  });
}

/** The feed line of each row of `campaignsTable(campaigns)` (a campaign's location rows too). */
export function linesOfCampaigns(
  campaigns: readonly CampaignRow[],
  lineOfRowId: (rowId: string) => number,
): Uint32Array {
  const lines: number[] = [];
  for (const c of campaigns) {
    const line = lineOfRowId(c.rowId);
    lines.push(line);
    for (let n = locationIds(c.locationId).length; n > 0; n--) lines.push(line);
  }
  return Uint32Array.from(lines);
}
