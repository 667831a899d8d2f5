/**
 * The edge where stored or imported values enter the engine: `restore*` coerce any shape into the
 * entity types (legacy plain-string headlines -> `{ text, pos: 0 }`, a missing campaign type ->
 * 'search', missing fields -> the spec's defaults) and never throw. `new*` build fresh values.
 */
import { FEED_COLUMN_DEFINITIONS, newIdentifiedFeedCells } from './feedColumns.ts';
import {
  BUDGET_DEFAULT,
  EXTENSION_TYPE_DEFINITIONS,
  PMAX_MIN_DESCRIPTIONS,
  PMAX_MIN_HEADLINES,
  PMAX_MIN_LONG_HEADLINES,
  RSA_DEFAULT_DESCRIPTIONS,
  RSA_DEFAULT_HEADLINES,
  RSA_DEFAULT_LABELS,
  RSA_PATH_COUNT,
} from './limits.ts';
import type {
  AdFallback,
  AdTemplate,
  CallToAction,
  CampaignSettings,
  CampaignTemplate,
  ExtensionAttachLevel,
  ExtensionField,
  ExtensionTemplate,
  ExtensionType,
  ExtensionTypeName,
  ExtensionValues,
  Feed,
  FeedDataType,
  FeedRow,
  KeywordPattern,
  MatchType,
  OptionalSetting,
  PerformanceMaxFallback,
  PerformanceMaxTemplate,
  PinnedText,
  RsaFallback,
  RsaTemplate,
} from './types.ts';
import { CALLS_TO_ACTION, EXTENSION_ATTACH_LEVELS, EXTENSION_TYPES, MATCH_TYPES } from './types.ts';

type Obj = Record<string, unknown>;

function asObj(x: unknown): Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Obj) : {};
}

function asArray(x: unknown): unknown[] {
  return Array.isArray(x) ? x : [];
}

/** Any scalar as text; objects and null become ''. */
export function asText(x: unknown): string {
  if (typeof x === 'string') return x;
  if (typeof x === 'number' && Number.isFinite(x)) return String(x);
  if (typeof x === 'bigint' || typeof x === 'boolean') return String(x);
  return '';
}

function asBool(x: unknown, fallback: boolean): boolean {
  if (typeof x === 'boolean') return x;
  if (x === 'true') return true;
  if (x === 'false') return false;
  return fallback;
}

/** The first present key of `o` among `keys`. */
function pick(o: Obj, ...keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined) return o[k];
  return undefined;
}

function optionalId(o: Obj): { _id?: string } {
  const id = asText(o._id);
  return id ? { _id: id } : {};
}

const MATCH_TYPE_BY_LOWER = new Map<string, MatchType>(
  MATCH_TYPES.map((m) => [m.toLowerCase(), m]),
);

/** A match type spelled in any case (also 'negative_exact', 'negativeexact'); undefined when unknown. */
export function findMatchType(x: unknown): MatchType | undefined {
  const s = asText(x).trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
  return (
    MATCH_TYPE_BY_LOWER.get(s) ?? MATCH_TYPE_BY_LOWER.get(s.replace(/^negative(?=\S)/, 'negative '))
  );
}

const CTA_BY_LOWER = new Map<string, CallToAction>(
  CALLS_TO_ACTION.map((c) => [c.toLowerCase(), c]),
);

/** A call to action spelled in any case; '' for none or unknown. */
export function findCallToAction(x: unknown): CallToAction | undefined {
  const s = asText(x).trim().toLowerCase();
  if (s === '') return '';
  return CTA_BY_LOWER.get(s);
}

/** A pinned text from `{text, pos}` or a legacy plain string. */
export function restorePinnedText(x: unknown): PinnedText {
  if (typeof x === 'string' || typeof x === 'number') return { text: asText(x), pos: 0 };
  const o = asObj(x);
  const pos = Math.trunc(Number(pick(o, 'pos', 'position', 'pin') ?? 0));
  return { text: asText(pick(o, 'text', 'value')), pos: Number.isFinite(pos) && pos > 0 ? pos : 0 };
}

function restorePinnedList(x: unknown): PinnedText[] {
  if (typeof x === 'string') return [restorePinnedText(x)];
  return asArray(x).map(restorePinnedText);
}

function restoreStrings(x: unknown): string[] {
  if (typeof x === 'string') return x === '' ? [] : [x];
  return asArray(x).map(asText);
}

function restorePaths(x: unknown): string[] {
  const paths = restoreStrings(x).slice(0, RSA_PATH_COUNT);
  while (paths.length < RSA_PATH_COUNT) paths.push('');
  return paths;
}

function emptyPinned(n: number): PinnedText[] {
  return Array.from({ length: n }, () => ({ text: '', pos: 0 }));
}

// ---------------------------------------------------------------------------------------------
// Feeds

/** A new empty feed row with the given id. */
export function newFeedRow(id: string): FeedRow {
  return newIdentifiedFeedCells(id);
}

/** A new feed (or list) with one empty row, not linked to a sheet. */
export function newFeed(
  name: string,
  dataType: FeedDataType = 'table',
  firstRowId = 'row-1',
): Feed {
  return { name, dataType, sheetUrl: '', rows: [newFeedRow(firstRowId)] };
}

/** A feed row from any shape; `fallbackId` is used when the row carries none. */
export function restoreFeedRow(x: unknown, fallbackId: string): FeedRow {
  const o = asObj(x);
  const row: FeedRow = newIdentifiedFeedCells(asText(pick(o, 'id', '_id')) || fallbackId);
  for (const column of FEED_COLUMN_DEFINITIONS)
    row[column.key] = asText(pick(o, column.key, ...column.legacyFields));
  if (typeof o.selected === 'boolean') row.selected = o.selected;
  return row;
}

/** A feed from any shape. Rows without an id get `row-<n>` (n = position from 1), kept unique. */
export function restoreFeed(x: unknown): Feed {
  const o = asObj(x);
  const seen = new Set<string>();
  const rows = asArray(pick(o, 'rows', 'targets')).map((r, i) => {
    const row = restoreFeedRow(r, `row-${i + 1}`);
    if (seen.has(row.id)) {
      let n = 1;
      while (seen.has(`${row.id}-${n}`)) n++;
      row.id = `${row.id}-${n}`;
    }
    seen.add(row.id);
    return row;
  });
  const feed: Feed = {
    ...optionalId(o),
    name: asText(o.name),
    dataType: o.dataType === 'list' ? 'list' : 'table',
    sheetUrl: asText(o.sheetUrl),
    rows,
  };
  const sheetName = asText(o.sheetName);
  if (sheetName) feed.sheetName = sheetName;
  return feed;
}

// ---------------------------------------------------------------------------------------------
// Campaign templates

/** A new search campaign template with the spec's defaults. */
export function newCampaignTemplate(name: string): CampaignTemplate {
  return {
    name,
    type: 'search',
    const: '',
    campaign: '',
    adGroup: '',
    assetGroup: '',
    keywords: [],
    settings: {
      budget: { value: BUDGET_DEFAULT, selected: true },
      location: { value: '', selected: false },
      isLocationCampaign: false,
      optionalSettings: [],
      dropBlockingNegatives: false,
      keepKeywordInFirstAdGroup: false,
    },
  };
}

function restoreKeyword(x: unknown): KeywordPattern {
  if (typeof x === 'string') return { keyword: x, matchType: 'Broad', selected: true };
  const o = asObj(x);
  return {
    keyword: asText(pick(o, 'keyword', 'text')),
    matchType: findMatchType(pick(o, 'matchType', 'match_type', 'type')) ?? 'Broad',
    selected: asBool(o.selected, true),
  };
}

function restoreSetting<T>(
  x: unknown,
  value: (v: unknown) => T,
  selected: boolean,
): { value: T; selected: boolean } {
  if (typeof x !== 'object' || x === null)
    return { value: value(x), selected: x === undefined ? selected : true };
  const o = asObj(x);
  return { value: value(o.value), selected: asBool(o.selected, selected) };
}

function restoreBudget(v: unknown): number {
  const n = typeof v === 'number' ? v : Number.parseFloat(asText(v));
  return Number.isFinite(n) ? n : BUDGET_DEFAULT;
}

function restoreOptionalSetting(x: unknown): OptionalSetting {
  const o = asObj(x);
  return { name: asText(o.name), value: asText(o.value), selected: asBool(o.selected, true) };
}

/** A campaign template from any shape; a missing or unknown type becomes 'search'. */
export function restoreCampaignTemplate(x: unknown): CampaignTemplate {
  const o = asObj(x);
  const s = asObj(o.settings);
  const settings: CampaignSettings = {
    budget: restoreSetting(pick(s, 'budget') ?? o.budget, restoreBudget, true),
    location: restoreSetting(pick(s, 'location') ?? o.location, asText, false),
    isLocationCampaign: asBool(pick(s, 'isLocationCampaign') ?? o.isLocationCampaign, false),
    optionalSettings: asArray(pick(s, 'optionalSettings') ?? o.optionalSettings).map(
      restoreOptionalSetting,
    ),
    dropBlockingNegatives: asBool(pick(s, 'dropBlockingNegatives'), false),
    keepKeywordInFirstAdGroup: asBool(pick(s, 'keepKeywordInFirstAdGroup'), false),
  };
  const type = asText(o.type).trim().toLowerCase();
  return {
    ...optionalId(o),
    name: asText(o.name),
    type:
      type === 'performance' || type === 'performance max' || type === 'pmax'
        ? 'performance'
        : 'search',
    const: asText(pick(o, 'const', 'constant')),
    campaign: asText(o.campaign),
    adGroup: asText(o.adGroup),
    assetGroup: asText(o.assetGroup),
    keywords: asArray(o.keywords).map(restoreKeyword),
    settings,
  };
}

// ---------------------------------------------------------------------------------------------
// Responsive search ads

/** The spec's default RSA fallback: 4 headlines, 2 descriptions, 2 paths, 1 label. */
export function newRsaFallback(): RsaFallback {
  return {
    headlines: emptyPinned(RSA_DEFAULT_HEADLINES),
    descriptions: emptyPinned(RSA_DEFAULT_DESCRIPTIONS),
    paths: ['', ''],
    labels: Array.from({ length: RSA_DEFAULT_LABELS }, () => ''),
  };
}

/** A new RSA template with one default fallback. */
export function newRsaTemplate(name: string): RsaTemplate {
  return { name, templates: [newRsaFallback()] };
}

/** An RSA fallback from any shape. */
export function restoreRsaFallback(x: unknown): RsaFallback {
  const o = asObj(x);
  return {
    headlines: restorePinnedList(o.headlines),
    descriptions: restorePinnedList(o.descriptions),
    paths: restorePaths(o.paths),
    labels: restoreStrings(pick(o, 'labels', 'label')),
  };
}

/** An RSA template from any shape; a template without fallbacks gets the default one. */
export function restoreRsaTemplate(x: unknown): RsaTemplate {
  const o = asObj(x);
  const templates = asArray(pick(o, 'templates', 'fallbacks')).map(restoreRsaFallback);
  return {
    ...optionalId(o),
    name: asText(o.name),
    templates: templates.length ? templates : [newRsaFallback()],
  };
}

// ---------------------------------------------------------------------------------------------
// Performance Max

/** The default Performance Max fallback: 3 headlines, 1 long headline, 2 descriptions. */
export function newPerformanceMaxFallback(): PerformanceMaxFallback {
  return {
    headlines: emptyPinned(PMAX_MIN_HEADLINES),
    longHeadlines: emptyPinned(PMAX_MIN_LONG_HEADLINES),
    descriptions: emptyPinned(PMAX_MIN_DESCRIPTIONS),
    paths: ['', ''],
    labels: [''],
    businessName: '',
    callToAction: '',
  };
}

/** A new Performance Max template with one default fallback. */
export function newPerformanceMaxTemplate(name: string): PerformanceMaxTemplate {
  return { name, templates: [newPerformanceMaxFallback()] };
}

/** A Performance Max fallback from any shape; an unknown call to action becomes ''. */
export function restorePerformanceMaxFallback(x: unknown): PerformanceMaxFallback {
  const o = asObj(x);
  return {
    headlines: restorePinnedList(o.headlines),
    longHeadlines: restorePinnedList(pick(o, 'longHeadlines', 'long_headlines', 'longHeadline')),
    descriptions: restorePinnedList(o.descriptions),
    paths: restorePaths(o.paths),
    labels: restoreStrings(pick(o, 'labels', 'label')),
    businessName: asText(pick(o, 'businessName', 'business_name', 'business')),
    callToAction: findCallToAction(pick(o, 'callToAction', 'call_to_action', 'cta')) ?? '',
  };
}

/** A Performance Max template from any shape. */
export function restorePerformanceMaxTemplate(x: unknown): PerformanceMaxTemplate {
  const o = asObj(x);
  const templates = asArray(pick(o, 'templates', 'fallbacks')).map(restorePerformanceMaxFallback);
  return {
    ...optionalId(o),
    name: asText(o.name),
    templates: templates.length ? templates : [newPerformanceMaxFallback()],
  };
}

// ---------------------------------------------------------------------------------------------
// Legacy expanded text ads

/** An empty legacy ad fallback. */
export function newAdFallback(): AdFallback {
  return { h1: '', h2: '', h3: '', dl1: '', dl2: '', p1: '', p2: '', adType: '', label: '' };
}

/** A legacy ad fallback from any shape. */
export function restoreAdFallback(x: unknown): AdFallback {
  const o = asObj(x);
  return {
    h1: asText(o.h1),
    h2: asText(o.h2),
    h3: asText(o.h3),
    dl1: asText(o.dl1),
    dl2: asText(o.dl2),
    p1: asText(o.p1),
    p2: asText(o.p2),
    adType: asText(o.adType),
    label: asText(o.label),
  };
}

/** A legacy ad template from any shape; a flat list of fallbacks becomes one version. */
export function restoreAdTemplate(x: unknown): AdTemplate {
  const o = asObj(x);
  const raw = asArray(pick(o, 'templates', 'versions'));
  const versions = raw.some((v) => Array.isArray(v))
    ? raw.map((v) => asArray(v).map(restoreAdFallback))
    : raw.length
      ? [raw.map(restoreAdFallback)]
      : [];
  return {
    ...optionalId(o),
    name: asText(o.name),
    templates: versions.length ? versions : [[newAdFallback()]],
  };
}

// ---------------------------------------------------------------------------------------------
// Extensions

const EXTENSION_TYPE_BY_LOWER = new Map<string, ExtensionTypeName>(
  EXTENSION_TYPES.map((t) => [t.toLowerCase(), t]),
);

/** An extension type name in any case ('structured snippet', 'structuredSnippet'); undefined when unknown. */
export function findExtensionTypeName(x: unknown): ExtensionTypeName | undefined {
  const s = asText(x)
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return EXTENSION_TYPE_BY_LOWER.get(s) ?? (s === 'snippet' ? 'Structured Snippet' : undefined);
}

const ATTACH_LEVEL_BY_LOWER = new Map<string, ExtensionAttachLevel>(
  EXTENSION_ATTACH_LEVELS.map((l) => [l.toLowerCase(), l]),
);

/**
 * An attachment level in any case or spelling ('adGroup', 'ad group', 'ad_group', 'Account');
 * undefined when unknown.
 */
export function findExtensionAttachLevel(x: unknown): ExtensionAttachLevel | undefined {
  const s = asText(x)
    .trim()
    .replace(/[\s_-]+/g, '')
    .toLowerCase();
  return ATTACH_LEVEL_BY_LOWER.get(s);
}

function copyType(name: ExtensionTypeName): ExtensionType {
  const def = EXTENSION_TYPE_DEFINITIONS[name];
  return { name: def.name, fields: def.fields.map((f): ExtensionField => ({ ...f })) };
}

/** A new extension template of a type, with one fallback of empty values. */
export function newExtensionTemplate(name: string, type: ExtensionTypeName): ExtensionTemplate {
  const extensionType = copyType(type);
  const values: ExtensionValues = {};
  for (const f of extensionType.fields) values[f.title] = '';
  return { name, extensionType, attachTo: 'auto', templates: [values] };
}

/**
 * An extension template from any shape. The type may be a name or `{name|type, fields}`; a known
 * type always gets the spec's field definitions, an unknown one becomes Callout. A missing or
 * unknown `attachTo` is 'auto'.
 */
export function restoreExtensionTemplate(x: unknown): ExtensionTemplate {
  const o = asObj(x);
  const rawType = pick(o, 'extensionType', 'type');
  const typeName =
    findExtensionTypeName(
      typeof rawType === 'object' ? pick(asObj(rawType), 'name', 'type', 'typeName') : rawType,
    ) ?? 'Callout';
  const extensionType = copyType(typeName);
  const templates = asArray(pick(o, 'templates', 'fallbacks')).map((t) => {
    const src = asObj(t);
    const values: ExtensionValues = {};
    for (const f of extensionType.fields) values[f.title] = asText(src[f.title]);
    return values;
  });
  if (!templates.length) templates.push(newExtensionTemplate('', typeName).templates[0] ?? {});
  const attachTo = findExtensionAttachLevel(o.attachTo) ?? 'auto';
  return { ...optionalId(o), name: asText(o.name), extensionType, attachTo, templates };
}
