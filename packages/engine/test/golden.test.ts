/**
 * Golden test: a fixture feed and templates through every generator and every export table.
 * The expected files live in test/golden/ (vitest -u rewrites them after a reviewed change).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  adGroupsTable,
  assetGroupsTable,
  buildPerformanceMaxPreview,
  buildRsaPreview,
  campaignsTable,
  formatCsvText,
  formatTsv,
  generateCampaignStructure,
  generateExtensions,
  generatePerformanceMaxAds,
  generateResponsiveSearchAds,
  importCsvRows,
  keywordsTable,
  performanceMaxAdsTable,
  responsiveSearchAdsTable,
  restoreAdTemplate,
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restorePerformanceMaxTemplate,
  restoreRsaTemplate,
  scoreExtensionTemplate,
  withRowIds,
  type FeedRow,
} from '../src/index.ts';
import { extensionsTable } from '../src/export.ts';
import { convertLegacyAdTemplate } from '../src/ads/legacyToRsa.ts';
import { scorePerformanceMaxTemplate, scoreRsaTemplate } from '../src/scores.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFileSync(path.join(here, 'fixtures', name), 'utf8');
const json = (name: string): unknown => JSON.parse(fixture(name));
const golden = (name: string) => path.join(here, 'golden', name);
const today = '20261122';

function feedRows(): FeedRow[] {
  const imported = importCsvRows(fixture('feed.csv'));
  if (!imported.ok) throw new Error(imported.error);
  return withRowIds(imported.rows, (i) => `row-${i + 1}`);
}

describe('golden: search campaign', () => {
  const rows = feedRows();
  const structure = generateCampaignStructure({
    template: restoreCampaignTemplate(json('campaign.json')),
    rows,
  });

  it('campaigns, ad groups, keywords and negatives', async () => {
    await expect(formatCsvText(campaignsTable(structure.campaigns))).toMatchFileSnapshot(
      golden('campaigns.csv'),
    );
    await expect(formatCsvText(adGroupsTable(structure.adGroups))).toMatchFileSnapshot(
      golden('ad-groups.csv'),
    );
    await expect(formatCsvText(keywordsTable(structure.keywords))).toMatchFileSnapshot(
      golden('keywords.csv'),
    );
    await expect(formatCsvText(keywordsTable(structure.negatives))).toMatchFileSnapshot(
      golden('negatives.csv'),
    );
    await expect(JSON.stringify(structure.issues, null, 2)).toMatchFileSnapshot(
      golden('structure-issues.txt'),
    );
    expect(structure.keywords).toHaveLength(18);
  });

  it('responsive search ads, score and preview', async () => {
    const template = restoreRsaTemplate(json('rsa.json'));
    const out = generateResponsiveSearchAds({
      template,
      rows,
      adGroups: structure.adGroups,
      today,
    });
    await expect(formatCsvText(responsiveSearchAdsTable(out.ads))).toMatchFileSnapshot(
      golden('responsive-search-ads.csv'),
    );
    await expect(formatTsv(responsiveSearchAdsTable(out.ads.slice(0, 2)))).toMatchFileSnapshot(
      golden('responsive-search-ads.tsv'),
    );
    await expect(JSON.stringify(out.issues, null, 2)).toMatchFileSnapshot(golden('rsa-issues.txt'));
    // Row 7 has no final URL: it gets no ad (skipped), and the score counts it as failing.
    expect(scoreRsaTemplate(template, rows).text).toBe('5/7 (71%) 😐');
    await expect(JSON.stringify(buildRsaPreview({ template, rows }), null, 2)).toMatchFileSnapshot(
      golden('rsa-preview.txt'),
    );
  });

  it('legacy expanded text ads, converted to responsive search ads', async () => {
    const { templates } = convertLegacyAdTemplate(restoreAdTemplate(json('legacy-ad.json')), []);
    const ads = templates.flatMap(
      (template) =>
        generateResponsiveSearchAds({ template, rows, adGroups: structure.adGroups, today }).ads,
    );
    await expect(formatCsvText(responsiveSearchAdsTable(ads))).toMatchFileSnapshot(
      golden('legacy-converted-rsa.csv'),
    );
  });

  it.each(['callout.json', 'sitelink.json', 'snippet.json'])('extensions from %s', async (file) => {
    const template = restoreExtensionTemplate(json(file));
    const campaign = restoreCampaignTemplate(json('campaign.json'));
    const out = generateExtensions({ template, rows, campaign });
    await expect(formatCsvText(extensionsTable(out.extensions))).toMatchFileSnapshot(
      golden(file.replace('.json', '.csv')),
    );
    const score = scoreExtensionTemplate(template, rows);
    expect(score.valid).toBe(rows.length - out.issues.length);
  });
});

describe('golden: performance campaign', () => {
  const rows = feedRows();
  const structure = generateCampaignStructure({
    template: restoreCampaignTemplate(json('pmax-campaign.json')),
    rows,
  });

  it('asset groups and Performance Max ads', async () => {
    await expect(formatCsvText(assetGroupsTable(structure.assetGroups))).toMatchFileSnapshot(
      golden('asset-groups.csv'),
    );
    const template = restorePerformanceMaxTemplate(json('pmax.json'));
    const out = generatePerformanceMaxAds({
      template,
      rows,
      assetGroups: structure.assetGroups,
      today,
    });
    await expect(formatCsvText(performanceMaxAdsTable(out.ads))).toMatchFileSnapshot(
      golden('performance-max-ads.csv'),
    );
    expect(scorePerformanceMaxTemplate(template, rows).text).toBe('5/7 (71%) 😐');
    expect(buildPerformanceMaxPreview({ template, rows })).toMatchObject({
      status: 'ok',
      rowIndex: 0,
      fallbackIndex: 0,
    });
  });
});
