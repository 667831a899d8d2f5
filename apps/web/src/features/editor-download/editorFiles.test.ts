import { testJobContext } from '../generation/testing/jobContext.ts';
import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import {
  newCampaignTemplate,
  newExtensionTemplate,
  newPerformanceMaxTemplate,
  type CampaignTemplate,
  type FeedRow,
  type RsaTemplate,
} from '@adloom/engine';
import {
  adsEditorCsvJob,
  generatePerformanceAdsJob,
  generateRsaJob,
  type AdOutput,
} from '../ad-templates/adJobs.ts';
import { generateCampaignJob, type CampaignOutput } from '../campaign-template/campaignJobs.ts';
import type { CampaignTabOutput } from '../campaign-template/campaignTabState.ts';
import type { ExtensionOutput } from '../extension-template/extensionOutput.ts';
import { generateExtensionsJob } from '../extension-template/extensionJobs.ts';
import type { EngineJobContext } from '../generation/jobTypes.ts';
import { formatPackedJob } from '../output/outputJobs.ts';
import { emptyPackedTable, type PackedTable } from '../generation/packTable.ts';
import { allOutputsZipName, collectEditorFiles, type GeneratedOutputs } from './editorFiles.ts';
import { zipEditorFilesJob } from './editorZipJob.ts';

const TODAY = new Date(2026, 10, 23);
const ROWS: FeedRow[] = [
  { id: 'a', root: 'Nike', mod: 'Shoes', var1: '', var2: '', var3: '', url: 'https://a.example' },
  { id: 'b', root: 'Puma', mod: 'Boots', var1: '', var2: '', var3: '', url: 'https://b.example' },
];

function ctx(rows: readonly FeedRow[] = ROWS): EngineJobContext {
  return testJobContext(rows);
}

function campaignTemplate(type: CampaignTemplate['type']): CampaignTemplate {
  return {
    ...newCampaignTemplate('Brands'),
    type,
    campaign: '{root}',
    adGroup: '{root} {mod}',
    assetGroup: '{root} {mod}',
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Broad' },
      { keyword: '{root} {mod}', matchType: 'Exact' },
      { keyword: 'cheap {mod}', matchType: 'Negative Broad' },
    ],
  };
}

const RSA: RsaTemplate = {
  name: 'Ads',
  templates: [
    {
      headlines: ['Buy {root}', 'Free delivery', 'Official store'].map((text) => ({
        text,
        pos: 0,
      })),
      descriptions: ['Shop {root} {mod}.', 'Great prices.'].map((text) => ({ text, pos: 0 })),
      paths: ['{mod}', ''],
      labels: [],
    },
  ],
};

function performanceTemplate() {
  const template = newPerformanceMaxTemplate('Assets');
  template.templates[0] = {
    ...template.templates[0]!,
    headlines: ['{root}', 'Free delivery', 'Official store'].map((text) => ({ text, pos: 0 })),
    longHeadlines: [{ text: 'Buy {root} {mod} online', pos: 0 }],
    descriptions: ['Shop {root}.', 'Great prices.'].map((text) => ({ text, pos: 0 })),
    businessName: 'Shoe Shop',
    callToAction: 'Shop now',
  };
  return template;
}

async function campaignTab(template: CampaignTemplate): Promise<CampaignTabOutput> {
  const output = (await generateCampaignJob({ template }, ctx())) as CampaignOutput;
  return { template, output, rowCount: ROWS.length, elapsedMs: 1 };
}

async function calloutOutput(client: string | null): Promise<ExtensionOutput> {
  const base = newExtensionTemplate('Callouts', 'Callout');
  const template = {
    ...base,
    templates: [{ ...base.templates[0], 'Callout text': 'All {root} {mod}' }],
  };
  const campaign = campaignTemplate('search');
  const result = await generateExtensionsJob({ template, campaign }, ctx());
  return {
    ...result,
    client,
    templateName: 'Callouts',
    type: 'Callout',
    campaignTemplateName: campaign.name,
  };
}

/** The text of a file with its byte order mark kept. */
function readText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** The bytes a table's own 'Download for Google Ads Editor' saves (OutputTable's job). */
async function ownCsv(table: PackedTable): Promise<Uint8Array> {
  return bytesOf((await formatPackedJob({ table, format: 'csv' }, ctx([]))).blob);
}

/** The bytes an ad tab's own 'Download for Google Ads Editor' saves. */
async function ownAdsCsv(kind: 'rsa' | 'performance', ads: AdOutput): Promise<Uint8Array> {
  return bytesOf((await adsEditorCsvJob({ kind, outputId: ads.outputId }, ctx([]))).blob);
}

async function unzip(outputs: GeneratedOutputs) {
  const files = collectEditorFiles(outputs, TODAY);
  const { blob } = await zipEditorFilesJob({ files }, ctx([]));
  return { files, entries: unzipSync(await bytesOf(blob)) };
}

describe('collectEditorFiles and zipEditorFilesJob', () => {
  it('zip the Editor CSV of every shown output under its own download name, byte for byte', async () => {
    const search = campaignTemplate('search');
    const campaign = await campaignTab(search);
    const rsa = (await generateRsaJob(
      { template: RSA, campaign: search, today: '20261123' },
      ctx(),
    )) as AdOutput;
    const performance = (await generatePerformanceAdsJob(
      { template: performanceTemplate(), campaign: campaignTemplate('performance'), today: '' },
      ctx(),
    )) as AdOutput;
    const extension = await calloutOutput('Acme');

    const { entries } = await unzip({
      client: 'Acme',
      campaign,
      campaignTemplate: search,
      ads: { rsa, performance },
      extension,
      extensionTemplateName: 'Callouts',
    });

    expect(Object.keys(entries)).toEqual([
      'Acme - keywords - 20261123.csv',
      'Acme - negatives - 20261123.csv',
      'Acme - campaigns - 20261123.csv',
      'Acme - responsive search ads - 20261123.csv',
      'Acme - performance max ads - 20261123.csv',
      'Acme - callouts - 20261123.csv',
    ]);
    expect(entries['Acme - keywords - 20261123.csv']).toEqual(
      await ownCsv(campaign.output.keywords),
    );
    expect(entries['Acme - negatives - 20261123.csv']).toEqual(
      await ownCsv(campaign.output.negatives),
    );
    expect(entries['Acme - campaigns - 20261123.csv']).toEqual(
      await ownCsv(campaign.output.campaigns),
    );
    expect(entries['Acme - responsive search ads - 20261123.csv']).toEqual(
      await ownAdsCsv('rsa', rsa),
    );
    expect(entries['Acme - performance max ads - 20261123.csv']).toEqual(
      await ownAdsCsv('performance', performance),
    );
    expect(entries['Acme - callouts - 20261123.csv']).toEqual(await ownCsv(extension.table));

    // The files are the Editor CSVs, not the shown columns: BOM, Editor header, CRLF lines.
    const keywords = readText(entries['Acme - keywords - 20261123.csv']!).split('\r\n');
    expect(keywords[0]).toBe('\uFEFFCampaign,Ad Group,Keyword,Criterion Type');
    expect(keywords.filter((line) => line !== '')).toHaveLength(1 + 4);
    const ads = readText(entries['Acme - responsive search ads - 20261123.csv']!).split('\r\n');
    expect(ads[0]).toMatch(/^\uFEFFCampaign,Ad Group,Ad type,Headline 1,/);
    expect(ads.filter((line) => line !== '')).toHaveLength(1 + 2);
  });

  it('takes the asset groups of a Performance Max campaign and leaves out emptied tables', async () => {
    const pmax = campaignTemplate('performance');
    const campaign = await campaignTab(pmax);
    const cleared = {
      ...campaign,
      output: { ...campaign.output, negatives: emptyPackedTable(['Campaign']) },
    };
    const { entries } = await unzip({
      client: null,
      campaign: cleared,
      campaignTemplate: pmax,
      ads: { rsa: null, performance: null },
      extension: null,
      extensionTemplateName: null,
    });
    expect(Object.keys(entries)).toEqual([
      'adloom - asset groups - 20261123.csv',
      'adloom - campaigns - 20261123.csv',
    ]);
    expect(entries['adloom - asset groups - 20261123.csv']).toEqual(
      await ownCsv(campaign.output.assetGroups),
    );
  });

  it('leaves out outputs their tab no longer shows: another campaign template, client or extension template', async () => {
    const search = campaignTemplate('search');
    const campaign = await campaignTab(search);
    const outputs: GeneratedOutputs = {
      client: 'Acme',
      campaign,
      campaignTemplate: { ...search },
      ads: { rsa: null, performance: null },
      extension: await calloutOutput('Other client'),
      extensionTemplateName: 'Callouts',
    };
    expect(collectEditorFiles(outputs, TODAY)).toEqual([]);
    expect(
      collectEditorFiles(
        { ...outputs, extension: await calloutOutput('Acme'), extensionTemplateName: 'Sitelinks' },
        TODAY,
      ),
    ).toEqual([]);
    expect(
      collectEditorFiles({ ...outputs, extension: await calloutOutput('Acme') }, TODAY).map(
        (f) => f.name,
      ),
    ).toEqual(['Acme - callouts - 20261123.csv']);
  });

  it('fails with the regenerate message when the worker no longer holds the ads', async () => {
    const files = [{ name: 'x.csv', ads: { kind: 'rsa' as const, outputId: 'gone' } }];
    expect(() => zipEditorFilesJob({ files }, ctx([]))).toThrow(
      'Generate the ads again to download them for Google Ads Editor',
    );
  });

  it('names the zip <client> - all outputs - <yyyymmdd>.zip', () => {
    expect(allOutputsZipName('Acme: Shoes', TODAY)).toBe(
      'Acme- Shoes - all outputs - 20261123.zip',
    );
    expect(allOutputsZipName(null, TODAY)).toBe('adloom - all outputs - 20261123.zip');
  });
});
