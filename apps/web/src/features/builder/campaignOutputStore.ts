import type { CampaignTemplate } from '@adloom/engine';
import type { Store } from '../../state/store.ts';
import { useBuilderWorkspace } from './BuilderProvider.tsx';
import type { OutputRegistry } from './outputRegistry.ts';

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
 * groups) or the client does.
 */
export function campaignOutputOf(outputs: OutputRegistry): Store<CampaignOutputInfo | null> {
  return outputs.clientStore<CampaignOutputInfo | null>('campaignOutput', null);
}

/** The campaign output store of the builder around this component. */
export function useCampaignOutputStore(): Store<CampaignOutputInfo | null> {
  return campaignOutputOf(useBuilderWorkspace().outputs);
}
