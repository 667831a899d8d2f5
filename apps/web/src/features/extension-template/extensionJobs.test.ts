import { testJobContext } from '../generation/testing/jobContext.ts';
import { describe, expect, it } from 'vitest';
import {
  formatCsv,
  formatTsv,
  newExtensionTemplate,
  restoreCampaignTemplate,
  structuredSnippetsCopyTable,
  generateExtensions,
  type ExtensionTemplate,
  type ExtensionTypeName,
  type FeedRow,
} from '@adloom/engine';
import { readPackedCell, unpackTable, type PackedTable } from '../generation/jobs.ts';
import { generateExtensionsJob } from './extensionJobs.ts';
import { extensionCopyTable, extensionEditorTable } from './extensionTables.ts';

function row(id: string, root: string, url = `https://shop.test/${id}`, status = ''): FeedRow {
  return { id, root, mod: '', var1: '', var2: '', var3: '', url, status };
}

const ROWS = [
  row('a', 'Nike'),
  row('b', 'Emporio Armani Collection Outlet'),
  row('c', 'Puma'),
  row('d', 'Nike'),
];

/** The active campaign template: a campaign per root, an ad group per root and modifier. */
const CAMPAIGN = restoreCampaignTemplate({
  name: 'Brands',
  campaign: '{root}',
  adGroup: '{root} {mod}',
  keywords: [{ keyword: '{root} {mod}', matchType: 'Broad' }],
});

function template(type: ExtensionTypeName, values: Record<string, string>): ExtensionTemplate {
  const t = newExtensionTemplate('T', type);
  return { ...t, templates: [{ ...t.templates[0], ...values }] };
}

function run(t: ExtensionTemplate, rows: readonly FeedRow[] = ROWS) {
  const progress: number[] = [];
  // The feed positions of the selected rows: rows 3, 5, 6, 9 of the feed.
  const rowPositions = Uint32Array.from([2, 4, 5, 8].slice(0, rows.length));
  return {
    progress,
    out: generateExtensionsJob(
      { template: t, campaign: CAMPAIGN },
      testJobContext(rows, { positions: [...rowPositions], onProgress: (f) => progress.push(f) }),
    ),
  };
}

function cells(table: PackedTable): string[][] {
  // unpackTable reuses one row array: copy each row as it comes.
  const out: string[][] = [];
  for (const r of unpackTable(table).rows) out.push([...r]);
  return out;
}

describe('generateExtensionsJob', () => {
  it("names each asset's feed line, and sends those only paused rows make out Paused", async () => {
    const callout = template('Callout', { 'Callout text': 'All {root} shoes' });
    const plain = await run(callout).out;
    expect(plain.table.headers).not.toContain('Status');
    expect([...plain.table.lines!]).toEqual([3, 6]);
    const paused = await run(callout, [
      row('a', 'Nike', undefined, 'paused'),
      row('b', 'Puma', undefined, 'out of stock'),
      row('c', 'Adidas'),
      row('d', 'Nike'),
    ]).out;
    expect(cells(paused.table)).toEqual([
      ['Nike', '', 'All Nike shoes', 'Enabled'],
      ['Puma', '', 'All Puma shoes', 'Paused'],
      ['Adidas', '', 'All Adidas shoes', 'Enabled'],
    ]);
    expect(paused.table.headers.at(-1)).toBe('Status');
    expect([...paused.table.lines!]).toEqual([3, 5, 6]);
  });

  it('makes callouts per row, once each, and reports rows over the limit with their feed row', async () => {
    const { out } = run(template('Callout', { 'Callout text': 'All {root} shoes' }));
    const result = await out;
    expect(result.table.headers).toEqual(['Campaign', 'Ad Group', 'Callout text']);
    expect(cells(result.table)).toEqual([
      ['Nike', '', 'All Nike shoes'],
      ['Puma', '', 'All Puma shoes'],
    ]);
    expect(result.copyTable.headers).toEqual([
      'Campaign',
      'Ad Group',
      'Callout text',
      'Upgraded extension',
    ]);
    expect(result.attach.level).toBe('campaign');
    expect(result.issues.rowCount).toBe(1);
    // Row column of the issue: the feed row number (position 4 + 1), not the selection index.
    expect(readPackedCell(result.issues, 0, 0)).toBe('5');
  });

  it('gives structured snippets the copy columns Header, Snippet Values, Upgraded extension', async () => {
    const t = template('Structured Snippet', {
      Header: 'brands',
      'Snippet Values': '{root};Adidas; Asics',
      'Upgraded extension': 'yes',
    });
    const result = await run(t, [row('a', 'Nike'), row('c', 'Puma')]).out;
    expect(result.copyTable.headers).toEqual([
      'Campaign',
      'Ad Group',
      'Header',
      'Snippet Values',
      'Upgraded extension',
    ]);
    expect(cells(result.copyTable)).toEqual([
      ['Nike', '', 'Brands', 'Nike; Adidas; Asics', 'yes'],
      ['Puma', '', 'Brands', 'Puma; Adidas; Asics', 'yes'],
    ]);
    // The Editor layout: Header, Snippet Values separated by ';'.
    expect(result.table.headers).toEqual(['Campaign', 'Ad Group', 'Header', 'Snippet Values']);
    expect(cells(result.table)[0]).toEqual(['Nike', '', 'Brands', 'Nike;Adidas;Asics']);
    // Copy equals the engine's snippet copy layout.
    const { extensions } = generateExtensions({
      template: t,
      rows: [row('a', 'Nike')],
      campaign: CAMPAIGN,
    });
    expect(formatTsv(extensionCopyTable('Structured Snippet', extensions))).toBe(
      formatTsv(structuredSnippetsCopyTable(extensions)),
    );
  });

  it("fills a sitelink's empty Final URL from the row and writes Editor's headers", async () => {
    const t = template('Sitelink', {
      'Link Text': '{root} Sale',
      'Description Line 1': 'Up to 50% off',
      'Description Line 2': 'Free returns',
    });
    const result = await run(t, [row('a', 'Nike')]).out;
    expect(result.table.headers).toEqual([
      'Campaign',
      'Ad Group',
      'Link Text',
      'Description Line 1',
      'Description Line 2',
      'Final URL',
    ]);
    // The row's URL varies per row: the sitelink attaches to the row's ad group.
    expect(cells(result.table)).toEqual([
      ['Nike', 'Nike', 'Nike Sale', 'Up to 50% off', 'Free returns', 'https://shop.test/a'],
    ]);
    expect(result.attach.level).toBe('adGroup');
    const csv = [...formatCsv(unpackTable(result.table))].join('');
    expect(csv.split('\r\n')[0]).toBe(
      'Campaign,Ad Group,Link Text,Description Line 1,Description Line 2,Final URL',
    );
  });

  it('keeps the headers of the type when nothing is generated', async () => {
    const result = await run(template('Sitelink', {}), []).out;
    expect(result.table.rowCount).toBe(0);
    expect(result.table.headers[2]).toBe('Link Text');
    expect(extensionEditorTable('Structured Snippet', []).headers).toEqual([
      'Campaign',
      'Ad Group',
      'Header',
      'Snippet Values',
    ]);
  });

  it('writes <Account-level> for a template without placeholders, even with no campaign template', async () => {
    const result = await generateExtensionsJob(
      { template: template('Callout', { 'Callout text': 'Free returns' }), campaign: null },
      testJobContext(ROWS),
    );
    expect(cells(result.table)).toEqual([['<Account-level>', '', 'Free returns']]);
    expect(result.attach.level).toBe('account');
  });
});
