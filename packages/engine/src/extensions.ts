/**
 * Callout, sitelink and structured snippet assets from extension templates, each attached where
 * the template says: the account, a campaign or an ad group of the campaign template.
 */
import { ACCOUNT_LEVEL_CAMPAIGN, AssetPlaces } from './assetPlaces.ts';
import { CampaignRowMaker } from './campaignRows.ts';
import { findFinalUrlProblem } from './finalUrl.ts';
import { findEditorialProblems } from './editorial.ts';
import type { RowIssue } from './issues.ts';
import { cleanKeyword, cleanKeywordQuick } from './keywords.ts';
import { cleanName, fillRaw, foldName } from './names.ts';
import {
  SNIPPET_HEADERS,
  SNIPPET_MAX_VALUES,
  SNIPPET_MIN_VALUES,
  SNIPPET_VALUE_MAX_CHARS,
  type SnippetHeader,
} from './limits.ts';
import {
  compilePattern,
  countAdTextLength,
  fillPattern,
  NO_ROW_VALUES,
  usedSlots,
  type CompiledPattern,
  type PlaceholderName,
  type PlaceholderValues,
} from './text.ts';
import type {
  AssetLevel,
  CampaignTemplate,
  ExtensionTemplate,
  ExtensionTypeName,
  ExtensionValues,
  FeedRow,
  FeedRows,
  MatchType,
} from './types.ts';

/**
 * One generated asset: its type, field values (by field title) and place: `campaign` is
 * `<Account-level>` for an account-level asset, `adGroup` is empty unless it attaches to one.
 */
export interface GeneratedExtension {
  type: ExtensionTypeName;
  values: ExtensionValues;
  rowId: string;
  campaign: string;
  adGroup: string;
}

const HEADER_BY_LOWER = new Map<string, SnippetHeader>(
  SNIPPET_HEADERS.map((h) => [h.toLowerCase(), h]),
);

/** A snippet header in any case; undefined when not in the fixed list. */
export function findSnippetHeader(x: string): SnippetHeader | undefined {
  return HEADER_BY_LOWER.get(x.trim().toLowerCase());
}

/** Splits snippet values: separated by ';' or new lines, trimmed, empties dropped. */
export function splitSnippetValues(text: string): string[] {
  return text
    .split(/[;\n\r]+/)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export { ACCOUNT_LEVEL_CAMPAIGN };

/** A sitelink's description fields: both filled or both empty. */
const SITELINK_DESCRIPTIONS = ['Description Line 1', 'Description Line 2'] as const;

/** The sitelink description lines: they may carry one "!", as ad descriptions do. */
const LONG_ASSET_TEXTS: ReadonlySet<string> = new Set(SITELINK_DESCRIPTIONS);

/**
 * Why one text of an extension is not valid (`label` names it: a field title or 'Snippet value
 * "x"'), or undefined. Every text of every extension type is checked here.
 */
function findExtensionTextProblem(
  label: string,
  text: string,
  maxLength: number,
  isTextInLabel = false,
): string | undefined {
  const n = countAdTextLength(text);
  if (n === 0) return `${label} is empty`;
  const quoted = isTextInLabel ? '' : `: "${text}"`;
  if (maxLength > 0 && n > maxLength)
    return `${label} has ${n} characters (max ${maxLength})${quoted}`;
  // Google's editorial rules, as for ad texts; the short texts take no "!" (Google's callout
  // requirements name exclamation marks; link texts and snippet values are read the same way).
  const [problem] = findEditorialProblems(text, !LONG_ASSET_TEXTS.has(label));
  if (problem !== undefined) return `${label} ${problem.message}${quoted}`;
  return undefined;
}

/** Why one structured snippet value is not valid (1 to 25 characters, Google's editorial rules), or undefined. */
export function findSnippetValueProblem(value: string): string | undefined {
  return findExtensionTextProblem(`Snippet value "${value}"`, value, SNIPPET_VALUE_MAX_CHARS, true);
}

/**
 * Why an extension's values are not valid, or undefined when they are: every non-static field
 * 1..its limit (snippet values 3 to 10 of 1..25 each); a sitelink's two description lines both
 * filled or both empty and its final URL an http(s) address; a snippet header from Google's list.
 */
export function findExtensionProblem(
  template: ExtensionTemplate,
  values: ExtensionValues,
): string | undefined {
  const type = template.extensionType;
  const isSitelink = type.name === 'Sitelink';
  for (const f of type.fields) {
    if (f.isStatic) continue;
    const v = values[f.title] ?? '';
    if (type.name === 'Structured Snippet' && f.title === 'Snippet Values') {
      const list = splitSnippetValues(v);
      if (list.length < SNIPPET_MIN_VALUES || list.length > SNIPPET_MAX_VALUES) {
        return `Snippet Values needs ${SNIPPET_MIN_VALUES} to ${SNIPPET_MAX_VALUES} values, has ${list.length}`;
      }
      const seen = new Set<string>();
      for (const s of list) {
        const folded = s.toLowerCase();
        if (seen.has(folded))
          return `Snippet value "${s}" is repeated (Google takes each value once)`;
        seen.add(folded);
        const p = findSnippetValueProblem(s);
        if (p !== undefined) return p;
      }
      continue;
    }
    // Google takes a sitelink with no description lines; the pair is checked below.
    if (isSitelink && LONG_ASSET_TEXTS.has(f.title) && v.trim() === '') continue;
    const p = findExtensionTextProblem(f.title, v, f.maxLength);
    if (p !== undefined) return p;
  }
  if (isSitelink) {
    const [first, second] = SITELINK_DESCRIPTIONS.map((t) => (values[t] ?? '').trim() !== '');
    if (first !== second) {
      const [filled, empty] = first ? SITELINK_DESCRIPTIONS : [...SITELINK_DESCRIPTIONS].reverse();
      return `${empty} is empty while ${filled} is not: a sitelink has both description lines or neither`;
    }
    // Google needs a sitelink's final URL even though the field is static (filled from the row).
    const url = (values['Final URL'] ?? '').trim();
    if (url === '') return 'Final URL is empty (neither the template nor the row has one)';
    const p = findFinalUrlProblem(url);
    if (p !== undefined)
      return `Final URL "${url.length > 60 ? `${url.slice(0, 60)}...` : url}" ${p}`;
  }
  if (type.name === 'Structured Snippet' && findSnippetHeader(values.Header ?? '') === undefined) {
    return `Header "${values.Header ?? ''}" is not one of ${SNIPPET_HEADERS.join(', ')}`;
  }
  return undefined;
}

/** The fields of one extension fallback, compiled. */
export type CompiledExtensionFields = ReadonlyArray<{ title: string; pattern: CompiledPattern }>;

/** Compiles the fallbacks of an extension template. */
export function compileExtensionTemplate(template: ExtensionTemplate): CompiledExtensionFields[] {
  const fields = template.extensionType.fields;
  return template.templates.map((t) =>
    fields.map((f) => ({ title: f.title, pattern: compilePattern(t[f.title] ?? '') })),
  );
}

/**
 * The values of one fallback for one row: placeholders substituted, a sitelink's empty Final URL
 * taken from the row, the snippet header spelled as in the fixed list, values joined with '; '.
 */
export function fillExtensionValues(
  type: ExtensionTypeName,
  fields: CompiledExtensionFields,
  values: PlaceholderValues,
): ExtensionValues {
  const v: ExtensionValues = {};
  for (const f of fields) v[f.title] = fillPattern(f.pattern, values);
  if (type === 'Sitelink' && (v['Final URL'] ?? '') === '') v['Final URL'] = values.row.url.trim();
  if (type === 'Structured Snippet') {
    v.Header = findSnippetHeader(v.Header ?? '') ?? v.Header ?? '';
    v['Snippet Values'] = splitSnippetValues(v['Snippet Values'] ?? '').join('; ');
  }
  return v;
}

/** Where a template's assets attach for a campaign template, and why (shown to the person). */
export interface AttachLevelChoice {
  level: AssetLevel;
  reason: string;
}

const POSITIVE_MATCH_TYPES: readonly MatchType[] = ['Broad', 'Phrase', 'Exact'];

/** Whether a filled keyword pattern gives a keyword Google takes (after cleaning). */
function isKeyword(raw: string): boolean {
  return cleanKeywordQuick(raw) !== undefined || cleanKeyword(raw).ok;
}

function placeholderList(slots: readonly PlaceholderName[]): string {
  return slots.map((s) => `{${s}}`).join(' ');
}

/**
 * The level a template's assets attach at. 'auto' is the level its placeholders vary at: none
 * ({const} is one value) is the account; all of them in the campaign name pattern is each
 * campaign; any other (or `{mt}`) each ad group. A sitelink that takes its row's URL (an empty
 * Final URL) uses `{url}`. Performance Max campaigns have asset groups, not ad groups: their
 * assets attach to the campaign instead.
 */
export function resolveAttachLevel(
  template: ExtensionTemplate,
  campaign?: CampaignTemplate,
  compiled: readonly CompiledExtensionFields[] = compileExtensionTemplate(template),
): AttachLevelChoice {
  const isPerformance = campaign?.type === 'performance';
  const pmaxReason =
    'Performance Max campaigns have asset groups, not ad groups: each asset attaches to its campaign';
  switch (template.attachTo) {
    case 'account':
      return { level: 'account', reason: 'Every asset attaches to the account' };
    case 'campaign':
      return { level: 'campaign', reason: "Each asset attaches to its row's campaign" };
    case 'adGroup':
      return isPerformance
        ? { level: 'campaign', reason: pmaxReason }
        : { level: 'adGroup', reason: "Each asset attaches to its row's ad group" };
    case 'auto':
      break;
  }
  const used = usedSlots(compiled.flat().map((f) => f.pattern)).filter((s) => s !== 'const');
  const takesRowUrl =
    template.extensionType.name === 'Sitelink' &&
    template.templates.some((t) => (t['Final URL'] ?? '').trim() === '');
  if (takesRowUrl && !used.includes('url')) used.push('url');
  if (used.length === 0)
    return {
      level: 'account',
      reason: 'Automatic: the texts use no placeholder, so every asset attaches to the account',
    };
  const inCampaign = new Set(campaign ? compilePattern(campaign.campaign).slots : []);
  const outside = used.filter((s) => s === 'mt' || !inCampaign.has(s));
  const urlNote = takesRowUrl ? " (a sitelink without a Final URL takes its row's URL: {url})" : '';
  if (outside.length === 0)
    return {
      level: 'campaign',
      reason: `Automatic: ${placeholderList(used)} in the campaign name, so each asset attaches to its row's campaign${urlNote}`,
    };
  if (isPerformance) return { level: 'campaign', reason: `Automatic: ${pmaxReason}` };
  return {
    level: 'adGroup',
    reason: `Automatic: ${placeholderList(outside)} not in the campaign name, so each asset attaches to its row's ad group${urlNote}`,
  };
}

/** The first fallback valid for `values`, or the first fallback's problem. */
function chooseFallback(
  template: ExtensionTemplate,
  compiled: readonly CompiledExtensionFields[],
  values: PlaceholderValues,
): { values?: ExtensionValues; problem?: string } {
  let problem: string | undefined;
  for (const fields of compiled) {
    const v = fillExtensionValues(template.extensionType.name, fields, values);
    const p = findExtensionProblem(template, v);
    if (p === undefined) return { values: v };
    problem ??= p;
  }
  return problem === undefined ? {} : { problem };
}

/** Input of `generateExtensions`. */
export interface GenerateExtensionsInput {
  template: ExtensionTemplate;
  rows: FeedRows;
  /**
   * The campaign template whose campaigns and ad groups the assets attach to; its constant fills
   * `{const}`. Without it only account-level assets are made.
   */
  campaign?: CampaignTemplate;
}

/** What `generateExtensions` makes. */
export interface GeneratedExtensions {
  extensions: GeneratedExtension[];
  issues: RowIssue[];
  attach: AttachLevelChoice;
}

/**
 * Per row and place (the account, the row's campaign or each of its ad groups: see
 * `resolveAttachLevel`), the first fallback whose values are valid (`findExtensionProblem`),
 * placeholders substituted (`{const}` from the campaign template, `{mt}` the ad group's match
 * type). A sitelink's empty Final URL takes the row's URL; snippet headers are spelled as in the
 * fixed list and values joined with '; '. Identical assets of one place are emitted once; a place
 * takes at most 20 of the type and each link or callout text once (`AssetPlaces`: what is left
 * out is reported once per place); rows no fallback serves, and rows without a campaign or ad
 * group name, are reported.
 */
export function generateExtensions(input: GenerateExtensionsInput): GeneratedExtensions {
  const { template, rows, campaign } = input;
  const type = template.extensionType;
  const compiled = compileExtensionTemplate(template);
  const attach = resolveAttachLevel(template, campaign, compiled);
  const extensions: GeneratedExtension[] = [];
  const issues: RowIssue[] = [];
  const output = `${type.name.toLowerCase()} extensions`;
  const { level } = attach;
  if (level !== 'account' && campaign === undefined) {
    issues.push({
      kind: 'skipped',
      output,
      rowId: '',
      rowNumber: 0,
      code: 'no-campaign-template',
      message: `${attach.reason}, but no campaign template was given`,
    });
    return { extensions, issues, attach };
  }
  const campaignPattern = compilePattern(campaign?.campaign ?? '');
  const groupPattern = compilePattern(campaign?.adGroup ?? '');
  // The ad groups are the keyword generator's: one per row (per positive match type with {mt}),
  // made when a keyword pattern of its match type gives the row a keyword.
  const positives = (campaign?.keywords ?? [])
    .filter((k) => POSITIVE_MATCH_TYPES.includes(k.matchType) && k.keyword.trim() !== '')
    .map((k) => ({ matchType: k.matchType, pattern: compilePattern(k.keyword) }));
  const groupMatchTypes: readonly string[] =
    level === 'adGroup' && groupPattern.slots.includes('mt')
      ? POSITIVE_MATCH_TYPES.filter((mt) => positives.some((p) => p.matchType === mt))
      : [''];
  // Unless a text uses {mt}, a row's assets are the same for each of its ad groups: chosen once.
  const usesMt = compiled.some((fields) => fields.some((f) => f.pattern.slots.includes('mt')));
  // Without a row's value in any text (a sitelink without its own Final URL takes the row's), a
  // fallback's problem is the template's own: reported once, not for every row.
  const usesRow = compiled.some((fields) =>
    fields.some(
      (f) =>
        f.pattern.slots.some((s) => s !== 'const' && s !== 'mt') ||
        (type.name === 'Sitelink' && f.title === 'Final URL' && f.pattern.source.trim() === ''),
    ),
  );
  const templateProblems = new Set<string>();
  const seen = new Set<string>();
  // At most 20 of the type in a place, each link or callout text once (reported).
  const places = new AssetPlaces(type.name);
  // Names as the keyword generator writes them: cleaned, and one spelling per name that differs
  // only by case or Unicode form (the first row's), so assets land in the campaigns and ad
  // groups the keyword files make.
  const spellings = new Map<string, string>();
  const nameOf = (pattern: CompiledPattern, within: string): string | undefined => {
    const cleaned = cleanName(fillRaw(pattern, values));
    if (cleaned.isTooLong) return undefined;
    const key = `${within}\u001f${foldName(cleaned.name)}`;
    const first = spellings.get(key);
    if (first !== undefined) return first;
    spellings.set(key, cleaned.name);
    return cleaned.name;
  };
  const values: PlaceholderValues = { row: NO_ROW_VALUES, const: campaign?.const ?? '', mt: '' };
  // A row without a valid location makes no campaign (`CampaignRowMaker.read`): no asset either.
  const locations = campaign && level !== 'account' ? new CampaignRowMaker(campaign) : undefined;
  // Per row: which positive match types give it a keyword (its ad groups), '' for any.
  const keywordTypes = new Set<string>();
  for (let r = 0; r < rows.length; r++) {
    const row = rows.at(r) as FeedRow;
    const rowNumber = r + 1;
    const skip = (code: string, message: string): void => {
      issues.push({ kind: 'skipped', output, rowId: row.id, rowNumber, code, message });
    };
    values.row = row;
    values.mt = '';
    if (locations?.hasLocations && !locations.read(row, values)) {
      const problem = locations.problems.find((p) => p.kind === 'skipped');
      skip('no-valid-location', problem?.message ?? 'The row has no valid location');
      continue;
    }
    let campaignName = ACCOUNT_LEVEL_CAMPAIGN;
    if (level !== 'account') {
      const name = nameOf(campaignPattern, '');
      if (name === undefined || name === '') {
        skip(
          'empty-campaign',
          `Campaign name is ${name === undefined ? 'too long' : 'empty'} for this row: its assets have no campaign`,
        );
        continue;
      }
      campaignName = name;
    }
    if (level === 'adGroup') {
      keywordTypes.clear();
      for (const p of positives)
        if (!keywordTypes.has(p.matchType) && isKeyword(fillPattern(p.pattern, values))) {
          keywordTypes.add(p.matchType);
          keywordTypes.add('');
        }
    }
    let reported: string | undefined;
    let rowChoice: { values?: ExtensionValues; problem?: string } | undefined;
    for (const mt of groupMatchTypes) {
      let problem: string | undefined;
      let code = 'no-valid-fallback';
      let adGroup = '';
      values.mt = mt;
      if (level === 'adGroup') {
        const name = nameOf(groupPattern, campaignName);
        adGroup = name ?? '';
        if (name === undefined) {
          problem = 'Ad group name is too long for this row: its assets have no ad group';
          code = 'empty-ad-group';
        } else if (!keywordTypes.has(mt)) {
          problem = `The row has no ${mt === '' ? '' : `${mt} `}keyword, so no ad group for its assets`;
          code = 'no-ad-group';
        } else if (adGroup === '') {
          problem = 'Ad group name is empty for this row: its assets have no ad group';
          code = 'empty-ad-group';
        }
      }
      let chosen: ExtensionValues | undefined;
      if (problem === undefined) {
        if (usesMt || rowChoice === undefined)
          rowChoice = chooseFallback(template, compiled, values);
        chosen = rowChoice.values;
        problem = rowChoice.problem;
      }
      if (!chosen && !usesRow && code === 'no-valid-fallback') {
        const message = `The template's own text: ${problem ?? 'The template has no values'}`;
        if (!templateProblems.has(message)) {
          templateProblems.add(message);
          issues.push({ kind: 'skipped', output, rowId: '', rowNumber: 0, code, message });
        }
        continue;
      }
      if (!chosen) {
        const message = problem ?? 'The template has no values';
        // One report per row and reason, however many ad groups of the row it concerns.
        if (message !== reported) {
          skip(code, message);
          reported = message;
        }
        continue;
      }
      const key = `${campaignName}\u001f${adGroup}\u001f${type.fields.map((f) => chosen[f.title] ?? '').join('\u001f')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const made: GeneratedExtension = {
        type: type.name,
        values: chosen,
        rowId: row.id,
        campaign: campaignName,
        adGroup,
      };
      if (places.accept(made, rowNumber)) extensions.push(made);
    }
  }
  issues.push(...places.issues(output));
  return { extensions, issues, attach };
}
