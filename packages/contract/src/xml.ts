import { z } from 'zod';

/**
 * XML product feeds (spec sections 2, 3, 7 and 8): a shop's Google Merchant Center feed (RSS 2.0
 * or Atom with `g:` fields) read into brands and categories.
 */

/** The tool a user whose email holds the agency marker has (`PublicUser.tools`). */
export const XML_FEEDS_TOOL = 'xml-feeds';

/** The setting that names the agency marker (README, "Settings"). */
export const XML_TOOLS_SETTING = 'XML_TOOLS_EMAIL_MARKER';

/** Longest feed URL a person may enter. */
export const XML_URL_MAX_CHARS = 2048;
/** Deepest `g:product_type` level a person may choose (`Home > Garden > Tools` has 3). */
export const XML_CATEGORY_LEVEL_MAX = 10;

/** `POST /api/app/fetch-xml` body (spec section 7: `{url}`). */
export const FetchXmlBodySchema = z.object({
  url: z.string().trim().min(1, 'Feed URL is required').max(XML_URL_MAX_CHARS),
  /**
   * Not in the spec: which `g:product_type` level is the category (1 = the first, the default).
   * A product without that level falls back to its `g:google_product_category` at the same level.
   */
  categoryLevel: z.number().int().min(1).max(XML_CATEGORY_LEVEL_MAX).default(1),
  /**
   * Not in the spec (issue 35): true asks for the answer with availability, `XmlFeedAnswer`
   * (the brand-category counts and, beside them, the out-of-stock products' counts). Without it
   * the answer is the spec's BrandCategories.
   */
  withAvailability: z.boolean().default(false),
});
/** `POST /api/app/fetch-xml` body, as sent. */
export type FetchXmlBodyInput = z.input<typeof FetchXmlBodySchema>;

/**
 * `POST /api/app/fetch-xml` answer (spec section 7): keyed by brand, then by category, each with
 * how many products carry that pair. A product without a brand counts under '' (no brand), one
 * without any category under '' (no category).
 */
export const BrandCategoriesSchema = z.record(z.string(), z.record(z.string(), z.number().int()));
/** `POST /api/app/fetch-xml` answer. */
export type BrandCategories = z.infer<typeof BrandCategoriesSchema>;

/**
 * `POST /api/app/fetch-xml` answer when the body asks `withAvailability`: `counts` as
 * BrandCategories, and `outOfStock` the same keys for the pairs some of whose products have the
 * Merchant Center availability out of stock, with how many (a pair none is out of stock of is
 * absent). A pair all of whose products are out of stock makes a paused feed row.
 */
export const XmlFeedAnswerSchema = z.object({
  counts: BrandCategoriesSchema,
  outOfStock: BrandCategoriesSchema,
});
/** `POST /api/app/fetch-xml` answer with availability. */
export type XmlFeedAnswer = z.infer<typeof XmlFeedAnswerSchema>;

/** Spec section 3: the feed variable sources of an XML import. */
export const XML_SOURCES = ['brand', 'category', 'brandCategory'] as const;
/** Brand, Category or Brand + Category. */
export type XmlSource = (typeof XML_SOURCES)[number];

/** The labels the panel shows for each source (spec section 2). */
export const XML_SOURCE_LABELS: Readonly<Record<XmlSource, string>> = {
  brand: 'Brand',
  category: 'Category',
  brandCategory: 'Brand + Category',
};

// ---- Messages (spec section 8 where it has them) ----

export const XML_MESSAGES = {
  /** Spec section 8: Add XML failed. */
  rowsFailed: 'Rows not added. Check that URL is valid',
  /** Spec section 8: Generate Snippets failed. */
  snippetsFailed: 'Snippets not generated. Check that the URL is valid',
  /** Spec section 8 success notice: snippets generated for brands and/or categories. */
  snippetsMade: (source: XmlSource) =>
    `Snippets generated for ${source === 'brand' ? 'brands' : source === 'category' ? 'categories' : 'brands and categories'}`,
  /** Add XML succeeded. */
  rowsAdded: (n: number) =>
    `${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'} added from the XML feed`,
} as const;
