import type { CampaignTemplate, CampaignType } from '@adloom/engine';
import type { Store } from '../../state/store.ts';
import { useKeptOutputs } from './keptOutputs.ts';
import type { OutputOrigin } from './outputOrigin.ts';
import type { OutputRegistry } from './outputRegistry.ts';

/** The campaign structure last generated on the Campaigns tab (ad groups, asset groups). */
export interface CampaignOutputInfo {
  /** The campaign template it was generated with: pass it to ad jobs (`ctx.campaignGroups`). */
  template: CampaignTemplate;
  adGroupCount: number;
  assetGroupCount: number;
  origin: OutputOrigin;
}

/** The kept campaign structure of each campaign type (search: ad groups; performance: asset groups). */
export type CampaignOutputInfos = Readonly<Partial<Record<CampaignType, CampaignOutputInfo>>>;

/**
 * Per campaign type, the structure generated last, until a generation of that type replaces it
 * or the client changes; another campaign template chosen keeps it (issue 14: a build stays).
 */
export function campaignOutputOf(outputs: OutputRegistry): Store<CampaignOutputInfos> {
  return outputs.clientStore<CampaignOutputInfos>('campaignOutput', {});
}

/** The campaign output store of the workspace around this component. */
export function useCampaignOutputStore(): Store<CampaignOutputInfos> {
  return campaignOutputOf(useKeptOutputs().outputs);
}
