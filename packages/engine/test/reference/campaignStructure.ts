/**
 * The straightforward campaign structure routine and keyword CSV writer: a test-only oracle. The
 * engine's streaming path (src/keywordsCsv.ts) is checked against it on randomized feeds and
 * templates, so the fast path is compared with an independent implementation of the same rules.
 * Not part of the build nor of the package's exports.
 */
import { DEFAULT_CHUNK_LINES, formatCsvCell, type FormatCsvOptions } from '../../src/csv.ts';
import {
  compileCampaignRow,
  GeneratedAdGroup,
  GeneratedAssetGroup,
} from '../../src/campaignRows.ts';
import {
  newCampaignStructure,
  type CampaignStructure,
  type GenerateCampaignStructureInput,
} from '../../src/campaign.ts';
import { cleanFilledKeyword, type KeywordIssueReporter } from '../../src/keywords.ts';
import {
  compilePattern,
  fillPattern,
  type CompiledPattern,
  type PlaceholderValues,
} from '../../src/text.ts';
import type { FeedRow, KeywordLine, MatchType } from '../../src/types.ts';

const POSITIVE: ReadonlySet<MatchType> = new Set(['Broad', 'Phrase', 'Exact']);

interface CompiledKeyword {
  pattern: CompiledPattern;
  matchType: MatchType;
}

/** One group: its (keyword, match type) lines, whether it is listed, and its negatives. */
interface GroupEntry {
  lines: Set<string>;
  isListed: boolean;
  negatives: Set<string>;
}

const lineKey = (keyword: string, matchType: MatchType): string => `${matchType}\u001f${keyword}`;

/** `generateCampaignStructure` the plain way: maps of groups and sets of lines. */
export function generateCampaignStructureReference(
  input: GenerateCampaignStructureInput,
): CampaignStructure {
  const out = newCampaignStructure();
  const { template, rows } = input;
  const isPerformance = template.type === 'performance';
  const campaignPattern = compilePattern(template.campaign);
  const groupPattern = compilePattern(isPerformance ? template.assetGroup : template.adGroup);
  const splitsByMatchType = groupPattern.slots.includes('mt');
  const positives: CompiledKeyword[] = [];
  const negativePatterns: CompiledKeyword[] = [];
  for (const k of template.keywords) {
    if (k.selected === false || k.keyword.trim() === '') continue;
    const ck = { pattern: compilePattern(k.keyword), matchType: k.matchType };
    (POSITIVE.has(k.matchType) ? positives : negativePatterns).push(ck);
  }
  const makeCampaignRow = compileCampaignRow(template);
  const campaignsSeen = new Set<string>();
  const reported = new Set<string>();
  const groups = new Map<string, Map<string, GroupEntry>>();
  const pendingExactNegatives: Array<[campaign: string, group: string, keyword: string]> = [];

  // Two patterns can yield the same raw keyword: each problem of a row is reported once.
  const issue: KeywordIssueReporter = (kind, row, rowNumber, code, message) => {
    const key = JSON.stringify([rowNumber, code, message]);
    if (!reported.has(key)) {
      reported.add(key);
      out.issues.push({ kind, output: 'keywords', rowId: row.id, rowNumber, code, message });
    }
  };

  /** The entry of a group; `row` lists it in the output (first row wins). */
  const findGroup = (
    campaign: string,
    group: string,
    row: FeedRow | undefined,
  ): GroupEntry | undefined => {
    let byName = groups.get(campaign);
    if (!byName) {
      if (!row && group !== '') return undefined;
      groups.set(campaign, (byName = new Map()));
    }
    let entry = byName.get(group);
    if (!entry) {
      if (!row && group !== '') return undefined;
      entry = { lines: new Set(), isListed: false, negatives: new Set() };
      byName.set(group, entry);
    }
    if (row && !entry.isListed && group !== '') {
      entry.isListed = true;
      if (isPerformance) out.assetGroups.push(new GeneratedAssetGroup(campaign, group, row.id));
      else out.adGroups.push(new GeneratedAdGroup(campaign, group, row.id));
    }
    return entry;
  };
  const addNegative = (
    entry: GroupEntry,
    campaign: string,
    adGroup: string,
    keyword: string,
    matchType: MatchType,
  ): void => {
    const key = lineKey(keyword, matchType);
    if (entry.negatives.has(key)) return;
    entry.negatives.add(key);
    out.negatives.push({ campaign, adGroup, keyword, matchType });
  };

  rows.forEach((row, r) => {
    const rowNumber = r + 1;
    const values: PlaceholderValues = { row, const: template.const, mt: '' };
    const campaign = fillPattern(campaignPattern, values);
    if (campaign === '') {
      issue('skipped', row, rowNumber, 'empty-campaign', 'Campaign name is empty for this row');
      return;
    }
    if (!campaignsSeen.has(campaign)) {
      campaignsSeen.add(campaign);
      out.campaigns.push(makeCampaignRow(campaign, row, values));
    }
    if (isPerformance) {
      const group = fillPattern(groupPattern, values);
      if (group === '')
        issue(
          'skipped',
          row,
          rowNumber,
          'empty-asset-group',
          'Asset group name is empty for this row',
        );
      else findGroup(campaign, group, row);
      return;
    }
    const groupOf = (mt: MatchType): string =>
      fillPattern(groupPattern, { row, const: template.const, mt });
    const sharedGroup = splitsByMatchType ? '' : fillPattern(groupPattern, values);
    if (!splitsByMatchType && sharedGroup === '') {
      issue('skipped', row, rowNumber, 'empty-ad-group', 'Ad group name is empty for this row');
      return;
    }
    const groupsOfRow: string[] = [];
    for (const k of positives) {
      const group = splitsByMatchType ? groupOf(k.matchType) : sharedGroup;
      if (group === '') continue;
      const raw = fillPattern(k.pattern, values);
      const keyword = cleanFilledKeyword(raw, k.pattern.source, issue, row, rowNumber);
      if (keyword === undefined) continue;
      const entry = findGroup(campaign, group, row) as GroupEntry;
      if (!groupsOfRow.includes(group)) groupsOfRow.push(group);
      const key = lineKey(keyword, k.matchType);
      if (entry.lines.has(key)) continue;
      entry.lines.add(key);
      out.keywords.push({ campaign, adGroup: group, keyword, matchType: k.matchType });
      if (splitsByMatchType && k.matchType === 'Exact')
        pendingExactNegatives.push([campaign, groupOf('Broad'), keyword]);
    }
    for (const k of negativePatterns) {
      const raw = fillPattern(k.pattern, values);
      const keyword = cleanFilledKeyword(raw, k.pattern.source, issue, row, rowNumber, true);
      if (keyword === undefined) continue;
      for (const group of groupsOfRow.length ? groupsOfRow : ['']) {
        const entry = findGroup(campaign, group, undefined) as GroupEntry;
        addNegative(entry, campaign, group, keyword, k.matchType);
      }
    }
  });

  // An Exact keyword becomes a Negative Exact in the ad group whose {mt} is Broad (when it exists).
  for (const [campaign, group, keyword] of pendingExactNegatives) {
    const entry = groups.get(campaign)?.get(group);
    if (entry?.isListed) addNegative(entry, campaign, group, keyword, 'Negative Exact');
  }
  return out;
}

/**
 * Keywords or negatives as Editor CSV chunks the way the streaming path chunks them (the header
 * is not counted as a line).
 */
export function* formatKeywordsCsvReference(
  lines: readonly KeywordLine[],
  options: FormatCsvOptions = {},
): Generator<string> {
  const neutralise = options.neutraliseFormulas ?? false;
  const nl = options.newline ?? '\r\n';
  const chunkLines = options.chunkLines ?? DEFAULT_CHUNK_LINES;
  let chunk = `Campaign,Ad Group,Keyword,Criterion Type${nl}`;
  let n = 0;
  for (const l of lines) {
    const type =
      l.adGroup === '' && l.matchType.startsWith('Negative')
        ? `Campaign ${l.matchType}`
        : l.matchType;
    chunk += [l.campaign, l.adGroup, l.keyword].map((c) => formatCsvCell(c, neutralise)).join(',');
    chunk += `,${formatCsvCell(type)}${nl}`;
    if (++n === chunkLines) {
      yield chunk;
      chunk = '';
      n = 0;
    }
  }
  if (chunk) yield chunk;
}
