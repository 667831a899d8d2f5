import { describe, expect, it } from 'vitest';
import { formatCsvText } from './csv.ts';
import { findFormulaCells, startsLikeFormula } from './formulaCells.ts';
import { newCampaignTemplate, restoreExtensionTemplate, restoreRsaTemplate } from './restore.ts';
import type { FeedRow } from './types.ts';

function row(id: string, over: Partial<FeedRow>): FeedRow {
  return { id, root: 'nike', mod: '', var1: '', var2: '', var3: '', url: '', ...over };
}

describe('startsLikeFormula', () => {
  it.each([
    ['=SUM(A1)', true],
    ['+49 30 1234', true],
    ['-20% off', true],
    ['@home', true],
    ['Shoes = fun', false],
    [' =x', false],
    ['', false],
  ])('%j: %s', (text, expected) => {
    expect(startsLikeFormula(text)).toBe(expected);
  });
});

describe('findFormulaCells', () => {
  const campaign = {
    ...newCampaignTemplate('Campaigns'),
    campaign: '{root}',
    adGroup: '{root} {var1}',
  };
  const rsa = restoreRsaTemplate({
    name: 'Ads',
    templates: [
      {
        headlines: ['+Shop {root}', 'Free delivery', '{mod}'],
        descriptions: ['Buy now', 'Great'],
        paths: ['-sale', ''],
        labels: ['@team'],
      },
    ],
  });

  it('reports template texts first, then each cell of a column that reaches an output', () => {
    const rows = [
      row('a', { root: '=HYPERLINK("x")', var2: '=never used' }),
      row('b', { var1: '-20%', mod: '@x', url: '=bad' }),
    ];
    const issues = findFormulaCells(rows, { campaign, rsa });
    expect(issues.map((i) => [i.kind, i.output, i.rowId, i.rowNumber, i.code])).toEqual([
      ['warning', 'responsive search ads', '', 0, 'formula-start'],
      ['warning', 'responsive search ads', '', 0, 'formula-start'],
      ['warning', 'responsive search ads', '', 0, 'formula-start'],
      ['warning', 'feed', 'a', 1, 'formula-start'],
      ['warning', 'feed', 'b', 2, 'formula-start'],
      ['warning', 'feed', 'b', 2, 'formula-start'],
      ['warning', 'feed', 'b', 2, 'formula-start'],
    ]);
    expect(issues.map((i) => i.message.split(' starts')[0])).toEqual([
      'Fallback 1, Headline 1 "+Shop {root}"',
      'Fallback 1, Path 1 "-sale"',
      'Fallback 1, Label 1 "@team"',
      'Root "=HYPERLINK("x")"',
      'Modifier "@x"',
      'Var 1 "-20%"',
      'Final URL "=bad"',
    ]);
    expect(issues[3]!.message).toBe(
      'Root "=HYPERLINK("x")" starts with "=", which a spreadsheet runs as a formula; Google Ads Editor files keep it as typed',
    );
  });

  it('leaves out columns no template uses (the final URL only reaches ads)', () => {
    const rows = [row('a', { mod: '=1', url: '=2' })];
    expect(findFormulaCells(rows, { campaign })).toEqual([]);
    const callout = restoreExtensionTemplate({
      name: 'C',
      extensionType: { name: 'Callout' },
      templates: [{ 'Callout text': '{mod} deals' }],
    });
    const issues = findFormulaCells(rows, { extensions: [callout] });
    expect(issues.map((i) => i.message.split(' starts')[0])).toEqual(['Modifier "=1"']);
  });

  it('reports extension texts under their output', () => {
    const sitelink = restoreExtensionTemplate({
      name: 'Links',
      extensionType: { name: 'Sitelink' },
      templates: [{ 'Link Text': '=Shop', 'Final URL': 'https://a.test' }],
    });
    expect(
      findFormulaCells([], { extensions: [sitelink] }).map((i) => [i.output, i.message]),
    ).toEqual([
      [
        'sitelink extensions',
        '"Links", fallback 1, Link Text "=Shop" starts with "=", which a spreadsheet runs as a formula; Google Ads Editor files keep it as typed',
      ],
    ]);
  });

  it('reads every extension fallback, and the row URL a sitelink without one takes', () => {
    const sitelink = restoreExtensionTemplate({
      name: 'Links',
      extensionType: { name: 'Sitelink' },
      templates: [
        { 'Link Text': 'Shop', 'Final URL': 'https://a.test' },
        { 'Link Text': '@Shop', 'Final URL': '' },
      ],
    });
    const rows = [row('a', { url: '=HYPERLINK("x")' })];
    expect(
      findFormulaCells(rows, { extensions: [sitelink] }).map((i) => i.message.split(' starts')[0]),
    ).toEqual(['"Links", fallback 2, Link Text "@Shop"', 'Final URL "=HYPERLINK("x")"']);
  });

  it('changes nothing: the rows and templates stay, the CSV for Editor keeps the text, the one for a spreadsheet neutralises it', () => {
    const rows = [row('a', { root: '=1', var1: '-2' })];
    const before = structuredClone(rows);
    expect(findFormulaCells(rows, { campaign })).toHaveLength(2);
    expect(rows).toEqual(before);
    const table = { headers: ['Keyword'], rows: [['-20% off']] };
    expect(formatCsvText(table)).toBe('Keyword\r\n-20% off\r\n');
    expect(formatCsvText(table, { neutraliseFormulas: true })).toBe("Keyword\r\n'-20% off\r\n");
  });
});
