import type { CampaignTemplate } from '@adloom/engine';
import { createStore } from '../../state/store.ts';

/** The campaign structure last generated on the Campaigns tab (ad groups, asset groups). */
export interface CampaignOutputInfo {
  /** The campaign template it was generated with: pass it to ad jobs (`ctx.campaignGroups`). */
  template: CampaignTemplate;
  adGroupCount: number;
  assetGroupCount: number;
  /** The selected rows' version it was generated from. */
  rowsVersion: number;
}

/**
 * Null until keywords (or asset groups) are generated, and again once the campaign template
 * changes (spec section 4: changing the campaign template clears output, asset groups and ad
 * groups).
 */
export const campaignOutputStore = createStore<CampaignOutputInfo | null>(null);
