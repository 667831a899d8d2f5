import { testJobContext } from '../generation/testing/jobContext.ts';
import { describe, expect, it } from 'vitest';
import { newCampaignTemplate, type CampaignTemplate, type FeedRow } from '@adloom/engine';
import type { EngineJobContext } from '../generation/jobTypes.ts';
import { readPackedCell, type PackedTable } from '../output/packTable.ts';
import { generateCampaignJob } from './campaignJobs.ts';

function row(id: string, root: string, mod: string): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url: '' };
}

function context(rows: FeedRow[], positions: number[]): EngineJobContext {
  return testJobContext(rows, { positions });
}

function lines(table: PackedTable): string[] {
  return Array.from({ length: table.rowCount }, (_, r) =>
    table.headers.map((_, c) => readPackedCell(table, r, c)).join(' | '),
  );
}

describe('generateCampaignJob', () => {
  it('packs keywords, negatives, campaigns and the issues with feed row numbers', async () => {
    const template: CampaignTemplate = {
      ...newCampaignTemplate('t'),
      campaign: '{root}',
      adGroup: '{root} {mt}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Broad', selected: true },
        { keyword: '{root} {mod}', matchType: 'Exact', selected: true },
      ],
    };
    const rows = [row('a', 'Nike', 'Shoes'), row('b', 'Puma', '(new)')];
    const out = await generateCampaignJob({ template }, context(rows, [3, 7]));
    expect(lines(out.keywords)).toEqual([
      'Nike | Nike Broad | nike shoes | Broad',
      'Nike | Nike Exact | nike shoes | Exact',
      'Puma | Puma Broad | puma new | Broad',
      'Puma | Puma Exact | puma new | Exact',
    ]);
    expect(lines(out.negatives)).toEqual([
      'Nike | Nike Broad | nike shoes | Negative Exact',
      'Puma | Puma Broad | puma new | Negative Exact',
    ]);
    expect(out.campaigns.headers).toEqual(['Campaign', 'Campaign Type', 'Budget']);
    expect(lines(out.campaigns)[0]).toBe('Nike | Search | 0.01');
    // The cleaned keyword of the second selected row is feed row 8.
    expect(lines(out.issues)[0]).toMatch(/^8 \| Cleaned \| Removed/);
    expect(out.adGroupCount).toBe(4);
  });

  it('gives a Performance Max template asset groups and no keywords', async () => {
    const template: CampaignTemplate = {
      ...newCampaignTemplate('t'),
      type: 'performance',
      campaign: '{root} PMax',
      assetGroup: '{root} {mod}',
    };
    const out = await generateCampaignJob({ template }, context([row('a', 'Nike', 'Shoes')], [0]));
    expect(lines(out.assetGroups)).toEqual(['Nike PMax | Nike Shoes | Performance Max']);
    expect(out.keywords.rowCount).toBe(0);
    expect(out.assetGroupCount).toBe(1);
  });
});
