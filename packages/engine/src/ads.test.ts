import { describe, expect, it } from 'vitest';
import {
  formatDateDigits,
  generateLegacyAds,
  generatePerformanceMaxAds,
  generateResponsiveSearchAds,
  replaceLabelDate,
} from './ads.ts';
import { restoreAdTemplate, restorePerformanceMaxTemplate, restoreRsaTemplate } from './restore.ts';
import type { FeedRow } from './types.ts';

function row(id: string, root: string, mod = '', url = 'https://www.shop.com/x'): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url };
}

const group = (id: string, adGroup = `AG ${id}`) => ({ campaign: 'C', adGroup, id });

describe('label dates', () => {
  it.each([
    ['yyyymmdd-v1', '20261122-v1'],
    ['run yyyymmdd-v3', 'run 20261122-v3'],
    ['yyyymmdd-v4', 'yyyymmdd-v4'],
    ['plain', 'plain'],
  ])('%s -> %s', (label, expected) => {
    expect(replaceLabelDate(label, '20261122')).toBe(expected);
  });
  it('formats an injected date as yyyymmdd', () => {
    expect(formatDateDigits(new Date(2026, 0, 5))).toBe('20260105');
  });
});

describe('generateResponsiveSearchAds', () => {
  const template = restoreRsaTemplate({
    name: 'R',
    templates: [
      {
        headlines: [{ text: 'Buy {root} {mod}', pos: 1 }, 'Great {root} deals', 'Free delivery'],
        descriptions: ['Shop {root} {mod} today.', 'Fast shipping.'],
        paths: ['{root}', 'sale'],
        labels: ['yyyymmdd-v1'],
      },
      {
        headlines: ['{root}', 'Great deals', 'Free delivery'],
        descriptions: ['Shop {root} today.', 'Fast shipping.'],
        paths: ['', ''],
        labels: ['fallback'],
      },
    ],
  });

  it('uses the first valid fallback per row, keeps pins and replaces label dates', () => {
    const rows = [row('a', 'Nike', 'Air'), row('b', 'Superlongbrandname', 'Extravaganza')];
    const out = generateResponsiveSearchAds({
      template,
      rows,
      adGroups: [group('a'), group('b')],
      today: '20261122',
    });
    expect(out.ads.map((a) => a.fallbackIndex)).toEqual([0, 1]);
    expect(out.ads[0]).toEqual({
      campaign: 'C',
      adGroup: 'AG a',
      rowId: 'a',
      fallbackIndex: 0,
      headlines: [
        { text: 'Buy Nike Air', pos: 1 },
        { text: 'Great Nike deals', pos: 0 },
        { text: 'Free delivery', pos: 0 },
      ],
      descriptions: [
        { text: 'Shop Nike Air today.', pos: 0 },
        { text: 'Fast shipping.', pos: 0 },
      ],
      paths: ['Nike', 'sale'],
      labels: ['20261122-v1'],
      finalUrl: 'https://www.shop.com/x',
    });
    expect(out.ads[1]?.labels).toEqual(['fallback']);
    expect(out.issues).toEqual([]);
  });

  it('reports rows with no valid fallback with the reason', () => {
    const rows = [row('a', 'x'.repeat(31))];
    const out = generateResponsiveSearchAds({
      template,
      rows,
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads).toEqual([]);
    expect(out.issues).toHaveLength(1);
    expect(out.issues[0]).toMatchObject({
      kind: 'skipped',
      rowId: 'a',
      rowNumber: 1,
      code: 'no-valid-fallback',
    });
    expect(out.issues[0]?.message).toContain('Headline 1 has 35 characters (max 30)');
  });

  it('treats an empty headline after substitution as invalid (minimum 1)', () => {
    const t = restoreRsaTemplate({
      templates: [{ headlines: ['{var1}', 'b', 'c'], descriptions: ['d', 'e'] }],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'x')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.issues[0]?.message).toContain('Headline 1 is empty');
  });

  it('counts paths up to 15 and requires path 1 when path 2 is set', () => {
    const t = restoreRsaTemplate({
      templates: [{ headlines: ['a', 'b', 'c'], descriptions: ['d', 'e'], paths: ['', '{root}'] }],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'x')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads).toEqual([]);
    const t2 = restoreRsaTemplate({
      templates: [{ headlines: ['a', 'b', 'c'], descriptions: ['d', 'e'], paths: ['{root}', ''] }],
    });
    const ok = generateResponsiveSearchAds({
      template: t2,
      rows: [row('a', 'p'.repeat(15)), row('b', 'p'.repeat(16))],
      adGroups: [group('a'), group('b')],
      today: '20261122',
    });
    expect(ok.ads.map((a) => a.rowId)).toEqual(['a']);
  });

  it('reports headlines that become identical and keeps them once', () => {
    const t = restoreRsaTemplate({
      templates: [{ headlines: ['{root}', '{mod}', 'c'], descriptions: ['d', 'e'] }],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'Nike', 'nike')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads[0]?.headlines.map((h) => h.text)).toEqual(['Nike', 'c']);
    expect(out.issues[0]).toMatchObject({ kind: 'cleaned', code: 'duplicate-asset' });
  });

  it('finds identical headlines among many, and through non-ASCII case folding', () => {
    const t = restoreRsaTemplate({
      templates: [
        {
          headlines: ['{root}', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '{mod}', 'B', 'i'],
          descriptions: ['d', 'e'],
        },
      ],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      // The Kelvin sign lowercases to an ASCII k.
      rows: [row('a', 'Pack', 'pac\u212a')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads[0]?.headlines.map((h) => h.text)).toEqual([
      'Pack',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
    ]);
    expect(out.issues.map((i) => i.code)).toEqual(['duplicate-asset', 'duplicate-asset']);
    expect(out.issues.map((i) => i.message).join(' ')).toContain('pac\u212a');
  });

  it('counts dynamic insertions as their default text', () => {
    const t = restoreRsaTemplate({
      templates: [
        { headlines: ['{KeyWord:Running Shoes For All Ages}', 'b', 'c'], descriptions: ['d', 'e'] },
      ],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'x')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads[0]?.headlines[0]?.text).toBe('{KeyWord:Running Shoes For All Ages}');
    const long = restoreRsaTemplate({
      templates: [
        {
          headlines: ['{KeyWord:Running Shoes For All Ages Here}', 'b', 'c'],
          descriptions: ['d', 'e'],
        },
      ],
    });
    expect(
      generateResponsiveSearchAds({
        template: long,
        rows: [row('a', 'x')],
        adGroups: [group('a')],
        today: '20261122',
      }).ads,
    ).toEqual([]);
  });
});

describe('generatePerformanceMaxAds', () => {
  const template = restorePerformanceMaxTemplate({
    templates: [
      {
        headlines: ['{root}', 'Shop {root}', 'Deals'],
        longHeadlines: ['The best {root} deals of the season'],
        descriptions: ['{mod}', 'Fast shipping on every order.'],
        paths: ['{root}', ''],
        labels: ['yyyymmdd-v2'],
        businessName: 'Shoe Shop',
        callToAction: 'Shop now',
      },
      {
        headlines: ['Shoes', 'Shop shoes', 'Deals'],
        longHeadlines: ['The best deals of the season'],
        descriptions: ['Great shoes.', 'Fast shipping on every order.'],
        paths: ['', ''],
        labels: [],
        businessName: 'Shoe Shop',
        callToAction: '',
      },
    ],
  });

  it('limits the first description to 60 and falls back', () => {
    const rows = [row('a', 'Nike', 'short'), row('b', 'Nike', 'm'.repeat(61))];
    const out = generatePerformanceMaxAds({
      template,
      rows,
      assetGroups: [
        { campaign: 'P', assetGroup: 'A', id: 'a' },
        { campaign: 'P', assetGroup: 'B', id: 'b' },
      ],
      today: '20261122',
    });
    expect(out.ads.map((a) => a.fallbackIndex)).toEqual([0, 1]);
    expect(out.ads[0]).toMatchObject({
      businessName: 'Shoe Shop',
      callToAction: 'Shop now',
      labels: ['20261122-v2'],
      paths: ['Nike', ''],
    });
  });

  it('requires a business name of at most 25', () => {
    const t = restorePerformanceMaxTemplate({
      templates: [
        {
          headlines: ['a', 'b', 'c'],
          longHeadlines: ['l'],
          descriptions: ['d', 'e'],
          businessName: '{root}',
        },
      ],
    });
    const out = generatePerformanceMaxAds({
      template: t,
      rows: [row('a', 'b'.repeat(26))],
      assetGroups: [{ campaign: 'P', assetGroup: 'A', id: 'a' }],
      today: '20261122',
    });
    expect(out.issues[0]?.message).toContain('Business name 1 has 26 characters (max 25)');
  });
});

describe('generateLegacyAds', () => {
  it.each([
    [{ h1: 'a', h2: 'b', dl1: 'c' }, true],
    [{ h1: 'a', h2: '', dl1: 'c' }, false],
    [{ h1: 'a', h2: 'b', dl1: '' }, false],
    [{ h1: 'a', h2: 'b', h3: 'x'.repeat(31), dl1: 'c' }, false],
    [{ h1: 'a', h2: 'b', dl1: 'c', dl2: 'x'.repeat(91) }, false],
    [{ h1: 'a', h2: 'b', dl1: 'c', p1: 'x'.repeat(16) }, false],
    [{ h1: 'a'.repeat(30), h2: 'b', dl1: 'c'.repeat(90), p2: 'x'.repeat(15) }, true],
  ])('%j valid: %s', (fallback, valid) => {
    const t = restoreAdTemplate({ templates: [[fallback]] });
    const out = generateLegacyAds({
      template: t,
      rows: [row('a', 'x')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads.length === 1).toBe(valid);
    expect(out.issues.length === 1).toBe(!valid);
  });
});
