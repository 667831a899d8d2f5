/**
 * Test helpers (imported by the plan's tests only): a build's export tables made by the engine's
 * own table builders from plain data, and seeded random builds with awkward text.
 */
import type { Table } from '../csv.ts';
import {
  adGroupsTable,
  campaignsTable,
  keywordsTable,
  responsiveSearchAdsTable,
  sitelinksTable,
} from '../export.ts';
import type { ExportTable, ExportTableKind } from '../formats/exportFormat.ts';
import type { RsaAd } from '../ads/rsa.ts';
import type { CampaignRow } from '../campaignRows.ts';
import type { GeneratedExtension } from '../extensions.ts';
import type { KeywordLine, MatchType } from '../types.ts';

/** A build as plain data, each row with its feed line and optional status. */
export interface TestBuild {
  campaigns: (CampaignRow & { line: number })[];
  adGroups: { campaign: string; adGroup: string; line: number; status?: string }[];
  keywords: (KeywordLine & { line: number; status?: string })[];
  negatives: (KeywordLine & { line: number })[];
  ads: (RsaAd & { line: number; status?: string })[];
  sitelinks: (GeneratedExtension & { line: number })[];
}

/** A table with a Status column filled from `statuses` when any is set. */
function withStatus(table: Table, header: string, statuses: (string | undefined)[]): Table {
  if (statuses.every((s) => s === undefined)) return table;
  // The engine's tables may hand out one array for every row: each is copied as it comes.
  const rows: string[][] = [];
  let i = 0;
  for (const r of table.rows) rows.push([...r, statuses[i++] ?? '']);
  return { headers: [...table.headers, header], rows };
}

function exportTable(kind: ExportTableKind, read: () => Table, lines: number[]): ExportTable {
  return { kind, read, lines: () => lines };
}

/** The export tables of a test build, in the web app's file order. */
export function tablesOf(b: TestBuild): ExportTable[] {
  const campaignLines: number[] = [];
  for (const c of b.campaigns) {
    campaignLines.push(c.line);
    const ids = (c.locationId ?? '').split(';').filter((x) => x.trim() !== '');
    for (let i = 0; i < new Set(ids).size; i++) campaignLines.push(c.line);
  }
  return [
    exportTable(
      'keywords',
      () =>
        withStatus(
          keywordsTable(b.keywords),
          'Status',
          b.keywords.map((k) => k.status),
        ),
      b.keywords.map((k) => k.line),
    ),
    exportTable(
      'negatives',
      () => keywordsTable(b.negatives),
      b.negatives.map((k) => k.line),
    ),
    exportTable(
      'ad-groups',
      () =>
        withStatus(
          adGroupsTable(b.adGroups as unknown as Parameters<typeof adGroupsTable>[0]),
          'Ad Group Status',
          b.adGroups.map((g) => g.status),
        ),
      b.adGroups.map((g) => g.line),
    ),
    exportTable(
      'responsive-search-ads',
      () =>
        withStatus(
          responsiveSearchAdsTable(b.ads),
          'Status',
          b.ads.map((a) => a.status),
        ),
      b.ads.map((a) => a.line),
    ),
    exportTable(
      'sitelinks',
      () => sitelinksTable(b.sitelinks),
      b.sitelinks.map((s) => s.line),
    ),
    exportTable('campaigns', () => campaignsTable(b.campaigns), campaignLines),
  ];
}

/** A seeded generator (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AWKWARD = [
  '"',
  ',',
  '\t',
  '\n',
  '\r\n',
  '😀',
  '日本',
  ' ',
  ';',
  '\\',
  '[',
  'é',
  "'",
  '\u2028',
];

/** A random text of letters with, now and then, an awkward character. */
export function randomText(rand: () => number, awkward = true): string {
  const n = 1 + Math.floor(rand() * 12);
  let s = '';
  for (let i = 0; i < n; i++) {
    if (awkward && rand() < 0.12) s += AWKWARD[Math.floor(rand() * AWKWARD.length)]!;
    else s += String.fromCharCode(97 + Math.floor(rand() * 26));
  }
  return s;
}

const MATCH: MatchType[] = ['Broad', 'Phrase', 'Exact'];

/** A random build: campaigns with ad groups, keywords, negatives, an ad per group, sitelinks. */
export function randomBuild(seed: number, size = 30, awkward = true): TestBuild {
  const rand = seeded(seed);
  const b: TestBuild = {
    campaigns: [],
    adGroups: [],
    keywords: [],
    negatives: [],
    ads: [],
    sitelinks: [],
  };
  const campaigns = 1 + Math.floor(size / 10);
  let line = 1;
  for (let c = 0; c < campaigns; c++) {
    const campaign = `C${c} ${randomText(rand, awkward)}`;
    const locations = rand() < 0.5 ? '2826;2840' : undefined;
    b.campaigns.push({
      campaign,
      campaignType: 'Search',
      budget: 10 + c,
      ...(locations ? { locationId: locations } : {}),
      settings: { Networks: 'Google search' },
      rowId: '',
      line,
    });
    for (let g = 0; g < size / campaigns; g++) {
      line++;
      const adGroup = `G${g} ${randomText(rand, awkward)}`;
      b.adGroups.push({ campaign, adGroup, line });
      const kws = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < kws; k++)
        b.keywords.push({
          campaign,
          adGroup,
          keyword: `k${k} ${randomText(rand, awkward)}`,
          matchType: MATCH[k % 3]!,
          line,
        });
      b.negatives.push({
        campaign,
        adGroup,
        keyword: `n ${randomText(rand, awkward)}`,
        matchType: 'Negative Broad',
        line,
      });
      b.ads.push({
        campaign,
        adGroup,
        headlines: [randomText(rand, awkward), 'Second headline', randomText(rand, awkward)],
        headlinePositions: [1, 0, 0],
        descriptions: [randomText(rand, awkward), 'A fixed description.'],
        descriptionPositions: [0, 0],
        paths: [randomText(rand, false), ''],
        finalUrl: `https://example.com/${g}/${randomText(rand, false)}`,
        labels: ['20261206-v1'],
        rowId: '',
        fallbackIndex: 0,
        line,
      });
      if (rand() < 0.3)
        b.sitelinks.push({
          type: 'Sitelink',
          campaign,
          adGroup,
          values: {
            'Link Text': `S ${randomText(rand, awkward)}`,
            'Description Line 1': 'one',
            'Description Line 2': 'two',
            'Final URL': `https://example.com/s/${g}`,
          },
          rowId: '',
          line,
        } as unknown as GeneratedExtension & { line: number });
    }
  }
  return b;
}

/** A deep copy of a build (tests mutate the copy). */
export function copyBuild(b: TestBuild): TestBuild {
  return JSON.parse(JSON.stringify(b)) as TestBuild;
}
