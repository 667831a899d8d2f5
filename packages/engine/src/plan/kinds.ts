/**
 * The items of a build, per kind: what identifies each (the cells Google Ads Editor matches an
 * imported row by), where its status is, whether Editor lets it carry labels, and what a person
 * reads for it. Shared by the build record, the account export reader and the change plan.
 */
import { RSA_MAX_DESCRIPTIONS, RSA_MAX_HEADLINES } from '../limits.ts';
import type { ExportTableKind } from '../formats/exportFormat.ts';

/** Every kind of item a build holds, one per export table kind (`EXPORT_TABLE_KINDS`). */
export const PLAN_ITEM_KINDS = [
  'campaign',
  'ad-group',
  'keyword',
  'negative',
  'asset-group',
  'responsive-search-ad',
  'performance-max-ad',
  'callout',
  'sitelink',
  'structured-snippet',
] as const;

/** One of `PLAN_ITEM_KINDS`. */
export type PlanItemKind = (typeof PLAN_ITEM_KINDS)[number];

/** What a person reads for each kind (the plan's `Kind` column). */
export const PLAN_ITEM_KIND_LABELS: Readonly<Record<PlanItemKind, string>> = {
  campaign: 'Campaign',
  'ad-group': 'Ad group',
  keyword: 'Keyword',
  negative: 'Negative keyword',
  'asset-group': 'Asset group',
  'responsive-search-ad': 'Responsive search ad',
  'performance-max-ad': 'Performance Max ad',
  callout: 'Callout',
  sitelink: 'Sitelink',
  'structured-snippet': 'Structured snippet',
};

/** An item's status, as Editor writes it (the API's ENABLED, PAUSED, REMOVED). */
export type ItemStatus = 'Enabled' | 'Paused' | 'Removed';

/** The statuses by their code in the build record (0, 1, 2). */
export const ITEM_STATUSES: readonly ItemStatus[] = ['Enabled', 'Paused', 'Removed'];

/** The status column Editor reads for an item of each kind. */
export type StatusHeader = 'Campaign Status' | 'Ad Group Status' | 'Status';

function numbered(name: string, n: number, suffix = ''): string[] {
  return Array.from({ length: n }, (_, i) => `${name} ${i + 1}${suffix}`);
}

/** What identifies a responsive search ad besides its place: its text, pins and paths. */
const RSA_TEXT_HEADERS: readonly string[] = [
  ...numbered('Headline', RSA_MAX_HEADLINES),
  ...numbered('Headline', RSA_MAX_HEADLINES, ' position'),
  ...numbered('Description', RSA_MAX_DESCRIPTIONS),
  ...numbered('Description', RSA_MAX_DESCRIPTIONS, ' position'),
  'Path 1',
  'Path 2',
];

/** How items of one kind are told apart and shown. */
export interface PlanKindSpec {
  kind: PlanItemKind;
  /** The export table that holds them. */
  tableKind: ExportTableKind;
  /**
   * The columns whose cells identify an item (Editor's match by name and hierarchy), place
   * first. Every other column but the status, IDs and ad type is the item's contents.
   */
  identity: readonly string[];
  /** How many of `identity`'s first cells are the item's place (campaign, ad group). */
  placeCells: number;
  /** Where its status is. */
  statusHeader: StatusHeader;
  /** Editor and the API take labels on it (campaigns, ad groups, keywords, ads). */
  takesLabels: boolean;
}

/** Each kind's spec, in `PLAN_ITEM_KINDS` order. */
export const PLAN_KIND_SPECS: Readonly<Record<PlanItemKind, PlanKindSpec>> = {
  campaign: {
    kind: 'campaign',
    tableKind: 'campaigns',
    identity: ['Campaign'],
    placeCells: 0,
    statusHeader: 'Campaign Status',
    takesLabels: true,
  },
  'ad-group': {
    kind: 'ad-group',
    tableKind: 'ad-groups',
    identity: ['Campaign', 'Ad Group'],
    placeCells: 1,
    statusHeader: 'Ad Group Status',
    takesLabels: true,
  },
  keyword: {
    kind: 'keyword',
    tableKind: 'keywords',
    identity: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type'],
    placeCells: 2,
    statusHeader: 'Status',
    takesLabels: true,
  },
  negative: {
    kind: 'negative',
    tableKind: 'negatives',
    identity: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type'],
    placeCells: 2,
    statusHeader: 'Status',
    takesLabels: false,
  },
  'asset-group': {
    kind: 'asset-group',
    tableKind: 'asset-groups',
    identity: ['Campaign', 'Asset Group'],
    placeCells: 1,
    statusHeader: 'Status',
    takesLabels: false,
  },
  'responsive-search-ad': {
    kind: 'responsive-search-ad',
    tableKind: 'responsive-search-ads',
    identity: ['Campaign', 'Ad Group', ...RSA_TEXT_HEADERS],
    placeCells: 2,
    statusHeader: 'Status',
    takesLabels: true,
  },
  'performance-max-ad': {
    kind: 'performance-max-ad',
    tableKind: 'performance-max-ads',
    identity: ['Campaign', 'Asset Group'],
    placeCells: 1,
    statusHeader: 'Status',
    takesLabels: false,
  },
  callout: {
    kind: 'callout',
    tableKind: 'callouts',
    identity: ['Campaign', 'Ad Group', 'Callout text'],
    placeCells: 2,
    statusHeader: 'Status',
    takesLabels: false,
  },
  sitelink: {
    kind: 'sitelink',
    tableKind: 'sitelinks',
    identity: ['Campaign', 'Ad Group', 'Link Text'],
    placeCells: 2,
    statusHeader: 'Status',
    takesLabels: false,
  },
  'structured-snippet': {
    kind: 'structured-snippet',
    tableKind: 'structured-snippets',
    identity: ['Campaign', 'Ad Group', 'Header', 'Snippet Values'],
    placeCells: 2,
    statusHeader: 'Status',
    takesLabels: false,
  },
};

const KIND_OF_TABLE = Object.fromEntries(
  PLAN_ITEM_KINDS.map((k) => [PLAN_KIND_SPECS[k].tableKind, k]),
) as Record<ExportTableKind, PlanItemKind>;

/** The kind of item each row of an export table of `kind` is. */
export function itemKindOfTable(kind: ExportTableKind): PlanItemKind {
  return KIND_OF_TABLE[kind];
}

/** A kind's code (its index in `PLAN_ITEM_KINDS`). */
export function kindCode(kind: PlanItemKind): number {
  return PLAN_ITEM_KINDS.indexOf(kind);
}

/**
 * A header as Editor compares headers: capitalisation, spaces and underscores do not matter
 * ('Final URL', 'final_url' and 'FinalURL' are one column).
 */
export function normalizeHeader(header: string): string {
  return header.toLowerCase().replace(/[\s_]+/g, '');
}

/** The three status headers, normalised. */
export const STATUS_HEADERS_NORMALIZED: ReadonlySet<string> = new Set([
  'campaignstatus',
  'adgroupstatus',
  'status',
]);

/** Editor's status text as a status (Enabled when blank or unknown: a build's default). */
export function parseItemStatus(value: string | undefined): ItemStatus {
  const v = (value ?? '').trim().toLowerCase();
  if (v === 'paused') return 'Paused';
  if (v === 'removed' || v === 'deleted') return 'Removed';
  return 'Enabled';
}

/** Negative criterion types, with and without the campaign level. */
export function isNegativeCriterion(criterionType: string): boolean {
  const t = criterionType.trim().toLowerCase();
  return t.startsWith('negative') || t.startsWith('campaign negative');
}

/** What a person reads for an item: its name, its keyword in notation, its ad's first headline. */
export function describeItem(kind: PlanItemKind, identity: readonly string[]): string {
  switch (kind) {
    case 'campaign':
      return identity[0] ?? '';
    case 'ad-group':
    case 'asset-group':
    case 'performance-max-ad':
      return identity[1] ?? '';
    case 'keyword':
    case 'negative':
      return keywordText(identity[2] ?? '', identity[3] ?? '');
    case 'responsive-search-ad':
      return identity[2] ?? '';
    case 'callout':
    case 'sitelink':
      return identity[2] ?? '';
    case 'structured-snippet':
      return `${identity[2] ?? ''}: ${identity[3] ?? ''}`;
  }
}

/** A keyword in the notation a person reads: bare, "phrase", [exact], a leading - when negative. */
function keywordText(text: string, criterionType: string): string {
  const t = criterionType.toLowerCase();
  const prefix = t.includes('negative') ? '-' : '';
  if (t.endsWith('phrase')) return `${prefix}"${text}"`;
  if (t.endsWith('exact')) return `${prefix}[${text}]`;
  return `${prefix}${text}`;
}
