/**
 * A shop's product feed, read into brands and categories (issue 17), made into feed rows and
 * structured snippet templates. The counts come from the server's `fetch-xml` answer: keyed by
 * brand, then by category, each with how many products carry the pair ('' for none).
 */
import { findSnippetValueProblem } from './extensions.ts';
import { SNIPPET_MAX_VALUES, SNIPPET_MIN_VALUES, type SnippetHeader } from './limits.ts';
import { newExtensionTemplate } from './restore.ts';
import type { ExtensionTemplate } from './types.ts';

/** Brand and category product counts: `{ brand: { category: products } }`. */
export type BrandCategoryCounts = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** What an XML import takes (spec section 3): brands, categories, or each brand-category pair. */
export type XmlRowSource = 'brand' | 'category' | 'brandCategory';

/** The cells of one feed row made from a product feed. */
export interface XmlFeedCells {
  root: string;
  mod: string;
  /**
   * 'paused' when every product behind the row is out of stock (Merchant Center availability;
   * rowStatus.ts), else '' (active). Only when the out-of-stock counts were given.
   */
  status?: string;
}

/** Values with their product counts, most products first, then by name; each value once. */
function rankValues(counts: Map<string, number>): string[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([value]) => value);
}

function addCount(counts: Map<string, number>, key: string, n: number): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}

/** Brands (or categories) with their product counts; blanks left out. */
function countsBy(data: BrandCategoryCounts, by: 'brand' | 'category'): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [brand, categories] of Object.entries(data)) {
    for (const [category, n] of Object.entries(categories)) {
      const key = (by === 'brand' ? brand : category).trim();
      if (key !== '') addCount(counts, key, n);
    }
  }
  return counts;
}

/**
 * The feed rows of an Add XML: each brand in Root (Brand), each category in Root (Category), or
 * each brand-category pair with the brand in Root and the category in Modifier (Brand +
 * Category). Each value or pair once, most products first; blank brands and categories left out
 * (a pair keeps a blank category only when the brand has no category at all). Given
 * `outOfStock` (the same keys, how many of those products are out of stock), each row has a
 * status: 'paused' when all its products are out of stock, else ''.
 */
export function xmlFeedCells(
  data: BrandCategoryCounts,
  source: XmlRowSource,
  outOfStock?: BrandCategoryCounts,
): XmlFeedCells[] {
  const cells = xmlFeedRowCells(data, source);
  if (outOfStock === undefined) return cells.map(({ cells }) => cells);
  const products = countsByCells(data, source);
  const out = countsByCells(outOfStock, source);
  return cells.map(({ key, cells }) => {
    const n = products.get(key) ?? 0;
    return { ...cells, status: n > 0 && (out.get(key) ?? 0) >= n ? 'paused' : '' };
  });
}

/** The key of a brand-category pair's row. */
const pairKey = (brand: string, category: string): string => `${brand}\u0000${category}`;

/** The product counts by the key of the row they go to (the value, or the pair). */
function countsByCells(data: BrandCategoryCounts, source: XmlRowSource): Map<string, number> {
  if (source !== 'brandCategory') return countsBy(data, source);
  const counts = new Map<string, number>();
  for (const [brand, categories] of Object.entries(data))
    for (const [category, n] of Object.entries(categories))
      addCount(counts, pairKey(brand.trim(), category.trim()), n);
  return counts;
}

/** The rows' cells in order, each with the key its counts go under. */
function xmlFeedRowCells(
  data: BrandCategoryCounts,
  source: XmlRowSource,
): { key: string; cells: XmlFeedCells }[] {
  if (source !== 'brandCategory') {
    return rankValues(countsBy(data, source)).map((root) => ({
      key: root,
      cells: { root, mod: '' },
    }));
  }
  const pairs = new Map<string, number>();
  const cells = new Map<string, XmlFeedCells>();
  for (const [rawBrand, categories] of Object.entries(data)) {
    const brand = rawBrand.trim();
    if (brand === '') continue;
    const named = Object.entries(categories).filter(([c]) => c.trim() !== '');
    const entries = named.length > 0 ? named : Object.entries(categories);
    for (const [rawCategory, n] of entries) {
      const mod = rawCategory.trim();
      const key = pairKey(brand, mod);
      cells.set(key, { root: brand, mod });
      addCount(pairs, key, n);
    }
  }
  return rankValues(pairs).map((key) => ({ key, cells: cells.get(key)! }));
}

/** A value left out of the snippets, and why. */
export interface SkippedSnippetValue {
  header: SnippetHeader;
  value: string;
  reason: string;
}

/** The snippet templates of a Generate Snippets, and the values left out. */
export interface XmlSnippets {
  templates: ExtensionTemplate[];
  skipped: SkippedSnippetValue[];
}

/**
 * Splits `n` values into the fewest snippets of at most 10 values, as even as can be, so that
 * each holds at least 3 (11 values give 6 + 5, 21 give 7 + 7 + 7).
 */
function snippetSizes(n: number): number[] {
  if (n < SNIPPET_MIN_VALUES) return [];
  const count = Math.ceil(n / SNIPPET_MAX_VALUES);
  const base = Math.floor(n / count);
  return Array.from({ length: count }, (_, i) => base + (i < n % count ? 1 : 0));
}

/** One header's snippet templates: valid values, each once (case-insensitively), most products first. */
function snippetsFor(header: SnippetHeader, counts: Map<string, number>, into: XmlSnippets): void {
  const seen = new Set<string>();
  const values: string[] = [];
  for (const value of rankValues(counts)) {
    const folded = value.toLowerCase();
    if (seen.has(folded)) continue;
    seen.add(folded);
    const problem = /[;{}\n\r]/.test(value)
      ? 'holds ";", a brace or a line break, which split or fill snippet values'
      : findSnippetValueProblem(value);
    if (problem === undefined) values.push(value);
    else into.skipped.push({ header, value, reason: problem });
  }
  const sizes = snippetSizes(values.length);
  if (sizes.length === 0 && values.length > 0) {
    for (const value of values) {
      into.skipped.push({
        header,
        value,
        reason: `a snippet needs at least ${SNIPPET_MIN_VALUES} values; the feed gives ${values.length}`,
      });
    }
  }
  let at = 0;
  sizes.forEach((size, i) => {
    const template = newExtensionTemplate(
      sizes.length === 1 ? header : `${header} ${i + 1}`,
      'Structured Snippet',
    );
    template.templates[0] = {
      ...template.templates[0],
      Header: header,
      'Snippet Values': values.slice(at, at + size).join('; '),
    };
    at += size;
    into.templates.push(template);
  });
}

/**
 * The structured snippet templates of Generate Snippets: brands under the header Brands,
 * categories under Types, or both (Brand + Category). Each value is checked as every snippet
 * value is (1 to 25 characters, Google's editorial rules); values are split into snippets of 3
 * to 10, most products first. Values that cannot be used are returned with the reason.
 */
export function xmlSnippetTemplates(data: BrandCategoryCounts, source: XmlRowSource): XmlSnippets {
  const out: XmlSnippets = { templates: [], skipped: [] };
  if (source !== 'category') snippetsFor('Brands', countsBy(data, 'brand'), out);
  if (source !== 'brand') snippetsFor('Types', countsBy(data, 'category'), out);
  return out;
}
