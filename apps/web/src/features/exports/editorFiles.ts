import { EXTENSION_TYPES, type CampaignType } from '@adloom/engine';
import type { AdsEditorRef } from '../ad-templates/adJobs.ts';
import { AD_FILE_NAMES, type AdOutputs } from '../ad-templates/adOutputStore.ts';
import type { OutputOrigin } from '../exports/outputOrigin.ts';
import {
  CAMPAIGN_FILE_NAMES,
  type CampaignTabOutputs,
} from '../campaign-template/campaignTabState.ts';
import type { ExtensionOutputs } from '../extension-template/extensionOutput.ts';
import { EXTENSION_FILE_NAMES } from '../extension-template/extensionTables.ts';
import { IMAGES_NEEDED_FILE_TEXT } from '@adloom/engine';
import { editorFileName, editorZipFileName } from './fileNames.ts';
import type { PackedTable } from '../generation/packTable.ts';

/** One output's skipped and cleaned items in the report: which output, which template. */
export interface ReportPart {
  output: string;
  template: string;
  issues: PackedTable;
}

/**
 * One file of the zip: an Editor CSV of a packed table the page holds (campaign tab,
 * extensions) or of the ads the engine worker keeps (`ads`; the page holds only the shown
 * columns of those), the skipped-and-cleaned report (a CSV for a spreadsheet), or a text.
 */
export type EditorZipFile =
  | { name: string; table: PackedTable }
  | { name: string; ads: AdsEditorRef }
  | { name: string; report: ReportPart[] }
  | { name: string; text: string };

/** Every kept output of the active client, as the tabs' stores hold them. */
export interface GeneratedOutputs {
  client: string | null;
  /** The Campaigns tab's outputs, one per campaign type (`campaignTabOutputOf(outputs)`). */
  campaigns: CampaignTabOutputs;
  ads: AdOutputs;
  /** The Extensions tab's outputs, one per type (`extensionOutputsOf(outputs)`). */
  extensions: ExtensionOutputs;
}

/** The zip's name: `<client> - all outputs - <yyyymmdd>.zip`. */
export function allOutputsZipName(client: string | null, today = new Date()): string {
  return editorZipFileName(client, 'all outputs', today);
}

/** The output word of the report's file name. */
export const REPORT_FILE_NAME = 'skipped and cleaned';
/** The output word of the images note's file name. */
export const IMAGES_FILE_NAME = 'performance max images needed';

/** How the report names each campaign type's structure. */
const CAMPAIGN_OUTPUT_NAMES: Record<CampaignType, string> = {
  search: 'Search campaign structure',
  performance: 'Performance Max campaign structure',
};

const AD_OUTPUT_NAMES: Record<keyof AdOutputs, string> = {
  rsa: 'Responsive search ads',
  performance: 'Performance Max ads',
};

/** 'campaign template ‘Shoes’': the report's Template cell. */
function templateOf(origin: OutputOrigin): string {
  return `${origin.templateLabel} ‘${origin.templateName}’`;
}

/**
 * The files of every kept output, each Editor CSV under the name its tab's own 'Download for
 * Google Ads Editor' gives it: per campaign type keywords, negatives, asset groups (Performance
 * Max) and campaigns (a Performance Max table whose name a Search one already has is called
 * 'performance max <table>'), responsive search ads, Performance Max ads, and each extension
 * type generated. Then the skipped-and-cleaned report of all of them and, with asset groups or
 * Performance Max ads, the note that they still need images. An output without lines (cleared)
 * has no file; with no output file there is nothing at all.
 */
export function collectEditorFiles(outputs: GeneratedOutputs, today = new Date()): EditorZipFile[] {
  const { client } = outputs;
  const name = (output: string) => editorFileName(client, output, today);
  const files: EditorZipFile[] = [];
  const report: ReportPart[] = [];
  const taken = new Set<string>();
  let needsImages = false;
  const addTable = (output: string, table: PackedTable) => {
    if (table.rowCount === 0) return;
    const fileName = name(taken.has(output) ? `performance max ${output}` : output);
    taken.add(output);
    files.push({ name: fileName, table });
  };

  for (const type of ['search', 'performance'] as const) {
    const campaign = outputs.campaigns[type];
    if (!campaign) continue;
    const { output } = campaign;
    addTable(CAMPAIGN_FILE_NAMES.keywords, output.keywords);
    addTable(CAMPAIGN_FILE_NAMES.negatives, output.negatives);
    if (type === 'performance') {
      addTable(CAMPAIGN_FILE_NAMES.assetGroups, output.assetGroups);
      if (output.assetGroups.rowCount > 0) needsImages = true;
    }
    addTable(CAMPAIGN_FILE_NAMES.campaigns, output.campaigns);
    report.push({
      output: CAMPAIGN_OUTPUT_NAMES[type],
      template: templateOf(campaign.origin),
      issues: output.issues,
    });
  }

  for (const kind of ['rsa', 'performance'] as const) {
    const ads = outputs.ads[kind];
    if (!ads) continue;
    if (ads.adCount > 0) {
      files.push({ name: name(AD_FILE_NAMES[kind]), ads: { kind, outputId: ads.outputId } });
      if (kind === 'performance') needsImages = true;
    }
    report.push({
      output: AD_OUTPUT_NAMES[kind],
      template: templateOf(ads.origin),
      issues: ads.issues,
    });
  }

  for (const type of EXTENSION_TYPES) {
    const extension = outputs.extensions[type];
    if (!extension) continue;
    addTable(EXTENSION_FILE_NAMES[type], extension.table);
    report.push({ output: type, template: templateOf(extension.origin), issues: extension.issues });
  }

  if (files.length === 0) return [];
  files.push({ name: name(REPORT_FILE_NAME), report });
  if (needsImages)
    files.push({
      name: `${name(IMAGES_FILE_NAME).slice(0, -'.csv'.length)}.txt`,
      text: IMAGES_NEEDED_FILE_TEXT,
    });
  return files;
}
