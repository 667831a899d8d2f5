import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import {
  IMAGES_NEEDED_FILE_TEXT,
  newCampaignTemplate,
  newExtensionTemplate,
  newPerformanceMaxTemplate,
  type CampaignTemplate,
  type ExtensionTypeName,
  type FeedRow,
  type RsaTemplate,
} from '@adloom/engine';
import {
  generatePerformanceAdsJob,
  generateRsaJob,
  type AdOutput,
} from '../features/ad-templates/adJobs.ts';
import {
  adOutputsOf,
  type AdOutputs,
  type KeptAdOutput,
} from '../features/ad-templates/adOutputStore.ts';
import { adsExportTable } from '../features/ad-templates/exportTables.ts';
import {
  generateCampaignJob,
  type CampaignOutput,
} from '../features/campaign-template/campaignJobs.ts';
import {
  campaignTabOutputOf,
  type CampaignTabOutput,
  type CampaignTabOutputs,
} from '../features/campaign-template/campaignTabState.ts';
import { generateExtensionsJob } from '../features/extension-template/extensionJobs.ts';
import {
  extensionOutputsOf,
  type ExtensionOutput,
  type ExtensionOutputs,
} from '../features/extension-template/extensionOutput.ts';
import { exportFileNames } from '../features/exports/downloads.ts';
import { allOutputsZipName, everythingExport } from '../features/exports/everything.ts';
import type { TableSource } from '../features/exports/exportables.ts';
import { exportFilesJob, type ExportFilesInput } from '../features/exports/exportJobs.ts';
import type { OutputOrigin } from '../features/exports/outputOrigin.ts';
import { OutputRegistry } from '../features/exports/outputRegistry.ts';
import {
  emptyPackedTable,
  packIssues,
  type PackedTable,
} from '../features/generation/packTable.ts';
import { testJobContext } from '../features/generation/testing/jobContext.ts';
import { EXPORTED_TABLES } from './exportedTables.ts';

const TODAY = new Date(2026, 10, 23);
const ROWS: FeedRow[] = [
  { id: 'a', root: 'Nike', mod: 'Shoes', var1: '', var2: '', var3: '', url: 'https://a.example' },
  { id: 'b', root: 'Puma', mod: 'Boots', var1: '', var2: '', var3: '', url: 'https://b.example' },
];

const ctx = (rows: readonly FeedRow[] = ROWS) => testJobContext(rows);

/** Every kept output of the active client, as the tabs' stores hold them. */
interface GeneratedOutputs {
  client: string | null;
  campaigns: CampaignTabOutputs;
  ads: AdOutputs;
  extensions: ExtensionOutputs;
}

/** A workspace's outputs holding `outputs` in the tabs' stores. */
function registryOf(outputs: GeneratedOutputs): OutputRegistry {
  const registry = new OutputRegistry();
  campaignTabOutputOf(registry).set(outputs.campaigns);
  adOutputsOf(registry).set(outputs.ads);
  extensionOutputsOf(registry).set(outputs.extensions);
  return registry;
}

/** "Download everything" of `outputs`: what goes to the worker, as the button sends it. */
function everything(outputs: GeneratedOutputs): ExportFilesInput {
  return everythingExport(EXPORTED_TABLES, registryOf(outputs), outputs.client, TODAY);
}

/** The names of the files "Download everything" zips (the button's list). */
function fileNamesOf(outputs: GeneratedOutputs): string[] {
  return exportFileNames(everything(outputs));
}

/** The bytes of an export job's Blob. */
async function run(input: ExportFilesInput): Promise<Uint8Array> {
  const { blob } = (await exportFilesJob(input, ctx([]))) as { blob: Blob };
  return new Uint8Array(await blob.arrayBuffer());
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

function originOf(templateLabel: string, templateName: string): OutputOrigin {
  return {
    templateKind: 'campaignTemplates',
    templateLabel,
    templateName,
    templateJson: '{}',
    feedName: 'brands',
    rowCount: ROWS.length,
    rowsKey: 'brands\u001f1',
    generatedAt: TODAY,
  };
}

async function campaignTab(template: CampaignTemplate): Promise<CampaignTabOutput> {
  const output = (await generateCampaignJob({ template }, ctx())) as CampaignOutput;
  return {
    template,
    output,
    rowCount: ROWS.length,
    elapsedMs: 1,
    origin: originOf('campaign template', template.name),
  };
}

function kept(ads: AdOutput, templateName: string): KeptAdOutput {
  return {
    ...ads,
    origin: originOf('RSA template', templateName),
    groupsOrigin: originOf('campaign template', 'Brands'),
  };
}

/** Extensions of a type whose first fallback holds `values`, as the Extensions tab keeps them. */
async function extensionOutput(
  type: ExtensionTypeName,
  values: Record<string, string>,
): Promise<ExtensionOutput> {
  const base = newExtensionTemplate(type, type);
  const template = { ...base, templates: [{ ...base.templates[0], ...values }] };
  const campaign = campaignTemplate('search');
  const result = await generateExtensionsJob({ template, campaign }, ctx());
  return {
    ...result,
    templateName: type,
    type,
    campaignTemplateName: campaign.name,
    origin: originOf(`${type} template`, type),
    placesOrigin: originOf('campaign template', campaign.name),
  };
}

const calloutOutput = () => extensionOutput('Callout', { 'Callout text': 'All {root} {mod}' });

/** The text of a file with its byte order mark kept. */
function readText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/** The bytes a table's own 'Download for Google Ads Editor' saves (the tab's download). */
function ownDownload(source: TableSource): Promise<Uint8Array> {
  return run({
    format: 'google-ads-editor',
    tables: [{ kind: 'keywords', source }],
    naming: null,
    zip: false,
  });
}

const ownCsv = (table: PackedTable) => ownDownload({ packed: table });
const ownAdsCsv = (kind: 'rsa' | 'performance', ads: AdOutput) =>
  ownDownload(adsExportTable(kind, ads.outputId).source);

async function unzip(outputs: GeneratedOutputs) {
  return { entries: unzipSync(await run(everything(outputs))) };
}

/** The lines of a CSV text (BOM kept on the first), without the empty one after the last CRLF. */
function csvLines(bytes: Uint8Array | undefined): string[] {
  const text = readText(bytes!);
  expect(text.endsWith('\r\n')).toBe(true);
  return text.split('\r\n').slice(0, -1);
}

/** A whole build: Search keywords and RSAs, Performance Max asset groups and ads, 3 extensions. */
async function wholeBuild(): Promise<GeneratedOutputs> {
  const search = campaignTemplate('search');
  const pmax = { ...campaignTemplate('performance'), name: 'Assets' };
  const searchTab = await campaignTab(search);
  const rsa = (await generateRsaJob(
    { template: RSA, campaign: search, today: '20261123' },
    ctx(),
  )) as AdOutput;
  const pmaxTab = await campaignTab(pmax);
  const performance = (await generatePerformanceAdsJob(
    { template: performanceTemplate(), campaign: pmax, today: '' },
    ctx(),
  )) as AdOutput;
  return {
    client: 'Acme',
    campaigns: { search: searchTab, performance: pmaxTab },
    ads: { rsa: kept(rsa, 'Ads'), performance: kept(performance, 'Assets') },
    extensions: {
      Callout: await calloutOutput(),
      Sitelink: await extensionOutput('Sitelink', {
        'Link Text': 'Shop {root}',
        'Description Line 1': 'Free delivery',
        'Description Line 2': 'Official {root} store',
        'Final URL': 'https://shop.example/{root}',
      }),
      'Structured Snippet': await extensionOutput('Structured Snippet', {
        Header: 'Brands',
        'Snippet Values': 'Nike; Puma; Adidas',
      }),
    },
  };
}

describe('the registered tables in "Download everything" (exportFiles)', () => {
  it('zip every kept output of a whole build under its own download name, byte for byte', async () => {
    const outputs = await wholeBuild();
    const { entries } = await unzip(outputs);
    const name = (output: string) => `Acme - ${output} - 20261123.csv`;
    expect(Object.keys(entries)).toEqual([
      name('keywords'),
      name('negatives'),
      name('ad groups'),
      name('campaigns'),
      name('asset groups'),
      name('performance max campaigns'),
      name('responsive search ads'),
      name('performance max ads'),
      name('callouts'),
      name('sitelinks'),
      name('structured-snippets'),
      name('skipped and cleaned'),
      'Acme - performance max images needed - 20261123.txt',
    ]);
    const { search, performance } = outputs.campaigns;
    expect(entries[name('keywords')]).toEqual(await ownCsv(search!.output.keywords));
    expect(entries[name('negatives')]).toEqual(await ownCsv(search!.output.negatives));
    expect(entries[name('ad groups')]).toEqual(await ownCsv(search!.output.adGroups));
    expect(entries[name('campaigns')]).toEqual(await ownCsv(search!.output.campaigns));
    expect(entries[name('asset groups')]).toEqual(await ownCsv(performance!.output.assetGroups));
    expect(entries[name('performance max campaigns')]).toEqual(
      await ownCsv(performance!.output.campaigns),
    );
    expect(entries[name('responsive search ads')]).toEqual(
      await ownAdsCsv('rsa', outputs.ads.rsa!),
    );
    expect(entries[name('performance max ads')]).toEqual(
      await ownAdsCsv('performance', outputs.ads.performance!),
    );
    expect(entries[name('callouts')]).toEqual(await ownCsv(outputs.extensions.Callout!.table));
    expect(entries[name('sitelinks')]).toEqual(await ownCsv(outputs.extensions.Sitelink!.table));

    // The files are the Editor CSVs, not the shown columns: BOM, Editor header, CRLF lines.
    const keywords = csvLines(entries[name('keywords')]);
    expect(keywords[0]).toBe('\uFEFFCampaign,Ad Group,Keyword,Criterion Type');
    expect(keywords).toHaveLength(1 + 4);
    // Editor's ad groups file, as the command writes it: one line per ad group.
    expect(csvLines(entries[name('ad groups')])).toEqual([
      '\uFEFFCampaign,Ad Group',
      'Nike,Nike Shoes',
      'Puma,Puma Boots',
    ]);
    const ads = csvLines(entries[name('responsive search ads')]);
    expect(ads[0]).toMatch(/^\uFEFFCampaign,Ad Group,Ad type,Headline 1,/);
    expect(ads).toHaveLength(1 + 2);
    expect(csvLines(entries[name('performance max campaigns')])[1]).toMatch(/^Nike,/);
    expect(readText(entries['Acme - performance max images needed - 20261123.txt']!)).toBe(
      IMAGES_NEEDED_FILE_TEXT,
    );
    const report = csvLines(entries[name('skipped and cleaned')]);
    expect(report[0]).toBe('\uFEFFOutput,Template,Row,What happened,Reason');
  });

  it('write the skipped-and-cleaned report of every output for a spreadsheet, formulas neutralised', async () => {
    const outputs = await wholeBuild();
    const issue = (message: string, rowNumber: number) => ({
      kind: 'skipped' as const,
      output: 'keywords' as const,
      rowId: 'a',
      rowNumber,
      code: 'test',
      message,
    });
    const search = outputs.campaigns.search!;
    const withIssues: GeneratedOutputs = {
      ...outputs,
      campaigns: {
        ...outputs.campaigns,
        search: {
          ...search,
          output: {
            ...search.output,
            issues: packIssues([issue('=HYPERLINK("x") is no keyword', 2)], ctx()),
          },
        },
      },
      extensions: {
        ...outputs.extensions,
        Callout: {
          ...outputs.extensions.Callout!,
          issues: packIssues([issue('-50% is too long', 1)], ctx()),
        },
      },
    };
    const { entries } = await unzip(withIssues);
    const report = csvLines(entries['Acme - skipped and cleaned - 20261123.csv']);
    expect(report).toEqual([
      '\uFEFFOutput,Template,Row,What happened,Reason',
      `Search campaign structure,campaign template ‘Brands’,2,Skipped,"'=HYPERLINK(""x"") is no keyword"`,
      "Callout,Callout template ‘Callout’,1,Skipped,'-50% is too long",
    ]);
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
      campaigns: { performance: cleared },
      ads: { rsa: null, performance: null },
      extensions: {},
    });
    expect(Object.keys(entries)).toEqual([
      'adloom - asset groups - 20261123.csv',
      'adloom - campaigns - 20261123.csv',
      'adloom - skipped and cleaned - 20261123.csv',
      'adloom - performance max images needed - 20261123.txt',
    ]);
    expect(entries['adloom - asset groups - 20261123.csv']).toEqual(
      await ownCsv(campaign.output.assetGroups),
    );
  });

  it('has no file, not even the report, until an output has lines', async () => {
    const none: GeneratedOutputs = {
      client: 'Acme',
      campaigns: {},
      ads: { rsa: null, performance: null },
      extensions: {},
    };
    expect(fileNamesOf(none)).toEqual([]);
    const callouts = await calloutOutput();
    const emptied = { ...callouts, table: emptyPackedTable(callouts.table.headers) };
    expect(fileNamesOf({ ...none, extensions: { Callout: emptied } })).toEqual([]);
    expect(fileNamesOf({ ...none, extensions: { Callout: callouts } })).toEqual([
      'Acme - callouts - 20261123.csv',
      'Acme - skipped and cleaned - 20261123.csv',
    ]);
  });

  it('fails with the regenerate message when the worker no longer holds the ads', async () => {
    const outputs = await wholeBuild();
    const gone = { ...outputs.ads.rsa!, outputId: 'gone' };
    await expect(
      run(everything({ ...outputs, ads: { ...outputs.ads, rsa: gone } })),
    ).rejects.toThrow('Generate the ads again to download them for Google Ads Editor');
  });

  it('names the zip <client> - all outputs - <yyyymmdd>.zip', () => {
    expect(allOutputsZipName('Acme: Shoes', TODAY)).toBe(
      'Acme- Shoes - all outputs - 20261123.zip',
    );
    expect(allOutputsZipName(null, TODAY)).toBe('adloom - all outputs - 20261123.zip');
  });
});
