/** Engine-worker jobs of the ad tabs (registered in generation/jobHandlers.ts). */
import {
  generatePerformanceMaxAds,
  generateResponsiveSearchAds,
  performanceMaxAdsTable,
  responsiveSearchAdsTable,
  type CampaignTemplate,
  type PerformanceMaxTemplate,
  type RsaTemplate,
} from '@adloom/engine';
import { JobError, type EngineJobHandler } from '../generation/jobTypes.ts';
import { packIssues, packTable, type PackedTable } from '../output/packTable.ts';
import { AD_MESSAGES } from './messages.ts';
import { performanceOutputTable, rsaOutputTable } from './outputTables.ts';

/** Generated ads, packed for the page: the shown table, the Editor table and the issues. */
export interface AdOutput {
  table: PackedTable;
  editorTable: PackedTable;
  issues: PackedTable;
  adCount: number;
}

/** Responsive search ads for the ad groups of the campaign template over the selected rows. */
export const generateRsaJob: EngineJobHandler<
  { template: RsaTemplate; campaign: CampaignTemplate; today: string },
  AdOutput
> = (input, ctx) => {
  ctx.progress(0.05);
  const structure = ctx.campaignStructure(input.campaign);
  if (structure.adGroups.length === 0) throw new JobError(AD_MESSAGES.needKeywords);
  ctx.progress(0.4);
  const result = generateResponsiveSearchAds({
    template: input.template,
    rows: ctx.rows,
    adGroups: structure.adGroups,
    today: input.today,
  });
  ctx.progress(0.7);
  const table = packTable(rsaOutputTable(result.ads));
  ctx.progress(0.85);
  const editorTable = packTable(responsiveSearchAdsTable(result.ads));
  return { table, editorTable, issues: packIssues(result.issues, ctx), adCount: result.ads.length };
};

/** Performance Max ads for the asset groups of the campaign template over the selected rows. */
export const generatePerformanceAdsJob: EngineJobHandler<
  { template: PerformanceMaxTemplate; campaign: CampaignTemplate; today: string },
  AdOutput
> = (input, ctx) => {
  ctx.progress(0.05);
  const structure = ctx.campaignStructure(input.campaign);
  if (structure.assetGroups.length === 0) throw new JobError(AD_MESSAGES.needAssets);
  ctx.progress(0.4);
  const result = generatePerformanceMaxAds({
    template: input.template,
    rows: ctx.rows,
    assetGroups: structure.assetGroups,
    today: input.today,
  });
  ctx.progress(0.7);
  const table = packTable(performanceOutputTable(result.ads));
  ctx.progress(0.85);
  const editorTable = packTable(performanceMaxAdsTable(result.ads));
  return { table, editorTable, issues: packIssues(result.issues, ctx), adCount: result.ads.length };
};
