import {
  findBuildStatus,
  findFormulaCells,
  generateExtensions,
  linesOfItems,
  type AttachLevelChoice,
  type CampaignTemplate,
  type ExtensionTemplate,
} from '@adloom/engine';
import {
  lineOfRowIdOf,
  packIssues,
  packTable,
  type EngineJobHandler,
  type PackedTable,
} from '../generation/jobs.ts';
import { extensionCopyTable, extensionEditorTable } from './extensionTables.ts';

/** What the extension generation job sends back. */
export interface GeneratedExtensionsOutput {
  /** The Editor layout: shown, and saved by 'Download for Google Ads Editor'. */
  table: PackedTable;
  /** The copy layout (every field of the type). */
  copyTable: PackedTable;
  issues: PackedTable;
  /** Where the assets attached, and why. */
  attach: AttachLevelChoice;
}

/**
 * Generates the assets of a template over the selected rows, in the engine worker, attached to
 * the campaigns or ad groups the campaign template makes of them (or the account).
 */
export const generateExtensionsJob: EngineJobHandler<
  { template: ExtensionTemplate; campaign: CampaignTemplate | null },
  GeneratedExtensionsOutput
> = (input, ctx) => {
  const type = input.template.extensionType.name;
  const { extensions, issues, attach } = generateExtensions({
    template: input.template,
    rows: ctx.rows,
    ...(input.campaign ? { campaign: input.campaign } : {}),
  });
  ctx.progress(0.6);
  // Some row paused: assets only paused rows make go out Paused (an account-level asset, made
  // from no row, never). Without a campaign template every asset is account-level.
  const status = input.campaign
    ? findBuildStatus({ rows: ctx.rows, campaign: input.campaign, extensions: [input.template] })
    : undefined;
  ctx.progress(0.8);
  return {
    table: {
      ...packTable(extensionEditorTable(type, extensions, status)),
      lines: linesOfItems(extensions, (e) => e.rowId, lineOfRowIdOf(ctx.rows, ctx.rowPositions)),
    },
    copyTable: packTable(extensionCopyTable(type, extensions)),
    issues: packIssues(
      issues.concat(findFormulaCells(ctx.rows, { extensions: [input.template] })),
      ctx,
    ),
    attach,
  };
};

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    generateExtensions: typeof generateExtensionsJob;
  }
}
