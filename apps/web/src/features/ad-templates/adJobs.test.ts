import { testJobContext } from '../generation/testing/jobContext.ts';
import { describe, expect, it } from 'vitest';
import {
  newCampaignTemplate,
  newPerformanceMaxTemplate,
  type CampaignTemplate,
  type FeedRow,
  type RsaTemplate,
} from '@adloom/engine';
import { exportFilesJob } from '../exports/exportJobs.ts';
import { unpackTable, type EngineJobContext } from '../generation/jobs.ts';
import { generatePerformanceAdsJob, generateRsaJob, type AdOutput } from './adJobs.ts';
import { adsExportTable } from './exportTables.ts';
import { adsHeldRef } from './adsHeld.ts';
import { readHeldLines } from '../exports/heldTables.ts';

function row(id: string, root: string): FeedRow {
  return { id, root, mod: 'Shoes', var1: '', var2: '', var3: '', url: `https://${id}.example` };
}

const ROWS = [row('a', 'Nike'), row('b', 'Emporio Armani Collection')];

function ctx(rows: readonly FeedRow[]): EngineJobContext {
  return testJobContext(rows);
}

/** The Editor file of the ads the worker holds, as the ad tab's own download makes it. */
function adsEditorCsv(kind: 'rsa' | 'performance', outputId: string) {
  const tables = [adsExportTable(kind, outputId)];
  return exportFilesJob(
    { format: 'google-ads-editor', tables, naming: null, zip: false },
    ctx([]),
  ) as { blob: Blob };
}

function campaign(type: CampaignTemplate['type']): CampaignTemplate {
  const t = newCampaignTemplate('C');
  return {
    ...t,
    type,
    campaign: '{root}',
    adGroup: '{root} {mod}',
    assetGroup: '{root} {mod}',
    keywords: [{ keyword: '{root} {mod}', matchType: 'Broad' }],
  };
}

const rsa: RsaTemplate = {
  name: 'R',
  templates: [
    {
      headlines: [
        { text: 'Buy {root} {mod}', pos: 1 },
        { text: 'Free delivery', pos: 0 },
        { text: 'Official store', pos: 0 },
      ],
      descriptions: [
        { text: 'Shop now.', pos: 0 },
        { text: 'Great prices.', pos: 2 },
      ],
      paths: ['{mod}', ''],
      labels: ['yyyymmdd-v1'],
    },
  ],
};

describe('generateRsaJob', () => {
  it('writes the spec columns with Ad Type Responsive Search Ad and reports rows left out', async () => {
    const out = (await generateRsaJob(
      { template: rsa, campaign: campaign('search'), today: '20261123' },
      ctx(ROWS),
    )) as AdOutput;
    const table = unpackTable(out.table);
    expect(table.headers).toEqual([
      'Campaign',
      'Ad Group',
      'Headline 1',
      'Headline 1 Position',
      'Headline 2',
      'Headline 2 Position',
      'Headline 3',
      'Headline 3 Position',
      'Description Line 1',
      'Description Line 1 Position',
      'Description Line 2',
      'Description Line 2 Position',
      'Path 1',
      'Path 2',
      'Labels',
      'Final URL',
      'Ad Type',
    ]);
    expect([...table.rows]).toEqual([
      [
        'Nike',
        'Nike Shoes',
        'Buy Nike Shoes',
        '1',
        'Free delivery',
        '',
        'Official store',
        '',
        'Shop now.',
        '',
        'Great prices.',
        '2',
        'Shoes',
        '',
        '20261123-v1',
        'https://a.example',
        'Responsive Search Ad',
      ],
    ]);
    expect(out.adCount).toBe(1);
    const issues = [...unpackTable(out.issues).rows];
    expect(issues).toHaveLength(1);
    expect(issues[0]!.join(' ')).toContain('Headline 1 has 35 characters (max 30)');

    const csv = await adsEditorCsv('rsa', out.outputId).blob.text();
    expect(csv.split('\r\n')[0]).toMatch(/^\uFEFFCampaign,Ad Group,Ad type,Headline 1,/);
    expect(csv).toContain('Nike,Nike Shoes,Responsive search ad,Buy Nike Shoes,Free delivery,');
  });

  it("gives each ad its ad group's status when some row is paused, and the ads' feed lines", async () => {
    const rows = [
      row('a', 'Nike'),
      { ...row('b', 'Puma'), status: 'paused' },
      { ...row('c', 'Nike'), mod: 'Boots' },
    ];
    const out = (await generateRsaJob(
      { template: rsa, campaign: campaign('search'), today: '20261123' },
      testJobContext(rows, { positions: [0, 2, 5] }),
    )) as AdOutput;
    const csv = await adsEditorCsv('rsa', out.outputId).blob.text();
    const [header, ...lines] = csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const status = header!.split(',').indexOf('Status');
    expect(status).toBeGreaterThan(0);
    expect(lines.map((l) => [l.split(',')[1], l.split(',')[status]])).toEqual([
      ['Nike Shoes', 'Enabled'],
      ['Puma Shoes', 'Paused'],
      ['Nike Boots', 'Enabled'],
    ]);
    expect(Array.from(readHeldLines(adsHeldRef('rsa', out.outputId))!)).toEqual([1, 3, 6]);
    // Without a paused row the file has no status column.
    const plain = (await generateRsaJob(
      { template: rsa, campaign: campaign('search'), today: '20261123' },
      ctx([row('a', 'Nike')]),
    )) as AdOutput;
    expect((await adsEditorCsv('rsa', plain.outputId).blob.text()).split('\r\n')[0]).not.toContain(
      'Status',
    );
  });

  it('asks for keywords first and refuses an Editor file for ads it no longer holds', async () => {
    expect(() =>
      generateRsaJob(
        { template: rsa, campaign: campaign('performance'), today: '20261123' },
        ctx(ROWS),
      ),
    ).toThrow('Generate keywords before generating ads');
    expect(() => adsEditorCsv('rsa', 'gone')).toThrow(
      'Generate the ads again to download them for Google Ads Editor',
    );
  });
});

describe('generatePerformanceAdsJob', () => {
  it('writes Campaign, Asset Group, the texts, Business Name and Call To Action', async () => {
    const template = newPerformanceMaxTemplate('P');
    template.templates[0] = {
      ...template.templates[0]!,
      headlines: ['{root}', 'Free delivery', 'Official store'].map((text) => ({ text, pos: 0 })),
      longHeadlines: [{ text: 'Buy {root} {mod} online', pos: 0 }],
      descriptions: ['Shop {root}.', 'Great prices.'].map((text) => ({ text, pos: 0 })),
      businessName: 'Shoe Shop',
      callToAction: 'Shop now',
    };
    const out = (await generatePerformanceAdsJob(
      { template, campaign: campaign('performance'), today: '20261123' },
      ctx(ROWS),
    )) as AdOutput;
    const table = unpackTable(out.table);
    expect(table.headers).toEqual([
      'Campaign',
      'Asset Group',
      'Headline 1',
      'Headline 2',
      'Headline 3',
      'Long Headline 1',
      'Description Line 1',
      'Description Line 2',
      'Path 1',
      'Path 2',
      'Business Name',
      'Call To Action',
      'Final URL',
    ]);
    expect([...table.rows][1]).toEqual([
      'Emporio Armani Collection',
      'Emporio Armani Collection Shoes',
      'Emporio Armani Collection',
      'Free delivery',
      'Official store',
      'Buy Emporio Armani Collection Shoes online',
      'Shop Emporio Armani Collection.',
      'Great prices.',
      '',
      '',
      'Shoe Shop',
      'Shop now',
      'https://b.example',
    ]);
    expect(() =>
      generatePerformanceAdsJob(
        { template, campaign: campaign('search'), today: '20261123' },
        ctx(ROWS),
      ),
    ).toThrow('Generate assets before generating ads');
  });
});
