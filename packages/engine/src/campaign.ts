/**
 * Campaign template -> structure: campaign rows, ad groups (or asset groups), keyword lines and
 * negatives for the selected feed rows.
 */
import type { RowIssue } from './issues.ts';
import { cleanKeyword, cleanKeywordQuick } from './keywords.ts';
import {
  compilePattern,
  fillPattern,
  type CompiledPattern,
  type PlaceholderValues,
} from './text.ts';
import type {
  AdGroupRef,
  AssetGroupRef,
  CampaignTemplate,
  FeedRow,
  KeywordLine,
  MatchType,
} from './types.ts';

/** Editor's Campaign Type values. */
export type EditorCampaignType = 'Search' | 'Performance Max';

/** One campaign of the output, with the columns its settings ask for. */
export interface CampaignRow {
  campaign: string;
  campaignType: EditorCampaignType;
  /** Budget when the template's budget setting is included. */
  budget?: number;
  /** Location ID: the row's root for a location campaign, else the template's location when included. */
  locationId?: string;
  /** Included optional settings: Editor column name -> value. */
  settings: Record<string, string>;
  /** Id of the feed row that first produced it. */
  rowId: string;
}

/** Input of `generateCampaignStructure`. */
export interface GenerateCampaignStructureInput {
  template: CampaignTemplate;
  /** The selected feed rows (every row given counts as selected). */
  rows: readonly FeedRow[];
}

/** Everything a campaign template yields. */
export interface CampaignStructure {
  campaigns: CampaignRow[];
  adGroups: AdGroupRef[];
  assetGroups: AssetGroupRef[];
  keywords: KeywordLine[];
  negatives: KeywordLine[];
  issues: RowIssue[];
}

const POSITIVE: ReadonlySet<MatchType> = new Set(['Broad', 'Phrase', 'Exact']);
const OUTPUT_KEYWORDS = 'keywords';

interface CompiledKeyword {
  pattern: CompiledPattern;
  matchType: MatchType;
}

/**
 * The (keyword, match type) pairs of one group. Most groups hold one or a few lines, so the first
 * pair is kept inline and a Set is only made for the second: no per-group arrays.
 */
class LineSet {
  private firstKeyword: string | undefined;
  private firstMatchType: MatchType | undefined;
  private rest: Set<string> | undefined;

  /** Adds the pair; false when it was already there. */
  add(keyword: string, matchType: MatchType): boolean {
    if (this.firstKeyword === undefined) {
      this.firstKeyword = keyword;
      this.firstMatchType = matchType;
      return true;
    }
    if (this.firstKeyword === keyword && this.firstMatchType === matchType) return false;
    const key = `${matchType}\u001f${keyword}`;
    if (!this.rest) this.rest = new Set();
    else if (this.rest.has(key)) return false;
    this.rest.add(key);
    return true;
  }
}

/** One group: its keyword lines (as a LineSet itself, one object per group), listing and negatives. */
class GroupEntry extends LineSet {
  isListed = false;
  negatives: LineSet | undefined = undefined;
}

/** Key of an ad group or asset group: campaign and group name. */
export function groupKey(campaign: string, group: string): string {
  return `${campaign}\u001f${group}`;
}

/**
 * Generates the structure of a campaign template for the given rows. Names keep their case with
 * spaces tidied; keywords are lowercased with spaces collapsed and cleaned (see `cleanKeyword`);
 * each line is emitted once. Where the ad group pattern uses `{mt}`, each positive match type gets
 * its own ad group and every Exact keyword also becomes a Negative Exact in the Broad ad group of
 * its campaign. Negative Broad / Negative Exact patterns go to every ad group of their row (to the
 * campaign when the row has none).
 */
export function generateCampaignStructure(
  input: GenerateCampaignStructureInput,
): CampaignStructure {
  const { template, rows } = input;
  const isPerformance = template.type === 'performance';
  const campaignPattern = compilePattern(template.campaign);
  const groupPattern = compilePattern(isPerformance ? template.assetGroup : template.adGroup);
  const splitsByMatchType = groupPattern.slots.includes('mt');
  const selectedKeywords = template.keywords.filter(
    (k) => k.selected !== false && k.keyword.trim() !== '',
  );
  const positives: CompiledKeyword[] = [];
  const negativePatterns: CompiledKeyword[] = [];
  for (const k of selectedKeywords) {
    const ck = { pattern: compilePattern(k.keyword), matchType: k.matchType };
    (POSITIVE.has(k.matchType) ? positives : negativePatterns).push(ck);
  }
  const settings = template.settings;
  const optionalSettings = settings.optionalSettings
    .filter((s) => s.selected && s.name.trim() !== '')
    .map((s) => ({ name: s.name.trim(), pattern: compilePattern(s.value) }));
  const locationPattern = compilePattern(settings.location.value);

  const out: CampaignStructure = {
    campaigns: [],
    adGroups: [],
    assetGroups: [],
    keywords: [],
    negatives: [],
    issues: [],
  };
  const campaignsSeen = new Set<string>();
  const reported = new Set<string>();
  const groups = new Map<string, Map<string, GroupEntry>>();
  const pendingExactNegatives: KeywordLine[] = [];
  const values: PlaceholderValues = {
    row: rows[0] ?? { root: '', mod: '', var1: '', var2: '', var3: '', url: '' },
    const: template.const,
    mt: '',
  };
  const groupsOfRow: string[] = [];
  // Ad group names of the current row per {mt}, each filled once.
  const groupByMatchType = new Map<MatchType, string>();
  const groupForMatchType = (mt: MatchType): string => {
    let g = groupByMatchType.get(mt);
    if (g === undefined) {
      values.mt = mt;
      g = fillPattern(groupPattern, values);
      values.mt = '';
      groupByMatchType.set(mt, g);
    }
    return g;
  };

  const issue = (
    kind: RowIssue['kind'],
    row: FeedRow,
    rowNumber: number,
    code: string,
    message: string,
  ): void => {
    // Two patterns can yield the same raw keyword: report each problem of a row once.
    const key = `${rowNumber}\u001f${code}\u001f${message}`;
    if (reported.has(key)) return;
    reported.add(key);
    out.issues.push({ kind, output: OUTPUT_KEYWORDS, rowId: row.id, rowNumber, code, message });
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
      entry = new GroupEntry();
      byName.set(group, entry);
    }
    if (row && !entry.isListed && group !== '') {
      entry.isListed = true;
      const key = groupKey(campaign, group);
      if (isPerformance) out.assetGroups.push({ key, campaign, assetGroup: group, id: row.id });
      else out.adGroups.push({ key, campaign, adGroup: group, id: row.id });
    }
    return entry;
  };

  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as FeedRow;
    const rowNumber = r + 1;
    values.row = row;
    values.mt = '';
    const campaign = fillPattern(campaignPattern, values);
    if (campaign === '') {
      issue('skipped', row, rowNumber, 'empty-campaign', 'Campaign name is empty for this row');
      continue;
    }
    if (!campaignsSeen.has(campaign)) {
      campaignsSeen.add(campaign);
      const c: CampaignRow = {
        campaign,
        campaignType: isPerformance ? 'Performance Max' : 'Search',
        settings: {},
        rowId: row.id,
      };
      if (settings.budget.selected) c.budget = settings.budget.value;
      if (settings.isLocationCampaign) c.locationId = row.root.trim();
      else if (settings.location.selected) c.locationId = fillPattern(locationPattern, values);
      for (const s of optionalSettings) c.settings[s.name] = fillPattern(s.pattern, values);
      out.campaigns.push(c);
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
      continue;
    }

    const sharedGroup = splitsByMatchType ? '' : fillPattern(groupPattern, values);
    if (!splitsByMatchType && sharedGroup === '') {
      issue('skipped', row, rowNumber, 'empty-ad-group', 'Ad group name is empty for this row');
      continue;
    }
    groupsOfRow.length = 0;
    groupByMatchType.clear();
    for (const k of positives) {
      let group = sharedGroup;
      if (splitsByMatchType) {
        group = groupForMatchType(k.matchType);
        if (group === '') continue;
      }
      const raw = fillPattern(k.pattern, values);
      let keyword = cleanKeywordQuick(raw);
      if (keyword === undefined) {
        const cleaned = cleanKeyword(raw);
        if (!cleaned.ok) {
          if (raw !== '')
            issue('skipped', row, rowNumber, cleaned.reason, `${cleaned.message}: "${raw}"`);
          else
            issue(
              'skipped',
              row,
              rowNumber,
              'empty',
              `Keyword "${k.pattern.source}" is empty for this row`,
            );
          continue;
        }
        if (cleaned.removed.length) {
          issue(
            'cleaned',
            row,
            rowNumber,
            'rejected-characters',
            `Removed ${cleaned.removed.join(' ')} from "${raw}" -> "${cleaned.keyword}"`,
          );
        }
        keyword = cleaned.keyword;
      }
      const entry = findGroup(campaign, group, row) as GroupEntry;
      if (!groupsOfRow.includes(group)) groupsOfRow.push(group);
      if (!entry.add(keyword, k.matchType)) continue;
      out.keywords.push({
        campaign,
        adGroup: group,
        keyword: keyword,
        matchType: k.matchType,
      });
      if (splitsByMatchType && k.matchType === 'Exact') {
        const broadGroup = groupForMatchType('Broad');
        pendingExactNegatives.push({
          campaign,
          adGroup: broadGroup,
          keyword: keyword,
          matchType: 'Negative Exact',
        });
      }
    }
    for (const k of negativePatterns) {
      const raw = fillPattern(k.pattern, values);
      const cleaned = cleanKeyword(raw);
      if (!cleaned.ok) {
        issue('skipped', row, rowNumber, cleaned.reason, `${cleaned.message}: "${raw}" (negative)`);
        continue;
      }
      const targets = groupsOfRow.length ? groupsOfRow : [''];
      for (const group of targets) {
        const entry = findGroup(campaign, group, undefined) as GroupEntry;
        entry.negatives ??= new LineSet();
        if (!entry.negatives.add(cleaned.keyword, k.matchType)) continue;
        out.negatives.push({
          campaign,
          adGroup: group,
          keyword: cleaned.keyword,
          matchType: k.matchType,
        });
      }
    }
  }

  // An Exact keyword becomes a Negative Exact in the ad group whose {mt} is Broad (when it exists).
  for (const n of pendingExactNegatives) {
    const entry = groups.get(n.campaign)?.get(n.adGroup);
    if (!entry?.isListed) continue;
    entry.negatives ??= new LineSet();
    if (!entry.negatives.add(n.keyword, n.matchType)) continue;
    out.negatives.push(n);
  }
  return out;
}
