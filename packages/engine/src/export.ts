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
export function keywordsTable(lines: readonly KeywordLine[]): Table {
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
export function campaignsTable(campaigns: readonly CampaignRow[]): Table {
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
export function adGroupsTable(groups: readonly AdGroupRef[]): Table {
  return { headers: ['Campaign', 'Ad Group'], rows: groups.map((g) => [g.campaign, g.adGroup]) };
}

/** Asset groups of a Performance Max campaign: Campaign, Asset Group, Campaign Type. */
export function assetGroupsTable(groups: readonly AssetGroupRef[]): Table {
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
export function responsiveSearchAdsTable(ads: readonly RsaAd[]): Table {
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
export function performanceMaxAdsTable(ads: readonly PerformanceMaxAd[]): Table {
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
): Table {
  return {
    headers: [...ASSET_PLACE_HEADERS, ...headers],
    rows: exts.map((e) => [e.campaign, e.adGroup, ...cells(e)]),
  };
}

/** Sitelinks: Campaign, Ad Group, Link Text, Description Line 1, Description Line 2, Final URL. */
export function sitelinksTable(exts: readonly GeneratedExtension[]): Table {
  return assetTable(
    exts,
    ['Link Text', 'Description Line 1', 'Description Line 2', 'Final URL'],
    (e) => [
      e.values['Link Text'] ?? '',
      e.values['Description Line 1'] ?? '',
      e.values['Description Line 2'] ?? '',
      e.values['Final URL'] ?? '',
    ],
  );
}

/** Callouts: Campaign, Ad Group, Callout text. */
export function calloutsTable(exts: readonly GeneratedExtension[]): Table {
  return assetTable(exts, ['Callout text'], (e) => [e.values['Callout text'] ?? '']);
}

/** Structured snippets: Campaign, Ad Group, Header, Snippet Values (values separated by ';'). */
export function structuredSnippetsTable(exts: readonly GeneratedExtension[]): Table {
  return assetTable(exts, ['Header', 'Snippet Values'], (e) => [
    e.values.Header ?? '',
    (e.values['Snippet Values'] ?? '').replace(/;\s*/g, ';'),
  ]);
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
export function extensionsTable(exts: readonly GeneratedExtension[]): Table {
  const type = exts[0]?.type ?? 'Callout';
  if (type === 'Sitelink') return sitelinksTable(exts);
  if (type === 'Structured Snippet') return structuredSnippetsTable(exts);
  return calloutsTable(exts);
}
