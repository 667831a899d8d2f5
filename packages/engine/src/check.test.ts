import { describe, expect, it } from 'vitest';
import {
  findCampaignTemplateProblems,
  findExtensionTemplateProblems,
  findPerformanceMaxTemplateProblems,
  findRsaTemplateProblems,
} from './check.ts';

describe('strict template checks', () => {
  it('accepts a well-formed campaign template', () => {
    expect(
      findCampaignTemplateProblems({
        name: 'C',
        campaign: '{root}',
        adGroup: '{mod} {mt}',
        keywords: [
          { keyword: '{root}', matchType: 'exact' },
          { keyword: 'free', matchType: 'Negative Phrase' },
        ],
        settings: {
          budget: { value: 5, selected: true },
          dropBlockingNegatives: true,
          keepKeywordInFirstAdGroup: true,
        },
      }),
    ).toEqual([]);
  });
  it.each([
    [
      { campaign: 'x', keywords: [{ keyword: 'a', matchType: 'Fuzzy' }] },
      'keywords[0].matchType: unknown match type "Fuzzy"',
    ],
    [{ campaign: 'x', adGroupp: 'y' }, 'unknown field "adGroupp"'],
    [{ campaign: '{rooot}' }, 'campaign: unknown placeholder {rooot}'],
    [{ campaign: 'x', type: 'display' }, 'unknown campaign type "display"'],
    [{ campaign: 'x', settings: { budget: 0 } }, 'below the minimum 0.01'],
    [[], 'expected an object, got a list'],
  ])('names the problem in %j', (input, message) => {
    expect(findCampaignTemplateProblems(input).join('\n')).toContain(message);
  });
  it('checks RSA counts, pins and fields', () => {
    const problems = findRsaTemplateProblems({
      templates: [
        {
          headlines: Array.from({ length: 16 }, () => 'h'),
          descriptions: [{ text: 'd', pos: 3 }],
          path: [],
        },
      ],
    });
    expect(problems).toEqual([
      'templates[0]: unknown field "path" (known: headlines, descriptions, paths, labels)',
      'templates[0].headlines: 16 entries, at most 15 allowed',
      'templates[0].descriptions[0].pos: pin position 3 is not 0 (free) to 2',
    ]);
  });
  it('refuses pins that leave a position empty, and labels with ";"', () => {
    const problems = findRsaTemplateProblems({
      templates: [
        {
          headlines: [1, 1, 1].map((pos, i) => ({ text: `h${i}`, pos })),
          descriptions: [
            { text: 'd', pos: 1 },
            { text: 'e', pos: 2 },
          ],
          labels: ['ok', 'a;b'],
        },
      ],
    });
    expect(problems).toEqual([
      'templates[0].headlines: no entry can show at position 2: every entry is pinned to another position',
      'templates[0].headlines: no entry can show at position 3: every entry is pinned to another position',
      'templates[0].labels[1]: label "a;b" contains ";", which Google Ads Editor reads as a separator between labels',
    ]);
  });
  it('takes up to 15 Performance Max headlines', () => {
    const headlines = (n: number) => Array.from({ length: n }, (_, i) => `h${i}`);
    expect(
      findPerformanceMaxTemplateProblems({ templates: [{ headlines: headlines(15) }] }),
    ).toEqual([]);
    expect(
      findPerformanceMaxTemplateProblems({ templates: [{ headlines: headlines(16) }] }),
    ).toEqual(['templates[0].headlines: 16 entries, at most 15 allowed']);
  });
  it('checks Performance Max calls to action', () => {
    expect(findPerformanceMaxTemplateProblems({ templates: [{ callToAction: 'Buy it' }] })).toEqual(
      ['templates[0].callToAction: unknown call to action "Buy it"'],
    );
  });
  it('checks extension types, field names and snippet headers', () => {
    expect(findExtensionTemplateProblems({ extensionType: 'Price', templates: [{}] })[0]).toContain(
      'unknown extension type "Price"',
    );
    expect(
      findExtensionTemplateProblems({ extensionType: 'Callout', templates: [{ Text: 'x' }] })[0],
    ).toContain('unknown field "Text"');
    expect(
      findExtensionTemplateProblems({
        extensionType: 'Structured Snippet',
        templates: [{ Header: 'Colours', 'Snippet Values': 'a;b;c' }],
      }),
    ).toEqual(['templates[0].Header: unknown snippet header "Colours"']);
  });
  it('checks where extension assets attach', () => {
    const callout = { extensionType: 'Callout', templates: [{ 'Callout text': 'Free' }] };
    expect(findExtensionTemplateProblems({ ...callout, attachTo: 'ad group' })).toEqual([]);
    expect(findExtensionTemplateProblems({ ...callout, attachTo: 'keyword' })).toEqual([
      'attachTo: unknown level "keyword" (known: auto, account, campaign, adGroup)',
    ]);
  });
});
