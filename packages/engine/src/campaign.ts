/**
 * Campaign template -> structure: campaign rows, ad groups (or asset groups), keyword lines and
 * negatives for the selected feed rows.
 */
import { DEFAULT_CHUNK_LINES, formatCsvCell, type FormatCsvOptions } from './csv.ts';
import {
  compileCampaignRow,
  GeneratedAdGroup,
  GeneratedAssetGroup,
  type CampaignRow,
} from './campaignRows.ts';
import type { RowIssue } from './issues.ts';
import { cleanFilledKeyword } from './keywords.ts';
import {
  forEachSearchKeywordLine,
  writeSearchKeywordsCsv,
  type KeywordLineSink,
  type KeywordLineSinks,
} from './keywordsCsv.ts';
import {
  compilePattern,
  fillPattern,
  type CompiledPattern,
  type PlaceholderValues,
} from './text.ts';
import type {
  AdGroupRef,
  AssetGroupRef,
  CampaignTemplate,
  FeedRow,
  KeywordLine,
  MatchType,
} from './types.ts';

export { groupKey, type CampaignRow, type EditorCampaignType } from './campaignRows.ts';

/** Input of `generateCampaignStructure`. */
export interface GenerateCampaignStructureInput {
  template: CampaignTemplate;
  /** The selected feed rows (every row given counts as selected). */
  rows: readonly FeedRow[];
}

/** Everything a campaign template yields. */
export interface CampaignStructure {
  campaigns: CampaignRow[];
  adGroups: AdGroupRef[];
  assetGroups: AssetGroupRef[];
  keywords: KeywordLine[];
  negatives: KeywordLine[];
  issues: RowIssue[];
}

const POSITIVE: ReadonlySet<MatchType> = new Set(['Broad', 'Phrase', 'Exact']);
const OUTPUT_KEYWORDS = 'keywords';

interface CompiledKeyword {
  pattern: CompiledPattern;
  matchType: MatchType;
}

/**
 * The (keyword, match type) pairs of one group. Most groups hold one or a few lines, so the first
 * pair is kept inline and a Set is only made for the second: no per-group arrays.
 */
class LineSet {
  private firstKeyword: string | undefined;
  private firstMatchType: MatchType | undefined;
  private rest: Set<string> | undefined;

  /** Adds the pair; false when it was already there. */
  add(keyword: string, matchType: MatchType): boolean {
    if (this.firstKeyword === undefined) {
      this.firstKeyword = keyword;
      this.firstMatchType = matchType;
      return true;
    }
    if (this.firstKeyword === keyword && this.firstMatchType === matchType) return false;
    const key = `${matchType}\u001f${keyword}`;
    if (!this.rest) this.rest = new Set();
    else if (this.rest.has(key)) return false;
    this.rest.add(key);
    return true;
  }
}

/** One group: its keyword lines (as a LineSet itself, one object per group), listing and negatives. */
class GroupEntry extends LineSet {
  isListed = false;
  negatives: LineSet | undefined = undefined;
}

/**
 * Generates the structure of a campaign template for the given rows. Names keep their case with
 * spaces tidied; keywords are lowercased with spaces collapsed and cleaned (see `cleanKeyword`);
 * each line is emitted once. Where the ad group pattern uses `{mt}`, each positive match type gets
 * its own ad group and every Exact keyword also becomes a Negative Exact in the Broad ad group of
 * its campaign. Negative Broad / Negative Exact patterns go to every ad group of their row (to the
 * campaign when the row has none).
 */
export function generateCampaignStructure(
  input: GenerateCampaignStructureInput,
): CampaignStructure {
  const out: CampaignStructure = {
    campaigns: [],
    adGroups: [],
    assetGroups: [],
    keywords: [],
    negatives: [],
    issues: [],
  };
  runCampaignStructure(input, new ObjectSink(out), out.issues);
  return out;
}

/** Where `runCampaignStructure` sends what it generates, in output order. */
abstract class StructureSink {
  /** False when campaign and group rows are not wanted (only keyword lines). */
  abstract readonly wantsRows: boolean;
  abstract campaign(c: CampaignRow): void;
  abstract group(campaign: string, group: string, rowId: string, isPerformance: boolean): void;
  abstract keyword(campaign: string, group: string, keyword: string, matchType: MatchType): void;
  abstract negative(campaign: string, group: string, keyword: string, matchType: MatchType): void;
}

/** Collects the object API's arrays. */
class ObjectSink extends StructureSink {
  readonly wantsRows = true;
  constructor(private readonly out: CampaignStructure) {
    super();
  }
  campaign(c: CampaignRow): void {
    this.out.campaigns.push(c);
  }
  group(campaign: string, group: string, rowId: string, isPerformance: boolean): void {
    if (isPerformance) this.out.assetGroups.push(new GeneratedAssetGroup(campaign, group, rowId));
    else this.out.adGroups.push(new GeneratedAdGroup(campaign, group, rowId));
  }
  keyword(campaign: string, adGroup: string, keyword: string, matchType: MatchType): void {
    this.out.keywords.push({ campaign, adGroup, keyword, matchType });
  }
  negative(campaign: string, adGroup: string, keyword: string, matchType: MatchType): void {
    this.out.negatives.push({ campaign, adGroup, keyword, matchType });
  }
}

/**
 * Writes keyword lines as Editor CSV (the exact chunks of `formatKeywordsCsv`) without building
 * line objects.
 */
class CsvLineWriter {
  private chunk: string;
  private lines = 0;
  private lastCampaign: string | undefined;
  private lastGroup: string | undefined;
  private prefix = '';
  private readonly mtCells = new Map<string, string>();
  count = 0;

  constructor(
    private readonly write: (chunk: string) => void,
    private readonly neutralise: boolean,
    private readonly nl: string,
    private readonly chunkLines: number,
  ) {
    this.chunk = `Campaign,Ad Group,Keyword,Criterion Type${nl}`;
  }

  line(campaign: string, group: string, keyword: string, matchType: MatchType): void {
    if (campaign !== this.lastCampaign || group !== this.lastGroup) {
      this.lastCampaign = campaign;
      this.lastGroup = group;
      this.prefix = `${formatCsvCell(campaign, this.neutralise)},${formatCsvCell(group, this.neutralise)},`;
    }
    const ct =
      group === '' && matchType.startsWith('Negative') ? `Campaign ${matchType}` : matchType;
    let mt = this.mtCells.get(ct);
    if (mt === undefined) this.mtCells.set(ct, (mt = `,${formatCsvCell(ct)}${this.nl}`));
    this.chunk += this.prefix + formatCsvCell(keyword, this.neutralise) + mt;
    this.count++;
    if (++this.lines === this.chunkLines) {
      this.write(this.chunk);
      this.chunk = '';
      this.lines = 0;
    }
  }

  end(): void {
    if (this.chunk) this.write(this.chunk);
    this.chunk = '';
  }
}

class CsvSink extends StructureSink {
  readonly wantsRows: boolean;
  constructor(
    private readonly keywords: CsvLineWriter,
    private readonly negatives: CsvLineWriter,
    private readonly rows: Pick<KeywordsCsvSinks, 'campaigns' | 'adGroups'>,
  ) {
    super();
    this.wantsRows = rows.campaigns !== undefined || rows.adGroups !== undefined;
  }
  campaign(c: CampaignRow): void {
    this.rows.campaigns?.(c);
  }
  group(campaign: string, group: string, rowId: string, isPerformance: boolean): void {
    if (!isPerformance) this.rows.adGroups?.(new GeneratedAdGroup(campaign, group, rowId));
  }
  keyword(campaign: string, group: string, keyword: string, matchType: MatchType): void {
    this.keywords.line(campaign, group, keyword, matchType);
  }
  negative(campaign: string, group: string, keyword: string, matchType: MatchType): void {
    this.negatives.line(campaign, group, keyword, matchType);
  }
}

/** Where `writeKeywordsCsv` sends its CSV chunks. */
export interface KeywordsCsvSinks {
  /** Chunks of the keywords CSV (header first). */
  keywords: (chunk: string) => void;
  /** Chunks of the negatives CSV (header first). */
  negatives: (chunk: string) => void;
  /** Campaign rows, in the order of `generateCampaignStructure` (optional). */
  campaigns?: (campaign: CampaignRow) => void;
  /**
   * Ad groups of a search template, in the order of `generateCampaignStructure` (optional).
   * `groupId`, when given, is the id the group's keyword lines carry (see `KeywordLineSink`).
   */
  adGroups?: (adGroup: AdGroupRef, groupId?: number) => void;
}

/** Counts and row problems of `writeKeywordsCsv`. */
export interface WriteKeywordsCsvResult {
  keywordLines: number;
  negativeLines: number;
  issues: RowIssue[];
}

/**
 * The streaming form of `formatKeywordsCsv(generateCampaignStructure(input).keywords)` and of the
 * same for `.negatives`: the same chunks and issues, written as they are made, without building
 * line, campaign or group objects (for feeds of a million rows; see keywordsCsv.ts). With the
 * `campaigns` and `adGroups` sinks it also hands over the structure's campaign rows and ad groups.
 */
export function writeKeywordsCsv(
  input: GenerateCampaignStructureInput,
  sinks: KeywordsCsvSinks,
  options: FormatCsvOptions = {},
): WriteKeywordsCsvResult {
  const issues: RowIssue[] = [];
  if (input.template.type !== 'performance') {
    const counts = writeSearchKeywordsCsv(input, sinks, options, issues);
    return { ...counts, issues };
  }
  return writeKeywordsCsvReference(input, sinks, options);
}

/** Where `forEachKeywordLine` hands what it makes. */
export interface KeywordLinesSinks extends KeywordLineSinks {
  /** Asset groups of a performance template (optional). */
  assetGroups?: (assetGroup: AssetGroupRef) => void;
}

export type { KeywordLineSink, KeywordLineSinks };

/**
 * The keyword and negative lines of `generateCampaignStructure(input)` handed over as fields, in
 * the same order, with its campaign rows, ad groups, asset groups and issues, for outputs kept
 * in some other form than line objects (the web worker packs them into its tables). Search
 * templates take the fast path (no line objects at all; see keywordsCsv.ts).
 */
export function forEachKeywordLine(
  input: GenerateCampaignStructureInput,
  sinks: KeywordLinesSinks,
): WriteKeywordsCsvResult {
  const issues: RowIssue[] = [];
  if (input.template.type !== 'performance') {
    const counts = forEachSearchKeywordLine(input, sinks, issues);
    return { ...counts, issues };
  }
  const s = generateCampaignStructure(input);
  for (const l of s.keywords) sinks.keywords(l.campaign, l.adGroup, l.keyword, l.matchType);
  for (const l of s.negatives) sinks.negatives(l.campaign, l.adGroup, l.keyword, l.matchType);
  if (sinks.campaigns) for (const c of s.campaigns) sinks.campaigns(c);
  if (sinks.adGroups) for (const g of s.adGroups) sinks.adGroups(g);
  if (sinks.assetGroups) for (const g of s.assetGroups) sinks.assetGroups(g);
  return { keywordLines: s.keywords.length, negativeLines: s.negatives.length, issues: s.issues };
}

/**
 * `writeKeywordsCsv` through the general structure routine (the reference the fast path is
 * tested against; also the path of performance templates, which make no keyword lines).
 */
export function writeKeywordsCsvReference(
  input: GenerateCampaignStructureInput,
  sinks: KeywordsCsvSinks,
  options: FormatCsvOptions = {},
): WriteKeywordsCsvResult {
  const neutralise = options.neutraliseFormulas ?? false;
  const nl = options.newline ?? '\r\n';
  const chunkLines = options.chunkLines ?? DEFAULT_CHUNK_LINES;
  const keywords = new CsvLineWriter(sinks.keywords, neutralise, nl, chunkLines);
  const negatives = new CsvLineWriter(sinks.negatives, neutralise, nl, chunkLines);
  const issues: RowIssue[] = [];
  runCampaignStructure(input, new CsvSink(keywords, negatives, sinks), issues);
  keywords.end();
  negatives.end();
  return { keywordLines: keywords.count, negativeLines: negatives.count, issues };
}

function runCampaignStructure(
  input: GenerateCampaignStructureInput,
  sink: StructureSink,
  issues: RowIssue[],
): void {
  const { template, rows } = input;
  const isPerformance = template.type === 'performance';
  const campaignPattern = compilePattern(template.campaign);
  const groupPattern = compilePattern(isPerformance ? template.assetGroup : template.adGroup);
  const splitsByMatchType = groupPattern.slots.includes('mt');
  const selectedKeywords = template.keywords.filter(
    (k) => k.selected !== false && k.keyword.trim() !== '',
  );
  const positives: CompiledKeyword[] = [];
  const negativePatterns: CompiledKeyword[] = [];
  for (const k of selectedKeywords) {
    const ck = { pattern: compilePattern(k.keyword), matchType: k.matchType };
    (POSITIVE.has(k.matchType) ? positives : negativePatterns).push(ck);
  }
  const makeCampaignRow = compileCampaignRow(template);

  const campaignsSeen = new Set<string>();
  const reported = new Set<string>();
  const groups = new Map<string, Map<string, GroupEntry>>();
  // Exact keywords to add as Negative Exact at the end: campaign, Broad group, keyword.
  const pendingExactNegatives: string[] = [];
  const values: PlaceholderValues = {
    row: rows[0] ?? { root: '', mod: '', var1: '', var2: '', var3: '', url: '' },
    const: template.const,
    mt: '',
  };
  const groupsOfRow: string[] = [];
  // Ad group names of the current row per {mt}, each filled once.
  // (Positive match types only; three slots instead of a Map cleared per row.)
  let broadGroup: string | undefined;
  let phraseGroup: string | undefined;
  let exactGroup: string | undefined;
  const fillGroup = (mt: MatchType): string => {
    values.mt = mt;
    const g = fillPattern(groupPattern, values);
    values.mt = '';
    return g;
  };
  const groupForMatchType = (mt: MatchType): string => {
    if (mt === 'Broad') return (broadGroup ??= fillGroup(mt));
    if (mt === 'Phrase') return (phraseGroup ??= fillGroup(mt));
    return (exactGroup ??= fillGroup(mt));
  };

  const issue = (
    kind: RowIssue['kind'],
    row: FeedRow,
    rowNumber: number,
    code: string,
    message: string,
  ): void => {
    // Two patterns can yield the same raw keyword: report each problem of a row once.
    const key = `${rowNumber}\u001f${code}\u001f${message}`;
    if (reported.has(key)) return;
    reported.add(key);
    issues.push({ kind, output: OUTPUT_KEYWORDS, rowId: row.id, rowNumber, code, message });
  };

  /** The entry of a group; `row` lists it in the output (first row wins). */
  let lastCampaign: string | undefined;
  let lastByName: Map<string, GroupEntry> | undefined;
  const findGroup = (
    campaign: string,
    group: string,
    row: FeedRow | undefined,
  ): GroupEntry | undefined => {
    // The lines of a row share its campaign: look its groups up once.
    let byName = campaign === lastCampaign ? lastByName : groups.get(campaign);
    if (!byName) {
      if (!row && group !== '') return undefined;
      groups.set(campaign, (byName = new Map()));
    }
    lastCampaign = campaign;
    lastByName = byName;
    let entry = byName.get(group);
    if (!entry) {
      if (!row && group !== '') return undefined;
      entry = new GroupEntry();
      byName.set(group, entry);
    }
    if (row && !entry.isListed && group !== '') {
      entry.isListed = true;
      sink.group(campaign, group, row.id, isPerformance);
    }
    return entry;
  };

  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as FeedRow;
    const rowNumber = r + 1;
    values.row = row;
    values.mt = '';
    const campaign = fillPattern(campaignPattern, values);
    if (campaign === '') {
      issue('skipped', row, rowNumber, 'empty-campaign', 'Campaign name is empty for this row');
      continue;
    }
    if (!campaignsSeen.has(campaign)) {
      campaignsSeen.add(campaign);
      if (sink.wantsRows) sink.campaign(makeCampaignRow(campaign, row, values));
    }

    if (isPerformance) {
      const group = fillPattern(groupPattern, values);
      if (group === '')
        issue(
          'skipped',
          row,
          rowNumber,
          'empty-asset-group',
          'Asset group name is empty for this row',
        );
      else findGroup(campaign, group, row);
      continue;
    }

    const sharedGroup = splitsByMatchType ? '' : fillPattern(groupPattern, values);
    if (!splitsByMatchType && sharedGroup === '') {
      issue('skipped', row, rowNumber, 'empty-ad-group', 'Ad group name is empty for this row');
      continue;
    }
    groupsOfRow.length = 0;
    broadGroup = phraseGroup = exactGroup = undefined;
    for (const k of positives) {
      let group = sharedGroup;
      if (splitsByMatchType) {
        group = groupForMatchType(k.matchType);
        if (group === '') continue;
      }
      const keyword = cleanFilledKeyword(
        fillPattern(k.pattern, values),
        k.pattern.source,
        issue,
        row,
        rowNumber,
      );
      if (keyword === undefined) continue;
      const entry = findGroup(campaign, group, row) as GroupEntry;
      if (!groupsOfRow.includes(group)) groupsOfRow.push(group);
      if (!entry.add(keyword, k.matchType)) continue;
      sink.keyword(campaign, group, keyword, k.matchType);
      if (splitsByMatchType && k.matchType === 'Exact')
        pendingExactNegatives.push(campaign, groupForMatchType('Broad'), keyword);
    }
    for (const k of negativePatterns) {
      const keyword = cleanFilledKeyword(
        fillPattern(k.pattern, values),
        k.pattern.source,
        issue,
        row,
        rowNumber,
        true,
      );
      if (keyword === undefined) continue;
      const targets = groupsOfRow.length ? groupsOfRow : [''];
      for (const group of targets) {
        const entry = findGroup(campaign, group, undefined) as GroupEntry;
        entry.negatives ??= new LineSet();
        if (!entry.negatives.add(keyword, k.matchType)) continue;
        sink.negative(campaign, group, keyword, k.matchType);
      }
    }
  }

  // An Exact keyword becomes a Negative Exact in the ad group whose {mt} is Broad (when it exists).
  for (let i = 0; i < pendingExactNegatives.length; i += 3) {
    const campaign = pendingExactNegatives[i] as string;
    const group = pendingExactNegatives[i + 1] as string;
    const keyword = pendingExactNegatives[i + 2] as string;
    const entry = groups.get(campaign)?.get(group);
    if (!entry?.isListed) continue;
    entry.negatives ??= new LineSet();
    if (!entry.negatives.add(keyword, 'Negative Exact')) continue;
    sink.negative(campaign, group, keyword, 'Negative Exact');
  }
}
