/**
 * Microsoft Advertising's rules where they are not Google's: its limits, languages and snippet
 * headers, and the checks of a Google table's texts, URLs and locations against them (each with
 * the reason the report gives). Sources: docs/decisions.md, "Microsoft Advertising bulk file".
 * The bulk writer (microsoftBulk.ts) asks these of each row.
 */
import { normalizeHeader, parseItemStatus, type ItemStatus } from '../plan/kinds.ts';
import { countAdTextLength, isSpaceCode } from '../text.ts';
import { RSA_PATH_MAX_CHARS } from '../limits.ts';

/** The only bulk format version Microsoft supports (Bulk File Schema, "Format Versions"). */
export const MICROSOFT_FORMAT_VERSION = '6.0';

// Microsoft's limits where they are not Google's (docs/decisions.md gives each source).
/** Keyword and negative keyword text (Keyword record: "a maximum of 100 characters"). */
export const MICROSOFT_KEYWORD_MAX_CHARS = 100;
/** The final URL's domain with path 1 and path 2 (Responsive Search Ad record, Final Url). */
export const MICROSOFT_DOMAIN_AND_PATHS_MAX_CHARS = 67;
/** Final URLs (Responsive Search Ad record, Final Url). */
export const MICROSOFT_URL_MAX_CHARS = 2048;
/** Sitelink link text with descriptions; without them the limit is 35 (entity limits). */
export const MICROSOFT_SITELINK_TEXT_MAX_CHARS = 25;
export const MICROSOFT_SITELINK_TEXT_ALONE_MAX_CHARS = 35;
export const MICROSOFT_SITELINK_DESCRIPTION_MAX_CHARS = 35;
export const MICROSOFT_CALLOUT_MAX_CHARS = 25;
export const MICROSOFT_SNIPPET_VALUE_MAX_CHARS = 25;
/** Associations of one extension type per campaign or ad group (entity limits). */
export const MICROSOFT_EXTENSIONS_PER_ENTITY = 20;
/** Active responsive search ads per ad group (entity limits). */
export const MICROSOFT_ACTIVE_RSAS_PER_AD_GROUP = 3;
/** Keywords per ad group; negatives per ad group or campaign (entity limits). */
export const MICROSOFT_KEYWORDS_PER_AD_GROUP = 20_000;
export const MICROSOFT_NEGATIVES_PER_PARENT = 20_000;
/** Ad groups per campaign; campaigns per account (entity limits). */
export const MICROSOFT_AD_GROUPS_PER_CAMPAIGN = 20_000;
export const MICROSOFT_CAMPAIGNS_PER_ACCOUNT = 10_000;
/** Ad group and campaign names (entity limits: 256 characters). */
export const MICROSOFT_NAME_MAX_CHARS = 256;

/** Structured snippet headers Microsoft takes in English (ad languages, extension headers). */
const MICROSOFT_SNIPPET_HEADERS: ReadonlySet<string> = new Set(
  'Amenities,Brands,Classes,Courses,Daily rates,Deals,Degree programs,Departments,Destinations,Featured hotels,Goods,Grades,Highlights,Insurance coverage,Items,Languages,Locations,Models,Neighborhoods,Prices,Rates,Ratings,School districts,Service catalog,Services,Shows,Sizes,Styles,Tools,Topics,Types,Vacations,Vehicles,What,Who,Why'
    .split(',')
    .map((h) => h.toLowerCase()),
);
const SNIPPET_HEADER_SPELLING: ReadonlyMap<string, string> = new Map(
  'Amenities,Brands,Classes,Courses,Daily rates,Deals,Degree programs,Departments,Destinations,Featured hotels,Goods,Grades,Highlights,Insurance coverage,Items,Languages,Locations,Models,Neighborhoods,Prices,Rates,Ratings,School districts,Service catalog,Services,Shows,Sizes,Styles,Tools,Topics,Types,Vacations,Vehicles,What,Who,Why'
    .split(',')
    .map((h) => [h.toLowerCase(), h]),
);

/** Microsoft's campaign languages for Search, by their name and Google's language codes. */
const MICROSOFT_LANGUAGES: ReadonlyMap<string, string> = (() => {
  const byCode: [string, string][] = [
    ['bg', 'Bulgarian'],
    ['hr', 'Croatian'],
    ['cs', 'Czech'],
    ['da', 'Danish'],
    ['nl', 'Dutch'],
    ['en', 'English'],
    ['et', 'Estonian'],
    ['fi', 'Finnish'],
    ['fr', 'French'],
    ['de', 'German'],
    ['el', 'Greek'],
    ['hu', 'Hungarian'],
    ['it', 'Italian'],
    ['lv', 'Latvian'],
    ['lt', 'Lithuanian'],
    ['mt', 'Maltese'],
    ['no', 'Norwegian'],
    ['nb', 'Norwegian'],
    ['pl', 'Polish'],
    ['pt', 'Portuguese'],
    ['ro', 'Romanian'],
    ['sk', 'Slovak'],
    ['sl', 'Slovenian'],
    ['es', 'Spanish'],
    ['sv', 'Swedish'],
    ['zh-tw', 'TraditionalChinese'],
    ['zh_tw', 'TraditionalChinese'],
  ];
  const m = new Map<string, string>();
  for (const [code, name] of byCode) {
    m.set(code, name);
    m.set(name.toLowerCase(), name);
  }
  m.set('traditional chinese', 'TraditionalChinese');
  m.set('chinese (traditional)', 'TraditionalChinese');
  m.set('all', 'All');
  return m;
})();

/** Editor's negative criterion types: where the negative is, and its match type. */
export const NEGATIVE_TYPES: ReadonlyMap<string, { onCampaign: boolean; match: string }> = new Map(
  ['Broad', 'Phrase', 'Exact'].flatMap(
    (match): [string, { onCampaign: boolean; match: string }][] => [
      [`Negative ${match}`, { onCampaign: false, match }],
      [`Campaign Negative ${match}`, { onCampaign: true, match }],
    ],
  ),
);

/** Microsoft's status for a build's status; Removed has no add (a delete needs Microsoft's Id). */
function microsoftStatus(status: ItemStatus): 'Active' | 'Paused' | undefined {
  return status === 'Enabled' ? 'Active' : status === 'Paused' ? 'Paused' : undefined;
}

/** A row's Microsoft status from its status column (Active without one). */
export function statusOf(row: readonly string[], at: number): 'Active' | 'Paused' | undefined {
  if (at < 0) return 'Active';
  const value = row[at];
  return value === undefined || value === '' || value === 'Enabled'
    ? 'Active'
    : microsoftStatus(parseItemStatus(value));
}

/** The index of a column in a table (headers compared as Editor compares them), -1 if none. */
export function columnOf(headers: readonly string[], ...names: string[]): number {
  const wanted = names.map(normalizeHeader);
  return headers.findIndex((h) => wanted.includes(normalizeHeader(h)));
}

/** A row's cell at column `at` ('' for none: -1, or past the row's end). */
export const cell = (row: readonly string[], at: number): string => (at < 0 ? '' : (row[at] ?? ''));

/** The width Microsoft counts: code points, East Asian wide characters and emoji as 2. */
export const widthOf = (text: string): number => countAdTextLength(text);

/** Google-only dynamic insertions Microsoft does not read ({CUSTOMIZER.…}, {LOCATION(…)}, …). */
export const GOOGLE_ONLY_INSERTION =
  /\{\s*(?:CUSTOMIZER\.|LOCATION\(|COUNTDOWN\(|GLOBAL_COUNTDOWN\()/i;

/**
 * The host of an http or https URL ('' when the URL is neither or has none): what
 * `/^https?:\/\/([^/?#\s]*)/i` captures, told by character codes (a regular expression per ad
 * was a twentieth of the ads' time).
 */
export function hostOf(url: string): string {
  const n = url.length;
  if (n < 8) return '';
  // 'http', then an optional 's' (letters of either case), then '://'.
  if (
    (url.charCodeAt(0) | 0x20) !== 0x68 ||
    (url.charCodeAt(1) | 0x20) !== 0x74 ||
    (url.charCodeAt(2) | 0x20) !== 0x74 ||
    (url.charCodeAt(3) | 0x20) !== 0x70
  )
    return '';
  let i = (url.charCodeAt(4) | 0x20) === 0x73 ? 5 : 4;
  if (
    url.charCodeAt(i) !== 0x3a ||
    url.charCodeAt(i + 1) !== 0x2f ||
    url.charCodeAt(i + 2) !== 0x2f
  )
    return '';
  i += 3;
  const from = i;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23 || isSpaceCode(c)) break;
  }
  return url.slice(from, i);
}

function isHttpUrl(url: string): boolean {
  return hostOf(url) !== '';
}

/** The ids of a Location ID cell (`;`, `,` or line breaks between them). */
export function locationIdsOf(value: string): string[] {
  const ids: string[] = [];
  for (const part of value.split(/[;,\r\n]/)) {
    const id = part.trim();
    if (id !== '' && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The Microsoft languages of a Google Languages cell, and the ones Microsoft has no name for. */
export function languagesOf(value: string): { names: string[]; unknown: string[] } {
  const names: string[] = [];
  const unknown: string[] = [];
  for (const part of value.split(/[;,]/)) {
    const v = part.trim();
    if (v === '') continue;
    const name = MICROSOFT_LANGUAGES.get(v.toLowerCase());
    if (name === undefined) unknown.push(v);
    else if (!names.includes(name)) names.push(name);
  }
  return { names, unknown };
}

/** A position cell as a number (0 for none). */
export function pinOf(value: string): number {
  return value === '' ? 0 : Number(value) || 0;
}

/** What is wrong with a path for Microsoft, or undefined. */
export function pathProblem(p: string, width: number): string | undefined {
  if (p.includes('/') || p.includes('\n') || p.includes('\r'))
    return `path "${p}" holds a slash or a line break`;
  if (width > RSA_PATH_MAX_CHARS)
    return `path "${p}" is longer than Microsoft's ${RSA_PATH_MAX_CHARS}`;
  return undefined;
}

/** An extension row's bulk cells, the text that names it, its identity, or its problem. */
export function extensionCells(
  kind: 'sitelinks' | 'callouts' | 'structured-snippets',
  row: readonly string[],
  at: Record<string, number>,
): { columns: [string, string][]; item: string; key: string; problem?: string } {
  if (kind === 'sitelinks') {
    const text = cell(row, at.linkText!);
    const d1 = cell(row, at.d1!);
    const d2 = cell(row, at.d2!);
    const url = cell(row, at.url!);
    const columns: [string, string][] = [
      ['Sitelink Extension Link Text', text],
      ['Sitelink Extension Description1', d1],
      ['Sitelink Extension Description2', d2],
      ['Final Url', url],
    ];
    const out = { columns, item: text, key: `${text}\u0000${d1}\u0000${d2}\u0000${url}` };
    const textMax =
      d1 === '' && d2 === ''
        ? MICROSOFT_SITELINK_TEXT_ALONE_MAX_CHARS
        : MICROSOFT_SITELINK_TEXT_MAX_CHARS;
    if (text === '') return { ...out, problem: 'a sitelink needs link text' };
    if (widthOf(text) > textMax)
      return { ...out, problem: `link text longer than Microsoft's ${textMax}` };
    if ((d1 === '') !== (d2 === ''))
      return { ...out, problem: 'a sitelink takes both description lines or neither' };
    for (const d of [d1, d2])
      if (widthOf(d) > MICROSOFT_SITELINK_DESCRIPTION_MAX_CHARS)
        return {
          ...out,
          problem: `description "${d}" longer than Microsoft's ${MICROSOFT_SITELINK_DESCRIPTION_MAX_CHARS}`,
        };
    if (!isHttpUrl(url))
      return { ...out, problem: 'Microsoft needs a final URL starting with http:// or https://' };
    return out;
  }
  if (kind === 'callouts') {
    const text = cell(row, at.callout!);
    const out = { columns: [['Callout Text', text]] as [string, string][], item: text, key: text };
    if (text === '') return { ...out, problem: 'a callout needs text' };
    if (widthOf(text) > MICROSOFT_CALLOUT_MAX_CHARS)
      return { ...out, problem: `longer than Microsoft's ${MICROSOFT_CALLOUT_MAX_CHARS}` };
    return out;
  }
  const header = cell(row, at.header!).trim();
  const values = cell(row, at.values!)
    .split(';')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const spelled = SNIPPET_HEADER_SPELLING.get(header.toLowerCase()) ?? header;
  const joined = values.join(';');
  const out = {
    columns: [
      ['Structured Snippet Header', spelled],
      ['Structured Snippet Values', joined],
    ] as [string, string][],
    item: `${header}: ${joined}`,
    key: `${spelled}\u0000${joined}`,
  };
  if (!MICROSOFT_SNIPPET_HEADERS.has(header.toLowerCase()))
    return { ...out, problem: `Microsoft has no snippet header "${header}"` };
  if (values.length === 0) return { ...out, problem: 'a structured snippet needs values' };
  for (const v of values)
    if (widthOf(v) > MICROSOFT_SNIPPET_VALUE_MAX_CHARS)
      return {
        ...out,
        problem: `value "${v}" longer than Microsoft's ${MICROSOFT_SNIPPET_VALUE_MAX_CHARS}`,
      };
  return out;
}
