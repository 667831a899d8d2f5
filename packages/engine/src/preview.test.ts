import { describe, expect, it } from 'vitest';
import { arrangeSlots, buildRsaPreview, makeDisplayUrl } from './preview.ts';
import { restoreRsaTemplate } from './restore.ts';
import type { FeedRow } from './types.ts';

const rows: FeedRow[] = [
  { id: '1', root: '', mod: '', var1: '', var2: '', var3: '', url: '' },
  {
    id: '2',
    root: 'x'.repeat(40),
    mod: '',
    var1: '',
    var2: '',
    var3: '',
    url: 'https://www.a.com',
  },
  {
    id: '3',
    root: 'Nike',
    mod: 'Air',
    var1: '',
    var2: '',
    var3: '',
    url: 'https://www.Shop.com/nike?x=1',
  },
];

describe('preview', () => {
  it.each([
    ['https://www.shop.com/a/b', ['nike', 'sale'], 'shop.com/nike/sale'],
    ['http://Shop.com', ['', ''], 'shop.com'],
    ['shop.com/x', ['p', ''], 'shop.com/p'],
  ])('display URL of %s', (url, paths, expected) => {
    expect(makeDisplayUrl(url, paths)).toBe(expected);
  });

  it('honours pins and keeps the order of free texts', () => {
    const texts = [
      { text: 'A', pos: 0 },
      { text: 'B', pos: 2 },
      { text: 'C', pos: 0 },
      { text: 'D', pos: 0 },
    ];
    expect(arrangeSlots(texts, 3)).toEqual(['A', 'B', 'C']);
  });

  it('shuffles free texts with the injected random source, pins stay', () => {
    const texts = [
      { text: 'A', pos: 0 },
      { text: 'B', pos: 2 },
      { text: 'C', pos: 0 },
      { text: 'D', pos: 0 },
    ];
    const out = arrangeSlots(texts, 3, () => 0);
    expect(out[1]).toBe('B');
    expect(out).toEqual(['C', 'B', 'D']);
  });

  it('finds the first valid row and fallback and builds the mock ad', () => {
    const t = restoreRsaTemplate({
      templates: [
        {
          headlines: ['{root}', 'Deals', { text: 'Pinned', pos: 1 }],
          descriptions: ['Shop {mod}', 'Now'],
          paths: ['{root}', ''],
        },
      ],
    });
    const p = buildRsaPreview({ template: t, rows });
    expect(p).toEqual({
      status: 'ok',
      rowIndex: 2,
      fallbackIndex: 0,
      ad: {
        displayUrl: 'shop.com/Nike',
        finalUrl: 'https://www.Shop.com/nike?x=1',
        headlines: ['Pinned', 'Nike', 'Deals'],
        headline: 'Pinned | Nike | Deals',
        descriptions: ['Shop Air', 'Now'],
        description: 'Shop Air Now',
      },
    });
  });

  it('says FALLBACK NEEDED when no row is valid and asks for rows when there are none', () => {
    const t = restoreRsaTemplate({ templates: [{ headlines: ['{var3}'], descriptions: ['d'] }] });
    expect(buildRsaPreview({ template: t, rows })).toMatchObject({
      status: 'fallback-needed',
      message: expect.stringContaining('FALLBACK NEEDED!'),
    });
    expect(buildRsaPreview({ template: t, rows: [] })).toMatchObject({
      status: 'no-rows',
      message: 'No rows found. Please select a feed',
    });
  });
});
