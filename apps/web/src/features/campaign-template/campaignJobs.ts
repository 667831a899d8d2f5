import {
  adGroupsTable,
  assetGroupsTable,
  campaignsTable,
  editorStatus,
  findBuildStatus,
  findFormulaCells,
  forEachKeywordLine,
  keywordsTable,
  linesOfCampaigns,
  linesOfItems,
  type AdGroupRef,
  type AssetGroupRef,
  type BuildStatus,
  type CampaignRow,
  type CampaignTemplate,
  type MatchType,
} from '@adloom/engine';
import {
  AdGroupCollector,
  AdGroupNames,
  ColumnPacker,
  gridRowOf,
  lineOfRowIdOf,
  packIssues,
  packTable,
  Uint32Builder,
  issueKeysOf,
  wholeTablePart,
  type EngineJobHandler,
  type PackedTable,
  type PackedValues,
  type PartOutput,
} from '../generation/jobs.ts';

/** What 'Generate Keywords or Output' yields, packed for the page. */
export interface CampaignOutput extends PartOutput {
  keywords: PackedTable;
  negatives: PackedTable;
  /** The ad groups, in the columns of the engine's `adGroupsTable` (Search; none for Performance Max). */
  adGroups: PackedTable;
  campaigns: PackedTable;
  assetGroups: PackedTable;
  issues: PackedTable;
  adGroupCount: number;
  assetGroupCount: number;
  /** Campaigns (the campaigns table also holds a row per location). */
  campaignCount: number;
}

/** The Criterion Type cell of a line (as the engine's `criterionType`), by match type. */
const GROUP_CRITERION: Record<MatchType, string> = {
  Broad: 'Broad',
  Phrase: 'Phrase',
  Exact: 'Exact',
  'Negative Broad': 'Negative Broad',
  'Negative Phrase': 'Negative Phrase',
  'Negative Exact': 'Negative Exact',
};
const CAMPAIGN_CRITERION: Record<MatchType, string> = {
  ...GROUP_CRITERION,
  'Negative Broad': 'Campaign Negative Broad',
  'Negative Phrase': 'Campaign Negative Phrase',
  'Negative Exact': 'Campaign Negative Exact',
};

/**
 * Packs keyword lines as they come, in the columns of the engine's `keywordsTable` (with its
 * Status column when some row is paused: `status`), and each line's feed line.
 */
class KeywordLinePacker {
  private readonly campaigns = new ColumnPacker();
  private readonly adGroupCodes = new Uint32Builder();
  private readonly keywords = new ColumnPacker();
  private readonly criteria = new ColumnPacker();
  private readonly statuses: ColumnPacker | undefined;
  private readonly lines = new Uint32Builder();
  rowCount = 0;

  constructor(
    private readonly adGroups: AdGroupNames,
    private readonly rowPositions: Uint32Array,
    private readonly status: BuildStatus | undefined,
  ) {
    if (status) this.statuses = new ColumnPacker();
  }

  readonly line = (
    campaign: string,
    adGroup: string,
    keyword: string,
    matchType: MatchType,
    groupId = -1,
    row = -1,
  ): void => {
    this.campaigns.add(campaign);
    this.adGroupCodes.push(this.adGroups.code(adGroup, groupId));
    this.keywords.add(keyword);
    this.criteria.add((adGroup === '' ? CAMPAIGN_CRITERION : GROUP_CRITERION)[matchType]);
    this.statuses?.add(
      editorStatus(this.status!.keywordPaused(campaign, adGroup, keyword, matchType)),
    );
    this.lines.push(row < 0 ? 0 : (this.rowPositions[row] ?? row) + 1);
    this.rowCount += 1;
  };

  /** The table; `adGroupValues` are the shared ad groups' values (finished once for both). */
  finish(adGroupValues: PackedValues): PackedTable {
    return {
      headers: [...keywordsTable([], this.status).headers],
      rowCount: this.rowCount,
      columns: [
        this.campaigns.finish(),
        { ...adGroupValues, codes: this.adGroupCodes.finish() },
        this.keywords.finish(),
        this.criteria.finish(),
        ...(this.statuses ? [this.statuses.finish()] : []),
      ],
      lines: this.lines.finish(),
    };
  }
}

/**
 * Packs ad groups as they come, in the columns of the engine's `adGroupsTable` (Campaign, Ad
 * Group, and Ad Group Status when some row is paused: `status`), each with its feed line. The
 * names share the keyword tables' packed ad group values.
 */
class AdGroupLinePacker {
  private readonly campaigns = new ColumnPacker();
  private readonly nameCodes = new Uint32Builder();
  private readonly statuses: ColumnPacker | undefined;
  private readonly lines = new Uint32Builder();
  rowCount = 0;

  constructor(
    private readonly names: AdGroupNames,
    private readonly lineOfRowId: (rowId: string) => number,
    private readonly status: BuildStatus | undefined,
  ) {
    if (status) this.statuses = new ColumnPacker();
  }

  readonly add = (group: AdGroupRef, groupId = -1): void => {
    this.campaigns.add(group.campaign);
    this.nameCodes.push(this.names.code(group.adGroup, groupId));
    this.statuses?.add(editorStatus(this.status!.groupPaused(group.campaign, group.adGroup)));
    this.lines.push(group.id === '' ? 0 : this.lineOfRowId(group.id));
    this.rowCount += 1;
  };

  finish(names: PackedValues): PackedTable {
    return {
      headers: [...adGroupsTable([], this.status).headers],
      rowCount: this.rowCount,
      columns: [
        this.campaigns.finish(),
        { ...names, codes: this.nameCodes.finish() },
        ...(this.statuses ? [this.statuses.finish()] : []),
      ],
      lines: this.lines.finish(),
    };
  }
}

/**
 * Generates the campaign structure of a template over the selected rows (in the worker). The
 * lines go straight into the packed tables (no line objects); the ad groups and asset groups are
 * kept for the ad jobs.
 */
export const generateCampaignJob: EngineJobHandler<
  { template: CampaignTemplate },
  CampaignOutput
> = (input, ctx) => {
  ctx.progress(0.05);
  // Some row paused: the run is made once more over its active rows (findBuildStatus), and the
  // tables get Editor's status columns. Otherwise they are those of a feed without the column.
  const status = findBuildStatus({ rows: ctx.rows, campaign: input.template, extensions: [] });
  const adGroupNames = new AdGroupNames();
  const keywords = new KeywordLinePacker(adGroupNames, ctx.rowPositions, status);
  const negatives = new KeywordLinePacker(adGroupNames, ctx.rowPositions, status);
  const adGroups = new AdGroupCollector(adGroupNames);
  const lineOfRowId = lineOfRowIdOf(ctx.rows, ctx.rowPositions);
  const adGroupLines = new AdGroupLinePacker(adGroupNames, lineOfRowId, status);
  const campaigns: CampaignRow[] = [];
  const assetGroups: AssetGroupRef[] = [];
  // A part of a pool's job (ctx.part) says where its sections end and the row behind each
  // blocking check's issue, for the page to merge the parts (see mergeParts.ts).
  const marks = { keywords: [] as number[], negatives: [] as number[], adGroups: [] as number[] };
  const issueMarks: number[] = [];
  const findRows: number[] = [];
  const result = forEachKeywordLine(
    {
      template: input.template,
      rows: ctx.rows,
      // Messages that name another row name its grid row, as the panel's Row column does.
      rowLabel: (n) => `row ${gridRowOf(ctx.rowPositions, n) ?? n}`,
    },
    {
      keywords: keywords.line,
      negatives: negatives.line,
      campaigns: (c) => campaigns.push(c),
      adGroups: (group, groupId) => {
        adGroups.add(group, groupId);
        adGroupLines.add(group, groupId);
      },
      assetGroups: (g) => assetGroups.push(g),
      ...(ctx.part
        ? {
            section: (issues: number) => {
              marks.keywords.push(keywords.rowCount);
              marks.negatives.push(negatives.rowCount);
              marks.adGroups.push(adGroupLines.rowCount);
              issueMarks.push(issues);
            },
            findRow: (row: number) => findRows.push(row),
          }
        : {}),
    },
  );
  ctx.progress(0.8);
  const issues = result.issues.concat(findFormulaCells(ctx.rows, { campaign: input.template }));
  const adGroupValues = adGroupNames.values.finishValues();
  const adGroupList = adGroups.finish(adGroupValues);
  ctx.keepCampaignGroups(input.template, { adGroups: adGroupList, assetGroups });
  const output: CampaignOutput = {
    keywords: keywords.finish(adGroupValues),
    negatives: negatives.finish(adGroupValues),
    adGroups: adGroupLines.finish(adGroupValues),
    campaigns: {
      ...packTable(campaignsTable(campaigns, status)),
      lines: linesOfCampaigns(campaigns, lineOfRowId),
    },
    assetGroups: {
      ...packTable(assetGroupsTable(assetGroups, status)),
      lines: linesOfItems(assetGroups, (g) => g.id, lineOfRowId),
    },
    issues: packIssues(issues, ctx),
    adGroupCount: adGroupList.length,
    assetGroupCount: assetGroups.length,
    campaignCount: campaigns.length,
  };
  if (ctx.part) {
    // Sections: the template's own issues, the rows (and held negatives), the blocking checks'
    // issues, the Exact keywords' Negative Exact lines (and the formula cells' issues). A
    // performance template's run calls no section: all is the rows'.
    const ends = (at: number[], total: number, more: number[] = []): number[] =>
      at.length > 0 ? [...at, total, ...more] : [0, total, total, total, ...more];
    const engineIssues = result.issues.length;
    output.tableParts = {
      keywords: { ends: ends(marks.keywords, output.keywords.rowCount) },
      negatives: { ends: ends(marks.negatives, output.negatives.rowCount) },
      adGroups: { ends: ends(marks.adGroups, output.adGroups.rowCount) },
      campaigns: wholeTablePart(output.campaigns),
      assetGroups: wholeTablePart(output.assetGroups),
      issues: {
        keys: issueKeysOf(issues, ctx.rowPositions, { from: issueMarks[1] ?? 0, rows: findRows }),
        ends: ends(issueMarks, engineIssues, [issues.length]),
      },
    };
  }
  ctx.progress(1);
  return output;
};

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    generateCampaign: typeof generateCampaignJob;
  }
}
