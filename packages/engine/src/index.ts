/** Adloom engine: feed rows + templates -> keywords, ads, asset groups, extensions, validation, export tables. */
// What the apps use (in each module's order); the rest stays inside the engine.
export {
  FEED_COLUMNS,
  type FeedColumn,
  type FeedRow,
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
} from './campaign.ts';
export { type CampaignRow } from './campaignRows.ts';
export {
  type GenerateAdsResult,
  formatDateDigits,
  type TextFailure,
  describeFailure,
} from './ads/shared.ts';
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
  splitSnippetValues,
  findExtensionProblem,
  compileExtensionTemplate,
  fillExtensionValues,
  type GenerateExtensionsInput,
  generateExtensions,
} from './extensions.ts';
export { makeScore, SCORE_NO_MATCH_COLOR, scoreExtensionTemplate } from './scores.ts';
export { formatCsv, type FormatCsvOptions, formatCsvText, formatTsv, type Table } from './csv.ts';
export { type FormulaCheckTemplates, findFormulaCells, startsLikeFormula } from './formulaCells.ts';
export {
  splitSeedLines,
  combineSeeds,
  limitFeedCell,
  findFeedColumn,
  importCsvRows,
  withRowIds,
} from './data.ts';
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
  responsiveSearchAdsTable,
  performanceMaxAdsTable,
  sitelinksTable,
  calloutsTable,
  structuredSnippetsTable,
  structuredSnippetsCopyTable,
} from './export.ts';
export {
  type GenerateBuildInput,
  type GenerateBuildSinks,
  type GenerateBuildResult,
  generateBuild,
} from './build.ts';
