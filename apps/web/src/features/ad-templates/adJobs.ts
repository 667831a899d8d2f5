/** Engine-worker jobs of the ad tabs (registered in worker/jobHandlers.ts). */
import {
  findFormulaCells,
  generatePerformanceMaxAds,
  forEachResponsiveSearchAd,
  generateResponsiveSearchAds,
  performanceMaxAdsTable,
  responsiveSearchAdsTable,
  type CampaignTemplate,
  type PerformanceMaxAd,
  type GenerateResponsiveSearchAdsInput,
  type PerformanceMaxTemplate,
  type RsaTemplate,
  type Table,
} from '@adloom/engine';
import {
  JobError,
  packColumns,
  packIssues,
  type EngineJobHandler,
  type PackedTable,
} from '../generation/jobs.ts';
import { AD_MESSAGES } from './messages.ts';
import { RsaOutputPacker, performanceOutputColumns } from './outputTables.ts';

/** Generated ads, packed for the page: the shown table and the issues. */
export interface AdOutput {
  table: PackedTable;
  issues: PackedTable;
  adCount: number;
  /** Names the ads the worker keeps for the Editor download (`adsEditorCsvJob`). */
  outputId: string;
}

/**
 * The last generated ads of each kind, kept in the worker so the Editor file is made only when
 * asked for (sending a second 100k-line table to the page would cost a long main-thread task).
 */
const lastAds: {
  /** The RSAs' input: they are made again for the download (the same input makes the same ads). */
  rsa: { outputId: string; input: GenerateResponsiveSearchAdsInput } | null;
  performance: { outputId: string; ads: PerformanceMaxAd[] } | null;
} = { rsa: null, performance: null };

function newOutputId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Text of the Editor download when the worker no longer holds the ads. */
export const REGENERATE_MESSAGE = 'Generate the ads again to download them for Google Ads Editor';

/** The ads of one generation, as the page names them for the Editor download. */
export interface AdsEditorRef {
  kind: 'rsa' | 'performance';
  outputId: string;
}

/**
 * The engine's Editor table of the ads the worker keeps for `outputId` (in the worker only);
 * fails with REGENERATE_MESSAGE when it no longer holds them (a newer generation, or a
 * restarted worker).
 */
export function getAdsEditorTable(ref: AdsEditorRef): Table {
  if (ref.kind === 'rsa') {
    const last = lastAds.rsa;
    if (!last || last.outputId !== ref.outputId) throw new JobError(REGENERATE_MESSAGE);
    return responsiveSearchAdsTable(generateResponsiveSearchAds(last.input).ads);
  }
  const last = lastAds.performance;
  if (!last || last.outputId !== ref.outputId) throw new JobError(REGENERATE_MESSAGE);
  return performanceMaxAdsTable(last.ads);
}

/** Responsive search ads for the ad groups of the campaign template over the selected rows. */
export const generateRsaJob: EngineJobHandler<
  { template: RsaTemplate; campaign: CampaignTemplate; today: string },
  AdOutput
> = (input, ctx) => {
  ctx.progress(0.05);
  const structure = ctx.campaignGroups(input.campaign);
  if (structure.adGroups.length === 0) throw new JobError(AD_MESSAGES.needKeywords);
  ctx.progress(0.4);
  const ads: GenerateResponsiveSearchAdsInput = {
    template: input.template,
    rows: ctx.rows,
    adGroups: structure.adGroups,
    today: input.today,
    constant: input.campaign.const,
  };
  const most = (counts: number[]): number => Math.max(0, ...counts);
  const packer = new RsaOutputPacker(
    most(input.template.templates.map((f) => f.headlines.length)),
    most(input.template.templates.map((f) => f.descriptions.length)),
  );
  let adCount = 0;
  // Each ad goes into the packed table as it is made and is not kept (see RsaOutputPacker).
  const issues = forEachResponsiveSearchAd(ads, (ad) => {
    packer.add(ad);
    adCount += 1;
  });
  ctx.progress(0.8);
  const table = packer.finish();
  const outputId = newOutputId();
  lastAds.rsa = { outputId, input: ads };
  const formulas = findFormulaCells(ctx.rows, { rsa: input.template });
  return { table, issues: packIssues(issues.concat(formulas), ctx), adCount, outputId };
};

/** Performance Max ads for the asset groups of the campaign template over the selected rows. */
export const generatePerformanceAdsJob: EngineJobHandler<
  { template: PerformanceMaxTemplate; campaign: CampaignTemplate; today: string },
  AdOutput
> = (input, ctx) => {
  ctx.progress(0.05);
  const structure = ctx.campaignGroups(input.campaign);
  if (structure.assetGroups.length === 0) throw new JobError(AD_MESSAGES.needAssets);
  ctx.progress(0.4);
  const result = generatePerformanceMaxAds({
    template: input.template,
    rows: ctx.rows,
    assetGroups: structure.assetGroups,
    today: input.today,
    constant: input.campaign.const,
  });
  ctx.progress(0.7);
  const table = packColumns(performanceOutputColumns(result.ads));
  const outputId = newOutputId();
  lastAds.performance = { outputId, ads: result.ads };
  const formulas = findFormulaCells(ctx.rows, { pmax: input.template });
  const issues = packIssues(result.issues.concat(formulas), ctx);
  return { table, issues, adCount: result.ads.length, outputId };
};

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    generateRsa: typeof generateRsaJob;
    generatePerformanceAds: typeof generatePerformanceAdsJob;
  }
}
