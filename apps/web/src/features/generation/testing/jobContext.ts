import type { CampaignTemplate, FeedRow } from '@adloom/engine';
import { campaignGroupsOf, type CampaignGroups } from '../campaignGroups.ts';
import type { EngineJobContext } from '../jobTypes.ts';

/**
 * A job context as the worker makes one, for job tests: the rows at positions 0.. (or the given
 * ones), progress reported to `onProgress`, and campaign groups made by the engine and kept per
 * template as the worker keeps them.
 */
export function testJobContext(
  rows: readonly FeedRow[],
  options: { positions?: readonly number[]; onProgress?: (fraction: number) => void } = {},
): EngineJobContext {
  let kept: { key: string; groups: CampaignGroups } | null = null;
  const ctx: EngineJobContext = {
    get whole() {
      return ctx;
    },
    rows,
    rowPositions: Uint32Array.from(options.positions ?? rows.map((_, i) => i)),
    progress: options.onProgress ?? (() => undefined),
    campaignGroups(template: CampaignTemplate) {
      const key = JSON.stringify(template);
      if (kept?.key !== key) kept = { key, groups: campaignGroupsOf(template, rows) };
      return kept.groups;
    },
    keepCampaignGroups(template: CampaignTemplate, groups: CampaignGroups) {
      kept = { key: JSON.stringify(template), groups };
    },
  };
  return ctx;
}
