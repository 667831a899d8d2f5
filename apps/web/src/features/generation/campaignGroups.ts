import {
  forEachKeywordLine,
  type AdGroupRef,
  type AssetGroupRef,
  type CampaignTemplate,
  type FeedRow,
} from '@adloom/engine';

/** What the ad jobs need of a campaign template's structure: its ad groups and asset groups. */
export interface CampaignGroups {
  adGroups: AdGroupRef[];
  assetGroups: AssetGroupRef[];
}

function ignoreLine(): void {}

/**
 * The ad groups and asset groups of `template` over `rows`, through the engine's fast path
 * (no keyword line is kept; the lines are made and dropped).
 */
export function campaignGroupsOf(
  template: CampaignTemplate,
  rows: readonly FeedRow[],
): CampaignGroups {
  const groups: CampaignGroups = { adGroups: [], assetGroups: [] };
  forEachKeywordLine(
    { template, rows },
    {
      keywords: ignoreLine,
      negatives: ignoreLine,
      adGroups: (g) => groups.adGroups.push(g),
      assetGroups: (g) => groups.assetGroups.push(g),
    },
  );
  return groups;
}
