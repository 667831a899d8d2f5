/**
 * Domain entities of spec section 3, as the engine, the API and the web app share them.
 * Stored templates are in these shapes; legacy input is restored by the `restore*` functions.
 */

import type { FeedCells, FeedColumn } from './feedColumns.ts';

export { FEED_COLUMNS, FEED_COLUMN_LABELS, type FeedColumn } from './feedColumns.ts';

/** One feed row: a text per data column and a unique id. `selected` lives only in the client. */
export interface FeedRow extends FeedCells {
  id: string;
  selected?: boolean;
}

/**
 * The rows of a run, read by index: an array, or a store that makes each row as it is read (the
 * command line packs a million rows into a fraction of their objects' memory). A row read twice
 * may be two objects: compare rows by id, never by identity.
 */
export interface FeedRows {
  readonly length: number;
  at(index: number): FeedRow | undefined;
  /** The index of the row with this id, when the store knows it without a search (else -1). */
  indexOfId?(id: string): number;
  /**
   * The UTF-16 code unit a cell of row `index` starts with (NaN when it is empty), when the store
   * can tell without making the row (a packed store of a million rows).
   */
  firstCodeOf?(index: number, column: FeedColumn): number;
  /**
   * When every character of row `index` is ASCII, the bytes holding it (one byte per character)
   * and in `bounds` where each cell starts, in FEED_COLUMNS order, then where the last one ends
   * (one more than the columns); else undefined (read the row with `at`). A packed store answers without making
   * the row, so a scan of a few cells costs no decoding (`GroupKeyMaker`).
   */
  asciiCells?(index: number, bounds: Int32Array): Uint8Array | undefined;
  /**
   * Each row's status code (`rowStatusCodes`), when the store keeps them as it reads the rows
   * (undefined: no row is paused or unknown).
   */
  statusCodes?(): Uint8Array | undefined;
}

/** Whether a feed is a table of rows or a list (only root is used). */
export type FeedDataType = 'table' | 'list';

/** A data feed (or list) of a client or user. `_id` is the server's id, dropped on copy. */
export interface Feed {
  _id?: string;
  name: string;
  dataType: FeedDataType;
  sheetUrl: string;
  sheetName?: string;
  rows: FeedRow[];
}

/** Keyword match types the campaign template offers. */
export const MATCH_TYPES = [
  'Broad',
  'Phrase',
  'Exact',
  'Negative Broad',
  'Negative Phrase',
  'Negative Exact',
] as const;
/** A keyword match type. */
export type MatchType = (typeof MATCH_TYPES)[number];

/** Campaign template types. Stored values: 'search' (default) or 'performance'. */
export const CAMPAIGN_TYPES = ['search', 'performance'] as const;
/** A campaign template type. */
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];

/** One keyword pattern of a campaign template. */
export interface KeywordPattern {
  keyword: string;
  matchType: MatchType;
  selected?: boolean;
}

/** A named optional campaign setting (a Google Ads Editor column and its value). */
export interface OptionalSetting {
  name: string;
  value: string;
  selected: boolean;
}

/** Campaign-level settings of a campaign template. */
export interface CampaignSettings {
  budget: { value: number; selected: boolean };
  location: { value: string; selected: boolean };
  isLocationCampaign: boolean;
  optionalSettings: OptionalSetting[];
  /**
   * Drop a template negative that blocks a keyword of its own ad group (a Negative Exact equal
   * to an Exact keyword, a Negative Broad whose words the keyword all holds); reported either way.
   */
  dropBlockingNegatives: boolean;
  /**
   * Keep a keyword (its text and match type) only in the first ad group of its campaign that has
   * it: in later ad groups it would compete with it for the same searches. Reported either way.
   */
  keepKeywordInFirstAdGroup: boolean;
}

/** Campaign template: name patterns, keywords and settings. */
export interface CampaignTemplate {
  _id?: string;
  name: string;
  type: CampaignType;
  const: string;
  campaign: string;
  adGroup: string;
  assetGroup: string;
  keywords: KeywordPattern[];
  settings: CampaignSettings;
}

/** An ad text with its pin: pos 0 is free placement, 1..n a fixed position. */
export interface PinnedText {
  text: string;
  pos: number;
}

/** One responsive search ad fallback. */
export interface RsaFallback {
  headlines: PinnedText[];
  descriptions: PinnedText[];
  paths: [string, string] | string[];
  labels: string[];
}

/** Responsive search ad template: a list of fallbacks, the first valid one is used per row. */
export interface RsaTemplate {
  _id?: string;
  name: string;
  templates: RsaFallback[];
}

/** Performance Max calls to action ('' is None). */
export const CALLS_TO_ACTION = [
  'None',
  'Learn more',
  'Get quote',
  'Apply now',
  'Sign up',
  'Contact us',
  'Subscribe',
  'Download',
  'Book now',
  'Get offer',
  'Shop now',
  'Visit store',
  'Call now',
  'View menu',
  'Test drive',
  'Schedule now',
] as const;
/** A Performance Max call to action. */
export type CallToAction = (typeof CALLS_TO_ACTION)[number] | '';

/** One Performance Max fallback. */
export interface PerformanceMaxFallback {
  headlines: PinnedText[];
  longHeadlines: PinnedText[];
  descriptions: PinnedText[];
  paths: string[];
  labels: string[];
  businessName: string;
  callToAction: CallToAction;
}

/** Performance Max template. */
export interface PerformanceMaxTemplate {
  _id?: string;
  name: string;
  templates: PerformanceMaxFallback[];
}

/** Legacy expanded text ad fallback. */
export interface AdFallback {
  h1: string;
  h2: string;
  h3: string;
  dl1: string;
  dl2: string;
  p1: string;
  p2: string;
  adType: string;
  label: string;
}

/** Legacy expanded text ad template: versions, each a list of fallbacks. */
export interface AdTemplate {
  _id?: string;
  name: string;
  templates: AdFallback[][];
}

/** Extension types. */
export const EXTENSION_TYPES = ['Callout', 'Sitelink', 'Structured Snippet'] as const;
/** An extension type name. */
export type ExtensionTypeName = (typeof EXTENSION_TYPES)[number];

/** One field definition of an extension type; maxLength 0 means unlimited. */
export interface ExtensionField {
  title: string;
  maxLength: number;
  isStatic: boolean;
}

/** An extension type with its field definitions. */
export interface ExtensionType {
  name: ExtensionTypeName;
  fields: ExtensionField[];
}

/** Field values of one extension fallback, keyed by field title. */
export type ExtensionValues = Record<string, string>;

/**
 * Where an extension template's assets attach: 'auto' (the level its placeholders vary at), the
 * account, each campaign or each ad group of the rows.
 */
export const EXTENSION_ATTACH_LEVELS = ['auto', 'account', 'campaign', 'adGroup'] as const;
/** An extension template's attachment setting. */
export type ExtensionAttachLevel = (typeof EXTENSION_ATTACH_LEVELS)[number];
/** The level assets attach at once 'auto' is resolved. */
export type AssetLevel = Exclude<ExtensionAttachLevel, 'auto'>;

/** Extension template; the first entry of `templates` holds the field values. */
export interface ExtensionTemplate {
  _id?: string;
  name: string;
  extensionType: ExtensionType;
  /** Where its assets attach (default 'auto'). */
  attachTo: ExtensionAttachLevel;
  templates: ExtensionValues[];
}

/** Generated keyword line. */
export interface KeywordLine {
  campaign: string;
  adGroup: string;
  keyword: string;
  matchType: MatchType;
}

/** Generated ad group. */
export interface AdGroupRef {
  key: string;
  campaign: string;
  adGroup: string;
  id: string;
}

/** Generated asset group. */
export interface AssetGroupRef {
  key: string;
  campaign: string;
  assetGroup: string;
  id: string;
}
