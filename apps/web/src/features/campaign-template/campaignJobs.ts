import {
  assetGroupsTable,
  campaignsTable,
  keywordsTable,
  type CampaignTemplate,
} from '@adloom/engine';
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import { packIssues, packTable, type PackedTable } from '../output/packTable.ts';

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

/** Generates the campaign structure of a template over the selected rows (in the worker). */
export const generateCampaignJob: EngineJobHandler<
  { template: CampaignTemplate },
  CampaignOutput
> = (input, ctx) => {
  ctx.progress(0.05);
  const structure = ctx.campaignStructure(input.template);
  ctx.progress(0.6);
  const keywords = packTable(keywordsTable(structure.keywords));
  ctx.progress(0.8);
  const negatives = packTable(keywordsTable(structure.negatives));
  const campaigns = packTable(campaignsTable(structure.campaigns));
  const assetGroups = packTable(assetGroupsTable(structure.assetGroups));
  const issues = packIssues(structure.issues, ctx);
  ctx.progress(1);
  return {
    keywords,
    negatives,
    campaigns,
    assetGroups,
    issues,
    adGroupCount: structure.adGroups.length,
    assetGroupCount: structure.assetGroups.length,
  };
};
