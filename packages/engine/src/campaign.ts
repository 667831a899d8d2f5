/**
 * Campaign template -> structure: campaign rows, ad groups (or asset groups), keyword lines and
 * negatives for the selected feed rows. Search templates run the streaming keyword path (see
 * keywordsCsv.ts); the object API collects what it streams.
 */
import { CampaignRowMaker, GeneratedAssetGroup, type CampaignRow } from './campaignRows.ts';
import type { GenerateCampaignStructureInput, KeywordsCsvSinks } from './campaignInput.ts';
import type { FormatCsvOptions } from './csv.ts';
import type { RowIssue } from './issues.ts';
import {
  forEachSearchKeywordLine,
  keywordsCsvHeader,
  OUTPUT_KEYWORDS,
  writeSearchKeywordsCsv,
  type KeywordLineSink,
  type KeywordLineSinks,
} from './keywordsCsv.ts';
import {
  cleanName,
  defaultRowLabel,
  fillRaw,
  foldName,
  mergeIssue,
  nameProblem,
  type NameKind,
} from './names.ts';
import {
  compilePattern,
  NO_ROW_VALUES,
  type CompiledPattern,
  type PlaceholderValues,
} from './text.ts';
import type { AdGroupRef, AssetGroupRef, FeedRow, KeywordLine } from './types.ts';

export type { CampaignRow } from './campaignRows.ts';
export type {
  GenerateCampaignStructureInput,
  KeywordsCsvSinks,
  RowGroupKeys,
} from './campaignInput.ts';

/** Everything a campaign template yields. */
export interface CampaignStructure {
  campaigns: CampaignRow[];
  adGroups: AdGroupRef[];
  assetGroups: AssetGroupRef[];
  keywords: KeywordLine[];
  negatives: KeywordLine[];
  issues: RowIssue[];
}

/** An empty structure to collect into. */
export function newCampaignStructure(): CampaignStructure {
  return { campaigns: [], adGroups: [], assetGroups: [], keywords: [], negatives: [], issues: [] };
}

/**
 * Generates the structure of a campaign template for the given rows (every keyword line of the
 * template, whatever its `selected`). Names keep their case, cleaned (`cleanName`); names that
 * differ only by case or Unicode form are one campaign or group, written as first spelled.
 * Keywords are lowercased and cleaned to Google's allowlist (see `cleanKeyword`); each line is
 * emitted once. Where the ad group pattern uses `{mt}`, each positive match type gets its own ad
 * group and every Exact keyword also becomes a Negative Exact in the Broad ad group of its
 * campaign. Negative Broad / Negative Exact patterns go to every ad group of their row; to the
 * campaign only when the template has no positive keyword (a row that makes no keyword writes
 * none). Negatives that block a keyword of their own group are reported, and dropped when the
 * template's `dropBlockingNegatives` says so. Collects what `forEachKeywordLine` hands over.
 */
export function generateCampaignStructure(
  input: GenerateCampaignStructureInput,
): CampaignStructure {
  const out = newCampaignStructure();
  const collect =
    (lines: KeywordLine[]): KeywordLineSink =>
    (campaign, adGroup, keyword, matchType) => {
      lines.push({ campaign, adGroup, keyword, matchType });
    };
  out.issues = forEachKeywordLine(input, {
    keywords: collect(out.keywords),
    negatives: collect(out.negatives),
    campaigns: (c) => out.campaigns.push(c),
    adGroups: (g) => out.adGroups.push(g),
    assetGroups: (g) => out.assetGroups.push(g),
  }).issues;
  return out;
}

/** Counts and row problems of `writeKeywordsCsv`. */
export interface WriteKeywordsCsvResult {
  keywordLines: number;
  negativeLines: number;
  issues: RowIssue[];
}

/**
 * The keyword and negative lines of `generateCampaignStructure(input)` as Editor CSV chunks,
 * written as they are made, without building line, campaign or group objects (for feeds of a
 * million rows; see keywordsCsv.ts). With the `campaigns`, `adGroups` and `assetGroups` sinks it
 * also hands over the structure's campaign rows, ad groups and asset groups.
 */
export function writeKeywordsCsv(
  input: GenerateCampaignStructureInput,
  sinks: KeywordsCsvSinks,
  options: FormatCsvOptions = {},
): WriteKeywordsCsvResult {
  const issues: RowIssue[] = [];
  const issue = sinks.issue ?? ((i: RowIssue) => issues.push(i));
  if (input.template.type !== 'performance') {
    const counts = writeSearchKeywordsCsv(input, sinks, options, issue);
    return { ...counts, issues };
  }
  forEachAssetGroup(input, sinks, issue);
  if (sinks.hasHeader !== false) {
    const header = keywordsCsvHeader(options);
    sinks.keywords(header);
    sinks.negatives(header);
  }
  return { keywordLines: 0, negativeLines: 0, issues };
}

/** Where `forEachKeywordLine` hands what it makes. */
export interface KeywordLinesSinks extends KeywordLineSinks {
  assetGroups?: KeywordsCsvSinks['assetGroups'];
}

export type { KeywordLineSink, KeywordLineSinks };

/**
 * The keyword and negative lines of `generateCampaignStructure(input)` handed over as fields, in
 * the same order, with its campaign rows, ad groups, asset groups and issues, for outputs kept
 * in some other form than line objects (the web worker packs them into its tables).
 */
export function forEachKeywordLine(
  input: GenerateCampaignStructureInput,
  sinks: KeywordLinesSinks,
): WriteKeywordsCsvResult {
  const issues: RowIssue[] = [];
  const issue = (i: RowIssue): void => {
    issues.push(i);
  };
  if (input.template.type !== 'performance') {
    const { section, ...rest } = sinks;
    const counted = section ? { ...rest, section: () => section(issues.length) } : rest;
    const counts = forEachSearchKeywordLine(input, counted, issue);
    return { ...counts, issues };
  }
  forEachAssetGroup(input, sinks, issue);
  return { keywordLines: 0, negativeLines: 0, issues };
}

/**
 * The campaign rows and asset groups of a performance template (it makes no keyword lines), in
 * row order. Names are cleaned (`cleanName`) and names that differ only by case or Unicode form
 * are one (the first spelling is written); rows without a usable name, rows merged into an
 * earlier row's asset group and such spellings are reported.
 */
function forEachAssetGroup(
  input: GenerateCampaignStructureInput,
  sinks: Pick<KeywordLinesSinks, 'campaigns' | 'assetGroups'>,
  issue: (issue: RowIssue) => void,
): void {
  const { template, rows } = input;
  const rowLabel = input.rowLabel ?? defaultRowLabel;
  const campaignPattern = compilePattern(template.campaign);
  const groupPattern = compilePattern(template.assetGroup);
  const campaignRows = new CampaignRowMaker(template);
  /** Campaigns by folded name: the first spelling, its row and its asset groups (likewise). */
  const campaigns = new Map<
    string,
    {
      name: string;
      row: number;
      groups: Map<string, { name: string; row: number }>;
      made: CampaignRow;
    }
  >();
  const values: PlaceholderValues = { row: NO_ROW_VALUES, const: template.const, mt: '' };
  const report = (
    row: FeedRow,
    rowNumber: number,
    problem: { kind: RowIssue['kind']; code: string; message: string },
  ): void => {
    issue({ ...problem, output: OUTPUT_KEYWORDS, rowId: row.id, rowNumber });
  };
  const nameOf = (pattern: CompiledPattern, what: NameKind, row: FeedRow, rowNumber: number) => {
    const c = cleanName(fillRaw(pattern, values));
    const problem = nameProblem(c, what);
    if (problem) report(row, rowNumber, problem);
    return problem?.kind === 'skipped' ? undefined : c.name;
  };
  for (let r = 0; r < rows.length; r++) {
    const row = rows.at(r) as FeedRow;
    const rowNumber = r + 1;
    values.row = row;
    const isLocated = campaignRows.read(row, values);
    for (const p of campaignRows.problems) report(row, rowNumber, p);
    if (!isLocated) continue;
    const spelled = nameOf(campaignPattern, 'Campaign', row, rowNumber);
    if (spelled === undefined) continue;
    const campaignKey = foldName(spelled);
    let campaign = campaigns.get(campaignKey);
    if (!campaign) {
      const made = campaignRows.make(spelled, row, values);
      campaign = { name: spelled, row: r, groups: new Map(), made };
      campaigns.set(campaignKey, campaign);
      sinks.campaigns?.(made);
    } else {
      campaignRows.add(campaign.made);
    }
    if (campaign.name !== spelled)
      report(row, rowNumber, {
        kind: 'cleaned',
        code: 'campaign-name-variant',
        message: `Campaign "${spelled}" is written "${campaign.name}" as in ${rowLabel(campaign.row + 1)}: names that differ only by case or Unicode form are one campaign`,
      });
    const group = nameOf(groupPattern, 'Asset group', row, rowNumber);
    if (group === undefined) continue;
    const groupKey = foldName(group);
    const first = campaign.groups.get(groupKey);
    if (first) {
      const m = mergeIssue(
        row,
        rows.at(first.row) as FeedRow,
        rowLabel(first.row + 1),
        group,
        first.name,
        'asset group',
      );
      report(row, rowNumber, m);
      continue;
    }
    campaign.groups.set(groupKey, { name: group, row: r });
    sinks.assetGroups?.(new GeneratedAssetGroup(campaign.name, group, row.id));
  }
}
