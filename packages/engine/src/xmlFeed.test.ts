import { describe, expect, it } from 'vitest';
import { findExtensionProblem } from './extensions.ts';
import { xmlFeedCells, xmlSnippetTemplates, type BrandCategoryCounts } from './xmlFeed.ts';

const shop: BrandCategoryCounts = {
  Acme: { Shoes: 5, Boots: 2 },
  Zeta: { Shoes: 9 },
  '': { Socks: 4 },
  Solo: { '': 1 },
};

describe('xmlFeedCells (Add XML)', () => {
  it('puts each brand in Root once, most products first, blanks left out', () => {
    expect(xmlFeedCells(shop, 'brand')).toEqual([
      { root: 'Zeta', mod: '' },
      { root: 'Acme', mod: '' },
      { root: 'Solo', mod: '' },
    ]);
  });

  it('puts each category in Root once, adding up products across brands', () => {
    expect(xmlFeedCells(shop, 'category').map((c) => c.root)).toEqual(['Shoes', 'Socks', 'Boots']);
  });

  it('puts each brand-category pair once: brand in Root, category in Modifier', () => {
    expect(xmlFeedCells(shop, 'brandCategory')).toEqual([
      { root: 'Zeta', mod: 'Shoes' },
      { root: 'Acme', mod: 'Shoes' },
      { root: 'Acme', mod: 'Boots' },
      { root: 'Solo', mod: '' },
    ]);
  });
});

describe('xmlFeedCells with availability (issue 35)', () => {
  // Acme's boots all out of stock, 1 of its 5 shoes; every Zeta shoe; Solo has none out.
  const outOfStock: BrandCategoryCounts = { Acme: { Shoes: 1, Boots: 2 }, Zeta: { Shoes: 9 } };

  it('pauses a pair when all its products are out of stock', () => {
    expect(xmlFeedCells(shop, 'brandCategory', outOfStock)).toEqual([
      { root: 'Zeta', mod: 'Shoes', status: 'paused' },
      { root: 'Acme', mod: 'Shoes', status: '' },
      { root: 'Acme', mod: 'Boots', status: 'paused' },
      { root: 'Solo', mod: '', status: '' },
    ]);
  });

  it('pauses a brand or a category only when all its products, across pairs, are out of stock', () => {
    expect(xmlFeedCells(shop, 'brand', outOfStock)).toEqual([
      { root: 'Zeta', mod: '', status: 'paused' },
      { root: 'Acme', mod: '', status: '' },
      { root: 'Solo', mod: '', status: '' },
    ]);
    expect(xmlFeedCells(shop, 'category', outOfStock).map((c) => [c.root, c.status])).toEqual([
      ['Shoes', ''],
      ['Socks', ''],
      ['Boots', 'paused'],
    ]);
  });
});

describe('xmlSnippetTemplates (Generate Snippets)', () => {
  const brands = (n: number): BrandCategoryCounts =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`Brand ${i + 1}`, { Shoes: n - i }]));
  const values = (t: { templates: Record<string, string>[] }) =>
    (t.templates[0]?.['Snippet Values'] ?? '').split('; ');

  it('splits values into the fewest snippets of 3 to 10, as even as can be', () => {
    expect(xmlSnippetTemplates(brands(21), 'brand').templates.map((t) => values(t).length)).toEqual(
      [7, 7, 7],
    );
    expect(xmlSnippetTemplates(brands(11), 'brand').templates.map((t) => values(t).length)).toEqual(
      [6, 5],
    );
    expect(xmlSnippetTemplates(brands(10), 'brand').templates.map((t) => t.name)).toEqual([
      'Brands',
    ]);
  });

  it('makes snippets Google takes: header Brands or Types, every template valid', () => {
    const out = xmlSnippetTemplates(brands(23), 'brandCategory');
    expect(out.templates.map((t) => t.templates[0]?.Header)).toEqual([
      'Brands',
      'Brands',
      'Brands',
    ]);
    // One category (Shoes) is fewer than 3 values: no Types snippet, and it says why.
    expect(out.skipped).toEqual([
      expect.objectContaining({
        header: 'Types',
        value: 'Shoes',
        reason: expect.stringMatching(/at least 3/),
      }),
    ]);
    for (const t of out.templates) expect(findExtensionProblem(t, t.templates[0]!)).toBeUndefined();
  });

  it('leaves out values Google would refuse, each once, and says why', () => {
    const data: BrandCategoryCounts = {
      'A brand name far longer than 25': { x: 9 },
      'Best!': { x: 8 },
      'Semi;colon': { x: 7 },
      Alpha: { x: 6 },
      alpha: { x: 5 },
      Beta: { x: 4 },
      Gamma: { x: 3 },
    };
    const out = xmlSnippetTemplates(data, 'brand');
    expect(out.templates).toHaveLength(1);
    expect(out.templates[0]?.templates[0]?.['Snippet Values']).toBe('Alpha; Beta; Gamma');
    expect(out.skipped.map((s) => s.value)).toEqual([
      'A brand name far longer than 25',
      'Best!',
      'Semi;colon',
    ]);
  });
});
