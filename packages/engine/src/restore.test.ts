import { describe, expect, it } from 'vitest';
import {
  findMatchType,
  newCampaignTemplate,
  newExtensionTemplate,
  newFeed,
  newFeedRow,
  newPerformanceMaxFallback,
  newPerformanceMaxTemplate,
  newRsaFallback,
  newRsaTemplate,
  restoreAdTemplate,
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restoreFeed,
  restorePerformanceMaxTemplate,
  restoreRsaTemplate,
} from './restore.ts';

describe('constructors', () => {
  it('newRsaFallback has 4 headlines, 2 descriptions, 2 paths, 1 label', () => {
    const f = newRsaFallback();
    expect(f.headlines).toHaveLength(4);
    expect(f.descriptions).toHaveLength(2);
    expect(f.paths).toEqual(['', '']);
    expect(f.labels).toEqual(['']);
    expect(f.headlines[0]).toEqual({ text: '', pos: 0 });
  });
  it('newPerformanceMaxFallback has 3 headlines, 1 long headline, 2 descriptions', () => {
    const f = newPerformanceMaxFallback();
    expect([f.headlines.length, f.longHeadlines.length, f.descriptions.length]).toEqual([3, 1, 2]);
    expect(f.callToAction).toBe('');
  });
  it('new templates carry one fallback and the name', () => {
    expect(newRsaTemplate('A').templates).toHaveLength(1);
    expect(newPerformanceMaxTemplate('P').name).toBe('P');
  });
  it('newCampaignTemplate defaults to search with budget 0.01', () => {
    const t = newCampaignTemplate('C');
    expect(t.type).toBe('search');
    expect(t.settings.budget).toEqual({ value: 0.01, selected: true });
    expect(t.keywords).toEqual([]);
  });
  it('newFeed has one empty row; brands is the default feed', () => {
    const f = newFeed('brands', 'table', 'x1');
    expect(f).toEqual({
      name: 'brands',
      dataType: 'table',
      sheetUrl: '',
      rows: [newFeedRow('x1')],
    });
  });
  it('newExtensionTemplate has empty values for each field', () => {
    const t = newExtensionTemplate('S', 'Sitelink');
    expect(Object.keys(t.templates[0] ?? {})).toEqual([
      'Link Text',
      'Description Line 1',
      'Description Line 2',
      'Upgraded extension',
      'Final URL',
    ]);
  });
});

describe('restore', () => {
  it('converts legacy plain-string headlines to {text, pos: 0}', () => {
    const t = restoreRsaTemplate({
      name: 'R',
      templates: [
        { headlines: ['Buy {root}', { text: 'X', pos: 2 }], descriptions: ['D'], paths: ['p'] },
      ],
    });
    expect(t.templates[0]?.headlines).toEqual([
      { text: 'Buy {root}', pos: 0 },
      { text: 'X', pos: 2 },
    ]);
    expect(t.templates[0]?.paths).toEqual(['p', '']);
    expect(t.templates[0]?.labels).toEqual([]);
  });
  it.each([undefined, null, 42, 'x', [], { templates: 'nope' }])('never throws on %j', (x) => {
    expect(() => restoreRsaTemplate(x)).not.toThrow();
    expect(() => restoreCampaignTemplate(x)).not.toThrow();
    expect(() => restorePerformanceMaxTemplate(x)).not.toThrow();
    expect(() => restoreAdTemplate(x)).not.toThrow();
    expect(() => restoreExtensionTemplate(x)).not.toThrow();
    expect(() => restoreFeed(x)).not.toThrow();
    expect(restoreRsaTemplate(x).templates).toHaveLength(1);
  });
  it('corrects a missing campaign type to search and fills defaults', () => {
    const t = restoreCampaignTemplate({
      name: 'C',
      campaign: '{root}',
      keywords: [{ keyword: '{root}', matchType: 'exact' }, 'plain'],
    });
    expect(t.type).toBe('search');
    expect(t.keywords).toEqual([
      { keyword: '{root}', matchType: 'Exact', selected: true },
      { keyword: 'plain', matchType: 'Broad', selected: true },
    ]);
    expect(t.settings.budget.value).toBe(0.01);
    expect(t.settings.optionalSettings).toEqual([]);
  });
  it('keeps dropBlockingNegatives, off when missing or not a boolean', () => {
    expect(restoreCampaignTemplate({}).settings.dropBlockingNegatives).toBe(false);
    expect(newCampaignTemplate('n').settings.dropBlockingNegatives).toBe(false);
    const on = restoreCampaignTemplate({ settings: { dropBlockingNegatives: true } });
    expect(on.settings.dropBlockingNegatives).toBe(true);
    const odd = restoreCampaignTemplate({ settings: { dropBlockingNegatives: 3 } });
    expect(odd.settings.dropBlockingNegatives).toBe(false);
  });
  it('keeps performance type and flat budget', () => {
    const t = restoreCampaignTemplate({ type: 'performance', budget: '12.5' });
    expect(t.type).toBe('performance');
    expect(t.settings.budget).toEqual({ value: 12.5, selected: true });
  });
  it.each([
    ['broad', 'Broad'],
    ['PHRASE', 'Phrase'],
    ['negative exact', 'Negative Exact'],
    ['Negative_Broad', 'Negative Broad'],
    ['fuzzy', undefined],
  ])('match type %s -> %s', (input, expected) => {
    expect(findMatchType(input)).toBe(expected);
  });
  it('restores Performance Max fallbacks with call to action in any case', () => {
    const t = restorePerformanceMaxTemplate({
      templates: [
        { headlines: ['a'], longHeadlines: ['b'], callToAction: 'shop now', businessName: 'Acme' },
      ],
    });
    expect(t.templates[0]?.callToAction).toBe('Shop now');
    expect(t.templates[0]?.longHeadlines).toEqual([{ text: 'b', pos: 0 }]);
  });
  it('wraps a flat legacy ad fallback list in one version', () => {
    const t = restoreAdTemplate({ name: 'L', templates: [{ h1: 'a' }] });
    expect(t.templates).toHaveLength(1);
    expect(t.templates[0]?.[0]?.h1).toBe('a');
  });
  it('restores an extension template by type name with spec fields', () => {
    const t = restoreExtensionTemplate({
      name: 'E',
      extensionType: 'structured snippet',
      templates: [{ Header: 'Brands', 'Snippet Values': 'a;b;c' }],
    });
    expect(t.extensionType.name).toBe('Structured Snippet');
    expect(t.templates[0]?.['Snippet Values']).toBe('a;b;c');
    expect(t.templates[0]?.['Upgraded extension']).toBe('');
  });
  it('restores feeds: numbers become text, ids are filled and unique', () => {
    const f = restoreFeed({
      name: 'F',
      rows: [{ root: 123, id: 'a' }, { root: 'x', id: 'a' }, { mod: 'm' }],
    });
    expect(f.dataType).toBe('table');
    expect(f.sheetUrl).toBe('');
    expect(f.rows.map((r) => r.id)).toEqual(['a', 'a-1', 'row-3']);
    expect(f.rows[0]?.root).toBe('123');
  });
});
