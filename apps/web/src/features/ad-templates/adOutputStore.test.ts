import { describe, expect, it } from 'vitest';
import type { CampaignTemplate } from '@adloom/engine';
import { campaignOutputOf } from '../builder/campaignOutputStore.ts';
import { OutputRegistry } from '../builder/outputRegistry.ts';
import type { AdOutput } from './adJobs.ts';
import { adOutputsOf } from './adOutputStore.ts';

const campaign = {
  template: {} as CampaignTemplate,
  adGroupCount: 1,
  assetGroupCount: 0,
  rowsVersion: 1,
};

describe('adOutputsOf', () => {
  it('clears the ads when the campaign output they came from is cleared', () => {
    const outputs = new OutputRegistry();
    campaignOutputOf(outputs).set(campaign);
    const ads = adOutputsOf(outputs);
    ads.set({ rsa: {} as AdOutput, performance: null });
    campaignOutputOf(outputs).set(null);
    expect(ads.get()).toEqual({ rsa: null, performance: null });
  });

  it('clears the ads when the client changes', () => {
    const outputs = new OutputRegistry();
    campaignOutputOf(outputs).set(campaign);
    const ads = adOutputsOf(outputs);
    ads.set({ rsa: {} as AdOutput, performance: null });
    outputs.dropClient();
    expect(campaignOutputOf(outputs).get()).toBeNull();
    expect(ads.get()).toEqual({ rsa: null, performance: null });
  });
});
