import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateBuild } from './build.ts';
import { formatCsv } from './csv.ts';
import { importCsvRows, withRowIds } from './data.ts';
import {
  adGroupsTable,
  calloutsTable,
  campaignsTable,
  linesOfCampaigns,
  linesOfItems,
  responsiveSearchAdsTable,
} from './export.ts';
import { IntChunks } from './keywords/intLists.ts';
import { readRowStatus, rowStatusCodes, statusOfAvailability } from './rowStatus.ts';
import {
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restoreRsaTemplate,
} from './restore.ts';
import type { FeedRow } from './types.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures');
const json = (name: string): unknown => JSON.parse(readFileSync(path.join(fixtures, name), 'utf8'));

/** Rows of a CSV text, ids row-1... */
function rowsOf(csv: string): FeedRow[] {
  const imported = importCsvRows(csv);
  if (!imported.ok) throw new Error(imported.error);
  return withRowIds(imported.rows, (i) => `row-${i + 1}`);
}

const campaign = restoreCampaignTemplate({
  ...(json('campaign.json') as object),
  campaign: '{const} - {root}',
  adGroup: '{root} {mod}',
  keywords: [
    { keyword: '{root} {mod}', matchType: 'Exact', selected: true },
    { keyword: '{root} {mod} {var1}', matchType: 'Phrase', selected: true },
    { keyword: '{mod} cheap', matchType: 'Negative Broad', selected: true },
  ],
});
const rsa = restoreRsaTemplate(json('rsa.json'));
const callout = restoreExtensionTemplate({
  ...(json('callout.json') as object),
  templates: [{ 'Callout text': 'Free {root} Delivery' }],
});

/** Every file of a run as text (the keyword CSVs streamed, the rest through the tables). */
function run(rows: FeedRow[]) {
  const keywords: string[] = [];
  const negatives: string[] = [];
  const keywordRows = new IntChunks();
  const negativeRows = new IntChunks();
  const build = generateBuild(
    { rows, campaign, rsa, extensions: [callout], today: '20260101' },
    {
      keywords: (c) => keywords.push(c),
      negatives: (c) => negatives.push(c),
      keywordRows,
      negativeRows,
    },
  );
  const text = (t: Parameters<typeof formatCsv>[0]): string => [...formatCsv(t)].join('');
  return {
    build,
    keywords: keywords.join(''),
    negatives: negatives.join(''),
    campaigns: text(campaignsTable(build.campaigns, build.status)),
    adGroups: text(adGroupsTable(build.adGroups, build.status)),
    rsa: text(responsiveSearchAdsTable(build.rsaAds ?? [], build.status)),
    callouts: text(calloutsTable(build.extensions.get('Callout') ?? [], build.status)),
    keywordRows: Array.from({ length: keywordRows.length }, (_, i) => keywordRows.at(i)),
    negativeRows: Array.from({ length: negativeRows.length }, (_, i) => negativeRows.at(i)),
  };
}

const FEED = [
  'Root,Modifier,Var 1,Final URL,Status',
  'Nike,Air Max,Red,https://a.example/1,{s1}',
  'Nike,Air Max,Blue,https://a.example/2,{s2}',
  'Puma,Suede,Blue,https://a.example/3,{s3}',
].join('\n');
const feed = (s1: string, s2: string, s3: string): FeedRow[] =>
  rowsOf(FEED.replace('{s1}', s1).replace('{s2}', s2).replace('{s3}', s3));
/** The CSV lines of `text` whose cells include `needle`. */
const linesWith = (text: string, needle: string): string[] =>
  text.split('\r\n').filter((l) => l.includes(needle));

describe('row status', () => {
  it('reads the spellings of the column and the merchant availabilities', () => {
    for (const cell of ['', 'active', ' Enabled ', 'ACTIVE', 'in stock', 'in_stock', 'preorder'])
      expect(readRowStatus(cell)).toEqual({ status: 'active', known: true });
    for (const cell of ['paused', 'Paused', 'PAUSED ', 'out of stock', 'Out_Of_Stock'])
      expect(readRowStatus(cell)).toEqual({ status: 'paused', known: true });
    expect(readRowStatus('backorder')).toEqual({ status: 'active', known: true });
    expect(readRowStatus('maybe')).toEqual({ status: 'active', known: false });
    expect(statusOfAvailability('out_of_stock')).toBe('paused');
    expect(statusOfAvailability('in stock')).toBe('active');
    expect(statusOfAvailability('backorder')).toBe('active');
    expect(statusOfAvailability('preorder')).toBe('active');
    expect(statusOfAvailability('')).toBe('');
    expect(statusOfAvailability(' discontinued ')).toBe('discontinued');
  });

  it('writes no status column and the same files when no row is paused', () => {
    const plain = run(rowsOf(FEED.replace(/,Status|,\{s\d\}/g, '')));
    const active = run(feed('active', '', 'Enabled'));
    expect(active.build.status).toBeUndefined();
    const { build: _a, ...files } = active;
    const { build: _p, ...want } = plain;
    expect(files).toEqual(want);
    expect(active.keywords.split('\r\n')[0]).toBe('Campaign,Ad Group,Keyword,Criterion Type');
  });

  it('pauses every item when every row behind it is paused', () => {
    const out = run(feed('paused', 'paused', 'out of stock'));
    expect(out.keywords.split('\r\n')[0]).toBe('Campaign,Ad Group,Keyword,Criterion Type,Status');
    const lines = (t: string) =>
      t
        .split('\r\n')
        .slice(1)
        .filter((l) => l !== '');
    // A campaign's location rows leave its status as it is (a blank cell).
    const campaignRows = lines(out.campaigns).filter((l) => l.includes(',Search,'));
    expect(campaignRows).toHaveLength(2);
    expect(lines(out.campaigns).filter((l) => !l.includes(',Search,'))[0]).toMatch(/,$/);
    for (const t of [out.keywords, out.negatives, out.adGroups, out.rsa])
      for (const l of lines(t)) expect(l.endsWith(',Paused')).toBe(true);
    for (const l of campaignRows) expect(l.endsWith(',Paused')).toBe(true);
    expect(lines(out.keywords)).toHaveLength(5);
    expect(out.campaigns.split('\r\n')[0]).toMatch(/,Campaign Status$/);
    expect(out.adGroups.split('\r\n')[0]).toBe('Campaign,Ad Group,Ad Group Status');
    expect(lines(out.callouts).every((l) => l.endsWith(',Paused'))).toBe(true);
  });

  it('keeps enabled what one active row makes: a campaign, a merged ad group, their shared lines', () => {
    const out = run(feed('paused', '', 'paused'));
    expect(out.build.status).toBeDefined();
    // Nike's campaign and its ad group (rows 1 and 2 merged) stay enabled through row 2.
    expect(linesWith(out.campaigns, 'Shoes - Nike,Search')[0]).toMatch(/,Enabled$/);
    expect(linesWith(out.adGroups, 'Nike Air Max')).toEqual(['Shoes - Nike,Nike Air Max,Enabled']);
    // Row 1's own keyword (Red) is paused; the Exact keyword both rows make stays enabled.
    expect(linesWith(out.keywords, 'nike air max red')).toEqual([
      'Shoes - Nike,Nike Air Max,nike air max red,Phrase,Paused',
    ]);
    expect(linesWith(out.keywords, 'nike air max,Exact')).toEqual([
      'Shoes - Nike,Nike Air Max,nike air max,Exact,Enabled',
    ]);
    expect(linesWith(out.keywords, 'nike air max blue')[0]).toMatch(/,Enabled$/);
    // The ad of an enabled ad group is enabled, though its row (row 1) is paused.
    expect(linesWith(out.rsa, 'Shoes - Nike')[0]).toMatch(/,Enabled$/);
    // Puma: every row behind it paused.
    expect(linesWith(out.campaigns, 'Shoes - Puma,Search')[0]).toMatch(/,Paused$/);
    for (const t of [out.adGroups, out.keywords, out.negatives, out.rsa])
      for (const l of linesWith(t, 'Puma')) expect(l).toMatch(/,Paused$/);
    expect(linesWith(out.callouts, 'Free Puma Delivery')[0]).toMatch(/,Paused$/);
    expect(linesWith(out.callouts, 'Free Nike Delivery')[0]).toMatch(/,Enabled$/);
  });

  it('goes back to Enabled when the row returns', () => {
    const paused = run(feed('', '', 'paused'));
    expect(linesWith(paused.adGroups, 'Puma')).toEqual(['Shoes - Puma,Puma Suede,Paused']);
    const back = run(feed('', '', 'active'));
    expect(back.build.status).toBeUndefined();
    expect(linesWith(back.adGroups, 'Puma')).toEqual(['Shoes - Puma,Puma Suede']);
    const mixed = run(feed('paused', '', 'in stock'));
    expect(linesWith(mixed.adGroups, 'Puma')).toEqual(['Shoes - Puma,Puma Suede,Enabled']);
  });

  it('reports a status it does not know and reads the row as active', () => {
    const rows = feed('soon', '', '');
    expect(rowStatusCodes(rows)?.[0]).toBe(2);
    const out = run(rows);
    expect(out.build.status).toBeUndefined();
    expect(out.build.issues.filter((i) => i.code === 'status-unknown')).toEqual([
      expect.objectContaining({ rowId: 'row-1', rowNumber: 1, output: 'feed', kind: 'warning' }),
    ]);
  });
});

describe('each table row names the feed row that made it', () => {
  const lineOfRowId = (id: string): number => Number(id.slice('row-'.length));

  it('for keyword and negative lines, streamed', () => {
    const out = run(feed('', '', ''));
    const keywordLines = out.keywords.split('\r\n').slice(1, -1);
    expect(out.keywordRows).toHaveLength(keywordLines.length);
    // Row 1 makes the Nike lines, row 2 only its Blue phrase, row 3 Puma's (indexes from 0).
    keywordLines.forEach((l, i) => {
      const row = out.keywordRows[i]!;
      if (l.includes('blue') && l.includes('nike')) expect(row).toBe(1);
      else expect(row).toBe(l.includes('Puma') ? 2 : 0);
    });
    expect(out.negativeRows).toEqual([0, 2]);
  });

  it('for campaigns (with their location rows), ad groups, ads and assets', () => {
    const rows = feed('', '', '');
    const out = run(rows);
    const { build } = out;
    expect(linesOfCampaigns(build.campaigns, lineOfRowId)).toEqual(Uint32Array.from([1, 1, 3, 3]));
    expect(linesOfItems(build.adGroups, (g) => g.id, lineOfRowId)).toEqual(
      Uint32Array.from([1, 3]),
    );
    expect(linesOfItems(build.rsaAds ?? [], (a) => a.rowId, lineOfRowId)).toEqual(
      Uint32Array.from([1, 3]),
    );
    const callouts = build.extensions.get('Callout') ?? [];
    expect(linesOfItems(callouts, (e) => e.rowId, lineOfRowId)).toEqual(Uint32Array.from([1, 3]));
    expect(linesOfItems([{ rowId: '' }], (e) => e.rowId, lineOfRowId)).toEqual(
      Uint32Array.from([0]),
    );
  });
});
