import type { CampaignType } from '@adloom/engine';
import type { ExportableKind, ExportTableRef } from '../exports/index.ts';
import { reportPartOf } from '../exports/exportables.ts';
import type { CampaignOutput } from './campaignJobs.ts';
import { campaignTabOutputOf } from './campaignTabState.ts';

/**
 * The table kind of each Campaigns tab table, in file order (ad groups: Search, asset groups:
 * Performance Max).
 */
export const CAMPAIGN_TABLE_KINDS = {
  keywords: 'keywords',
  negatives: 'negatives',
  adGroups: 'ad-groups',
  assetGroups: 'asset-groups',
  campaigns: 'campaigns',
} as const satisfies Record<
  keyof Pick<CampaignOutput, 'keywords' | 'negatives' | 'adGroups' | 'assetGroups' | 'campaigns'>,
  string
>;

/** How the report names each campaign type's structure. */
const CAMPAIGN_OUTPUT_NAMES: Readonly<Record<CampaignType, string>> = {
  search: 'Search campaign structure',
  performance: 'Performance Max campaign structure',
};

/**
 * The tables of one campaign output with lines, in file order (ad groups: Search, asset groups:
 * Performance Max).
 */
export function campaignExportTables(
  output: CampaignOutput,
  isPerformance: boolean,
): { kind: ExportTableRef['kind']; table: CampaignOutput['keywords'] }[] {
  return (Object.keys(CAMPAIGN_TABLE_KINDS) as (keyof typeof CAMPAIGN_TABLE_KINDS)[])
    .filter((which) =>
      which === 'assetGroups' ? isPerformance : which !== 'adGroups' || !isPerformance,
    )
    .map((which) => ({ kind: CAMPAIGN_TABLE_KINDS[which], table: output[which] }))
    .filter(({ table }) => table.rowCount > 0);
}

/**
 * The Campaigns tab's exportable tables: per campaign type kept (Search first) its keywords,
 * negatives, ad groups (Search), asset groups (Performance Max) and campaigns; a Performance Max table whose file
 * name a Search one took is 'performance max <table>'.
 */
export const campaignExports: ExportableKind = {
  id: 'campaigns',
  store: campaignTabOutputOf,
  tables(outputs) {
    const kept = campaignTabOutputOf(outputs).get();
    const tables: ExportTableRef[] = [];
    const report = [];
    for (const type of ['search', 'performance'] as const) {
      const campaign = kept[type];
      if (!campaign) continue;
      for (const { kind, table } of campaignExportTables(campaign.output, type === 'performance'))
        tables.push({ kind, qualifier: 'performance max', source: { packed: table } });
      report.push(
        reportPartOf(CAMPAIGN_OUTPUT_NAMES[type], campaign.origin, campaign.output.issues),
      );
    }
    return { tables, report };
  },
};
