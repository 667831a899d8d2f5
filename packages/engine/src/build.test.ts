import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateResponsiveSearchAds } from './ads/rsa.ts';
import { generateBuild } from './build.ts';
import { writeKeywordsCsv } from './campaign.ts';
import { importCsvRows, withRowIds } from './data.ts';
import { generateExtensions } from './extensions.ts';
import {
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restoreRsaTemplate,
} from './restore.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures');
const json = (name: string): unknown => JSON.parse(readFileSync(path.join(fixtures, name), 'utf8'));

describe('generateBuild', () => {
  it('makes what the generators make one by one, identical extensions once', () => {
    const imported = importCsvRows(readFileSync(path.join(fixtures, 'feed.csv'), 'utf8'));
    if (!imported.ok) throw new Error(imported.error);
    const rows = withRowIds(imported.rows, (i) => `row-${i + 1}`);
    const campaign = restoreCampaignTemplate(json('campaign.json'));
    const rsa = restoreRsaTemplate(json('rsa.json'));
    const callout = restoreExtensionTemplate(json('callout.json'));
    const today = '20261122';
    const chunks = { keywords: [] as string[], negatives: [] as string[] };
    const build = generateBuild(
      { rows, campaign, rsa, extensions: [callout, callout], today },
      { keywords: (c) => chunks.keywords.push(c), negatives: (c) => chunks.negatives.push(c) },
    );

    const want = { keywords: [] as string[], negatives: [] as string[] };
    const structure = writeKeywordsCsv(
      { template: campaign, rows },
      { keywords: (c) => want.keywords.push(c), negatives: (c) => want.negatives.push(c) },
    );
    expect(chunks).toEqual(want);
    expect(build.keywordLines).toBe(structure.keywordLines);
    const ads = generateResponsiveSearchAds({
      template: rsa,
      rows,
      adGroups: build.adGroups,
      today,
    });
    expect(build.rsaAds).toEqual(ads.ads);
    const callouts = generateExtensions({ template: callout, rows, campaign });
    expect(callouts.extensions.length).toBeGreaterThan(0);
    expect(build.extensions.get('Callout')).toEqual(callouts.extensions);
    expect(build.issues).toEqual([
      ...structure.issues,
      ...ads.issues,
      ...callouts.issues,
      ...callouts.issues,
    ]);
  });
});
