/**
 * The keyword path's run over the rows (see keywordsCsv.ts): its parts made for the template,
 * every row read, then what waits for the end written.
 */
import type { GenerateCampaignStructureInput, KeywordsCsvSinks } from '../campaignInput.ts';
import { CampaignRowMaker } from '../campaignRows.ts';
import type { RowIssue } from '../issues.ts';
import { resolveKeywordNotation } from '../keywords.ts';
import { defaultRowLabel, foldName } from '../names.ts';
import { GroupClosing } from './closing.ts';
import { KeywordConflicts } from './conflicts.ts';
import { HeldLines } from './heldLines.ts';
import { CsvChunks, type LineWriter } from './lineWriters.ts';
import { groupsOfRows, lastRowsOfGroups } from './lookAhead.ts';
import { compileKeywordPatterns } from './patterns.ts';
import { PendingExacts } from './pendingExact.ts';
import { RowGroups } from './rowGroups.ts';
import { RowIssues } from './rowIssues.ts';
import { RowReader } from './rowReader.ts';
import { RowTexts } from './rowTexts.ts';
import { GroupLineSets, TextKeyTable } from './textTables.ts';

/** A group's lines are kept in its place up to what one row adds to it (see GroupLineSets). */
function inlineLines(perRow: number): number {
  return Math.min(4, Math.max(1, perRow));
}

/**
 * The input with its template's keywords in Google's notation read once
 * (`resolveKeywordNotation`), their problems reported before any row's.
 */
function withNotationRead(
  input: GenerateCampaignStructureInput,
  report: (issue: RowIssue) => void,
): GenerateCampaignStructureInput {
  const resolved = resolveKeywordNotation(input.template);
  for (const i of resolved.issues) report(i);
  return resolved.template === input.template ? input : { ...input, template: resolved.template };
}

/** The fast path itself. */
export function runSearchKeywordLines(
  input: GenerateCampaignStructureInput,
  sinks: Pick<KeywordsCsvSinks, 'campaigns' | 'adGroups'> & {
    section?: () => void;
    findRow?: (row: number) => void;
  },
  keywordCsv: LineWriter,
  negativeCsv: LineWriter,
  report: (issue: RowIssue) => void,
): { keywordLines: number; negativeLines: number } {
  input = withNotationRead(input, report);
  sinks.section?.();
  const { template, rows } = input;
  const rowLabel = input.rowLabel ?? defaultRowLabel;
  const p = compileKeywordPatterns(template);
  const { splitsByMatchType, positiveCount, negativeCount } = p;
  const issues = new RowIssues(report);
  const texts = new RowTexts(p, template, rows, issues);
  const rowGroups = new RowGroups(p, texts);

  const campaigns = new TextKeyTable(texts.spellCampaign, 1024, 0, foldName);
  // Groups: a = campaign id; pattern = group match type code; campaign level (no group): row -1.
  // At most one group per row and match type (more only for campaign-level negatives). The slots
  // are sized for that too: a hash table's pages are touched only where entries land, so a table
  // sized for the upper bound costs what the groups use, and it is never rebuilt as it fills.
  const maxGroups = rows.length * (splitsByMatchType ? 3 : 1);
  // With {mt} (three groups a row), closed groups are taken out of the look-ups
  // (`TextKeyTable.forget`), so the slots are sized for the open groups.
  const groups = new TextKeyTable(
    texts.spellGroup,
    splitsByMatchType ? 1024 : maxGroups,
    maxGroups,
    foldName,
  );
  // Lines per group: match type code and keyword; pattern = index in `pats`.
  // With template negatives, each group's lines are listed for the blocking check at the end.
  // A template with positive keywords closes each group after the last row that can reach it
  // (see lookAhead.ts): its held negatives are written then and its lines dropped, so the sets
  // hold the open groups' lines, not every line of the run.
  const closesGroups = positiveCount > 0;
  const lines = new GroupLineSets(
    texts.remakeKeyword,
    maxGroups,
    rows.length * positiveCount,
    negativeCount > 0,
    closesGroups,
    inlineLines(positiveCount),
  );
  const negatives = new GroupLineSets(
    texts.remakeKeyword,
    maxGroups,
    0,
    false,
    closesGroups,
    inlineLines(negativeCount),
  );
  // Template negatives are held to the end, when the keywords they may block are all known.
  const drop = template.settings.dropBlockingNegatives;
  const heldCapacity = rows.length * negativeCount * (splitsByMatchType ? 3 : 1);
  const held = new HeldLines(
    p,
    texts,
    rowGroups,
    campaigns,
    groups,
    lines,
    negativeCsv,
    drop,
    heldCapacity,
  );
  // The look-ahead: per row whether it is the last that can reach its group(s).
  const lastRows = closesGroups && !splitsByMatchType ? lastRowsOfGroups(input, texts) : undefined;
  const mtGroups =
    closesGroups && splitsByMatchType ? groupsOfRows(input, texts, p.reachMts) : undefined;
  // Exact keywords to add as Negative Exact to their campaign's Broad group at the end.
  const pending = new PendingExacts(
    p,
    texts,
    rows,
    campaigns,
    groups,
    negatives,
    mtGroups ? 3 * rows.length : 0,
  );
  const closing = closesGroups
    ? new GroupClosing(
        p,
        texts,
        rowGroups,
        groups,
        lines,
        negatives,
        held,
        pending,
        lastRows,
        mtGroups,
        maxGroups,
      )
    : undefined;
  // Without negative patterns, only pending lines are negative lines, so as long as each finds
  // its Broad group when it is made, whether it is a duplicate is known then: such lines are
  // written as they come (in order), the rest (from the first that cannot) are made again at the
  // end. With negative patterns, the pending lines come after the template's negatives: all are
  // kept as numbers (row, pattern, campaign, group) and made again at the end (kept as formatted
  // CSV they held about 85 MB at 1M rows of a `{mt}` template).
  const canKeepPending = negativeCount === 0;
  const plainMask = negativeCsv instanceof CsvChunks && negativeCsv.neutralise ? 0 : 7;
  const conflicts = new KeywordConflicts(texts, groups, rowLabel, issues, input);
  const reader = new RowReader({
    p,
    rows,
    rowLabel,
    texts,
    issues,
    rowGroups,
    campaigns,
    groups,
    lines,
    negatives,
    held,
    pending,
    conflicts,
    closing,
    lastRows,
    mtGroups,
    sinks,
    campaignRows: new CampaignRowMaker(template),
    keywordCsv,
    negativeCsv,
    plainMask,
    canKeepPending,
  });
  for (let r = 0; r < rows.length; r++) reader.readRow(r);

  if (closing && rows.length > 0) closing.closeAfter(rows.length - 1);
  // The held lines not written yet; then the Exact keywords as Negative Exact in the ad group
  // whose {mt} is Broad.
  held.write(closing ? closing.heldFrom : 0, () => true);
  writeLast(
    sinks,
    canKeepPending,
    () => held.reportFinds(rows, rowLabel, report, sinks.findRow),
    () => pending.writeAll(negativeCsv, plainMask),
  );
  keywordCsv.end();
  negativeCsv.end();
  return { keywordLines: keywordCsv.count, negativeLines: negativeCsv.count };
}

/**
 * The blocking checks' reports (`reportFinds`), then the pending lines (`writePending`), with the
 * run's section calls (see KeywordLineSinks.section). Without negative patterns the pending lines
 * written as they came and those made again here are one section: which ones wait for the end
 * depends on every campaign (from the first that could not be written on).
 */
function writeLast(
  sinks: { section?: () => void },
  canKeepPending: boolean,
  reportFinds: () => void,
  writePending: () => void,
): void {
  // Two section ends either way, so a merge of parts counts the same sections in every part.
  if (canKeepPending) {
    reportFinds();
    writePending();
    sinks.section?.();
    sinks.section?.();
  } else {
    sinks.section?.();
    reportFinds();
    sinks.section?.();
    writePending();
  }
}
