import type { CampaignTemplate } from '@adloom/engine';
import type { AdsEditorRef } from '../ad-templates/adJobs.ts';
import { AD_FILE_NAMES, type AdOutputs } from '../ad-templates/adOutputStore.ts';
import {
  CAMPAIGN_FILE_NAMES,
  type CampaignTabOutput,
} from '../campaign-template/campaignTabState.ts';
import type { ExtensionOutput } from '../extension-template/extensionOutput.ts';
import { EXTENSION_FILE_NAMES } from '../extension-template/extensionTables.ts';
import { editorFileName, editorZipFileName } from '../output/fileNames.ts';
import type { PackedTable } from '../generation/packTable.ts';

/**
 * One Editor CSV of the zip: a packed table the page holds (campaign tab, extensions), or the
 * ads the engine worker keeps (`ads`; the page holds only the shown columns of those).
 */
export type EditorZipFile =
  { name: string; table: PackedTable } | { name: string; ads: AdsEditorRef };

/** Every generated output of the template tabs, as their stores hold them. */
export interface GeneratedOutputs {
  client: string | null;
  /** The Campaigns tab's output (`campaignTabOutputOf(outputs)`). */
  campaign: CampaignTabOutput | null;
  /** The active campaign template: an output made from another one is no longer shown. */
  campaignTemplate: CampaignTemplate | null;
  ads: AdOutputs;
  /** The Extensions tab's output (`extensionsTabStore(workspace).output`). */
  extension: ExtensionOutput | null;
  /** The active extension template's name: an output of another one is no longer shown. */
  extensionTemplateName: string | null;
}

/** The zip's name: `<client> - all outputs - <yyyymmdd>.zip`. */
export function allOutputsZipName(client: string | null, today = new Date()): string {
  return editorZipFileName(client, 'all outputs', today);
}

/**
 * The Editor files of every output a tab shows now, each under the name that tab's own
 * 'Download for Google Ads Editor' gives it: keywords, negatives, asset groups (Performance Max
 * campaigns), campaigns, responsive search ads, Performance Max ads, and the extensions of the
 * generated type. An output without lines (cleared, or none made) has no file.
 */
export function collectEditorFiles(outputs: GeneratedOutputs, today = new Date()): EditorZipFile[] {
  const { client } = outputs;
  const name = (output: string) => editorFileName(client, output, today);
  const files: EditorZipFile[] = [];
  const addTable = (output: string, table: PackedTable) => {
    if (table.rowCount > 0) files.push({ name: name(output), table });
  };

  const campaign = outputs.campaign;
  if (
    campaign &&
    outputs.campaignTemplate !== null &&
    campaign.template === outputs.campaignTemplate
  ) {
    const { output } = campaign;
    addTable(CAMPAIGN_FILE_NAMES.keywords, output.keywords);
    addTable(CAMPAIGN_FILE_NAMES.negatives, output.negatives);
    if (campaign.template.type === 'performance')
      addTable(CAMPAIGN_FILE_NAMES.assetGroups, output.assetGroups);
    addTable(CAMPAIGN_FILE_NAMES.campaigns, output.campaigns);
  }

  for (const kind of ['rsa', 'performance'] as const) {
    const ads = outputs.ads[kind];
    if (ads && ads.adCount > 0)
      files.push({ name: name(AD_FILE_NAMES[kind]), ads: { kind, outputId: ads.outputId } });
  }

  const extension = outputs.extension;
  if (
    extension &&
    extension.client === client &&
    extension.templateName === outputs.extensionTemplateName
  )
    addTable(EXTENSION_FILE_NAMES[extension.type], extension.table);

  return files;
}
