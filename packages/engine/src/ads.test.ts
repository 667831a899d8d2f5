import { describe, expect, it } from 'vitest';
import { generatePerformanceMaxAds } from './ads/performanceMax.ts';
import { compileRsaTemplate, fillRsaFallback, generateResponsiveSearchAds } from './ads/rsa.ts';
import { formatDateDigits, replaceLabelDate } from './ads/shared.ts';
import { findFinalUrlProblem } from './finalUrl.ts';
import { restorePerformanceMaxTemplate, restoreRsaTemplate } from './restore.ts';
import type { RowIssue } from './issues.ts';
import type { FeedRow, PinnedText, RsaTemplate } from './types.ts';

function row(id: string, root: string, mod = '', url = 'https://www.shop.com/x'): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url };
}

/** An RSA template of one fallback: 3 headlines and 2 descriptions, no paths or labels. */
function minimalRsaTemplate(): RsaTemplate {
  const fallback = { headlines: texts('a', 'b', 'c'), descriptions: texts('d', 'e') };
  return { name: 'R', templates: [{ ...fallback, paths: [], labels: [] }] };
}

/** A Performance Max template of one fallback: 3 headlines, 2 descriptions, `fallback` on top. */
function pmaxTemplate(fallback: Record<string, unknown>) {
  return restorePerformanceMaxTemplate({
    templates: [
      {
        headlines: ['a', 'b', 'c'],
        longHeadlines: ['l'],
        descriptions: ['d', 'e'],
        businessName: 'Shop',
        ...fallback,
      },
    ],
  });
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
      headlines: ['Buy Nike Air', 'Great Nike deals', 'Free delivery'],
      headlinePositions: [1, 0, 0],
      descriptions: ['Shop Nike Air today.', 'Fast shipping.'],
      descriptionPositions: [0, 0],
      paths: ['Nike', 'sale'],
      labels: ['20261122-v1'],
      finalUrl: 'https://www.shop.com/x',
    });
    expect(out.ads[1]?.labels).toEqual(['fallback']);
    expect(out.issues).toEqual([]);
  });

  it('reports rows with no valid fallback with the reason', () => {
    const rows = [row('a', 'x'.repeat(31), 'Air')];
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
    expect(out.issues[0]?.message).toContain('Headline 1 has 39 characters (max 30)');
  });

  it('treats an empty headline as invalid (minimum 1)', () => {
    const t = restoreRsaTemplate({
      templates: [{ headlines: ['', 'b', 'c'], descriptions: ['d', 'e'] }],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'x')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.issues[0]?.message).toContain('Headline 1 is empty');
  });

  it.each([
    ['{var1}', 'Headline 1 "{var1}" has {var1}, which is empty for this row'],
    ['{root} Boots! in {mod}', 'Headline 1 "{root} Boots! in {mod}" has {mod}, which is empty'],
    ['Shop {root} at {const}', 'Headline 1 "Shop {root} at {const}" has {const}, which is empty'],
  ])('fails %j when a placeholder resolves to nothing, naming it', (headline, reason) => {
    const t = restoreRsaTemplate({
      templates: [
        { headlines: [headline, 'b', 'c'], descriptions: ['d', 'e'] },
        { headlines: ['a', 'b', 'c'], descriptions: ['d', 'e'] },
      ],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', '1460', ' ')],
      adGroups: [group('a')],
      today: '20261122',
    });
    // The next fallback takes over; the validators give the first fallback's reason.
    expect(out.ads.map((a) => a.fallbackIndex)).toEqual([1]);
    const only = generateResponsiveSearchAds({
      template: { ...t, templates: t.templates.slice(0, 1) },
      rows: [row('a', '1460', ' ')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(only.issues[0]?.message).toContain(reason);
  });

  it('fills {const} from the campaign template constant', () => {
    const t = restoreRsaTemplate({
      templates: [{ headlines: ['Shop {root} at {const}', 'b', 'c'], descriptions: ['d', 'e'] }],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'Café')],
      adGroups: [group('a')],
      today: '20261122',
      constant: 'Paris',
    });
    expect(out.ads[0]?.headlines[0]).toBe('Shop Café at Paris');
  });

  it.each([
    [['Nike sale', 'b', 'c'], 'Great', undefined],
    [
      ['Big Sale!', 'b', 'c'],
      'Nike',
      'Headline 1 "Big Sale!" has "!" (Google allows none in headlines)',
    ],
    [['Buy {root}', 'b', 'c'], 'Nike!', 'Headline 1 "Buy Nike!" has "!"'],
    [['Buy {root}', 'b', 'c'], 'Nike 👟', 'Headline 1 "Buy Nike 👟" has an emoji or a character'],
    [['Sale {root}', 'b', 'c'], 'now??', 'Headline 1 "Sale now??" repeats punctuation'],
    [['Save $$$ on {root}', 'b', 'c'], 'Nike', 'repeats punctuation'],
    [['Sale {root}.', 'b', 'c'], 'now.', 'Headline 1 "Sale now.." repeats punctuation'],
    [['FREE SHIPPING NOW', 'b', 'c'], 'Nike', 'is in capitals'],
    [['Buy {root} NOW FAST', 'b', 'c'], 'NIKE', 'is in capitals'],
    [['Buy {root} in USA', 'b', 'c'], 'NIKE', undefined],
    [['{root} shoes', 'b', 'c'], 'fReE', 'alternates capitals'],
    [['Get {root}', 'b', 'c'], 'iPhone', undefined],
    [['Get {root}s', 'b', 'c'], 'McDonald', undefined],
    [['Shop {root}', 'b', 'c'], 'Nike\u00ae', undefined],
  ])('editorial rules: %j with %j: %s', (headlines, root, reason) => {
    // "!" is allowed in descriptions.
    const descriptions = ['{root} Sale!', 'Fast delivery.'];
    const t = restoreRsaTemplate({ templates: [{ headlines, descriptions }] });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', root)],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads).toHaveLength(reason ? 0 : 1);
    if (reason) expect(out.issues[0]?.message).toContain(reason);
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

  it('fails a fallback whose headlines become identical, ignoring case', () => {
    const t = restoreRsaTemplate({
      templates: [{ headlines: ['{root}', '{mod}', 'c', 'd'], descriptions: ['d', 'e'] }],
    });
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'Nike', 'nike')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads).toEqual([]);
    expect(out.issues[0]).toMatchObject({ kind: 'skipped', code: 'no-valid-fallback' });
    expect(out.issues[0]?.message).toContain(
      'Headline 2 "nike" repeats headline 1 after substitution',
    );
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
      // (The Kelvin sign, which lowercases to an ASCII k, is written in NFC now: a K.)
      rows: [row('a', 'Über Ärger', 'über ärger')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads).toEqual([]);
    expect(out.issues[0]?.message).toContain('Headline 9 "über ärger" repeats headline 1');
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
    expect(out.ads[0]?.headlines[0]).toBe('{KeyWord:Running Shoes For All Ages}');
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

describe('pins and labels', () => {
  it.each([
    [
      [1, 1, 1],
      [0, 0],
      'Headline position 2 has no headline: every headline is pinned to another position',
    ],
    [[1, 2, 0], [0, 0], undefined],
    [[1, 2, 3], [1, 1], 'Description position 2 has no description'],
    [[0, 0, 0], [2, 0], undefined],
  ])('headline pins %j, description pins %j: %s', (hPins, dPins, reason) => {
    const t: RsaTemplate = {
      name: 'R',
      templates: [
        {
          headlines: hPins.map((pos, i) => ({ text: `h${i}`, pos })),
          descriptions: dPins.map((pos, i) => ({ text: `d${i}`, pos })),
          paths: [],
          labels: [],
        },
      ],
    };
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'x'), row('b', 'y')],
      adGroups: [group('a'), group('b')],
      today: '20261122',
    });
    expect(out.ads).toHaveLength(reason ? 0 : 2);
    if (reason) {
      // Every row fails, with the reason.
      expect(out.issues).toHaveLength(2);
      for (const issue of out.issues) expect(issue.message).toContain(reason);
    }
  });

  it('writes no label with ";" and reports it once per fallback', () => {
    const t: RsaTemplate = {
      name: 'R',
      templates: [
        {
          headlines: texts('a', 'b', 'c'),
          descriptions: texts('d', 'e'),
          paths: [],
          labels: ['ok', 'x;y'],
        },
      ],
    };
    const out = generateResponsiveSearchAds({
      template: t,
      rows: [row('a', 'x'), row('b', 'y')],
      adGroups: [group('a'), group('b')],
      today: '20261122',
    });
    expect(out.ads.map((a) => a.labels)).toEqual([['ok'], ['ok']]);
    expect(out.issues.map((i) => [i.kind, i.code, i.message])).toEqual([
      [
        'cleaned',
        'label-separator',
        'Fallback 1, label "x;y" contains ";", which Google Ads Editor reads as a separator between labels; it is not written',
      ],
    ]);
    const pmax = generatePerformanceMaxAds({
      template: pmaxTemplate({ labels: ['a;b'] }),
      rows: [row('a', 'x')],
      assetGroups: [{ campaign: 'P', assetGroup: 'A', id: 'a' }],
      today: '20261122',
    });
    expect(pmax.ads[0]?.labels).toEqual([]);
    expect(pmax.issues.map((i) => i.code)).toEqual(['label-separator']);
  });
});

describe('generatePerformanceMaxAds', () => {
  const template = restorePerformanceMaxTemplate({
    templates: [
      {
        headlines: ['{root}', 'Shop {root}', 'Deals'],
        longHeadlines: ['The best {root} deals of the season'],
        descriptions: ['{mod}', `Fast shipping on every order, ${'and more '.repeat(4)}`],
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

  it('needs one description of 60 or fewer and falls back', () => {
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

  it('fills {const} in Performance Max texts', () => {
    const out = generatePerformanceMaxAds({
      template: pmaxTemplate({ businessName: '{const}', longHeadlines: ['{root} at {const}'] }),
      rows: [row('a', 'Boots')],
      assetGroups: [{ campaign: 'P', assetGroup: 'A', id: 'a' }],
      today: '20261122',
      constant: 'Café Paris',
    });
    expect(out.ads[0]).toMatchObject({
      businessName: 'Café Paris',
      longHeadlines: ['Boots at Café Paris'],
    });
  });

  it('requires a business name of at most 25', () => {
    const t = pmaxTemplate({ businessName: '{root}' });
    const out = generatePerformanceMaxAds({
      template: t,
      rows: [row('a', 'b'.repeat(26))],
      assetGroups: [{ campaign: 'P', assetGroup: 'A', id: 'a' }],
      today: '20261122',
    });
    expect(out.issues[0]?.message).toContain('Business name 1 has 26 characters (max 25)');
  });
});

const texts = (...list: string[]): PinnedText[] => list.map((text) => ({ text, pos: 0 }));

describe('minimum and maximum counts (Google: RSA 3-15 headlines, 2-4 descriptions)', () => {
  const fallback = (headlines: number, descriptions: number) => ({
    headlines: texts(...Array.from({ length: headlines }, (_, i) => `Headline ${i + 1}`)),
    descriptions: texts(...Array.from({ length: descriptions }, (_, i) => `Description ${i + 1}`)),
    paths: ['', ''],
    labels: [],
  });

  it.each([
    [3, 2, undefined],
    [15, 4, undefined],
    [2, 2, '2 headlines, at least 3 needed'],
    [0, 2, '0 headlines, at least 3 needed'],
    [16, 2, '16 headlines, at most 15 allowed'],
    [3, 1, '1 description, at least 2 needed'],
    [3, 5, '5 descriptions, at most 4 allowed'],
  ])('%i headlines and %i descriptions: %s', (h, d, reason) => {
    const out = generateResponsiveSearchAds({
      template: { name: 'R', templates: [fallback(h, d)] },
      rows: [row('a', 'x')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads).toHaveLength(reason ? 0 : 1);
    expect(out.issues.map((i) => i.message)).toEqual(
      reason ? [`Ad group "AG a": no valid fallback (${reason})`] : [],
    );
  });

  it('tries the next fallback when one has too few headlines', () => {
    const out = generateResponsiveSearchAds({
      template: { name: 'R', templates: [fallback(2, 2), fallback(3, 2)] },
      rows: [row('a', 'x')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads.map((a) => a.fallbackIndex)).toEqual([1]);
    expect(out.issues).toEqual([]);
  });

  it.each([
    // A headline or description that repeats another after substitution (ignoring case) makes
    // the fallback invalid for the row, and the reason names the repeat.
    [
      ['{root}', '{mod}', 'Sale'],
      ['d', 'e'],
      'Headline 2 "nike" repeats headline 1 after substitution (Google rejects duplicates, ignoring case)',
    ],
    [
      ['{root}', 'Sale', 'SALE', '{mod}'],
      ['d', 'e'],
      'Headline 3 "SALE" repeats headline 2 after substitution (Google rejects duplicates, ignoring case)',
    ],
    [
      ['a', 'b', 'c'],
      ['Buy {root}', 'Buy {mod}'],
      'Description 2 "Buy nike" repeats description 1 after substitution (Google rejects duplicates, ignoring case)',
    ],
  ])('reports %j / %j: %s', (headlines, descriptions, reason) => {
    const out = generateResponsiveSearchAds({
      template: {
        name: 'R',
        templates: [
          {
            headlines: texts(...headlines),
            descriptions: texts(...descriptions),
            paths: ['', ''],
            labels: [],
          },
        ],
      },
      rows: [row('a', 'Nike', 'nike')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(out.ads).toEqual([]);
    expect(out.issues.map((i) => [i.code, i.message])).toEqual([
      ['no-valid-fallback', `Ad group "AG a": no valid fallback (${reason})`],
    ]);
  });

  it('falls back when headlines repeat after substitution', () => {
    const out = generateResponsiveSearchAds({
      template: {
        name: 'R',
        templates: [
          {
            headlines: texts('{root}', '{mod}', 'Sale'),
            descriptions: texts('d', 'e'),
            paths: [],
            labels: [],
          },
          {
            headlines: texts('{root}', 'Sale', 'Shop'),
            descriptions: texts('d', 'e'),
            paths: [],
            labels: [],
          },
        ],
      },
      rows: [row('a', 'Nike', 'nike'), row('b', 'Nike', 'Air')],
      adGroups: [group('a'), group('b')],
      today: '20261122',
    });
    expect(out.ads.map((a) => [a.rowId, a.fallbackIndex, a.headlines.length])).toEqual([
      ['a', 1, 3],
      ['b', 0, 3],
    ]);
    expect(out.issues).toEqual([]);
  });

  it.each([
    [{}, undefined],
    [{ headlines: ['a', 'b'] }, '2 headlines, at least 3 needed'],
    [{ longHeadlines: [] }, '0 long headlines, at least 1 needed'],
    [{ descriptions: ['d'] }, '1 description, at least 2 needed'],
    [{ headlines: 'abcdefghijklmno'.split('') }, undefined],
    [{ headlines: 'abcdefghijklmnop'.split('') }, '16 headlines, at most 15 allowed'],
    [{ headlines: ['a', 'A', 'c'] }, 'Headline 2 "A" repeats headline 1'],
    [{ descriptions: ['d', 'D'] }, 'Description 2 "D" repeats description 1'],
    [{ longHeadlines: ['l', 'L'] }, 'Long headline 2 "L" repeats long headline 1'],
    [
      { headlines: ['Sixteen letters!', 'Sixteen letters2', 'Sixteen letters3'] },
      'Headline 1 "Sixteen letters!" has "!"',
    ],
    [
      { headlines: ['Sixteen letters1', 'Sixteen letters2', 'Sixteen letters3'] },
      'Headlines include none of 15 characters or fewer after substitution (Google needs one)',
    ],
    [
      { descriptions: ['d'.repeat(61), 'e'.repeat(61)] },
      'Descriptions include none of 60 characters or fewer after substitution (Google needs one)',
    ],
    [{ paths: ['', 'p'] }, 'Path 1 is empty while path 2 is set (Google needs path 1 first)'],
    [{ businessName: '' }, 'Business name 1 is empty'],
  ])('Performance Max %j: %s', (patch, reason) => {
    const t = pmaxTemplate({ ...patch });
    const out = generatePerformanceMaxAds({
      template: t,
      rows: [row('a', 'x')],
      assetGroups: [{ campaign: 'P', assetGroup: 'A', id: 'a' }],
      today: '20261122',
    });
    expect(out.ads).toHaveLength(reason ? 0 : 1);
    expect(out.issues.map((i) => i.message)).toEqual(
      reason ? [expect.stringContaining(`Asset group "A": no valid fallback (${reason}`)] : [],
    );
  });
});

describe('keyword insertion without default text', () => {
  it('is reported once per template text of an RSA, not per row', () => {
    const out = generateResponsiveSearchAds({
      template: {
        name: 'R',
        templates: [
          {
            headlines: texts('Buy {KeyWord}', '{keyword:Shoes}', 'c', '{KEYWORD} {LOCATION(City)}'),
            descriptions: texts('{COUNTDOWN(2026-12-24 12:00:00,5)} left', 'e'),
            paths: ['', ''],
            labels: [],
          },
          {
            headlines: texts('a', 'b', 'c'),
            descriptions: texts('{Keyword}', 'e'),
            paths: [],
            labels: [],
          },
        ],
      },
      rows: [row('a', 'x'), row('b', 'y')],
      adGroups: [group('a'), group('b')],
      today: '20261122',
    });
    expect(out.ads).toHaveLength(2);
    expect(out.issues.map((i) => [i.kind, i.rowNumber, i.code, i.message])).toEqual([
      [
        'warning',
        0,
        'insertion-without-default',
        'Fallback 1, Headline 1 "Buy {KeyWord}": {KeyWord} has no default text (write {KeyWord:default text}); it is counted as 10 characters',
      ],
      [
        'warning',
        0,
        'insertion-without-default',
        'Fallback 1, Headline 4 "{KEYWORD} {LOCATION(City)}": {KEYWORD} has no default text (write {KEYWORD:default text}); it is counted as 10 characters',
      ],
      [
        'warning',
        0,
        'insertion-without-default',
        'Fallback 1, Headline 4 "{KEYWORD} {LOCATION(City)}": {LOCATION(City)} has no default text (write {LOCATION(City):default text}); it is counted as 10 characters',
      ],
      [
        'warning',
        0,
        'insertion-without-default',
        'Fallback 2, Description 1 "{Keyword}": {Keyword} has no default text (write {Keyword:default text}); it is counted as 10 characters',
      ],
    ]);
  });

  it('fails a Performance Max fallback, which has no keywords to insert (issue 36)', () => {
    const template = pmaxTemplate({ longHeadlines: ['Best {KeyWord:Running Shoes}'] });
    const clean = template.templates[0]!;
    template.templates.push({ ...clean, longHeadlines: [{ text: 'Best shoes', pos: 0 }] });
    const pmax = generatePerformanceMaxAds({
      template,
      rows: [row('a', 'x'), row('b', 'y')],
      assetGroups: [
        { campaign: 'P', assetGroup: 'A', id: 'a' },
        { campaign: 'P', assetGroup: 'B', id: 'b' },
      ],
      today: '20261122',
    });
    expect(pmax.ads.map((a) => [a.fallbackIndex, a.longHeadlines])).toEqual([
      [1, ['Best shoes']],
      [1, ['Best shoes']],
    ]);
    expect(pmax.issues.map((i) => [i.kind, i.code, i.message])).toEqual([
      [
        'warning',
        'keyword-insertion',
        'Fallback 1, Long headline 1 "Best {KeyWord:Running Shoes}" has a keyword insertion ({KeyWord:…}), which Performance Max cannot fill: it has no keywords; the fallback makes no ad',
      ],
    ]);
  });

  it('fails a Performance Max fallback whose feed value brings a keyword insertion', () => {
    const pmax = generatePerformanceMaxAds({
      template: pmaxTemplate({ longHeadlines: ['Best {root}'] }),
      rows: [row('a', '{keyword:Shoes}')],
      assetGroups: [{ campaign: 'P', assetGroup: 'A', id: 'a' }],
      today: '20261122',
    });
    expect(pmax.ads).toEqual([]);
    expect(pmax.issues.map((i) => [i.code, i.message])).toEqual([
      [
        'no-valid-fallback',
        'Asset group "A": no valid fallback (Long headline 1 "Best {keyword:Shoes}" has a keyword insertion ({KeyWord:…}), which Performance Max cannot fill: it has no keywords)',
      ],
    ]);
  });
});

describe('final URL', () => {
  it.each([
    ['https://www.shop.com/x', undefined],
    ['HTTP://shop.com', undefined],
    [`https://shop.com/${'p'.repeat(2048 - 17)}`, undefined],
    [`https://shop.com/${'p'.repeat(2048 - 16)}`, 'has 2049 characters (max 2048)'],
    ['www.shop.com/x', 'is not an http:// or https:// address'],
    ['ftp://shop.com', 'is not an http:// or https:// address'],
    ['https://', 'is not an http:// or https:// address'],
    ['https:// shop.com', 'has a space (U+0020), which a web address cannot hold'],
    // Issue 36: only the scheme was checked; Google refuses each of these.
    ['https://sh op.com/x', 'has a space (U+0020), which a web address cannot hold'],
    ['https://shop.com/running shoes', 'has a space (U+0020), which a web address cannot hold'],
    [
      'https://shop.com/ni\u200bke',
      'has a zero-width space (U+200B), which a web address cannot hold',
    ],
    [
      'https://shop.com/\u200fx',
      'has a right-to-left mark (U+200F), which a web address cannot hold',
    ],
    ['https://sho\u00adp.com', 'has a soft hyphen (U+00AD), which a web address cannot hold'],
    [
      'https://user:pw@shop.com/x',
      'has a user name or password before its host (user:password@), which Google refuses',
    ],
    ['http://localhost:8080/x', 'points at localhost, which no one else can reach'],
    ['https://app.localhost/x', 'points at localhost, which no one else can reach'],
    [
      'https://192.168.1.10/x',
      'has an IP address for its host (Google needs a domain name such as www.example.com)',
    ],
    [
      'https://[::1]/x',
      'has an IP address for its host (Google needs a domain name such as www.example.com)',
    ],
    ['https://intranet/x', 'has no domain name with a dot for its host (such as www.example.com)'],
    ['https://shop..com/x', 'has no domain name with a dot for its host (such as www.example.com)'],
    ['https://sh%op.com', 'is not a valid web address'],
    ['https:\\\\shop.com', 'is not an http:// or https:// address'],
    ['https://shop.com\\x', 'has a backslash (\\), which a web address cannot hold'],
    ['https://www.café.fr/crème?q=1#top', undefined],
    ['https://shop.com:8443/x?a=b c', 'has a space (U+0020), which a web address cannot hold'],
  ])('%j: %s', (url, problem) => {
    expect(findFinalUrlProblem(url)).toBe(problem);
  });

  const rows = [
    row('ok', 'a'),
    row('none', 'b', '', ''),
    row('bad', 'c', '', ' www.shop.com/c '),
    row('long', 'd', '', `https://shop.com/${'p'.repeat(2100)}`),
  ];
  // Every final URL problem skips the ad: the same three issues for both ad kinds.
  const expected = (output: string, where: (id: string) => string) => [
    ['skipped', output, 'missing-final-url', 2, expect.stringContaining(`${where('none')}: `)],
    [
      'skipped',
      output,
      'invalid-final-url',
      3,
      `${where('bad')}: Final URL "www.shop.com/c" is not an http:// or https:// address; no ad is made`,
    ],
    [
      'skipped',
      output,
      'invalid-final-url',
      4,
      `${where('long')}: Final URL "https://shop.com/${'p'.repeat(43)}..." has 2117 characters (max 2048); no ad is made`,
    ],
  ];
  const shown = (issues: readonly RowIssue[]) =>
    issues.map((i) => [i.kind, i.output, i.code, i.rowNumber, i.message]);

  it('skips the ad of a row without an http(s) final URL, naming the row (RSA, Performance Max)', () => {
    const rsa = generateResponsiveSearchAds({
      template: minimalRsaTemplate(),
      rows,
      adGroups: rows.map((r) => group(r.id)),
      today: '20261122',
    });
    expect(rsa.ads.map((a) => a.rowId)).toEqual(['ok']);
    expect(shown(rsa.issues)).toEqual(
      expected('responsive search ads', (id) => `Ad group "AG ${id}"`),
    );
    expect(rsa.issues[0]?.message).toBe(
      'Ad group "AG none": Final URL is missing (Google needs one); no ad is made',
    );
    const pmax = generatePerformanceMaxAds({
      template: pmaxTemplate({ businessName: 'S' }),
      rows,
      assetGroups: rows.map((r) => ({ campaign: 'P', assetGroup: r.id, id: r.id })),
      today: '20261122',
    });
    expect(pmax.ads.map((a) => a.rowId)).toEqual(['ok']);
    expect(shown(pmax.issues)).toEqual(
      expected('performance max ads', (id) => `Asset group "${id}"`),
    );
  });

  it.each(['javascript:alert(1)', '=HYPERLINK("https://shop.com")', 'shop.com'])(
    'skips %j',
    (url) => {
      const out = generateResponsiveSearchAds({
        template: minimalRsaTemplate(),
        rows: [row('a', 'x', '', url)],
        adGroups: [group('a')],
        today: '20261122',
      });
      expect(out.ads).toEqual([]);
      expect(out.issues.map((i) => [i.kind, i.code])).toEqual([['skipped', 'invalid-final-url']]);
    },
  );
});

describe('ad groups without a feed row', () => {
  it('are reported as missing-row', () => {
    const rows = [row('a', 'x')];
    const out = generateResponsiveSearchAds({
      template: minimalRsaTemplate(),
      rows,
      adGroups: [group('a'), group('gone')],
      today: '20261122',
    });
    expect(out.ads).toHaveLength(1);
    expect(out.issues.map((i) => [i.kind, i.code, i.rowId, i.rowNumber, i.message])).toEqual([
      ['skipped', 'missing-row', 'gone', 0, 'No feed row for ad group "AG gone"'],
    ]);
  });
});

describe('fillRsaFallback with lent lists', () => {
  it("gives the texts of a copying fill in the fallback's own lists, refilled row after row", () => {
    const template = restoreRsaTemplate({
      name: 'R',
      templates: [
        {
          headlines: ['{root}', 'Shop {root}', 'Fixed one', '{mod} deals'],
          descriptions: ['Buy {root} now.', 'Fixed description.'],
          paths: ['{root}', 'deals'],
          labels: [],
        },
      ],
    });
    const [copying] = compileRsaTemplate(template);
    const [lending] = compileRsaTemplate(template);
    if (!copying || !lending) throw new Error('no fallback');
    const served = (f: ReturnType<typeof fillRsaFallback>) => {
      if (!f.ok) throw new Error(f.failure.code);
      return f;
    };
    const lists = new Set<unknown>();
    for (const [root, mod] of [
      ['nike', 'air'],
      ['adidas', 'boost'],
      ['nike', 'air'],
    ] as const) {
      const values = { row: row('1', root, mod) };
      const copy = served(fillRsaFallback(copying, values));
      const lent = served(fillRsaFallback(lending, values, undefined, true));
      expect([lent.headlines, lent.descriptions, lent.paths]).toEqual([
        copy.headlines,
        copy.descriptions,
        copy.paths,
      ]);
      expect(lent.headlines).toBe(lending.lent[0]);
      expect(lent.descriptions).toBe(lending.lent[1]);
      expect(lent.paths).toBe(lending.lent[2]);
      expect(copy.headlines).not.toBe(copying.scratch);
      lists.add(copy.headlines);
    }
    // Copies are the ad's own: one list per fill.
    expect(lists.size).toBe(3);
  });
});

describe('ad texts in NFC (issue 36)', () => {
  // Decomposed accents reached ad texts while keywords were NFC: Google counts the marks.
  const nfd = 'Cafe\u0301 cre\u0300me';
  const nfc = 'Café crème';

  it('writes RSA and Performance Max texts in NFC, from NFD values and NFD templates', () => {
    const rsa = generateResponsiveSearchAds({
      template: {
        name: 'R',
        templates: [
          {
            headlines: texts('{root}', `Buy {root} now`, `${nfd} sale`, '{mod}\u0301 x'),
            descriptions: texts('Fine {root}.', `Shop ${nfd}.`),
            paths: ['{root}', ''],
            labels: [],
          },
        ],
      },
      rows: [row('a', nfd, 'cafe')],
      adGroups: [group('a')],
      today: '20261122',
    });
    expect(rsa.issues).toEqual([]);
    const ad = rsa.ads[0]!;
    expect(ad.headlines).toEqual([nfc, `Buy ${nfc} now`, `${nfc} sale`, 'café x']);
    expect(ad.descriptions).toEqual([`Fine ${nfc}.`, `Shop ${nfc}.`]);
    for (const text of [...ad.headlines, ...ad.descriptions, ...ad.paths])
      expect(text).toBe(text.normalize('NFC'));
    const pmax = generatePerformanceMaxAds({
      template: pmaxTemplate({ longHeadlines: ['{root} for all'], businessName: nfd.slice(0, 5) }),
      rows: [row('a', nfd)],
      assetGroups: [{ campaign: 'P', assetGroup: 'A', id: 'a' }],
      today: '20261122',
    });
    expect(pmax.ads[0]?.longHeadlines).toEqual([`${nfc} for all`]);
    expect(pmax.ads[0]?.businessName).toBe('Café');
  });
});
