/** Engine-worker jobs of the ad tabs (registered in worker/jobHandlers.ts). */
import {
  findBuildStatus,
  findFormulaCells,
  generatePerformanceMaxAds,
  linesOfItems,
  forEachResponsiveSearchAd,
  generateResponsiveSearchAds,
  performanceMaxAdsTable,
  responsiveSearchAdsTable,
  type CampaignTemplate,
  type GenerateResponsiveSearchAdsInput,
  type PerformanceMaxTemplate,
  type RsaTemplate,
} from '@adloom/engine';
import { holdTable } from '../exports/heldTables.ts';
import {
  JobError,
  issueKeysOf,
  lineOfRowIdOf,
  packColumns,
  packIssues,
  Uint32Builder,
  type EngineJobContext,
  type EngineJobHandler,
  type PackedTable,
  type PartOutput,
} from '../generation/jobs.ts';
import { ADS_HELD_SLOTS } from './adsHeld.ts';
import { AD_MESSAGES } from './messages.ts';
import { RsaOutputPacker, performanceOutputColumns } from './outputTables.ts';

/** Generated ads, packed for the page: the shown table and the issues. */
export interface AdOutput extends PartOutput {
  table: PackedTable;
  issues: PackedTable;
  adCount: number;
  /** The ad groups (asset groups) the ads were made for: those beyond `adCount` got no ad. */
  groupCount: number;
  /**
   * The id of the ads' Editor table the worker holds (`adsHeldRef`): made only when downloaded
   * (sending a second 100k-line table to the page would cost a long main-thread task).
   */
  outputId: string;
}

/**
 * The statuses of the run's items when some row is paused (an ad takes its ad group's or asset
 * group's), else undefined: the ads' Editor table then has no status column.
 */
function statusOf(rows: EngineJobContext['rows'], campaign: CampaignTemplate) {
  return findBuildStatus({ rows, campaign, extensions: [] });
}

/** The responsive search ads one generation makes. */
type RsaAds = ReturnType<typeof generateResponsiveSearchAds>['ads'];

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
  // A part of a pool's job (ctx.part) keys each ad by its row's feed line (see mergeParts.ts).
  const lineOfRowId = ctx.part ? lineOfRowIdOf(ctx.rows, ctx.rowPositions) : undefined;
  const adKeys = new Uint32Builder();
  // Each ad goes into the packed table as it is made and is not kept (see RsaOutputPacker).
  const issues = forEachResponsiveSearchAd(ads, (ad) => {
    packer.add(ad);
    if (lineOfRowId) adKeys.push(lineOfRowId(ad.rowId));
    adCount += 1;
  });
  ctx.progress(0.8);
  const table = packer.finish();
  // The RSAs are made again for the download (the same input makes the same ads), each with its
  // ad group's status when some row is paused, and the feed line of the row behind it.
  // (The ads are not kept in between: made again for the lines when they are asked for. The
  // table and the lines a job asks for share one making while that job still holds it: a
  // WeakRef keeps nothing alive, so the ads go when the job is done with them.)
  // A pool's first part holds the ads of every row (its ad groups made again when they are
  // downloaded); the other parts hold none.
  const whole = ctx.whole;
  const wholeAds = (): GenerateResponsiveSearchAdsInput =>
    whole === ctx
      ? ads
      : { ...ads, rows: whole.rows, adGroups: whole.campaignGroups(input.campaign).adGroups };
  let recent: WeakRef<RsaAds> | undefined;
  const adsMade = (): RsaAds => {
    const kept = recent?.deref();
    if (kept) return kept;
    const made = generateResponsiveSearchAds(wholeAds()).ads;
    recent = new WeakRef(made);
    return made;
  };
  const outputId =
    (ctx.part?.index ?? 0) === 0
      ? holdTable(
          ADS_HELD_SLOTS.rsa,
          () => responsiveSearchAdsTable(adsMade(), statusOf(whole.rows, input.campaign)),
          () =>
            linesOfItems(adsMade(), (a) => a.rowId, lineOfRowIdOf(whole.rows, whole.rowPositions)),
        )
      : '';
  const formulas = findFormulaCells(ctx.rows, { rsa: input.template });
  const allIssues = issues.concat(formulas);
  const output: AdOutput = {
    table,
    issues: packIssues(allIssues, ctx),
    adCount,
    groupCount: structure.adGroups.length,
    outputId,
  };
  if (ctx.part) {
    // Sections of the issues: the template's own (what a run over no ad group reports), the ad
    // groups', the formula cells'.
    const own = forEachResponsiveSearchAd({ ...ads, adGroups: [] }, () => undefined).length;
    output.tableParts = {
      table: { keys: adKeys.finish(), ends: [0, table.rowCount] },
      issues: {
        keys: issueKeysOf(allIssues, ctx.rowPositions),
        ends: [own, issues.length, allIssues.length],
      },
    };
  }
  return output;
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
  const outputId = holdTable(
    ADS_HELD_SLOTS.performance,
    () => performanceMaxAdsTable(result.ads, statusOf(ctx.rows, input.campaign)),
    () => linesOfItems(result.ads, (a) => a.rowId, lineOfRowIdOf(ctx.rows, ctx.rowPositions)),
  );
  const formulas = findFormulaCells(ctx.rows, { pmax: input.template });
  const issues = packIssues(result.issues.concat(formulas), ctx);
  return {
    table,
    issues,
    adCount: result.ads.length,
    groupCount: structure.assetGroups.length,
    outputId,
  };
};

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    generateRsa: typeof generateRsaJob;
    generatePerformanceAds: typeof generatePerformanceAdsJob;
  }
}
