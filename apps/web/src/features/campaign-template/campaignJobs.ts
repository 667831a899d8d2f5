import {
  assetGroupsTable,
  campaignsTable,
  forEachKeywordLine,
  keywordsTable,
  type AdGroupRef,
  type AssetGroupRef,
  type CampaignRow,
  type CampaignTemplate,
  type MatchType,
} from '@adloom/engine';
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import {
  ColumnPacker,
  Uint32Builder,
  packIssues,
  packTable,
  type PackedTable,
} from '../output/packTable.ts';

/** What 'Generate Keywords or Output' yields, packed for the page. */
export interface CampaignOutput {
  keywords: PackedTable;
  negatives: PackedTable;
  campaigns: PackedTable;
  assetGroups: PackedTable;
  issues: PackedTable;
  adGroupCount: number;
  assetGroupCount: number;
}

/** The Criterion Type cell of a line (as the engine's `criterionType`), by match type. */
const GROUP_CRITERION: Record<MatchType, string> = {
  Broad: 'Broad',
  Phrase: 'Phrase',
  Exact: 'Exact',
  'Negative Broad': 'Negative Broad',
  'Negative Exact': 'Negative Exact',
};
const CAMPAIGN_CRITERION: Record<MatchType, string> = {
  ...GROUP_CRITERION,
  'Negative Broad': 'Campaign Negative Broad',
  'Negative Exact': 'Campaign Negative Exact',
};

/**
 * The ad group names of an output's keyword and negative lines, each kept once: both tables'
 * Ad Group columns pick them by code. (The negatives repeat the keywords' ad groups: 100k rows
 * made 300k ad groups named on 700k lines.)
 */
class SharedAdGroups {
  readonly values = new ColumnPacker();
  /** Per engine group id, its value's code + 1 (0: not seen yet). */
  private codes = new Int32Array(1024);

  constructor() {
    this.values.appendValue('');
  }

  /** The code of a line's ad group (`groupId` from the engine, -1 when it gave none). */
  code(adGroup: string, groupId: number): number {
    if (adGroup === '') return 0;
    if (groupId < 0) return this.values.appendValue(adGroup);
    if (groupId >= this.codes.length) {
      const grown = new Int32Array(Math.max(groupId + 1, this.codes.length * 2));
      grown.set(this.codes);
      this.codes = grown;
    }
    const known = this.codes[groupId] as number;
    if (known > 0) return known - 1;
    const code = this.values.appendValue(adGroup);
    this.codes[groupId] = code + 1;
    return code;
  }
}

/** Packs keyword lines as they come, in the columns of the engine's `keywordsTable`. */
class KeywordLinePacker {
  private readonly campaigns = new ColumnPacker();
  private readonly adGroupCodes = new Uint32Builder();
  private readonly keywords = new ColumnPacker();
  private readonly criteria = new ColumnPacker();
  private rowCount = 0;

  constructor(private readonly adGroups: SharedAdGroups) {}

  readonly line = (
    campaign: string,
    adGroup: string,
    keyword: string,
    matchType: MatchType,
    groupId = -1,
  ): void => {
    this.campaigns.add(campaign);
    this.adGroupCodes.push(this.adGroups.code(adGroup, groupId));
    this.keywords.add(keyword);
    this.criteria.add((adGroup === '' ? CAMPAIGN_CRITERION : GROUP_CRITERION)[matchType]);
    this.rowCount += 1;
  };

  /** The table; `adGroupValues` are the shared ad groups' values (finished once for both). */
  finish(adGroupValues: ReturnType<ColumnPacker['finishValues']>): PackedTable {
    return {
      headers: [...keywordsTable([]).headers],
      rowCount: this.rowCount,
      columns: [
        this.campaigns.finish(),
        { ...adGroupValues, codes: this.adGroupCodes.finish() },
        this.keywords.finish(),
        this.criteria.finish(),
      ],
    };
  }
}

/**
 * Generates the campaign structure of a template over the selected rows (in the worker). The
 * lines go straight into the packed tables (no line objects); the ad groups and asset groups are
 * kept for the ad jobs.
 */
export const generateCampaignJob: EngineJobHandler<
  { template: CampaignTemplate },
  CampaignOutput
> = (input, ctx) => {
  ctx.progress(0.05);
  const adGroupNames = new SharedAdGroups();
  const keywords = new KeywordLinePacker(adGroupNames);
  const negatives = new KeywordLinePacker(adGroupNames);
  const campaigns: CampaignRow[] = [];
  const adGroups: AdGroupRef[] = [];
  const assetGroups: AssetGroupRef[] = [];
  const result = forEachKeywordLine(
    { template: input.template, rows: ctx.rows },
    {
      keywords: keywords.line,
      negatives: negatives.line,
      campaigns: (c) => campaigns.push(c),
      adGroups: (g) => adGroups.push(g),
      assetGroups: (g) => assetGroups.push(g),
    },
  );
  ctx.keepCampaignGroups(input.template, { adGroups, assetGroups });
  ctx.progress(0.8);
  const adGroupValues = adGroupNames.values.finishValues();
  const output: CampaignOutput = {
    keywords: keywords.finish(adGroupValues),
    negatives: negatives.finish(adGroupValues),
    campaigns: packTable(campaignsTable(campaigns)),
    assetGroups: packTable(assetGroupsTable(assetGroups)),
    issues: packIssues(result.issues, ctx),
    adGroupCount: adGroups.length,
    assetGroupCount: assetGroups.length,
  };
  ctx.progress(1);
  return output;
};
