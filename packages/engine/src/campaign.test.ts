import { describe, expect, it } from 'vitest';
import { generateCampaignStructure } from './campaign.ts';
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
          { keyword: 'unused', matchType: 'Phrase', selected: false },
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
    expect(out.assetGroups).toEqual([
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

  it('puts template negatives at campaign level when a row has no ad group', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: 'G',
        keywords: [{ keyword: 'free', matchType: 'Negative Exact' }],
      }),
      rows: [row('a', 'Nike')],
    });
    expect(out.negatives).toEqual([
      { campaign: 'C', adGroup: '', keyword: 'free', matchType: 'Negative Exact' },
    ]);
  });
});
