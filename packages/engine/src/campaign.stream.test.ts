/** `writeKeywordsCsv` and the object API give exactly what the plain reference implementation gives. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  generateCampaignStructure,
  importCsvRows,
  restoreCampaignTemplate,
  withRowIds,
  writeKeywordsCsv,
  type FeedRow,
  type FormatCsvOptions,
  type GenerateCampaignStructureInput,
} from './index.ts';
import {
  formatKeywordsCsvReference as formatKeywordsCsv,
  generateCampaignStructureReference,
} from '../test/reference/campaignStructure.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures');
const json = (name: string): unknown => JSON.parse(readFileSync(path.join(fixtures, name), 'utf8'));

function feedRows(): FeedRow[] {
  const imported = importCsvRows(readFileSync(path.join(fixtures, 'feed.csv'), 'utf8'));
  if (!imported.ok) throw new Error(imported.error);
  return withRowIds(imported.rows, (i) => `row-${i + 1}`);
}

function both(input: GenerateCampaignStructureInput, options: FormatCsvOptions = {}) {
  const structure = generateCampaignStructureReference(input);
  const collected = generateCampaignStructure(input);
  const keywords: string[] = [];
  const negatives: string[] = [];
  const result = writeKeywordsCsv(
    input,
    { keywords: (c) => keywords.push(c), negatives: (c) => negatives.push(c) },
    options,
  );
  return { structure, collected, keywords, negatives, result, options };
}

function expectSame(r: ReturnType<typeof both>): void {
  expect(JSON.stringify(r.collected)).toBe(JSON.stringify(r.structure));
  expect(r.keywords).toEqual([...formatKeywordsCsv(r.structure.keywords, r.options)]);
  expect(r.negatives).toEqual([...formatKeywordsCsv(r.structure.negatives, r.options)]);
  expect(r.result.keywordLines).toBe(r.structure.keywords.length);
  expect(r.result.negativeLines).toBe(r.structure.negatives.length);
  expect(r.result.issues).toEqual(r.structure.issues);
}

const row = (id: string, root: string, mod = '', var1 = ''): FeedRow => ({
  id,
  root,
  mod,
  var1,
  var2: '',
  var3: '',
  url: '',
});

describe('writeKeywordsCsv', () => {
  it('equals the reference on the fixture feed and campaign template', () => {
    const r = both({ template: restoreCampaignTemplate(json('campaign.json')), rows: feedRows() });
    expect(r.structure.keywords.length).toBeGreaterThan(0);
    expect(r.structure.negatives.length).toBeGreaterThan(0);
    expectSame(r);
  });

  it('equals the reference with small chunks, formula neutralising and LF line ends', () => {
    const r = both(
      { template: restoreCampaignTemplate(json('campaign.json')), rows: feedRows() },
      { chunkLines: 3, neutraliseFormulas: true, newline: '\n' },
    );
    expect(r.keywords.length).toBeGreaterThan(2);
    expectSame(r);
  });

  it('equals the reference with {mt} ad groups, duplicates, quoting, cleaning and negatives', () => {
    const template = restoreCampaignTemplate({
      name: 'Edge',
      const: 'Shoes',
      campaign: '{const}, {root}',
      adGroup: '{root} "{mod}" {mt}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Broad' },
        { keyword: '{root} {mod}', matchType: 'Exact' },
        { keyword: '{root} {var1}', matchType: 'Phrase' },
        { keyword: 'cheap {root}', matchType: 'Negative Broad' },
        { keyword: '{var1}', matchType: 'Negative Exact' },
      ],
    });
    const rows = [
      row('a', 'Nike', 'Shoes', 'Red!'),
      row('b', 'Nike', 'Shoes', 'Red!'),
      row('c', 'Puma', '', ''),
      row('d', '', 'Boots', 'blue'),
      row('e', 'Asics  Gel', 'Trail  (x)', 'Navy'),
    ];
    const r = both({ template, rows });
    expect(r.keywords.join('')).toContain('"Shoes, Nike","Nike ""Shoes"" Broad",nike shoes,Broad');
    expect(r.negatives.join('')).toContain('Negative Exact');
    expectSame(r);
  });

  it('writes headers only when no row is given', () => {
    const r = both({ template: restoreCampaignTemplate(json('campaign.json')), rows: [] });
    expect(r.keywords).toEqual(['Campaign,Ad Group,Keyword,Criterion Type\r\n']);
    expectSame(r);
  });
});
