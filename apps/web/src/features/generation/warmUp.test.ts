import { describe, expect, it } from 'vitest';
import { newCampaignTemplate, restoreRsaTemplate, type FeedRow } from '@adloom/engine';
import { adsEditorCsvJob, generateRsaJob } from '../ad-templates/adJobs.ts';
import { localJobContext } from './localJobContext.ts';
import { warmUpEngine } from './warmUp.ts';

describe('warmUpEngine', () => {
  it('runs the generation paths and leaves the ads a person generated as they were', async () => {
    const rows: FeedRow[] = [
      { id: 'a', root: 'Nike', mod: 'Air', var1: '', var2: '', var3: '', url: 'https://a.example' },
    ];
    const campaign = {
      ...newCampaignTemplate('C'),
      campaign: '{root}',
      adGroup: '{root} {mt}',
      keywords: [{ keyword: '{root}', matchType: 'Broad' as const, selected: true }],
    };
    const template = restoreRsaTemplate({
      name: 'T',
      templates: [{ headlines: ['{root}', 'b', 'c'], descriptions: ['d', 'e'] }],
    });
    const ctx = localJobContext(rows);
    const output = await generateRsaJob({ template, campaign, today: '20261124' }, ctx);
    warmUpEngine();
    // The worker still holds the person's ads: the Editor file is theirs, not the warm-up's.
    const csv = await (
      await adsEditorCsvJob({ kind: 'rsa', outputId: output.outputId }, ctx)
    ).blob.text();
    expect(csv.split('\r\n')).toHaveLength(3);
    expect(csv).toContain('Nike Broad');
    expect(csv).not.toContain('warm');
  });
});
