/**
 * The keyword lines of a search template, streamed: as Editor CSV chunks (`writeKeywordsCsv`) or
 * as fields (`forEachKeywordLine`, which the object API collects), for feeds of a million rows.
 * It is checked against a plain implementation of the same rules (test/reference).
 *
 * What makes it fast: no line, campaign or group objects and no Map entry per group. Campaigns,
 * ad groups and keyword lines are remembered in open-addressing hash tables of typed arrays
 * (hash, the row and pattern that first made the entry). A name or keyword is not kept: when a
 * later one has the same hash, the first one is made again from its row and compared (and then
 * kept, as such a name recurs). The same row and pattern always make the same text, so the common
 * case compares no text at all. Exact keywords waiting to become Negative Exact lines are kept
 * as (row, pattern) numbers and made again at the end.
 *
 * The pieces live in keywords/, one concern a file: plans.ts (names and keywords made from their
 * pieces when they need no tidying), rowTexts.ts (a row's texts, and texts made again),
 * rowGroups.ts (the row's campaign and ad groups), textTables.ts (the sets of names and lines),
 * rowReader.ts (one row read: campaign, groups, keyword lines, negatives), pendingExact.ts (Exact
 * keywords as Negative Exact lines of the Broad group), heldLines.ts and blocking.ts (template
 * negatives held, checked against the keywords they may block, written), conflicts.ts (a keyword
 * and match type in several ad groups of a campaign), lookAhead.ts and
 * closing.ts (groups closed after their last row), groupKeys.ts (the look-ahead's keys),
 * lineWriters.ts (CSV chunks or fields), run.ts (the run over the rows).
 */
import type { GenerateCampaignStructureInput, KeywordsCsvSinks } from './campaignInput.ts';
import { resolveCsvOptions, type FormatCsvOptions } from './csv.ts';
import type { RowIssue } from './issues.ts';
import { CsvChunks, FieldLines, LinePrefix, type KeywordLineSink } from './keywords/lineWriters.ts';
import { runSearchKeywordLines } from './keywords/run.ts';

export { keywordsCsvHeader, type KeywordLineSink } from './keywords/lineWriters.ts';
export { OUTPUT_KEYWORDS } from './keywords/rowIssues.ts';
export { GroupKeyMaker } from './keywords/groupKeys.ts';

/** Where `forEachSearchKeywordLine` hands its lines, campaign rows and ad groups. */
export interface KeywordLineSinks {
  keywords: KeywordLineSink;
  negatives: KeywordLineSink;
  campaigns?: KeywordsCsvSinks['campaigns'];
  adGroups?: KeywordsCsvSinks['adGroups'];
  /**
   * Called where one part of the run's output ends and the next begins: after the template's own
   * issues (before any row's), after the rows are read (every group closed), and after the
   * held negatives and their reports (before the Exact keywords added as Negative Exact). Runs
   * over parts of a feed that each hold whole campaigns write, section by section and merged by
   * row, what the whole run writes (the web's worker pool; see `campaignParts` and the web's
   * `mergeParts.ts`). `issues`: how many issues the run has reported so far.
   */
  section?: (issues: number) => void;
  /**
   * Called before each issue a blocking check reports (after the rows, in the held negatives'
   * order) with the index of the row of the negative line it is about.
   */
  findRow?: (row: number) => void;
}

/**
 * The fast keyword lines of a search template (see the file comment), written as CSV. Returns
 * the line counts; each issue is handed to `issue` once it is final, in report order. Search
 * templates only (a performance template makes no keyword lines).
 */
export function writeSearchKeywordsCsv(
  input: GenerateCampaignStructureInput,
  sinks: KeywordsCsvSinks,
  options: FormatCsvOptions,
  issue: (issue: RowIssue) => void,
): { keywordLines: number; negativeLines: number } {
  const resolved = resolveCsvOptions(options);
  const prefix = new LinePrefix();
  const isPaused = input.keywordPaused;
  const { hasHeader } = sinks;
  const keywordCsv = new CsvChunks(sinks.keywords, resolved, prefix, {
    isPaused,
    rows: sinks.keywordRows,
    hasHeader,
  });
  const negativeCsv = new CsvChunks(sinks.negatives, resolved, prefix, {
    isPaused,
    rows: sinks.negativeRows,
    hasHeader,
  });
  return runSearchKeywordLines(input, sinks, keywordCsv, negativeCsv, issue);
}

/**
 * The same lines as `writeSearchKeywordsCsv`, in the same order, as fields: no CSV text is made.
 * Returns the line counts; issues are handed to `issue` as in `writeSearchKeywordsCsv`. Search
 * templates only.
 */
export function forEachSearchKeywordLine(
  input: GenerateCampaignStructureInput,
  sinks: Omit<KeywordLineSinks, 'section'> & { section?: () => void },
  issue: (issue: RowIssue) => void,
): { keywordLines: number; negativeLines: number } {
  const keywords = new FieldLines(sinks.keywords);
  const negatives = new FieldLines(sinks.negatives);
  return runSearchKeywordLines(input, sinks, keywords, negatives, issue);
}
