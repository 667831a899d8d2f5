import { mergePartOutputs } from '../generation/index.ts';
import type { CampaignOutput } from './campaignJobs.ts';

/** A pool's Campaigns job parts as one output (on the page; see generation/enginePool.ts). */
export function mergeCampaignParts(parts: CampaignOutput[]): Promise<CampaignOutput> {
  return mergePartOutputs(parts, ['adGroupCount', 'assetGroupCount', 'campaignCount']);
}
