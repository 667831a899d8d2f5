import { describe, expect, it } from 'vitest';
import { newCampaignTemplate, type CampaignTemplate } from '@adloom/engine';
import { campaignOutputOf, type CampaignOutputInfo } from '../exports/campaignOutputStore.ts';
import type { OutputOrigin } from '../exports/outputOrigin.ts';
import { OutputRegistry } from '../exports/outputRegistry.ts';
import { emptyPackedTable } from '../generation/jobs.ts';
import { adOutputsOf, type KeptAdOutput } from './adOutputStore.ts';

function origin(templateName: string): OutputOrigin {
  return {
    templateKind: 'campaignTemplates',
    templateLabel: 'campaign template',
    templateName,
    templateJson: '{}',
    feedName: 'brands',
    rowCount: 2,
    rowsKey: 'brands\u001f1',
    generatedAt: new Date(2026, 10, 26, 10, 42),
  };
}

function campaign(template: CampaignTemplate): CampaignOutputInfo {
  return { template, adGroupCount: 2, assetGroupCount: 2, origin: origin(template.name) };
}

function ads(outputId: string): KeptAdOutput {
  return {
    table: emptyPackedTable(['Headline 1']),
    issues: emptyPackedTable(['Row']),
    adCount: 2,
    groupCount: 2,
    outputId,
    origin: origin('Ads'),
    groupsOrigin: origin('Shoes'),
  };
}

describe('adOutputsOf', () => {
  it('keeps the ads when another campaign template is generated or the campaign output changes', () => {
    const outputs = new OutputRegistry();
    const search = newCampaignTemplate('Shoes');
    campaignOutputOf(outputs).set({ search: campaign(search) });
    const kept = adOutputsOf(outputs);
    kept.set({ rsa: ads('rsa-1'), performance: null });
    const performance = { ...newCampaignTemplate('Assets'), type: 'performance' as const };
    campaignOutputOf(outputs).set((all) => ({ ...all, performance: campaign(performance) }));
    campaignOutputOf(outputs).set((all) => ({ ...all, search: campaign({ ...search }) }));
    expect(adOutputsOf(outputs).get().rsa?.outputId).toBe('rsa-1');
    expect(Object.keys(campaignOutputOf(outputs).get())).toEqual(['search', 'performance']);
  });

  it('drops every output when the client changes', () => {
    const outputs = new OutputRegistry();
    campaignOutputOf(outputs).set({ search: campaign(newCampaignTemplate('Shoes')) });
    const kept = adOutputsOf(outputs);
    kept.set({ rsa: ads('rsa-1'), performance: ads('pmax-1') });
    outputs.dropClient();
    expect(campaignOutputOf(outputs).get()).toEqual({});
    expect(kept.get()).toEqual({ rsa: null, performance: null });
  });
});
