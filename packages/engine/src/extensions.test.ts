import { describe, expect, it } from 'vitest';
import { formatCsvText, parseCsv } from './csv.ts';
import { calloutsTable, sitelinksTable, structuredSnippetsTable } from './export.ts';
import {
  ACCOUNT_LEVEL_CAMPAIGN,
  findExtensionProblem,
  generateExtensions,
  resolveAttachLevel,
  splitSnippetValues,
} from './extensions.ts';
import { restoreCampaignTemplate, restoreExtensionTemplate } from './restore.ts';
import type { CampaignTemplate, ExtensionAttachLevel, FeedRow } from './types.ts';
import { feedRow } from '../test/helpers/rows.ts';

const nike = { root: 'Nike', mod: 'Air', var1: 'Boost', var2: 'Flex', url: 'https://x.com/nike' };
const rows: FeedRow[] = [
  feedRow('a', nike),
  feedRow('b', nike),
  feedRow('c', { root: 'A very long brand name indeed', url: 'https://x.com/c' }),
];
const brands: FeedRow[] = [
  feedRow('n1', { root: 'Nike', mod: 'Air', url: 'https://shop.test/nike-air' }),
  feedRow('n2', { root: 'Nike', mod: 'Zoom', url: 'https://shop.test/nike-zoom' }),
  feedRow('a1', { root: 'Adidas', mod: 'Ultra', url: 'https://shop.test/adidas' }),
];

function campaignTemplate(fields: Record<string, unknown> = {}): CampaignTemplate {
  return restoreCampaignTemplate({
    name: 'C',
    campaign: '{root}',
    adGroup: '{root} {mod}',
    const: 'Shoe Shop',
    keywords: [{ keyword: '{root} {mod}', matchType: 'Exact' }],
    ...fields,
  });
}

const C = campaignTemplate();

function callout(text: string, attachTo?: ExtensionAttachLevel) {
  return restoreExtensionTemplate({
    extensionType: 'Callout',
    attachTo,
    templates: [{ 'Callout text': text }],
  });
}

function sitelink(values: Record<string, string>, attachTo?: ExtensionAttachLevel) {
  return restoreExtensionTemplate({ extensionType: 'Sitelink', attachTo, templates: [values] });
}

function places(out: ReturnType<typeof generateExtensions>): string[][] {
  return out.extensions.map((e) => [e.campaign, e.adGroup, Object.values(e.values)[0] ?? '']);
}

describe('extensions', () => {
  it('emits identical callouts of one place once and reports invalid rows', () => {
    const out = generateExtensions({ template: callout('Free {root} returns'), rows, campaign: C });
    expect(out.extensions.map((e) => e.values['Callout text'])).toEqual(['Free Nike returns']);
    expect(out.issues.map((i) => [i.rowId, i.code])).toEqual([['c', 'no-valid-fallback']]);
    expect(out.issues[0]?.message).toContain('Callout text has 42 characters (max 25)');
  });

  it('fills a sitelink Final URL from the row and requires its link text', () => {
    const t = sitelink({
      'Link Text': '{root}',
      'Description Line 1': 'Shop {mod}',
      'Description Line 2': 'Today',
    });
    const out = generateExtensions({ template: t, rows: rows.slice(0, 1), campaign: C });
    expect(out.extensions[0]?.values).toMatchObject({
      'Link Text': 'Nike',
      'Final URL': 'https://x.com/nike',
    });
    const noText = sitelink({ 'Link Text': '{var3}', 'Final URL': 'https://x.com' });
    expect(generateExtensions({ template: noText, rows, campaign: C }).issues[0]?.message).toBe(
      'Link Text is empty',
    );
  });

  it.each([
    ['', '', true],
    ['Shop now', 'Free returns', true],
    ['Shop now', '', false],
    ['', 'Free returns', false],
  ])('sitelink descriptions "%s" / "%s" valid: %s', (d1, d2, valid) => {
    const t = sitelink({
      'Link Text': 'Sale',
      'Description Line 1': d1,
      'Description Line 2': d2,
      'Final URL': 'https://x.com/sale',
    });
    const problem = findExtensionProblem(t, t.templates[0] ?? {});
    if (valid) expect(problem).toBeUndefined();
    else
      expect(problem).toBe(
        d1 === ''
          ? 'Description Line 1 is empty while Description Line 2 is not: a sitelink has both description lines or neither'
          : 'Description Line 2 is empty while Description Line 1 is not: a sitelink has both description lines or neither',
      );
  });

  it.each([
    ['without a scheme', 'shop.test/nike', 'is not an http:// or https:// address'],
    ['ftp:', 'ftp://shop.test/nike', 'is not an http:// or https:// address'],
    ['javascript:', 'javascript:alert(1)', 'is not an http:// or https:// address'],
    ['=HYPERLINK', '=HYPERLINK("https://shop.test")', 'is not an http:// or https:// address'],
    ['empty', '', 'Final URL is empty (neither the template nor the row has one)'],
    ['over 2048', `https://shop.test/${'a'.repeat(2048)}`, 'characters (max 2048)'],
  ])('skips and reports a sitelink whose row URL is %s', (_, url, message) => {
    const t = sitelink({ 'Link Text': 'Sale' });
    const out = generateExtensions({
      template: t,
      rows: [
        feedRow('x', { root: 'Nike', url }),
        feedRow('y', { root: 'Puma', url: 'HTTPS://ok.test/' }),
      ],
      campaign: campaignTemplate({ campaign: 'Shoes', adGroup: 'All' }),
    });
    expect(out.extensions.map((e) => e.values['Final URL'])).toEqual(['HTTPS://ok.test/']);
    expect(out.issues).toHaveLength(1);
    expect(out.issues[0]).toMatchObject({ kind: 'skipped', rowId: 'x', rowNumber: 1 });
    expect(out.issues[0]?.message).toContain(message);
  });

  it('takes the next fallback when a sitelink URL is bad', () => {
    const t = restoreExtensionTemplate({
      extensionType: 'Sitelink',
      templates: [
        { 'Link Text': '{root}' },
        { 'Link Text': '{root}', 'Final URL': 'https://x.com' },
      ],
    });
    const out = generateExtensions({
      template: t,
      rows: [feedRow('x', { root: 'Nike', url: 'ftp://x' })],
      campaign: C,
    });
    expect(out.extensions[0]?.values['Final URL']).toBe('https://x.com');
    expect(out.issues).toEqual([]);
  });

  it.each([
    ['{root};{mod};{var1}', 'brands', true],
    ['{root};{mod}', 'Brands', false],
    ['{root};{mod};{var1}', 'Colours', false],
    ['a;b;c;d;e;f;g;h;i;j;k', 'Types', false],
    ['a;b;' + 'c'.repeat(26), 'Types', false],
  ])('snippet values %s with header %s valid: %s', (values, header, valid) => {
    const t = restoreExtensionTemplate({
      extensionType: 'Structured Snippet',
      templates: [{ Header: header, 'Snippet Values': values }],
    });
    const out = generateExtensions({ template: t, rows: rows.slice(0, 1), campaign: C });
    expect(out.extensions.length).toBe(valid ? 1 : 0);
    if (valid)
      expect(out.extensions[0]?.values).toMatchObject({
        Header: 'Brands',
        'Snippet Values': 'Nike; Air; Boost',
      });
  });

  it('splits snippet values on ; and new lines', () => {
    expect(splitSnippetValues(' a ; b\nc;; ')).toEqual(['a', 'b', 'c']);
  });
});

describe("Google's editorial rules on asset texts", () => {
  const sale = (values: Record<string, string>) => {
    const t = sitelink({
      'Link Text': 'Sale',
      'Description Line 1': 'Shop now',
      'Description Line 2': 'Free returns',
      'Final URL': 'https://x.com/sale',
      ...values,
    });
    return findExtensionProblem(t, t.templates[0] ?? {});
  };

  it.each([
    ['Link Text', 'Sale!', 'Link Text has "!"'],
    ['Link Text', 'Sale 🔥', 'Link Text has an emoji'],
    ['Description Line 1', 'Shop now!!', 'Description Line 1 repeats punctuation'],
    ['Description Line 2', 'FREE SHIPPING', 'Description Line 2 is in capitals'],
  ])('%s %j fails', (field, text, start) => {
    expect(sale({ [field]: text })).toMatch(new RegExp(`^${start.replace(/[!(]/g, '\\$&')}`));
  });

  it('a description may carry one "!", as ad descriptions do', () => {
    expect(sale({ 'Description Line 1': 'Shop now!' })).toBeUndefined();
  });

  it('snippet values are each given once (ignoring case)', () => {
    const s = restoreExtensionTemplate({
      name: 'S',
      extensionType: 'Structured Snippet',
      templates: [{ Header: 'Brands', 'Snippet Values': 'Nike;Adidas;nike' }],
    });
    expect(findExtensionProblem(s, s.templates[0] ?? {})).toBe(
      'Snippet value "nike" is repeated (Google takes each value once)',
    );
  });

  it('callouts and snippet values take no "!"', () => {
    const c = callout('Free delivery!');
    expect(findExtensionProblem(c, c.templates[0] ?? {})).toMatch(/^Callout text has "!"/);
    const s = restoreExtensionTemplate({
      name: 'S',
      extensionType: 'Structured Snippet',
      templates: [{ Header: 'Brands', 'Snippet Values': 'Nike;Adidas!;Puma' }],
    });
    expect(findExtensionProblem(s, s.templates[0] ?? {})).toBe(
      'Snippet value "Adidas!" has "!" (Google allows none in headlines)',
    );
  });
});

describe('where assets attach', () => {
  it.each([
    // [template text, attachTo, campaign pattern, expected level]
    ['Free returns', 'auto', '{root}', 'account'],
    ['Free returns at {const}', 'auto', '{root}', 'account'],
    ['Free {root} returns', 'auto', '{root}', 'campaign'],
    ['Free {root} returns', 'auto', '{root} - {mod}', 'campaign'],
    ['Free {mod} returns', 'auto', '{root}', 'adGroup'],
    ['Free {root} returns', 'auto', 'All shoes', 'adGroup'],
    ['Free {mt} returns', 'auto', '{root}', 'adGroup'],
    ['Free {mod} returns', 'account', '{root}', 'account'],
    ['Free returns', 'campaign', '{root}', 'campaign'],
    ['Free returns', 'adGroup', '{root}', 'adGroup'],
  ] as const)('%s (%s, campaign %s) attaches to the %s', (text, attachTo, pattern, level) => {
    const choice = resolveAttachLevel(
      callout(text, attachTo),
      campaignTemplate({ campaign: pattern }),
    );
    expect(choice.level).toBe(level);
  });

  it('lands in the campaign and ad group the keyword files write (first spelling, cleaned)', () => {
    const out = generateExtensions({
      template: callout('Free {mod} returns', 'adGroup'),
      rows: [
        feedRow('a', { root: 'Café', mod: 'Air', url: 'https://x.com/a' }),
        // NFD "Café" and other case: the same campaign and ad group, as the keywords make them.
        feedRow('b', { root: 'CAFE\u0301', mod: 'AIR', url: 'https://x.com/b' }),
        feedRow('c', { root: 'Two\nLines', mod: 'Max', url: 'https://x.com/c' }),
      ],
      campaign: campaignTemplate({ campaign: '{root}', adGroup: '{root} {mod}' }),
    });
    // "Free AIR returns" repeats "Free Air returns" in that ad group, ignoring case: left out.
    expect(places(out)).toEqual([
      ['Café', 'Café Air', 'Free Air returns'],
      ['Two Lines', 'Two Lines Max', 'Free Max returns'],
    ]);
    expect(out.issues.filter((i) => i.code === 'repeated-asset-text')).toHaveLength(1);
  });

  it("counts a sitelink's row URL as {url}", () => {
    const withRowUrl = sitelink({ 'Link Text': '{root}' });
    const withOwnUrl = sitelink({ 'Link Text': '{root}', 'Final URL': 'https://x.com/{root}' });
    const c = campaignTemplate();
    expect(resolveAttachLevel(withRowUrl, c)).toMatchObject({ level: 'adGroup' });
    expect(resolveAttachLevel(withRowUrl, c).reason).toContain('{url}');
    expect(resolveAttachLevel(withOwnUrl, c)).toMatchObject({ level: 'campaign' });
    expect(
      resolveAttachLevel(withRowUrl, campaignTemplate({ campaign: '{root} {url}' })),
    ).toMatchObject({
      level: 'campaign',
    });
  });

  it('attaches Performance Max assets to the campaign, never an ad group', () => {
    const pmax = campaignTemplate({ type: 'performance', assetGroup: '{mod}' });
    for (const attachTo of ['auto', 'adGroup'] as const) {
      const choice = resolveAttachLevel(callout('{mod}', attachTo), pmax);
      expect(choice.level).toBe('campaign');
      expect(choice.reason).toContain('asset groups');
    }
    const out = generateExtensions({
      template: callout('Free {mod}'),
      rows: brands,
      campaign: pmax,
    });
    expect(places(out)).toEqual([
      ['Nike', '', 'Free Air'],
      ['Nike', '', 'Free Zoom'],
      ['Adidas', '', 'Free Ultra'],
    ]);
  });

  it('writes account-level assets once with <Account-level>', () => {
    const out = generateExtensions({
      template: callout('Free returns at {const}'),
      rows: brands,
      campaign: campaignTemplate(),
    });
    expect(places(out)).toEqual([[ACCOUNT_LEVEL_CAMPAIGN, '', 'Free returns at Shoe Shop']]);
    expect(out.issues).toEqual([]);
  });

  it('never merges assets across campaigns: one per campaign and text', () => {
    const out = generateExtensions({
      template: callout('Shop {root}'),
      rows: brands,
      campaign: campaignTemplate(),
    });
    expect(places(out)).toEqual([
      ['Nike', '', 'Shop Nike'],
      ['Adidas', '', 'Shop Adidas'],
    ]);
    // The same text in two campaigns is two assets.
    const same = generateExtensions({
      template: callout('Free returns', 'campaign'),
      rows: brands,
      campaign: campaignTemplate(),
    });
    expect(places(same)).toEqual([
      ['Nike', '', 'Free returns'],
      ['Adidas', '', 'Free returns'],
    ]);
  });

  it('attaches per ad group, one per match type when the ad group pattern uses {mt}', () => {
    const c = campaignTemplate({
      adGroup: '{root} {mod} {mt}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Exact' },
        { keyword: '{root} {mod}', matchType: 'Broad' },
        { keyword: '{mod}', matchType: 'Negative Broad' },
      ],
    });
    const out = generateExtensions({
      template: callout('{mod} {mt}'),
      rows: brands.slice(0, 1),
      campaign: c,
    });
    expect(places(out)).toEqual([
      ['Nike', 'Nike Air Broad', 'Air Broad'],
      ['Nike', 'Nike Air Exact', 'Air Exact'],
    ]);
  });

  it('attaches nothing to an ad group the keyword rules do not make, and says so', () => {
    const c = campaignTemplate({
      adGroup: '{root} {mt}',
      keywords: [
        { keyword: '{mod}', matchType: 'Broad' },
        { keyword: '{root} {var1}', matchType: 'Exact' },
      ],
    });
    const row = feedRow('r', { root: 'Nike', mod: 'Air', var1: '!!!' });
    const out = generateExtensions({ template: callout('{mod} {mt}'), rows: [row], campaign: c });
    // '{root} {var1}' is "nike !!!": cleaned to "nike", an Exact group; '{mod}' gives Broad.
    expect(places(out)).toEqual([
      ['Nike', 'Nike Broad', 'Air Broad'],
      ['Nike', 'Nike Exact', 'Air Exact'],
    ]);
    const noBroad = generateExtensions({
      template: callout('{mod} {mt}'),
      rows: [feedRow('s', { root: 'Puma', var1: 'Suede' })],
      campaign: c,
    });
    expect(places(noBroad)).toEqual([['Puma', 'Puma Exact', 'Exact']]);
    expect(noBroad.issues.map((i) => [i.code, i.message])).toEqual([
      ['no-ad-group', 'The row has no Broad keyword, so no ad group for its assets'],
    ]);
  });

  it('reports rows without a campaign or ad group name, and a missing campaign template', () => {
    const c = campaignTemplate({ campaign: '{var1}', adGroup: '{var2}' });
    const row = feedRow('r', { root: 'Nike' });
    const noCampaign = generateExtensions({
      template: callout('{root}', 'campaign'),
      rows: [row],
      campaign: c,
    });
    expect(noCampaign.issues.map((i) => [i.rowId, i.code])).toEqual([['r', 'empty-campaign']]);
    const noGroup = generateExtensions({
      template: callout('{root}', 'adGroup'),
      rows: [row],
      campaign: campaignTemplate({ adGroup: '{var2}' }),
    });
    expect(noGroup.issues.map((i) => [i.rowId, i.code])).toEqual([['r', 'empty-ad-group']]);
    const none = generateExtensions({ template: callout('{root}'), rows: [row] });
    expect(none.extensions).toEqual([]);
    expect(none.issues.map((i) => [i.rowNumber, i.code])).toEqual([[0, 'no-campaign-template']]);
    // Account-level assets need no campaign template.
    expect(generateExtensions({ template: callout('Free'), rows: [row] }).extensions).toHaveLength(
      1,
    );
  });

  it('writes the Campaign and Ad Group columns of each place in Editor files', () => {
    const out = generateExtensions({
      template: sitelink({ 'Link Text': 'Shop {root}', 'Final URL': 'https://shop.test/{root}' }),
      rows: brands,
      campaign: campaignTemplate(),
    });
    expect(parseCsv(formatCsvText(sitelinksTable(out.extensions)))).toEqual([
      [
        'Campaign',
        'Ad Group',
        'Link Text',
        'Description Line 1',
        'Description Line 2',
        'Final URL',
      ],
      ['Nike', '', 'Shop Nike', '', '', 'https://shop.test/Nike'],
      ['Adidas', '', 'Shop Adidas', '', '', 'https://shop.test/Adidas'],
    ]);
    expect(calloutsTable([]).headers).toEqual(['Campaign', 'Ad Group', 'Callout text']);
    expect(structuredSnippetsTable([]).headers).toEqual([
      'Campaign',
      'Ad Group',
      'Header',
      'Snippet Values',
    ]);
  });
});

describe('assets per place (issue 36)', () => {
  const campaign = campaignTemplate({ campaign: 'Shoes', adGroup: 'All' });
  // The audit's ad group: 1,250 rows merged into one, each row a sitelink of its own URL.
  const rows = Array.from({ length: 1250 }, (_, i) =>
    feedRow(`r${i}`, { root: `shoe${i}`, mod: 'x', url: `https://www.shop.com/${i}` }),
  );

  it('writes at most 20 sitelinks in a place and each link text once, reporting once per place', () => {
    const out = generateExtensions({
      template: sitelink(
        { 'Link Text': 'Shop now', 'Description Line 1': '', 'Description Line 2': '' },
        'adGroup',
      ),
      rows,
      campaign,
    });
    expect(out.extensions).toHaveLength(1);
    expect(out.issues.map((i) => [i.kind, i.code, i.rowNumber, i.message])).toEqual([
      [
        'skipped',
        'repeated-asset-text',
        2,
        'Ad group "All" of campaign "Shoes": 1,249 sitelinks with the link text "Shop now" left out (Google takes each link text once in a place, ignoring case)',
      ],
    ]);
    const many = generateExtensions({
      template: sitelink(
        { 'Link Text': 'Shop {root}', 'Description Line 1': '', 'Description Line 2': '' },
        'adGroup',
      ),
      rows,
      campaign,
    });
    expect(many.extensions).toHaveLength(20);
    expect(many.issues.map((i) => [i.code, i.rowNumber, i.message])).toEqual([
      [
        'too-many-assets',
        21,
        'Ad group "All" of campaign "Shoes": 1,230 sitelinks more left out (Google takes at most 20 sitelinks in a place)',
      ],
    ]);
  });

  it('compares callout texts ignoring case and Unicode form (NFKC), and limits each place apart', () => {
    const out = generateExtensions({
      template: callout('{mod}', 'campaign'),
      rows: [
        feedRow('a', { root: 'a', mod: 'Free Returns' }),
        feedRow('b', { root: 'b', mod: 'free returns' }),
        feedRow('c', { root: 'c', mod: 'Ｆｒｅｅ Ｒｅｔｕｒｎｓ' }),
        feedRow('d', { root: 'd', mod: 'Free Delivery' }),
      ],
      campaign: campaignTemplate({ campaign: 'Shoes', adGroup: '{root}' }),
    });
    expect(out.extensions.map((e) => e.values['Callout text'])).toEqual([
      'Free Returns',
      'Free Delivery',
    ]);
    expect(out.issues.map((i) => i.message)).toEqual([
      'Campaign "Shoes": 2 callouts with the callout text "Free Returns" left out (Google takes each callout text once in a place, ignoring case)',
    ]);
    const snippets = generateExtensions({
      template: restoreExtensionTemplate({
        name: 'S',
        extensionType: 'Structured Snippet',
        attachTo: 'account',
        templates: [{ Header: 'Brands', 'Snippet Values': '{root}; b; c' }],
      }),
      rows: Array.from({ length: 25 }, (_, i) => feedRow(`r${i}`, { root: `a${i}` })),
      campaign,
    });
    expect(snippets.extensions).toHaveLength(20);
    expect(snippets.issues.map((i) => i.message)).toEqual([
      'The account: 5 structured snippets more left out (Google takes at most 20 structured snippets in a place)',
    ]);
  });
});

describe('a problem of the template itself (issue 36)', () => {
  const many = Array.from({ length: 50 }, (_, i) =>
    feedRow(`r${i}`, { root: `Brand ${i}`, url: `https://shop.test/${i}` }),
  );

  it('is reported once, not once per feed row', () => {
    const t = sitelink(
      { 'Link Text': 'Contact Us!!', 'Final URL': 'https://shop.test/contact' },
      'account',
    );
    const out = generateExtensions({ template: t, rows: many, campaign: C });
    expect(out.extensions).toEqual([]);
    expect(out.issues).toHaveLength(1);
    expect(out.issues[0]).toMatchObject({ rowId: '', rowNumber: 0, code: 'no-valid-fallback' });
    expect(out.issues[0]?.message).toMatch(/^The template's own text: .*!/);
  });

  it('is reported once at campaign level too, where every row is a place', () => {
    const out = generateExtensions({
      template: callout('Free returns!!', 'campaign'),
      rows: many,
      campaign: C,
    });
    expect(out.issues.map((i) => [i.rowNumber, i.code])).toEqual([[0, 'no-valid-fallback']]);
  });

  it('stays a row problem when the row fills it (a placeholder, or the row URL of a sitelink)', () => {
    const noUrl = [feedRow('x', { root: 'Nike' }), feedRow('y', { root: 'Puma' })];
    const t = sitelink({ 'Link Text': 'Contact us' }, 'campaign');
    const out = generateExtensions({ template: t, rows: noUrl, campaign: C });
    expect(out.issues.map((i) => [i.rowId, i.code])).toEqual([
      ['x', 'no-valid-fallback'],
      ['y', 'no-valid-fallback'],
    ]);
  });
});
