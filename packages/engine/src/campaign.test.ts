import { describe, expect, it } from 'vitest';
import { generateCampaignStructure, writeKeywordsCsv } from './campaign.ts';
import { newCampaignTemplate } from './restore.ts';
import type { CampaignTemplate, FeedRow } from './types.ts';

function row(id: string, root: string, mod = '', url = ''): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url };
}

function template(patch: Partial<CampaignTemplate>): CampaignTemplate {
  return { ...newCampaignTemplate('T'), ...patch };
}

describe('generateCampaignStructure', () => {
  const rows = [
    row('r1', 'Nike', 'Air  Max'),
    row('r2', 'Adidas', 'Boost'),
    row('r3', 'Nike', 'Air Max'),
  ];

  it('splits ad groups by {mt} and adds Exact as Negative Exact in the Broad ad group', () => {
    const out = generateCampaignStructure({
      template: template({
        const: 'Shoes',
        campaign: '{const} - {root}',
        adGroup: '{root} {mod} {mt}',
        keywords: [
          { keyword: '{root} {mod}', matchType: 'Broad', selected: true },
          { keyword: '{root} {mod}', matchType: 'Exact', selected: true },
          { keyword: '{root} cheap', matchType: 'Negative Broad', selected: true },
        ],
      }),
      rows,
    });
    expect(out.campaigns.map((c) => c.campaign)).toEqual(['Shoes - Nike', 'Shoes - Adidas']);
    expect(out.adGroups.map((g) => [g.campaign, g.adGroup, g.id])).toEqual([
      ['Shoes - Nike', 'Nike Air Max Broad', 'r1'],
      ['Shoes - Nike', 'Nike Air Max Exact', 'r1'],
      ['Shoes - Adidas', 'Adidas Boost Broad', 'r2'],
      ['Shoes - Adidas', 'Adidas Boost Exact', 'r2'],
    ]);
    expect(out.adGroups[0]?.key).toBe('Shoes - Nike\u001fNike Air Max Broad');
    expect(out.keywords).toEqual([
      {
        campaign: 'Shoes - Nike',
        adGroup: 'Nike Air Max Broad',
        keyword: 'nike air max',
        matchType: 'Broad',
      },
      {
        campaign: 'Shoes - Nike',
        adGroup: 'Nike Air Max Exact',
        keyword: 'nike air max',
        matchType: 'Exact',
      },
      {
        campaign: 'Shoes - Adidas',
        adGroup: 'Adidas Boost Broad',
        keyword: 'adidas boost',
        matchType: 'Broad',
      },
      {
        campaign: 'Shoes - Adidas',
        adGroup: 'Adidas Boost Exact',
        keyword: 'adidas boost',
        matchType: 'Exact',
      },
    ]);
    expect(out.negatives).toEqual([
      {
        campaign: 'Shoes - Nike',
        adGroup: 'Nike Air Max Broad',
        keyword: 'nike cheap',
        matchType: 'Negative Broad',
      },
      {
        campaign: 'Shoes - Nike',
        adGroup: 'Nike Air Max Exact',
        keyword: 'nike cheap',
        matchType: 'Negative Broad',
      },
      {
        campaign: 'Shoes - Adidas',
        adGroup: 'Adidas Boost Broad',
        keyword: 'adidas cheap',
        matchType: 'Negative Broad',
      },
      {
        campaign: 'Shoes - Adidas',
        adGroup: 'Adidas Boost Exact',
        keyword: 'adidas cheap',
        matchType: 'Negative Broad',
      },
      {
        campaign: 'Shoes - Nike',
        adGroup: 'Nike Air Max Broad',
        keyword: 'nike air max',
        matchType: 'Negative Exact',
      },
      {
        campaign: 'Shoes - Adidas',
        adGroup: 'Adidas Boost Broad',
        keyword: 'adidas boost',
        matchType: 'Negative Exact',
      },
    ]);
    expect(out.assetGroups).toEqual([]);
  });

  it('without {mt} puts every keyword in one ad group and adds no Exact negatives', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: '{root}',
        adGroup: '{mod}',
        keywords: [
          { keyword: '{root} {mod}', matchType: 'Broad' },
          { keyword: '{root} {mod}', matchType: 'Exact' },
        ],
      }),
      rows: [row('a', 'Nike', 'Air')],
    });
    expect(out.adGroups).toHaveLength(1);
    expect(out.keywords.map((k) => k.matchType)).toEqual(['Broad', 'Exact']);
    expect(out.negatives).toEqual([]);
  });

  it('cleans, drops and reports keywords with the row they came from', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: '{root}',
        keywords: [{ keyword: '{root} {mod}', matchType: 'Phrase' }],
      }),
      rows: [
        row('a', 'Nike!', 'Shoes'),
        row('b', 'x', 'one two three four five six seven eight nine ten'),
        row('c', '', ''),
      ],
    });
    expect(out.keywords.map((k) => k.keyword)).toEqual(['nike shoes']);
    expect(out.issues.map((i) => [i.kind, i.rowId, i.rowNumber, i.code])).toEqual([
      ['cleaned', 'a', 1, 'rejected-characters'],
      ['skipped', 'b', 2, 'too-many-words'],
      ['skipped', 'c', 3, 'empty-ad-group'],
    ]);
  });

  it('builds campaign rows with budget, location and included optional settings', () => {
    const t = template({
      campaign: '{root}',
      adGroup: '{root}',
      keywords: [{ keyword: '{root}', matchType: 'Broad' }],
      settings: {
        budget: { value: 25, selected: true },
        location: { value: '2276', selected: true },
        isLocationCampaign: false,
        optionalSettings: [
          { name: 'Networks', value: 'Google search', selected: true },
          { name: 'Languages', value: 'en', selected: false },
        ],
      },
    });
    const out = generateCampaignStructure({ template: t, rows: [row('a', 'Nike')] });
    expect(out.campaigns).toEqual([
      {
        campaign: 'Nike',
        campaignType: 'Search',
        budget: 25,
        locationId: '2276',
        settings: { Networks: 'Google search' },
        rowId: 'a',
      },
    ]);
    t.settings.isLocationCampaign = true;
    const geo = generateCampaignStructure({ template: t, rows: [row('g', '1006886', 'London')] });
    expect(geo.campaigns[0]?.locationId).toBe('1006886');
  });

  it('yields asset groups and Performance Max campaign rows for a performance template', () => {
    const out = generateCampaignStructure({
      template: template({
        type: 'performance',
        campaign: 'PMax {root}',
        assetGroup: '{root} {mod}',
        keywords: [{ keyword: '{root}', matchType: 'Broad' }],
      }),
      rows: [row('a', 'Nike', 'Air'), row('b', 'Nike', 'Air')],
    });
    expect(out.campaigns.map((c) => c.campaignType)).toEqual(['Performance Max']);
    // The key is made when read (not an own property), so it is read here by name.
    expect(out.assetGroups.map((g) => ({ ...g, key: g.key }))).toEqual([
      { key: 'PMax Nike\u001fNike Air', campaign: 'PMax Nike', assetGroup: 'Nike Air', id: 'a' },
    ]);
    expect(out.keywords).toEqual([]);
  });

  it('emits each keyword line once', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: 'G',
        keywords: [{ keyword: '{root}', matchType: 'Broad' }],
      }),
      rows: [row('a', 'Nike'), row('b', 'NIKE'), row('c', 'nike ')],
    });
    expect(out.keywords).toHaveLength(1);
  });

  it('puts the negatives of a template without positive keywords at campaign level, and says so', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: 'G',
        keywords: [{ keyword: 'free', matchType: 'Negative Exact' }],
      }),
      rows: [row('a', 'Nike'), row('b', 'Puma')],
    });
    expect(out.negatives).toEqual([
      { campaign: 'C', adGroup: '', keyword: 'free', matchType: 'Negative Exact' },
    ]);
    expect(out.issues.map((i) => [i.kind, i.rowNumber, i.code, i.message])).toEqual([
      [
        'warning',
        1,
        'campaign-negatives',
        'Negatives go to campaign "C" as campaign negatives: the template has no positive keyword, so there is no ad group for them',
      ],
    ]);
  });
});

describe('keyword hygiene reports, in the object API and the streamed CSV alike', () => {
  const t = template({
    campaign: 'C',
    adGroup: '{root}',
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Broad' },
      { keyword: '{mod} cheap', matchType: 'Negative Broad' },
      { keyword: '{var1}', matchType: 'Negative Exact' },
    ],
  });
  const feed: FeedRow[] = [
    { ...row('a', 'Nike', 'Air!'), var1: 'Free' },
    { ...row('b', '-Puma', 'Suede'), var1: '-Outlet' },
    { ...row('c', '+Asics', '+Gel'), var1: '' },
  ];

  it.each([
    ['cleaned', 'a', 'rejected-characters', 'Removed ! from "Nike Air!" -> "nike air"'],
    [
      'cleaned',
      'a',
      'rejected-characters',
      'Removed ! from "Air! cheap" -> "air cheap" (negative)',
    ],
    [
      'cleaned',
      'b',
      'match-notation',
      'Removed the leading - (negative keyword notation) from "-Puma Suede" -> "puma suede"',
    ],
    [
      'cleaned',
      'b',
      'match-notation',
      'Removed the leading - (negative keyword notation) from "-Outlet" -> "outlet" (negative)',
    ],
    [
      'cleaned',
      'c',
      'match-notation',
      'Removed + (the retired broad match modifier) from "+Asics +Gel" -> "asics gel"',
    ],
    [
      'cleaned',
      'c',
      'match-notation',
      'Removed + (the retired broad match modifier) from "+Gel cheap" -> "gel cheap" (negative)',
    ],
    ['skipped', 'c', 'empty', 'Keyword "{var1}" is empty for this row (negative)'],
  ])('reports %s row %s: %s %s', (kind, rowId, code, message) => {
    const structure = generateCampaignStructure({ template: t, rows: feed });
    const streamed = writeKeywordsCsv(
      { template: t, rows: feed },
      { keywords() {}, negatives() {} },
    );
    const want = expect.objectContaining({ kind, rowId, code, message, output: 'keywords' });
    expect(structure.issues).toContainEqual(want);
    expect(streamed.issues).toEqual(structure.issues);
  });

  it('exports the cleaned keywords without notation', () => {
    const structure = generateCampaignStructure({ template: t, rows: feed });
    expect(structure.keywords.map((k) => k.keyword)).toEqual([
      'nike air',
      'puma suede',
      'asics gel',
    ]);
    expect(structure.negatives.map((k) => `${k.adGroup}: ${k.keyword}`)).toEqual([
      'Nike: air cheap',
      'Nike: free',
      '-Puma: suede cheap',
      '-Puma: outlet',
      '+Asics: gel cheap',
    ]);
    expect(structure.issues).toHaveLength(7);
  });
});
