/**
 * Every limit and constant of spec section 9 and of Google's rules (GOOGLE-ADS.md), in one place.
 * Units are in the names: `_CHARS` counts characters as Google counts them (see `countAdTextLength`),
 * `_MS` milliseconds, `_PX` CSS pixels.
 */
import type { ExtensionType, ExtensionTypeName } from './types.ts';

// ---- Responsive search ads ----
/** RSA headline limit. */
export const RSA_HEADLINE_MAX_CHARS = 30;
/** RSA description limit. */
export const RSA_DESCRIPTION_MAX_CHARS = 90;
/** RSA display path limit (each of the two paths). */
export const RSA_PATH_MAX_CHARS = 15;
/** Most headlines an RSA may carry. */
export const RSA_MAX_HEADLINES = 15;
/** Most descriptions an RSA may carry. */
export const RSA_MAX_DESCRIPTIONS = 4;
/** Fewest headline inputs shown (and Google's minimum). */
export const RSA_MIN_HEADLINES = 3;
/** Fewest description inputs shown (and Google's minimum). */
export const RSA_MIN_DESCRIPTIONS = 2;
/** Display paths per ad. */
export const RSA_PATH_COUNT = 2;
/** Highest pin position of a headline (positions 1..3). */
export const RSA_HEADLINE_MAX_PIN = 3;
/** Highest pin position of a description (positions 1..2). */
export const RSA_DESCRIPTION_MAX_PIN = 2;
/** Default RSA fallback shape: 4 headlines, 2 descriptions, 2 paths, 1 label. */
export const RSA_DEFAULT_HEADLINES = 4;
/** Default RSA fallback descriptions. */
export const RSA_DEFAULT_DESCRIPTIONS = 2;
/** Default RSA fallback labels. */
export const RSA_DEFAULT_LABELS = 1;
/** Ad type written for responsive search ads. */
export const RSA_AD_TYPE = 'Responsive search ad';

// ---- Performance Max ----
/** Performance Max headline limit. */
export const PMAX_HEADLINE_MAX_CHARS = 30;
/** Performance Max long headline limit. */
export const PMAX_LONG_HEADLINE_MAX_CHARS = 90;
/** Performance Max description limit. */
export const PMAX_DESCRIPTION_MAX_CHARS = 90;
/** Google needs at least one Performance Max headline of this many characters or fewer. */
export const PMAX_SHORT_HEADLINE_MAX_CHARS = 15;
/** Google needs at least one Performance Max description of this many characters or fewer. */
export const PMAX_SHORT_DESCRIPTION_MAX_CHARS = 60;
/**
 * The spec's counter on the first Performance Max description: a hint towards the short
 * description Google needs (any description of 60 or fewer satisfies the rule).
 */
export const PMAX_FIRST_DESCRIPTION_MAX_CHARS = 60;
/** Performance Max path limit. */
export const PMAX_PATH_MAX_CHARS = 15;
/** Performance Max business name limit. */
export const PMAX_BUSINESS_NAME_MAX_CHARS = 25;
/** Most headlines a Performance Max fallback may carry (Google's 15). */
export const PMAX_MAX_HEADLINES = 15;
/** Most long headlines a Performance Max fallback may carry. */
export const PMAX_MAX_LONG_HEADLINES = 5;
/** Most descriptions a Performance Max fallback may carry. */
export const PMAX_MAX_DESCRIPTIONS = 5;
/** Fewest headline inputs shown. */
export const PMAX_MIN_HEADLINES = 3;
/** Fewest long headline inputs shown. */
export const PMAX_MIN_LONG_HEADLINES = 1;
/** Fewest description inputs shown. */
export const PMAX_MIN_DESCRIPTIONS = 2;

/** Performance Max: Google's most characters of each text. */
export const PMAX_MAX_CHARS = {
  headline: PMAX_HEADLINE_MAX_CHARS,
  longHeadline: PMAX_LONG_HEADLINE_MAX_CHARS,
  description: PMAX_DESCRIPTION_MAX_CHARS,
  firstDescription: PMAX_FIRST_DESCRIPTION_MAX_CHARS,
  path: PMAX_PATH_MAX_CHARS,
  businessName: PMAX_BUSINESS_NAME_MAX_CHARS,
} as const;

/** Performance Max: the fewest and most texts of each list (Google's counts). */
export const PMAX_TEXT_COUNTS = {
  headlines: { min: PMAX_MIN_HEADLINES, max: PMAX_MAX_HEADLINES },
  longHeadlines: { min: PMAX_MIN_LONG_HEADLINES, max: PMAX_MAX_LONG_HEADLINES },
  descriptions: { min: PMAX_MIN_DESCRIPTIONS, max: PMAX_MAX_DESCRIPTIONS },
} as const;

// ---- Common ad text ----
/** Headlines, long headlines and descriptions need at least this many characters after substitution. */
export const AD_TEXT_MIN_CHARS = 1;
/** Final URL limit. */
export const FINAL_URL_MAX_CHARS = 2048;
/**
 * Characters a keyword insertion without default text (`{KeyWord}`) counts for: the spec's helper
 * counts a keyword placeholder as 10. Such an insertion is also reported as an issue.
 */
export const KEYWORD_INSERTION_FALLBACK_CHARS = 10;

// ---- Keywords (Google's rules) ----
/** A keyword has at most 80 characters. */
export const KEYWORD_MAX_CHARS = 80;
/** A keyword has at most 10 words. */
export const KEYWORD_MAX_WORDS = 10;
/**
 * The symbols Google accepts in a keyword besides letters, digits (of every script) and spaces;
 * every other character is cleaned (see `cleanKeyword`). Kept in one place: Google publishes no
 * exact rule (GOOGLE-ADS.md "Keywords").
 */
export const KEYWORD_ALLOWED_SYMBOLS = [
  '#',
  '$',
  '&',
  '_',
  '-',
  '"',
  '[',
  ']',
  "'",
  '+',
  '.',
  '/',
  ':',
] as const;
/**
 * Typographic forms of allowed symbols that a keyword takes as the symbol (word processors and
 * spreadsheets type them for ' " and -): curly quotes, primes, hyphens, dashes and the minus sign.
 */
export const KEYWORD_TYPOGRAPHIC_FORMS: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
};

// ---- Names ----
/** Campaign, ad group and asset group names: Google takes names under 255 characters. */
export const NAME_MAX_CHARS = 254;

// ---- Feeds ----
// The feed's cell limits live with its columns (feedColumns.ts), which every package reads.
export { FEED_CELL_MAX_CHARS, FEED_URL_MAX_CHARS } from './feedColumns.ts';
/** Linked variable columns of unequal length. */
export const LINKED_VARIABLES_ERROR = 'Linked variables must have the same number of rows';

// ---- Campaign settings ----
/** Budget minimum. */
export const BUDGET_MIN = 0.01;
/** Budget default. */
export const BUDGET_DEFAULT = 0.01;

// ---- Extensions ----
/** Callout text limit. */
export const CALLOUT_TEXT_MAX_CHARS = 25;
/** Sitelink link text limit. */
export const SITELINK_LINK_TEXT_MAX_CHARS = 25;
/** Sitelink description line limit (each). */
export const SITELINK_DESCRIPTION_MAX_CHARS = 35;
/** Structured snippet value limit (each value). */
export const SNIPPET_VALUE_MAX_CHARS = 25;
/** Fewest structured snippet values. */
export const SNIPPET_MIN_VALUES = 3;
/** Most structured snippet values. */
export const SNIPPET_MAX_VALUES = 10;
/**
 * Most sitelinks, callouts and structured snippets of each type in one place (the account, a
 * campaign, an ad group): Google's 20 (docs/decisions.md "Assets per place").
 */
export const ASSETS_PER_PLACE_MAX = 20;
/** Extension input maximum length. */
export const EXTENSION_INPUT_MAX_CHARS = 2000;
/** Structured snippet headers (fixed list). */
export const SNIPPET_HEADERS = [
  'Amenities',
  'Brands',
  'Courses',
  'Degree programs',
  'Destinations',
  'Featured hotels',
  'Insurance coverage',
  'Models',
  'Neighborhoods',
  'Service catalog',
  'Shows',
  'Styles',
  'Types',
] as const;
/** A structured snippet header. */
export type SnippetHeader = (typeof SNIPPET_HEADERS)[number];

/** Field definitions of each extension type (maxLength 0 = unlimited; static fields are not checked). */
export const EXTENSION_TYPE_DEFINITIONS: Readonly<Record<ExtensionTypeName, ExtensionType>> = {
  Callout: {
    name: 'Callout',
    fields: [
      { title: 'Callout text', maxLength: CALLOUT_TEXT_MAX_CHARS, isStatic: false },
      { title: 'Upgraded extension', maxLength: 0, isStatic: true },
    ],
  },
  Sitelink: {
    name: 'Sitelink',
    fields: [
      { title: 'Link Text', maxLength: SITELINK_LINK_TEXT_MAX_CHARS, isStatic: false },
      { title: 'Description Line 1', maxLength: SITELINK_DESCRIPTION_MAX_CHARS, isStatic: false },
      { title: 'Description Line 2', maxLength: SITELINK_DESCRIPTION_MAX_CHARS, isStatic: false },
      { title: 'Upgraded extension', maxLength: 0, isStatic: true },
      { title: 'Final URL', maxLength: 0, isStatic: true },
    ],
  },
  'Structured Snippet': {
    name: 'Structured Snippet',
    fields: [
      { title: 'Header', maxLength: 0, isStatic: true },
      { title: 'Snippet Values', maxLength: SNIPPET_VALUE_MAX_CHARS, isStatic: false },
      { title: 'Upgraded extension', maxLength: 0, isStatic: true },
    ],
  },
};

// ---- Validation display, preview and timing (spec section 9) ----
/** Score bands: under 50, 50 to 79, 80 to 99, exactly 100. */
export const SCORE_BAND_LOW_BELOW_PERCENT = 50;
/** Lower bound of the good band. */
export const SCORE_BAND_GOOD_FROM_PERCENT = 80;
/** The perfect score. */
export const SCORE_PERFECT_PERCENT = 100;
/** Preview headline slots. */
export const PREVIEW_HEADLINE_SLOTS = 3;
/** Preview description slots. */
export const PREVIEW_DESCRIPTION_SLOTS = 2;
/** Autosave interval (5 minutes). */
export const AUTOSAVE_INTERVAL_MS = 5 * 60 * 1000;
/** Wide preview labels above this width. */
export const BREAKPOINT_WIDE_PREVIEW_PX = 1600;
/** Optional setting names shown up to this many characters. */
export const OPTIONAL_SETTING_NAME_DISPLAY_MAX_CHARS = 20;
/** Feedback minimum length. */
export const FEEDBACK_MIN_CHARS = 10;
