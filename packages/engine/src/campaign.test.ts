import { describe, expect, it } from 'vitest';
import { forEachKeywordLine, generateCampaignStructure, writeKeywordsCsv } from './campaign.ts';
import { campaignsTable } from './export.ts';
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
        dropBlockingNegatives: false,
        keepKeywordInFirstAdGroup: false,
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

  describe('locations (issue 36)', () => {
    const located = (patch: Partial<CampaignTemplate['settings']> = {}) =>
      template({
        campaign: '{mod}',
        adGroup: '{mod} {var1}',
        keywords: [{ keyword: '{mod} {var1}', matchType: 'Broad' }],
        settings: {
          budget: { value: 5, selected: false },
          location: { value: '', selected: false },
          isLocationCampaign: true,
          optionalSettings: [],
          dropBlockingNegatives: false,
          keepKeywordInFirstAdGroup: false,
          ...patch,
        },
      });
    const geoRow = (id: string, root: string, mod: string) => ({ ...row(id, root, mod), var1: id });

    it('writes plain criteria IDs only: repairs "2826.0", refuses damaged ones, skips a row with none', () => {
      const out = generateCampaignStructure({
        template: located(),
        rows: [
          geoRow('a', '1.00689E+06', 'London'),
          geoRow('b', '2826.0', 'UK'),
          geoRow('c', 'abc', 'UK'),
          geoRow('d', '00123', 'Zip'),
          geoRow('e', '1006886', 'London'),
          geoRow('f', '', 'Nowhere'),
        ],
      });
      expect(out.campaigns.map((c) => [c.campaign, c.locationId])).toEqual([
        ['UK', '2826'],
        ['London', '1006886'],
      ]);
      expect(out.adGroups.map((g) => g.adGroup)).toEqual(['UK b', 'London e']);
      expect(out.issues.map((i) => [i.kind, i.rowNumber, i.code, i.message])).toEqual([
        [
          'skipped',
          1,
          'no-valid-location',
          'Location ID "1.00689E+06" is not a Google location ID (digits without a leading zero; a spreadsheet may have changed it): the row is not written, so no campaign of it targets every country',
        ],
        [
          'cleaned',
          2,
          'location-id-repaired',
          'Location ID "2826.0" is written 2826 (a spreadsheet wrote the ID as a decimal number)',
        ],
        ['skipped', 3, 'no-valid-location', expect.stringContaining('Location ID "abc" is not')],
        ['skipped', 4, 'no-valid-location', expect.stringContaining('Location ID "00123" is not')],
        [
          'skipped',
          6,
          'no-valid-location',
          "Location ID is empty (a location campaign takes each row's location from Root): the row is not written, so no campaign of it targets every country",
        ],
      ]);
    });

    it("writes every row's location as its own row of its campaign, each once", () => {
      const out = generateCampaignStructure({
        template: located(),
        rows: [
          geoRow('a', '', 'UK'),
          geoRow('b', '2826', 'UK'),
          geoRow('c', '1006886', 'UK'),
          geoRow('d', '2826', 'UK'),
          geoRow('e', '1006886; x', 'UK'),
          geoRow('f', '2840', 'US'),
        ],
      });
      expect(out.campaigns.map((c) => [c.campaign, c.locationId])).toEqual([
        ['UK', '2826;1006886'],
        ['US', '2840'],
      ]);
      expect(campaignsTable(out.campaigns).rows).toEqual([
        ['UK', 'Search', ''],
        ['UK', '', '2826'],
        ['UK', '', '1006886'],
        ['US', 'Search', ''],
        ['US', '', '2840'],
      ]);
      expect(out.issues.map((i) => [i.rowNumber, i.code])).toEqual([
        [1, 'no-valid-location'],
        [5, 'location-id-refused'],
      ]);
    });

    it('reads the location of a template pattern per row, and of asset groups alike', () => {
      const out = generateCampaignStructure({
        template: located({
          isLocationCampaign: false,
          location: { value: '{root}', selected: true },
        }),
        rows: [geoRow('a', '2826', 'UK'), geoRow('b', '2.826E+03', 'UK'), geoRow('c', '', 'US')],
      });
      expect(out.campaigns.map((c) => [c.campaign, c.locationId])).toEqual([
        ['UK', '2826'],
        ['US', ''],
      ]);
      const pmax = generateCampaignStructure({
        template: { ...located(), type: 'performance', assetGroup: '{var1}' },
        rows: [geoRow('a', 'abc', 'UK'), geoRow('b', '2826', 'UK'), geoRow('c', '2840', 'UK')],
      });
      expect(pmax.campaigns.map((c) => [c.campaign, c.locationId])).toEqual([['UK', '2826;2840']]);
      expect(pmax.assetGroups.map((g) => g.assetGroup)).toEqual(['b', 'c']);
    });
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

describe('keywords to Google allowlist, in generation', () => {
  const t = template({
    campaign: 'C',
    adGroup: '{root}',
    keywords: [{ keyword: '{mod}', matchType: 'Exact' }],
  });
  const run = (mod: string) =>
    generateCampaignStructure({ template: t, rows: [row('a', 'G', mod)] });

  it.each([
    ['nike\u00a0air\u3000max', 'nike air max', 'other-spaces'],
    ['nike\u200bair', 'nikeair', 'invisible-characters'],
    ['run\u00adning', 'running', 'invisible-characters'],
    ['nike 😀 air™', 'nike air', 'rejected-characters'],
    ['men’s “air”', 'men\'s "air"', 'typographic-characters'],
  ])('writes %j as %j and reports it (%s) with its row', (mod, keyword, code) => {
    const out = run(mod);
    expect(out.keywords.map((k) => k.keyword)).toEqual([keyword]);
    expect(out.issues).toContainEqual(
      expect.objectContaining({ kind: 'cleaned', rowId: 'a', rowNumber: 1, code }),
    );
  });

  it('skips an 11-word keyword joined by ideographic spaces, and one left with nothing', () => {
    const eleven = 'a b c d e f g h i j k'.split(' ').join('\u3000');
    for (const mod of [eleven, '😀 ™']) {
      const out = run(mod);
      expect(out.keywords).toEqual([]);
      expect(out.issues).toContainEqual(expect.objectContaining({ kind: 'skipped', rowNumber: 1 }));
    }
  });
});

describe('campaign and ad group names as Google takes them', () => {
  const t = (campaign: string, adGroup: string) =>
    template({ campaign, adGroup, keywords: [{ keyword: '{root}', matchType: 'Broad' }] });

  it('turns line breaks into spaces, removes NUL and reports both', () => {
    const out = generateCampaignStructure({
      template: t('{mod}', '{var1}'),
      rows: [{ ...row('a', 'Nike', 'Shoes\r\nSale'), var1: 'Air\u0000 Max' }],
    });
    expect(out.campaigns.map((c) => c.campaign)).toEqual(['Shoes Sale']);
    expect(out.adGroups.map((g) => g.adGroup)).toEqual(['Air Max']);
    expect(out.issues.map((i) => [i.kind, i.code, i.message])).toEqual([
      ['cleaned', 'campaign-name-cleaned', 'Campaign name "Shoes Sale": line breaks became spaces'],
      [
        'cleaned',
        'ad-group-name-cleaned',
        'Ad group name "Air Max": control characters (such as NUL) were removed',
      ],
    ]);
  });

  it('removes invisible characters, so "Ni\\u200bke" and "Nike" are one campaign (issue 36)', () => {
    const out = generateCampaignStructure({
      template: t('{root}', '{root} {mod}'),
      rows: [row('a', 'Ni\u200bke', 'Air'), row('b', 'Nike', 'Max'), row('c', 'Ni\u200bke', 'Max')],
    });
    expect(out.campaigns.map((c) => c.campaign)).toEqual(['Nike']);
    expect(out.adGroups.map((g) => g.adGroup)).toEqual(['Nike Air', 'Nike Max']);
    // The keyword {root} in both ad groups is also a conflict (reported on its own).
    const names = out.issues.filter(
      (i) => i.code !== 'invisible-characters' && i.code !== 'keyword-conflict',
    );
    expect(names.map((i) => [i.rowNumber, i.code, i.message])).toEqual([
      [
        1,
        'campaign-name-cleaned',
        'Campaign name "Nike": the invisible zero-width space (U+200B) removed',
      ],
      [
        1,
        'ad-group-name-cleaned',
        'Ad group name "Nike Air": the invisible zero-width space (U+200B) removed',
      ],
      [
        3,
        'campaign-name-cleaned',
        'Campaign name "Nike": the invisible zero-width space (U+200B) removed',
      ],
      [
        3,
        'ad-group-name-cleaned',
        'Ad group name "Nike Max": the invisible zero-width space (U+200B) removed',
      ],
      [3, 'merged-row', expect.stringContaining('Merged into the ad group "Nike Max" of row 2')],
    ]);
  });

  it('skips the rows whose campaign or ad group name has 255 characters or more', () => {
    const long = 'x'.repeat(255);
    const out = generateCampaignStructure({
      template: t('{mod}', '{var1}'),
      rows: [
        { ...row('a', 'Nike', long), var1: 'G' },
        { ...row('b', 'Puma', 'C'), var1: long },
        { ...row('c', 'Asics', 'C'), var1: 'x'.repeat(254) },
      ],
    });
    expect(out.keywords.map((k) => k.keyword)).toEqual(['asics']);
    expect(out.issues.map((i) => [i.kind, i.rowNumber, i.code])).toEqual([
      ['skipped', 1, 'campaign-name-too-long'],
      ['skipped', 2, 'ad-group-name-too-long'],
    ]);
  });

  it('writes names that differ only by case or Unicode form as one, the first spelling, in NFC', () => {
    const out = generateCampaignStructure({
      template: t('{mod}', '{var1}'),
      rows: [
        { ...row('a', 'nike', 'Cafe\u0301'), var1: 'NIKE Shoes' },
        { ...row('b', 'nike', 'café'), var1: 'nike shoes' },
        { ...row('c', 'puma', 'Caf\u00e9'), var1: 'Nike  Shoes' },
      ],
    });
    expect(out.campaigns.map((c) => c.campaign)).toEqual(['Caf\u00e9']);
    expect(out.adGroups.map((g) => [g.adGroup, g.id])).toEqual([['NIKE Shoes', 'a']]);
    expect(out.keywords.map((k) => [k.adGroup, k.keyword])).toEqual([
      ['NIKE Shoes', 'nike'],
      ['NIKE Shoes', 'puma'],
    ]);
    expect(out.issues.map((i) => [i.rowNumber, i.code, i.message])).toEqual([
      [
        2,
        'campaign-name-variant',
        'Campaign "café" is written "Café" as in row 1: names that differ only by case or Unicode form are one campaign',
      ],
      [
        2,
        'ad-group-name-variant',
        'Ad group "nike shoes" is written "NIKE Shoes" as in row 1: names that differ only by case or Unicode form are one ad group, made from row 1',
      ],
      [
        3,
        'ad-group-name-variant',
        'Ad group "Nike Shoes" is written "NIKE Shoes" as in row 1: names that differ only by case or Unicode form are one ad group, made from row 1',
      ],
    ]);
  });
});

describe('changes made visible', () => {
  it('reports rows merged into an earlier row’s ad group, and identical rows', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: '{root}',
        keywords: [{ keyword: '{root} {mod}', matchType: 'Broad' }],
      }),
      rows: [
        row('a', 'Nike', 'Air', 'https://a'),
        row('b', 'Nike', 'Air', 'https://a'),
        row('c', 'Nike', 'Max', 'https://c'),
      ],
    });
    expect(out.adGroups.map((g) => g.id)).toEqual(['a']);
    expect(out.issues.map((i) => [i.kind, i.rowId, i.code, i.message])).toEqual([
      ['warning', 'b', 'duplicate-row', 'Same as row 1: merged into its ad group "Nike"'],
      [
        'warning',
        'c',
        'merged-row',
        'Merged into the ad group "Nike" of row 1: it is made from row 1, so this row\'s final URL and ad texts are not used',
      ],
    ]);
  });

  it('names the other row as the caller labels it (the grid row, the file line)', () => {
    const input = {
      template: template({
        campaign: 'C',
        adGroup: '{root}',
        keywords: [{ keyword: '{root} {mod}', matchType: 'Broad' as const }],
      }),
      rows: [row('a', 'Nike', 'Air', 'https://a'), row('b', 'NIKE', 'Max', 'https://b')],
    };
    const lines = [2, 7];
    const out = generateCampaignStructure({ ...input, rowLabel: (n) => `line ${lines[n - 1]}` });
    expect(out.issues.map((i) => [i.rowNumber, i.message])).toEqual([
      [
        2,
        'Ad group "NIKE" is written "Nike" as in line 2: names that differ only by case or Unicode form are one ad group, made from line 2',
      ],
    ]);
    // Streaming takes the same label.
    const streamed = forEachKeywordLine(
      { ...input, rowLabel: (n) => `line ${lines[n - 1]}` },
      { keywords: () => {}, negatives: () => {} },
    );
    expect(streamed.issues.map((i) => i.message)).toEqual(out.issues.map((i) => i.message));
  });

  it('never turns the negatives of a row skipped for a keyword rule into campaign negatives', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: '{root}',
        keywords: [
          { keyword: '{mod}', matchType: 'Exact' },
          { keyword: 'nike', matchType: 'Negative Exact' },
        ],
      }),
      rows: [row('a', 'Puma', 'nike'), row('b', 'Nike', '😀')],
    });
    expect(out.keywords.map((k) => k.keyword)).toEqual(['nike']);
    expect(out.negatives.every((n) => n.adGroup !== '')).toBe(true);
    expect(out.issues).toContainEqual(
      expect.objectContaining({ kind: 'skipped', rowId: 'b', code: 'negatives-not-written' }),
    );
  });

  const blocking = (dropBlockingNegatives: boolean) =>
    template({
      campaign: 'C',
      adGroup: '{root}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Exact' },
        { keyword: '{root} {mod}', matchType: 'Broad' },
        { keyword: '{root} {mod}', matchType: 'Negative Exact' },
        { keyword: '{mod}', matchType: 'Negative Broad' },
        { keyword: 'cheap', matchType: 'Negative Broad' },
      ],
      settings: { ...newCampaignTemplate('T').settings, dropBlockingNegatives },
    });
  const rows = [row('a', 'Nike', 'Air')];

  it('reports keywords their own group’s negatives block', () => {
    const out = generateCampaignStructure({ template: blocking(false), rows });
    expect(out.negatives.map((n) => n.keyword)).toEqual(['nike air', 'air', 'cheap']);
    expect(out.issues.map((i) => [i.kind, i.code, i.message])).toEqual([
      [
        'warning',
        'blocked-keyword',
        'Keyword "nike air" (Exact) of ad group "Nike" cannot serve: the group\'s Negative Exact "nike air" (row 1) blocks it',
      ],
      [
        'warning',
        'blocked-keyword',
        'Keyword "nike air" (Exact) of ad group "Nike" cannot serve: the group\'s Negative Broad "air" (row 1) blocks it',
      ],
      [
        'warning',
        'blocked-keyword',
        'Keyword "nike air" (Broad) of ad group "Nike" cannot serve: the group\'s Negative Broad "air" (row 1) blocks it',
      ],
    ]);
  });

  it('drops such negatives when the template says so, and reports each', () => {
    const out = generateCampaignStructure({ template: blocking(true), rows });
    expect(out.negatives.map((n) => n.keyword)).toEqual(['cheap']);
    expect(out.issues.map((i) => [i.kind, i.code, i.message])).toEqual([
      [
        'skipped',
        'blocking-negative-dropped',
        'Negative Exact "nike air" of ad group "Nike" is not written: it blocks the group\'s keyword "nike air" (Exact, row 1)',
      ],
      [
        'skipped',
        'blocking-negative-dropped',
        'Negative Broad "air" of ad group "Nike" is not written: it blocks the group\'s keyword "nike air" (Exact, row 1)',
      ],
    ]);
    const streamed: string[] = [];
    writeKeywordsCsv(
      { template: blocking(true), rows },
      { keywords() {}, negatives: (c) => streamed.push(c) },
    );
    expect(streamed.join('')).toBe(
      'Campaign,Ad Group,Keyword,Criterion Type\r\nC,Nike,cheap,Negative Broad\r\n',
    );
  });

  it('generates every keyword line, whatever its stored selected says', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: 'G',
        keywords: [
          { keyword: '{root}', matchType: 'Broad', selected: false },
          { keyword: 'free', matchType: 'Negative Exact', selected: false },
        ],
      }),
      rows: [row('a', 'Nike')],
    });
    expect(out.keywords.map((k) => k.keyword)).toEqual(['nike']);
    expect(out.negatives.map((k) => k.keyword)).toEqual(['free']);
  });

  it('reports Performance Max rows merged into an earlier asset group, and name variants', () => {
    const out = generateCampaignStructure({
      template: template({ type: 'performance', campaign: 'P', assetGroup: '{root}' }),
      rows: [row('a', 'Nike', 'x'), row('b', 'NIKE', 'y'), row('c', 'Nike', 'z')],
    });
    expect(out.assetGroups.map((g) => [g.assetGroup, g.id])).toEqual([['Nike', 'a']]);
    expect(out.issues.map((i) => [i.rowId, i.code])).toEqual([
      ['b', 'asset-group-name-variant'],
      ['c', 'merged-row'],
    ]);
  });
});

describe('campaignsTable', () => {
  it('writes each location on a row of its own after its campaign (Editor: one location per row)', () => {
    const table = campaignsTable([
      {
        campaign: 'A',
        campaignType: 'Search',
        budget: 5,
        locationId: '2826; 2840,2826',
        settings: { Networks: 'Google search' },
        rowId: 'r1',
      },
      { campaign: 'B', campaignType: 'Search', settings: {}, rowId: 'r2' },
    ]);
    expect(table.headers).toEqual([
      'Campaign',
      'Campaign Type',
      'Budget',
      'Location ID',
      'Networks',
    ]);
    expect(table.rows).toEqual([
      ['A', 'Search', '5', '', 'Google search'],
      ['A', '', '', '2826', ''],
      ['A', '', '', '2840', ''],
      ['B', 'Search', '', '', ''],
    ]);
  });
});

describe('Negative Phrase, in ad groups and at campaign level', () => {
  it('is a match type of the template, written as Negative Phrase in the Editor file', () => {
    const input = {
      template: template({
        campaign: 'C',
        adGroup: '{root}',
        keywords: [
          { keyword: '{root} {mod}', matchType: 'Broad' as const },
          { keyword: 'second hand', matchType: 'Negative Phrase' as const },
        ],
      }),
      rows: [row('a', 'Nike', 'Air')],
    };
    const out = generateCampaignStructure(input);
    expect(out.negatives).toEqual([
      { campaign: 'C', adGroup: 'Nike', keyword: 'second hand', matchType: 'Negative Phrase' },
    ]);
    let csv = '';
    writeKeywordsCsv(input, { keywords: () => {}, negatives: (c) => (csv += c) });
    expect(csv).toBe(
      'Campaign,Ad Group,Keyword,Criterion Type\r\nC,Nike,second hand,Negative Phrase\r\n',
    );
  });

  it('goes to the campaign as Campaign Negative Phrase when there is no ad group', () => {
    const input = {
      template: template({
        campaign: 'C',
        adGroup: 'G',
        keywords: [{ keyword: 'free {mod}', matchType: 'Negative Phrase' as const }],
      }),
      rows: [row('a', 'Nike', 'Air')],
    };
    let csv = '';
    writeKeywordsCsv(input, { keywords: () => {}, negatives: (c) => (csv += c) });
    expect(csv).toBe(
      'Campaign,Ad Group,Keyword,Criterion Type\r\nC,,free air,Campaign Negative Phrase\r\n',
    );
  });

  it('blocks a keyword holding its words in order, one after another (not in another order)', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: '{root}',
        keywords: [
          { keyword: '{root} {mod}', matchType: 'Broad' },
          { keyword: '{mod} {root}', matchType: 'Phrase' },
          { keyword: 'nike air', matchType: 'Negative Phrase' },
        ],
      }),
      rows: [row('a', 'Nike', 'Air')],
    });
    expect(out.issues.map((i) => [i.code, i.message])).toEqual([
      [
        'blocked-keyword',
        'Keyword "nike air" (Broad) of ad group "Nike" cannot serve: the group\'s Negative Phrase "nike air" (row 1) blocks it',
      ],
    ]);
  });
});

describe('keyword notation and punctuation words in generated keywords (issue 36)', () => {
  it('reads template notation once and feed notation per row, and drops punctuation words', () => {
    const out = generateCampaignStructure({
      template: template({
        campaign: 'C',
        adGroup: '{root}',
        keywords: [
          { keyword: '[{root} {mod}]', matchType: 'Broad' },
          { keyword: '[东京]', matchType: 'Phrase' },
          { keyword: '{mod} -', matchType: 'Exact' },
          { keyword: '{var1}', matchType: 'Broad' },
        ],
      }),
      rows: [
        { ...row('a', 'Crème Brûlée', ''), var1: '[Nike]' },
        { ...row('b', 'Puma', 'Suede'), var1: '"air max"' },
      ],
    });
    expect(out.keywords.map((k) => [k.adGroup, k.keyword, k.matchType])).toEqual([
      ['Crème Brûlée', 'crème brûlée', 'Exact'],
      ['Crème Brûlée', 'nike', 'Broad'],
      ['Puma', 'puma suede', 'Exact'],
      ['Puma', 'suede', 'Exact'],
      ['Puma', 'air max', 'Broad'],
    ]);
    expect(out.issues.map((i) => [i.rowNumber, i.code, i.message])).toEqual([
      [
        0,
        'match-notation',
        'Keyword "[{root} {mod}]" of the template is read as Exact "{root} {mod}": [ ] is the notation of exact match',
      ],
      [
        0,
        'match-notation-conflict',
        'Keyword "[东京]" of the template is not generated: [ ] states Exact, but the match type is Phrase: remove the [ ] or choose Exact',
      ],
      [1, 'empty', 'Keyword is empty without the characters Google rejects: " -"'],
      [
        1,
        'match-notation',
        'Removed the [ ] (exact match notation) from "[Nike]" -> "nike": written as Broad, the template\'s match type, not Exact',
      ],
      [2, 'punctuation-word', 'Removed "-" (punctuation alone) from "Suede -" -> "suede"'],
      [
        2,
        'match-notation',
        'Removed the quotes (phrase match notation) from ""air max"" -> "air max": written as Broad, the template\'s match type, not Phrase',
      ],
    ]);
  });
});

describe('keyword conflicts: one keyword and match type in several ad groups of a campaign', () => {
  const conflicting = (keepKeywordInFirstAdGroup: boolean) =>
    template({
      campaign: 'C',
      adGroup: '{root} {mod}',
      keywords: [
        { keyword: '{root}', matchType: 'Exact' },
        { keyword: '{root} {mod}', matchType: 'Phrase' },
      ],
      settings: { ...newCampaignTemplate('T').settings, keepKeywordInFirstAdGroup },
    });
  const rows = [
    row('a', 'Nike', 'Air'),
    row('b', 'Nike', 'Zoom'),
    row('c', 'Nike', 'Air'),
    row('d', 'Nike', 'Run'),
  ];

  it('reports the keyword once per campaign, at its second ad group (they compete)', () => {
    const out = generateCampaignStructure({ template: conflicting(false), rows });
    expect(out.keywords.map((k) => [k.adGroup, k.keyword, k.matchType])).toEqual([
      ['Nike Air', 'nike', 'Exact'],
      ['Nike Air', 'nike air', 'Phrase'],
      ['Nike Zoom', 'nike', 'Exact'],
      ['Nike Zoom', 'nike zoom', 'Phrase'],
      ['Nike Run', 'nike', 'Exact'],
      ['Nike Run', 'nike run', 'Phrase'],
    ]);
    expect(out.issues.map((i) => [i.kind, i.rowNumber, i.code, i.message])).toEqual([
      [
        'warning',
        2,
        'keyword-conflict',
        'Keyword "nike" (Exact) of ad group "Nike Zoom" is also in ad group "Nike Air" of campaign "C" (row 1): ad groups of one campaign with the same keyword compete for the same searches (later ones are not listed)',
      ],
      ['warning', 3, 'duplicate-row', 'Same as row 1: merged into its ad group "Nike Air"'],
    ]);
  });

  it('keeps it only in the first ad group when the template says so, and says so', () => {
    const out = generateCampaignStructure({ template: conflicting(true), rows });
    expect(out.keywords.map((k) => [k.adGroup, k.keyword])).toEqual([
      ['Nike Air', 'nike'],
      ['Nike Air', 'nike air'],
      ['Nike Zoom', 'nike zoom'],
      ['Nike Run', 'nike run'],
    ]);
    expect(out.issues.filter((i) => i.code === 'keyword-conflict-dropped')).toHaveLength(2);
    expect(out.issues[0]).toMatchObject({
      kind: 'skipped',
      rowNumber: 2,
      code: 'keyword-conflict-dropped',
      message:
        'Keyword "nike" (Exact) is not written to ad group "Nike Zoom": it is kept only in ad group "Nike Air" of campaign "C" (row 1), the first that has it',
    });
  });
});
