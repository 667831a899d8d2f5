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
import { TablePacker, packIssues, packTable, type PackedTable } from '../output/packTable.ts';

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

/** Packs keyword lines as they come, in the columns of the engine's `keywordsTable`. */
function keywordPacker(): {
  packer: TablePacker;
  line: (campaign: string, adGroup: string, keyword: string, matchType: MatchType) => void;
} {
  const packer = new TablePacker(keywordsTable([]).headers);
  const row = ['', '', '', ''];
  return {
    packer,
    line(campaign, adGroup, keyword, matchType) {
      row[0] = campaign;
      row[1] = adGroup;
      row[2] = keyword;
      row[3] = (adGroup === '' ? CAMPAIGN_CRITERION : GROUP_CRITERION)[matchType];
      packer.addRow(row);
    },
  };
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
  const keywords = keywordPacker();
  const negatives = keywordPacker();
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
  const output: CampaignOutput = {
    keywords: keywords.packer.finish(),
    negatives: negatives.packer.finish(),
    campaigns: packTable(campaignsTable(campaigns)),
    assetGroups: packTable(assetGroupsTable(assetGroups)),
    issues: packIssues(result.issues, ctx),
    adGroupCount: adGroups.length,
    assetGroupCount: assetGroups.length,
  };
  ctx.progress(1);
  return output;
};
