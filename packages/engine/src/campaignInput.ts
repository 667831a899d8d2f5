/**
 * What the campaign structure is made from and where its streamed parts go: the types the keyword
 * path (keywords/) takes, apart from campaign.ts, which runs it (so neither imports the other).
 */
import type { CampaignRow } from './campaignRows.ts';
import type { RowIssue } from './issues.ts';
import type { IntChunks } from './keywords/intLists.ts';
import type { AdGroupRef, AssetGroupRef, CampaignTemplate, FeedRows, MatchType } from './types.ts';

/** Input of `generateCampaignStructure`. */
export interface GenerateCampaignStructureInput {
  template: CampaignTemplate;
  /** The selected feed rows (every row given counts as selected). */
  rows: FeedRows;
  /**
   * How a message names another row, from its number among `rows` (from 1): the grid row in the
   * browser, the file's line on the command line. `row n` when not given.
   */
  rowLabel?: (rowNumber: number) => string;
  /**
   * The rows' group keys made beforehand (`GroupKeyMaker`, perhaps on several threads), for the
   * keyword step's look-ahead; made by the step when not given (or when it does not use them).
   */
  groupKeys?: RowGroupKeys;
  /**
   * Given (some row of the run is paused: `findBuildStatus`), the keyword and negative CSVs get a
   * Status column, Paused for the lines this says (every row behind them is paused).
   */
  keywordPaused?: (campaign: string, adGroup: string, keyword: string, mt: MatchType) => boolean;
}

/** Per row the key of its campaign and ad group, and 1 in `named` when it names both. */
export interface RowGroupKeys {
  keys: Int32Array;
  named: Uint8Array;
}

/** Where `writeKeywordsCsv` sends its CSV chunks. */
export interface KeywordsCsvSinks {
  /** Chunks of the keywords CSV (header first unless `hasHeader` is false). */
  keywords: (chunk: string) => void;
  /** Chunks of the negatives CSV (likewise). */
  negatives: (chunk: string) => void;
  /**
   * False: the chunks start with the first line, the header being the caller's (an export
   * format's streamed file, `ExportFormat.stream`). Default true.
   */
  hasHeader?: boolean;
  /** Campaign rows, in the order of `generateCampaignStructure` (optional). */
  campaigns?: (campaign: CampaignRow) => void;
  /**
   * Ad groups of a search template, in the order of `generateCampaignStructure` (optional).
   * `groupId`, when given, is the id the group's keyword lines carry (see `KeywordLineSink`).
   */
  adGroups?: (adGroup: AdGroupRef, groupId?: number) => void;
  /** Asset groups of a performance template, in the order of `generateCampaignStructure` (optional). */
  assetGroups?: (assetGroup: AssetGroupRef) => void;
  /**
   * Each row problem once it is final, in the order of `WriteKeywordsCsvResult.issues`
   * (optional). Given, `issues` stays empty: a feed of a million rows may report a million.
   */
  issue?: (issue: RowIssue) => void;
  /** Where each keyword line's row (index among the rows) goes, in line order (optional). */
  keywordRows?: IntChunks;
  /** Where each negative line's row goes, likewise (optional). */
  negativeRows?: IntChunks;
}
