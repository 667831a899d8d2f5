/**
 * The change plan for Microsoft Advertising (issue 40): a bulk download of the account read into
 * the plan's baseline, and the changes-only bulk file. The hand-made downloads are written in the
 * layout of Microsoft's record pages (MicrosoftDocs/Advertising, bingads-13/bulk-service:
 * keyword.md, campaign.md, ad-group.md, label.md, keyword-label.md, responsive-search-ad.md,
 * campaign-sitelink-ad-extension.md...): a `Type` column first, `Format Version` 6.0 in `Name`,
 * then one record per line with `Id`, `Parent Id` and `Status`.
 */
import { describe, expect, test } from 'vitest';
import { formatCsvLine } from '../csv.ts';
import { readMicrosoftAccount } from './microsoftAccount.ts';

/** A download from records given as objects, under the schema's own column names. */
function download(records: Record<string, string>[]): string {
  const header = [
    'Type',
    'Status',
    'Id',
    'Parent Id',
    'Campaign',
    'Ad Group',
    'Client Id',
    'Modified Time',
    'Name',
    'Budget',
    'Budget Type',
    'Campaign Type',
    'Keyword',
    'Match Type',
    'Final Url',
    'Headline',
    'Description',
    'Path 1',
    'Path 2',
    'Label',
  ];
  const lines = [
    formatCsvLine(header),
    formatCsvLine(header.map((h) => (h === 'Type' ? 'Format Version' : h === 'Name' ? '6.0' : ''))),
  ];
  for (const r of records) lines.push(formatCsvLine(header.map((h) => r[h] ?? '')));
  return `\uFEFF${lines.join('')}`;
}

describe('a Microsoft Advertising bulk download as the baseline', () => {
  const text = download([
    { Type: 'Account', Id: '149' },
    { Type: 'Label', Status: 'Active', Id: '7', Label: 'Adloom' },
    { Type: 'Label', Status: 'Active', Id: '8', Label: 'brand' },
    {
      Type: 'Campaign',
      Status: 'Active',
      Id: '11',
      'Parent Id': '149',
      Campaign: 'Shoes',
      Budget: '50.00',
      'Budget Type': 'DailyBudgetStandard',
      'Campaign Type': 'Search',
    },
    { Type: 'Campaign Label', Id: '7', 'Parent Id': '11', Campaign: 'Shoes', Status: 'Active' },
    {
      Type: 'Campaign',
      Status: 'Paused',
      Id: '12',
      'Parent Id': '149',
      Campaign: 'By hand',
      Budget: '5',
      'Campaign Type': 'Search',
    },
    { Type: 'Campaign Label', Id: '8', 'Parent Id': '12', Campaign: 'By hand', Status: 'Active' },
    {
      Type: 'Campaign',
      Status: 'Active',
      Id: '13',
      'Parent Id': '149',
      Campaign: 'Shopping',
      'Campaign Type': 'Shopping',
    },
    {
      Type: 'Ad Group',
      Status: 'Active',
      Id: '21',
      'Parent Id': '11',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
    },
    { Type: 'Ad Group Label', Id: '7', 'Parent Id': '21', Campaign: 'Shoes', 'Ad Group': 'Red' },
    {
      Type: 'Keyword',
      Status: 'Active',
      Id: '31',
      'Parent Id': '21',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
      Keyword: 'red shoes',
      'Match Type': 'Phrase',
    },
    { Type: 'Keyword Label', Id: '7', 'Parent Id': '31' },
    // Hand-made (no label) in Adloom's ad group.
    {
      Type: 'Keyword',
      Status: 'Paused',
      Id: '32',
      'Parent Id': '21',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
      Keyword: 'crimson shoes',
      'Match Type': 'Exact',
    },
    {
      Type: 'Ad Group Negative Keyword',
      Status: 'Active',
      Id: '41',
      'Parent Id': '21',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
      Keyword: 'cheap',
      'Match Type': 'Phrase',
    },
    {
      Type: 'Campaign Negative Keyword',
      Status: 'Active',
      Id: '42',
      'Parent Id': '11',
      Campaign: 'Shoes',
      Keyword: 'free',
      'Match Type': 'Exact',
    },
    {
      Type: 'Responsive Search Ad',
      Status: 'Active',
      Id: '51',
      'Parent Id': '21',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
      'Final Url': 'https://example.com/red',
      Headline:
        '[{"id":1,"text":"Red shoes","pinnedField":"Headline1"},{"text":"Free delivery"},{"text":"Sizes 3-12"}]',
      Description: '[{"text":"All reds."},{"text":"Order today."}]',
      'Path 1': 'shoes',
      'Path 2': 'red',
    },
    { Type: 'Responsive Search Ad Label', Id: '7', 'Parent Id': '51' },
    {
      Type: 'Campaign Location Criterion',
      Status: 'Active',
      Id: '61',
      'Parent Id': '11',
      Campaign: 'Shoes',
    },
  ]);

  test('reads each record type with its Id, Parent Id and status; the label tells who owns it', () => {
    const account = readMicrosoftAccount(text, { label: 'adloom' });
    const { baseline, ids } = account;
    const find = (kind: Parameters<typeof baseline.find>[0], identity: string[]) => {
      const i = baseline.find(kind, identity);
      expect(i, identity.join('|')).toBeGreaterThanOrEqual(0);
      return { i, ids: ids[i]!, status: baseline.statusOf(i), owned: baseline.isOwned(i) };
    };
    expect(account.labelId).toBe('7');
    expect(find('campaign', ['Shoes'])).toMatchObject({
      ids: { id: '11', parentId: '149', type: 'Campaign' },
      status: 'Enabled',
      owned: true,
    });
    expect(find('campaign', ['By hand'])).toMatchObject({ status: 'Paused', owned: false });
    expect(baseline.find('campaign', ['Shopping'])).toBe(-1);
    expect(find('ad-group', ['Shoes', 'Red'])).toMatchObject({
      ids: { id: '21', parentId: '11' },
      owned: true,
    });
    expect(find('keyword', ['Shoes', 'Red', 'red shoes', 'Phrase'])).toMatchObject({
      ids: { id: '31', parentId: '21' },
      owned: true,
    });
    expect(find('keyword', ['Shoes', 'Red', 'crimson shoes', 'Exact'])).toMatchObject({
      status: 'Paused',
      owned: false,
    });
    // Negatives take their ad group's, or their campaign's, ownership.
    expect(find('negative', ['Shoes', 'Red', 'cheap', 'Negative Phrase'])).toMatchObject({
      ids: { id: '41', type: 'Ad Group Negative Keyword' },
      owned: true,
    });
    expect(find('negative', ['Shoes', '', 'free', 'Campaign Negative Exact'])).toMatchObject({
      ids: { id: '42', parentId: '11' },
      owned: true,
    });
    const ad = [
      'Shoes',
      'Red',
      'Red shoes',
      'Free delivery',
      'Sizes 3-12',
      ...Array<string>(12).fill(''),
      '1',
      ...Array<string>(14).fill(''),
      'All reds.',
      'Order today.',
      '',
      '',
      '',
      '',
      '',
      '',
      'shoes',
      'red',
    ];
    expect(find('responsive-search-ad', ad)).toMatchObject({ ids: { id: '51' }, owned: true });
    expect(baseline.adIdOf(baseline.find('responsive-search-ad', ad))).toBe('51');
    expect(account.summary).toEqual({ rows: 17, otherRows: 2 });
  });
});
