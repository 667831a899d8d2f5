/**
 * The straightforward campaign structure routine and keyword CSV writer: a test-only oracle. The
 * engine's streaming path (src/keywordsCsv.ts) is checked against it on randomized feeds and
 * templates, so the fast path is compared with an independent implementation of the same rules.
 * It shares only the rules of one text or row (`cleanFilledKeyword`, `cleanName`, `fillRaw`, the
 * locations' `CampaignRowMaker`) with the engine. Not part of the build nor of the package's exports.
 */
import { DEFAULT_CHUNK_LINES, formatCsvCell, type FormatCsvOptions } from '../../src/csv.ts';
import {
  CampaignRowMaker,
  type CampaignRow,
  GeneratedAdGroup,
  GeneratedAssetGroup,
} from '../../src/campaignRows.ts';
import {
  newCampaignStructure,
  type CampaignStructure,
  type GenerateCampaignStructureInput,
} from '../../src/campaign.ts';
import {
  cleanFilledKeyword,
  resolveKeywordNotation,
  type KeywordIssueReporter,
} from '../../src/keywords.ts';
import { NAME_MAX_CHARS } from '../../src/limits.ts';
import { cleanName, fillRaw } from '../../src/names.ts';
import { compilePattern, type CompiledPattern, type PlaceholderValues } from '../../src/text.ts';
import type { FeedRow, KeywordLine, MatchType } from '../../src/types.ts';

const POSITIVE: ReadonlySet<MatchType> = new Set(['Broad', 'Phrase', 'Exact']);

interface CompiledKeyword {
  pattern: CompiledPattern;
  matchType: MatchType;
}

/** A keyword line of a group and the row that first made it. */
interface GroupLine {
  keyword: string;
  matchType: MatchType;
  row: number;
}

/** One group: its first spelling and row, its lines and its negatives. */
interface GroupEntry {
  name: string;
  /** Index of the row that made it (-1: the campaign's entry for campaign negatives). */
  row: number;
  lines: Map<string, GroupLine>;
  negatives: Set<string>;
}

interface CampaignEntry {
  name: string;
  row: number;
  groups: Map<string, GroupEntry>;
  made: CampaignRow;
  /**
   * Per keyword line (match type and text) the group that first has it, its row, and whether its
   * conflict is reported (once per campaign).
   */
  firstGroups: Map<string, { entry: GroupEntry; row: number; isReported: boolean }>;
}

/** A negative made from a template pattern, with the row that made it. */
interface TemplateNegative {
  line: KeywordLine;
  entry: GroupEntry;
  row: number;
}

const lineKey = (keyword: string, matchType: MatchType): string => `${matchType}\u001f${keyword}`;
const fold = (name: string): string => name.toLowerCase();

/** `generateCampaignStructure` the plain way: maps of groups and sets of lines. */
export function generateCampaignStructureReference(
  input: GenerateCampaignStructureInput,
): CampaignStructure {
  const out = newCampaignStructure();
  // A performance template makes no keyword lines: its keywords are not read.
  const resolved =
    input.template.type === 'performance'
      ? { template: input.template, issues: [] }
      : resolveKeywordNotation(input.template);
  out.issues.push(...resolved.issues);
  const { template } = resolved;
  // The plain way reads the rows as an array.
  const rows: FeedRow[] = Array.from({ length: input.rows.length }, (_, i) => input.rows.at(i)!);
  const isPerformance = template.type === 'performance';
  const campaignPattern = compilePattern(template.campaign);
  const groupPattern = compilePattern(isPerformance ? template.assetGroup : template.adGroup);
  const splitsByMatchType = groupPattern.slots.includes('mt');
  const positives: CompiledKeyword[] = [];
  const negativePatterns: CompiledKeyword[] = [];
  // Every keyword line counts, whatever its `selected` (the keyword table's selection).
  for (const k of template.keywords) {
    if (k.keyword.trim() === '') continue;
    const ck = { pattern: compilePattern(k.keyword), matchType: k.matchType };
    (POSITIVE.has(k.matchType) ? positives : negativePatterns).push(ck);
  }
  const campaignRows = new CampaignRowMaker(template);
  const reported = new Set<string>();
  const campaigns = new Map<string, CampaignEntry>();
  const templateNegatives: TemplateNegative[] = [];
  const exactNegatives: KeywordLine[] = [];
  const pendingExactNegatives: Array<[campaign: CampaignEntry, group: string, keyword: string]> =
    [];
  const groupWord = isPerformance ? 'asset group' : 'ad group';
  const groupCode = isPerformance ? 'asset-group' : 'ad-group';

  // Two patterns can yield the same raw keyword: each problem of a row is reported once.
  const issue: KeywordIssueReporter = (kind, row, rowNumber, code, message) => {
    const key = JSON.stringify([rowNumber, code, message]);
    if (!reported.has(key)) {
      reported.add(key);
      out.issues.push({ kind, output: 'keywords', rowId: row.id, rowNumber, code, message });
    }
  };

  /** A name filled for the row, cleaned; undefined (reported when `report`) when unusable. */
  const nameFor = (
    pattern: CompiledPattern,
    values: PlaceholderValues,
    what: 'Campaign' | 'Ad group' | 'Asset group',
    code: string,
    row: FeedRow,
    rowNumber: number,
    report: boolean,
  ): string | undefined => {
    const c = cleanName(fillRaw(pattern, values));
    if (c.name === '') {
      if (report)
        issue('skipped', row, rowNumber, `empty-${code}`, `${what} name is empty for this row`);
      return undefined;
    }
    if (c.isTooLong) {
      if (report)
        issue(
          'skipped',
          row,
          rowNumber,
          `${code}-name-too-long`,
          `${what} name is longer than ${NAME_MAX_CHARS} characters (Google takes names under 255): "${c.name.slice(0, 40)}…"`,
        );
      return undefined;
    }
    if (c.change && report)
      issue(
        'cleaned',
        row,
        rowNumber,
        `${code}-name-cleaned`,
        `${what} name "${c.name}": ${c.change}`,
      );
    return c.name;
  };

  /** The entry of a group made (and listed) by row `r`, reporting a merge into another row's. */
  const useGroup = (
    campaign: CampaignEntry,
    group: string,
    r: number,
    merged: { done: boolean },
  ): GroupEntry => {
    const key = fold(group);
    let entry = campaign.groups.get(key);
    if (!entry) {
      entry = { name: group, row: r, lines: new Map(), negatives: new Set() };
      campaign.groups.set(key, entry);
      const id = (rows[r] as FeedRow).id;
      if (isPerformance) out.assetGroups.push(new GeneratedAssetGroup(campaign.name, group, id));
      else out.adGroups.push(new GeneratedAdGroup(campaign.name, group, id));
    } else if (entry.row !== r && !merged.done) {
      merged.done = true;
      const row = rows[r] as FeedRow;
      const first = rows[entry.row] as FeedRow;
      const n = entry.row + 1;
      if (group !== entry.name)
        issue(
          'cleaned',
          row,
          r + 1,
          `${groupCode}-name-variant`,
          `${isPerformance ? 'Asset' : 'Ad'} group "${group}" is written "${entry.name}" as in row ${n}: names that differ only by case or Unicode form are one ${groupWord}, made from row ${n}`,
        );
      else if (
        row.root === first.root &&
        row.mod === first.mod &&
        row.var1 === first.var1 &&
        row.var2 === first.var2 &&
        row.var3 === first.var3 &&
        row.url === first.url
      )
        issue(
          'warning',
          row,
          r + 1,
          'duplicate-row',
          `Same as row ${n}: merged into its ${groupWord} "${entry.name}"`,
        );
      else
        issue(
          'warning',
          row,
          r + 1,
          'merged-row',
          `Merged into the ${groupWord} "${entry.name}" of row ${n}: it is made from row ${n}, so this row's final URL and ad texts are not used`,
        );
    }
    return entry;
  };

  rows.forEach((row, r) => {
    const rowNumber = r + 1;
    const values: PlaceholderValues = { row, const: template.const, mt: '' };
    // The location rule is shared with the engine (one rule of one row, as the names' are).
    const isLocated = campaignRows.read(row, values);
    for (const p of campaignRows.problems) issue(p.kind, row, rowNumber, p.code, p.message);
    if (!isLocated) return;
    const campaignName = nameFor(
      campaignPattern,
      values,
      'Campaign',
      'campaign',
      row,
      rowNumber,
      true,
    );
    if (campaignName === undefined) return;
    const campaignKey = fold(campaignName);
    let campaign = campaigns.get(campaignKey);
    if (!campaign) {
      const made = campaignRows.make(campaignName, row, values);
      campaign = { name: campaignName, row: r, groups: new Map(), made, firstGroups: new Map() };
      campaigns.set(campaignKey, campaign);
      out.campaigns.push(made);
    } else campaignRows.add(campaign.made);
    if (campaign.name !== campaignName)
      issue(
        'cleaned',
        row,
        rowNumber,
        'campaign-name-variant',
        `Campaign "${campaignName}" is written "${campaign.name}" as in row ${campaign.row + 1}: names that differ only by case or Unicode form are one campaign`,
      );
    const merged = { done: false };
    if (isPerformance) {
      const group = nameFor(
        groupPattern,
        values,
        'Asset group',
        'asset-group',
        row,
        rowNumber,
        true,
      );
      if (group !== undefined) useGroup(campaign, group, r, merged);
      return;
    }
    const groupOf = (mt: MatchType, report: boolean): string | undefined =>
      nameFor(
        groupPattern,
        { row, const: template.const, mt },
        'Ad group',
        'ad-group',
        row,
        rowNumber,
        report,
      );
    if (!splitsByMatchType && groupOf('Broad', true) === undefined) return;
    const groupsOfRow: GroupEntry[] = [];
    for (const k of positives) {
      const group = groupOf(splitsByMatchType ? k.matchType : 'Broad', true);
      if (group === undefined) continue;
      const raw = fillRaw(k.pattern, values);
      const keyword = cleanFilledKeyword(
        raw,
        k.pattern.source,
        issue,
        row,
        rowNumber,
        false,
        k.matchType,
      );
      if (keyword === undefined) continue;
      const entry = useGroup(campaign, group, r, merged);
      if (!groupsOfRow.includes(entry)) groupsOfRow.push(entry);
      const key = lineKey(keyword, k.matchType);
      if (entry.lines.has(key)) continue;
      const first = campaign.firstGroups.get(key);
      if (first === undefined) campaign.firstGroups.set(key, { entry, row: r, isReported: false });
      else if (template.settings.keepKeywordInFirstAdGroup) {
        issue(
          'skipped',
          row,
          rowNumber,
          'keyword-conflict-dropped',
          `Keyword "${keyword}" (${k.matchType}) is not written to ad group "${entry.name}": it is kept only in ad group "${first.entry.name}" of campaign "${campaign.name}" (row ${first.row + 1}), the first that has it`,
        );
        continue;
      } else if (!first.isReported) {
        first.isReported = true;
        issue(
          'warning',
          row,
          rowNumber,
          'keyword-conflict',
          `Keyword "${keyword}" (${k.matchType}) of ad group "${entry.name}" is also in ad group "${first.entry.name}" of campaign "${campaign.name}" (row ${first.row + 1}): ad groups of one campaign with the same keyword compete for the same searches (later ones are not listed)`,
        );
      }
      entry.lines.set(key, { keyword, matchType: k.matchType, row: r });
      out.keywords.push({
        campaign: campaign.name,
        adGroup: entry.name,
        keyword,
        matchType: k.matchType,
      });
      if (splitsByMatchType && k.matchType === 'Exact') {
        const broad = groupOf('Broad', false);
        if (broad !== undefined) pendingExactNegatives.push([campaign, broad, keyword]);
      }
    }
    if (negativePatterns.length === 0) return;
    if (groupsOfRow.length === 0 && positives.length > 0) {
      issue(
        'skipped',
        row,
        rowNumber,
        'negatives-not-written',
        "This row makes no keyword, so its negatives are not written (as campaign negatives they would block the campaign's other keywords)",
      );
      return;
    }
    for (const k of negativePatterns) {
      const raw = fillRaw(k.pattern, values);
      const keyword = cleanFilledKeyword(
        raw,
        k.pattern.source,
        issue,
        row,
        rowNumber,
        true,
        k.matchType,
      );
      if (keyword === undefined) continue;
      let targets = groupsOfRow;
      if (targets.length === 0) {
        // A template without positive keywords: its negatives are campaign negatives.
        let entry = campaign.groups.get('\u0000');
        if (!entry) {
          entry = { name: '', row: -1, lines: new Map(), negatives: new Set() };
          campaign.groups.set('\u0000', entry);
          issue(
            'warning',
            row,
            rowNumber,
            'campaign-negatives',
            `Negatives go to campaign "${campaign.name}" as campaign negatives: the template has no positive keyword, so there is no ad group for them`,
          );
        }
        targets = [entry];
      }
      for (const entry of targets) {
        const key = lineKey(keyword, k.matchType);
        if (entry.negatives.has(key)) continue;
        entry.negatives.add(key);
        templateNegatives.push({
          line: { campaign: campaign.name, adGroup: entry.name, keyword, matchType: k.matchType },
          entry,
          row: r,
        });
      }
    }
  });

  // An Exact keyword becomes a Negative Exact in the ad group whose {mt} is Broad (when it exists).
  for (const [campaign, group, keyword] of pendingExactNegatives) {
    const entry = campaign.groups.get(fold(group));
    if (!entry) continue;
    const key = lineKey(keyword, 'Negative Exact');
    if (entry.negatives.has(key)) continue;
    entry.negatives.add(key);
    exactNegatives.push({
      campaign: campaign.name,
      adGroup: entry.name,
      keyword,
      matchType: 'Negative Exact',
    });
  }

  // Template negatives that block a keyword of their own group.
  const drop = template.settings.dropBlockingNegatives;
  const kept: KeywordLine[] = [];
  for (const n of templateNegatives) {
    const negativeWords = n.line.keyword.split(' ');
    let isDropped = false;
    for (const l of n.entry.lines.values()) {
      const keywordWords = l.keyword.split(' ');
      const blocks =
        n.line.matchType === 'Negative Exact'
          ? l.matchType === 'Exact' && l.keyword === n.line.keyword
          : n.line.matchType === 'Negative Phrase'
            ? keywordWords.some((_, at) =>
                negativeWords.every((w, k) => keywordWords[at + k] === w),
              )
            : negativeWords.every((w) => keywordWords.includes(w));
      if (!blocks) continue;
      if (drop) {
        issue(
          'skipped',
          rows[n.row] as FeedRow,
          n.row + 1,
          'blocking-negative-dropped',
          `${n.line.matchType} "${n.line.keyword}" of ad group "${n.entry.name}" is not written: it blocks the group's keyword "${l.keyword}" (${l.matchType}, row ${l.row + 1})`,
        );
        isDropped = true;
        break;
      }
      issue(
        'warning',
        rows[l.row] as FeedRow,
        l.row + 1,
        'blocked-keyword',
        `Keyword "${l.keyword}" (${l.matchType}) of ad group "${n.entry.name}" cannot serve: the group's ${n.line.matchType} "${n.line.keyword}" (row ${n.row + 1}) blocks it`,
      );
    }
    if (!isDropped) kept.push(n.line);
  }
  out.negatives = [...kept, ...exactNegatives];
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
