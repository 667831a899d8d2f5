/** Adloom engine: feed rows + templates -> keywords, ads, asset groups, extensions, validation, export tables. */
// What the apps use (in each module's order); the rest stays inside the engine.
export {
  FEED_COLUMN_DEFINITIONS,
  type FeedColumnDefinition,
  FEED_COLUMNS,
  type FeedColumn,
  FEED_TEXT_COLUMNS,
  type FeedTextColumn,
  FEED_COLUMN_LABELS,
  FEED_COLUMN_MAX_CHARS,
  URL_COLUMN_INDEX,
  STATUS_COLUMN_INDEX,
  type FeedCells,
  newFeedCells,
  newIdentifiedFeedCells,
  completeFeedRow,
  identifiedFeedCellsFrom,
  feedCellsFrom,
  isEmptyFeedCells,
  describeFeedColumnKeys,
} from './feedColumns.ts';
export {
  type FeedRow,
  type FeedRows,
  type FeedDataType,
  type Feed,
  MATCH_TYPES,
  type MatchType,
  type CampaignType,
  type KeywordPattern,
  type OptionalSetting,
  type CampaignSettings,
  type CampaignTemplate,
  type PinnedText,
  type RsaFallback,
  type RsaTemplate,
  CALLS_TO_ACTION,
  type CallToAction,
  type PerformanceMaxFallback,
  type PerformanceMaxTemplate,
  type AdFallback,
  type AdTemplate,
  EXTENSION_TYPES,
  type ExtensionTypeName,
  type ExtensionField,
  type ExtensionValues,
  type ExtensionTemplate,
  EXTENSION_ATTACH_LEVELS,
  type ExtensionAttachLevel,
  type AssetLevel,
  type KeywordLine,
  type AdGroupRef,
  type AssetGroupRef,
} from './types.ts';
export {
  RSA_HEADLINE_MAX_CHARS,
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_PATH_MAX_CHARS,
  RSA_MAX_HEADLINES,
  RSA_MAX_DESCRIPTIONS,
  RSA_MIN_HEADLINES,
  RSA_MIN_DESCRIPTIONS,
  RSA_PATH_COUNT,
  RSA_HEADLINE_MAX_PIN,
  RSA_DESCRIPTION_MAX_PIN,
  PMAX_HEADLINE_MAX_CHARS,
  PMAX_LONG_HEADLINE_MAX_CHARS,
  PMAX_DESCRIPTION_MAX_CHARS,
  PMAX_FIRST_DESCRIPTION_MAX_CHARS,
  PMAX_SHORT_HEADLINE_MAX_CHARS,
  PMAX_SHORT_DESCRIPTION_MAX_CHARS,
  PMAX_PATH_MAX_CHARS,
  PMAX_BUSINESS_NAME_MAX_CHARS,
  PMAX_MAX_HEADLINES,
  PMAX_MAX_LONG_HEADLINES,
  PMAX_MAX_DESCRIPTIONS,
  PMAX_MIN_HEADLINES,
  PMAX_MIN_LONG_HEADLINES,
  PMAX_MIN_DESCRIPTIONS,
  PMAX_TEXT_COUNTS,
  PMAX_MAX_CHARS,
  FEED_CELL_MAX_CHARS,
  FEED_URL_MAX_CHARS,
  LINKED_VARIABLES_ERROR,
  BUDGET_MIN,
  SNIPPET_VALUE_MAX_CHARS,
  SNIPPET_MIN_VALUES,
  SNIPPET_MAX_VALUES,
  EXTENSION_INPUT_MAX_CHARS,
  SNIPPET_HEADERS,
  EXTENSION_TYPE_DEFINITIONS,
  BREAKPOINT_WIDE_PREVIEW_PX,
  OPTIONAL_SETTING_NAME_DISPLAY_MAX_CHARS,
} from './limits.ts';
export { makeUniqueName } from './names.ts';
export {
  findMatchType,
  findCallToAction,
  newFeed,
  newCampaignTemplate,
  restoreCampaignTemplate,
  newRsaFallback,
  newRsaTemplate,
  restoreRsaTemplate,
  newPerformanceMaxFallback,
  newPerformanceMaxTemplate,
  restorePerformanceMaxTemplate,
  newAdFallback,
  restoreAdTemplate,
  findExtensionTypeName,
  findExtensionAttachLevel,
  newExtensionTemplate,
  restoreExtensionTemplate,
} from './restore.ts';
export {
  findCampaignTemplateProblems,
  findRsaTemplateProblems,
  findPerformanceMaxTemplateProblems,
  findAdTemplateProblems,
  findExtensionTemplateProblems,
} from './check.ts';
export {
  PLACEHOLDERS,
  type PlaceholderName,
  type PlaceholderValues,
  compilePattern,
  newValueFacts,
  prepareValueFacts,
  measureFill,
  countAdTextLength,
  findAdTextIssues,
} from './text.ts';
export { type RowIssue } from './issues.ts';
export {
  type GenerateCampaignStructureInput,
  type CampaignStructure,
  generateCampaignStructure,
  type KeywordsCsvSinks,
  type WriteKeywordsCsvResult,
  writeKeywordsCsv,
  type KeywordLinesSinks,
  forEachKeywordLine,
  type KeywordLineSink,
  type RowGroupKeys,
} from './campaign.ts';
export { GroupKeyMaker } from './keywordsCsv.ts';
export { readKeywordNotation, type StatedMatchType } from './keywords.ts';
export { type CampaignRow } from './campaignRows.ts';
export {
  type GenerateAdsResult,
  formatDateDigits,
  type TextFailure,
  describeFailure,
  describeFailureField,
  findPinFailure,
  LABEL_SEPARATOR_REASON,
} from './ads/shared.ts';
export { type EditorialProblem, findEditorialProblems } from './editorial.ts';
export {
  type RsaAd,
  compileRsaTemplate,
  fillRsaFallback,
  type GenerateResponsiveSearchAdsInput,
  generateResponsiveSearchAds,
  forEachResponsiveSearchAd,
} from './ads/rsa.ts';
export {
  type PerformanceMaxAd,
  compilePerformanceMaxTemplate,
  fillPerformanceMaxFallback,
  type GeneratePerformanceMaxAdsInput,
  generatePerformanceMaxAds,
} from './ads/performanceMax.ts';
export { type ConvertedLegacyAd, convertLegacyAdTemplate } from './ads/legacyToRsa.ts';
export {
  type GeneratedExtension,
  findSnippetHeader,
  findSnippetValueProblem,
  splitSnippetValues,
  findExtensionProblem,
  compileExtensionTemplate,
  fillExtensionValues,
  type GenerateExtensionsInput,
  type GeneratedExtensions,
  generateExtensions,
  ACCOUNT_LEVEL_CAMPAIGN,
  type AttachLevelChoice,
  resolveAttachLevel,
} from './extensions.ts';
export {
  type BrandCategoryCounts,
  type XmlRowSource,
  type XmlFeedCells,
  xmlFeedCells,
  type SkippedSnippetValue,
  type XmlSnippets,
  xmlSnippetTemplates,
} from './xmlFeed.ts';
export { makeScore, SCORE_NO_MATCH_COLOR, scoreExtensionTemplate } from './scores.ts';
export {
  formatCsv,
  type FormatCsvOptions,
  formatCsvLine,
  formatCsvText,
  formatTsv,
  forEachCsvRecord,
  type Table,
} from './csv.ts';
export { CsvBytes } from './csvBytes.ts';
export { type FormulaCheckTemplates, findFormulaCells, startsLikeFormula } from './formulaCells.ts';
export { IMAGES_NEEDED_NOTE, IMAGES_NEEDED_FILE_TEXT } from './notes.ts';
export {
  EXPORT_TABLE_KINDS,
  type ExportTableKind,
  type ExportTable,
  type ExportFile,
  type ExportContext,
  type ExportFormat,
  type ExportStream,
  type ExportStreamFile,
  type StreamedTableKind,
  UTF8_BOM,
  exportFileParts,
} from './formats/exportFormat.ts';
export {
  PLAN_ITEM_KINDS,
  type PlanItemKind,
  PLAN_ITEM_KIND_LABELS,
  type ItemStatus,
  ITEM_STATUSES,
  type StatusHeader,
  type PlanKindSpec,
  PLAN_KIND_SPECS,
  itemKindOfTable,
  normalizeHeader,
  describeItem,
} from './plan/kinds.ts';
export {
  type BuildItem,
  type ReadItemsOptions,
  DEFAULT_CLIENT_LABEL,
  normalizeLabels,
  readBuildItems,
  forEachBuildItem,
  RowItemReader,
} from './plan/items.ts';
export {
  type BaselineSource,
  type BaselineItem,
  Baseline,
  emptyBaseline,
} from './plan/baseline.ts';
export {
  BUILD_RECORD_FORMAT,
  BUILD_RECORD_VERSION,
  BUILD_RECORD_FILE_NAME,
  type BuildRecordInfo,
  type BuildRecordHeader,
  type BuildRecordOptions,
  type RecordItem,
  buildRecordChunks,
  BuildRecordReader,
  readBuildRecord,
  recordCountsOfLastChunk,
  BuildRecordWriter,
} from './plan/record.ts';
export {
  baselineItemsToLoad,
  readRecordIdentities,
  type RecordPasses,
} from './plan/recordIdentities.ts';
export {
  type AccountExportOptions,
  type AccountExportSummary,
  AccountExportReader,
  readAccountExport,
} from './plan/account.ts';
export {
  type DroppedPolicy,
  DROPPED_POLICIES,
  type ChangeAction,
  CHANGE_ACTIONS,
  type PlanOptions,
  type PlanCounts,
  type ChangeLine,
  type Collision,
  type ChangePlan,
  planChanges,
} from './plan/plan.ts';
export {
  PLAN_TABLE_HEADERS,
  PLAN_FILE_NAME,
  planLines,
  planCollisions,
  planTable,
  changesTables,
  planRecordChunks,
  planKeptDroppedItems,
} from './plan/changes.ts';
export { addLabel, labelTables } from './plan/label.ts';
export {
  type MicrosoftAccount,
  type MicrosoftAccountOptions,
  type MicrosoftAccountSummary,
  type MicrosoftItemIds,
  MicrosoftAccountReader,
  readMicrosoftAccount,
} from './plan/microsoftAccount.ts';
export {
  type MicrosoftChanges,
  type MicrosoftChangesCounts,
  type MicrosoftChangesOptions,
  MICROSOFT_CHANGES_HEADERS,
  microsoftPlanTables,
  writeMicrosoftChanges,
} from './plan/microsoftChanges.ts';
export {
  type MicrosoftRefusals,
  type MicrosoftRefusalsOptions,
  type MicrosoftPlanInput,
  findMicrosoftRefusals,
  microsoftPlanInput,
  withoutRefused,
} from './plan/microsoftRefusals.ts';
export {
  GOOGLE_ADS_EDITOR,
  IMAGES_NEEDED_FILE_STEM,
  editorFileStem,
} from './formats/googleAdsEditor.ts';
export {
  MICROSOFT_ADVERTISING,
  MICROSOFT_BULK_FILE_STEM,
  MICROSOFT_REPORT_FILE_STEM,
  googleLocationIdsOf,
  writeMicrosoftBulk,
  type MicrosoftBulkCounts,
  type MicrosoftExportContext,
} from './formats/microsoftAdvertising.ts';
export {
  readMicrosoftLocations,
  googleGeoTargetsOf,
  readGoogleGeoTargets,
  locationNamesOf,
  microsoftLocationLookup,
  type GoogleGeoTargets,
  type MicrosoftLocationAnswer,
} from './formats/microsoftLocations.ts';
export {
  splitSeedLines,
  combineSeeds,
  limitFeedCell,
  findFeedColumn,
  importCsvRows,
  detectCsvDelimiter,
  describeCsvReading,
  type CsvDelimiter,
  FeedCsvReader,
  type FeedRowData,
  type TruncatedCell,
  isEmptyFeedRow,
  withRowIds,
} from './data.ts';
export {
  SHEET_HEADER_ROW,
  type SheetHeaderProblem,
  type ReadSheetRowsResult,
  readSheetRows,
  formatSheetValues,
  countSheetRowsNotIn,
} from './sheetRows.ts';
export {
  PREVIEW_MESSAGES,
  type RandomSource,
  seededRandom,
  type MockAd,
  buildRsaPreview,
  buildPerformanceMaxPreview,
} from './preview.ts';
export {
  keywordsTable,
  campaignsTable,
  adGroupsTable,
  assetGroupsTable,
  RSA_HEADERS,
  responsiveSearchAdCells,
  responsiveSearchAdsTable,
  performanceMaxAdsTable,
  sitelinksTable,
  calloutsTable,
  structuredSnippetsTable,
  structuredSnippetsCopyTable,
  withStatusColumn,
  linesOfItems,
  linesOfCampaigns,
} from './export.ts';
export {
  type RowStatus,
  type ReadRowStatus,
  readRowStatus,
  statusOfAvailability,
  ROW_ACTIVE,
  ROW_PAUSED,
  ROW_UNKNOWN_STATUS,
  rowStatusCodes,
  hasPausedRow,
} from './rowStatus.ts';
export {
  type EditorStatus,
  BuildStatus,
  editorStatus,
  type BuildStatusInput,
  findBuildStatus,
} from './buildStatus.ts';
export { campaignParts } from './campaignParts.ts';
export { IntChunks } from './keywords/intLists.ts';
export {
  type GenerateBuildInput,
  type GenerateBuildSinks,
  type GenerateBuildResult,
  type AdGroupStore,
  type AdGroupTarget,
  type SearchAdsInput,
  generateBuild,
  reportUnknownStatuses,
  generateRunExtensions,
  generateSearchAds,
} from './build.ts';
