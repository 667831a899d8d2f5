/**
 * Where the keyword path's lines go: Editor CSV chunks (`CsvChunks`) or each line's fields
 * (`FieldLines`).
 */
import { formatCsvCell, resolveCsvOptions, type FormatCsvOptions } from '../csv.ts';
import type { MatchType } from '../types.ts';
import type { IntChunks } from './intLists.ts';
import { EXACT, MATCH_TYPE_CODES } from './matchTypes.ts';

/** The columns of a keywords or negatives table. */
export const KEYWORD_HEADERS = ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type'] as const;

/** The header line of a keywords or negatives CSV. */
export function keywordsCsvHeader(options: FormatCsvOptions, withStatus = false): string {
  return (
    KEYWORD_HEADERS.join(',') + (withStatus ? ',Status' : '') + resolveCsvOptions(options).newline
  );
}

/**
 * Where the fast path's lines go: `CsvChunks` (Editor CSV) or `FieldLines` (each line's fields).
 * `groupId` identifies (campaign, group); `plain` is for CSV quoting (see `CsvChunks.line`).
 */
export type LineWriter = CsvChunks | FieldLines;

/** Hands each line's fields to a callback (the web worker packs them into its tables). */
export class FieldLines {
  count = 0;
  constructor(private readonly onLine: KeywordLineSink) {}

  line(
    groupId: number,
    campaign: string,
    group: string,
    keyword: string,
    mt: number,
    _plain: number,
    row: number,
  ): void {
    this.count++;
    this.onLine(campaign, group, keyword, MATCH_TYPE_CODES[mt] as MatchType, groupId, row);
  }

  end(): void {}
}

/**
 * A keyword or negative line as fields (`adGroup` is '' for a campaign negative). `groupId`, when
 * given, names the line's (campaign, adGroup): lines of one pair share it, lines of two pairs never
 * do, so a consumer can keep each ad group's name once. It is numbered from 0, in no set order;
 * -1 (or absent) when unknown. `row` is the index among the run's rows of the row that made the
 * line (the first, when several make it).
 */
export type KeywordLineSink = (
  campaign: string,
  adGroup: string,
  keyword: string,
  matchType: MatchType,
  groupId?: number,
  row?: number,
) => void;

/**
 * What a keyword CSV carries besides Editor's four columns (optional): the row behind each line,
 * and a `Status` column when some row of the run is paused.
 */
export interface KeywordLineExtras {
  /** Per line written, in order, the index among the run's rows of the row that made it. */
  rows?: IntChunks;
  /** Given, each line ends with a Status cell: Paused when this says so, else Enabled. */
  isPaused?: (campaign: string, group: string, keyword: string, mt: MatchType) => boolean;
  /** False: no header line first (`KeywordsCsvSinks.hasHeader`). */
  hasHeader?: boolean;
}

/** Lines joined before they are added to a chunk as one flat string. */
const RUN_LINES = 128;

/**
 * Keyword or negative lines as Editor CSV: the chunks of `formatKeywordsCsv`. Lines are joined
 * into runs of `RUN_LINES` that are flattened (a string made by `+` is a tree of pieces until
 * something reads it): a chunk is then a short list of flat runs, not a tree of ~10 pieces per
 * line that the garbage collector copies and the consumer must walk.
 */
export class CsvChunks {
  private chunk: string;
  private run = '';
  private runLines = 0;
  private lines = 0;
  private lastCampaign: string | undefined;
  private lastCampaignPlain = 0;
  private campaignCell = '';
  /** Criterion Type cells by match type code; campaign negatives at code + the number of codes. */
  private readonly typeCells: string[] = [];
  count = 0;
  /** Read from each run to flatten it (kept so the read is not optimised away). */
  probe = 0;

  readonly neutralise: boolean;
  private readonly chunkLines: number;

  /** With a Status column: the Criterion Type cells of Paused lines (as `typeCells`). */
  private readonly pausedCells: string[] = [];
  private readonly isPaused: KeywordLineExtras['isPaused'];
  /** Where each written line's row goes. */
  private readonly rows: IntChunks | undefined;

  constructor(
    private readonly write: (chunk: string) => void,
    options: Required<FormatCsvOptions>,
    private readonly prefix = new LinePrefix(),
    extras: KeywordLineExtras = {},
  ) {
    this.neutralise = options.neutraliseFormulas;
    this.chunkLines = options.chunkLines;
    this.isPaused = extras.isPaused;
    this.rows = extras.rows;
    const nl = options.newline;
    const withStatus = extras.isPaused !== undefined;
    this.chunk = extras.hasHeader === false ? '' : keywordsCsvHeader(options, withStatus);
    const enabled = withStatus ? ',Enabled' : '';
    for (const mt of MATCH_TYPE_CODES) {
      this.typeCells.push(`,${formatCsvCell(mt)}${enabled}${nl}`);
      this.pausedCells.push(`,${formatCsvCell(mt)},Paused${nl}`);
    }
    for (const mt of MATCH_TYPE_CODES) {
      const ct = mt.startsWith('Negative') ? `Campaign ${mt}` : mt;
      this.typeCells.push(`,${formatCsvCell(ct)}${enabled}${nl}`);
      this.pausedCells.push(`,${formatCsvCell(ct)},Paused${nl}`);
    }
  }

  /**
   * One line; `groupId` identifies (campaign, group) so the formatted prefix is reused. `plain`
   * holds bits 1 (campaign), 2 (group), 4 (keyword): that text is its own CSV cell.
   */
  line(
    groupId: number,
    campaign: string,
    group: string,
    keyword: string,
    mt: number,
    plain: number,
    row: number,
  ): void {
    const prefix = this.prefix;
    if (groupId !== prefix.group) {
      // The lines of a row share its campaign (the same string): its cell is formatted once.
      if (campaign !== this.lastCampaign || (plain & 1) !== this.lastCampaignPlain) {
        this.lastCampaign = campaign;
        this.lastCampaignPlain = plain & 1;
        this.campaignCell = (plain & 1 ? campaign : formatCsvCell(campaign, this.neutralise)) + ',';
      }
      const g = plain & 2 ? group : formatCsvCell(group, this.neutralise);
      prefix.set(groupId, this.campaignCell + g + ',');
    }
    const campaignLevel = group === '' && mt > EXACT ? MATCH_TYPE_CODES.length : 0;
    const cells =
      this.isPaused?.(campaign, group, keyword, MATCH_TYPE_CODES[mt] as MatchType) === true
        ? this.pausedCells
        : this.typeCells;
    const text =
      prefix.text +
      (plain & 4 ? keyword : formatCsvCell(keyword, this.neutralise)) +
      (cells[mt + campaignLevel] as string);
    this.rows?.push(row);
    this.push(text);
  }

  private push(text: string): void {
    this.run += text;
    this.count++;
    if (++this.lines === this.chunkLines) {
      handOver(this.write, this.chunk + this.run);
      this.chunk = '';
      this.run = '';
      this.runLines = 0;
      this.lines = 0;
    } else if (++this.runLines === RUN_LINES) {
      // Reading a character flattens the run's tree into one string.
      this.probe ^= this.run.charCodeAt(0);
      this.chunk += this.run;
      this.run = '';
      this.runLines = 0;
    }
  }

  end(): void {
    const chunk = this.chunk + this.run;
    if (chunk) this.write(chunk);
    this.chunk = '';
    this.run = '';
  }
}

/**
 * Calls `write` with `chunk`. A writer's lines hand their chunks over through this function, not
 * with a call of their own: V8 compiles a call that has seen one target (the keywords' sink) to
 * expect that one, and the negatives' first chunk then throws the writer's optimised code away.
 * This call is too rare to be compiled into the writer's code.
 */
function handOver(write: (chunk: string) => void, chunk: string): void {
  write(chunk);
}

/**
 * The start of a line ("campaign,group,", formatted) of the group written last, shared by a
 * run's writers: a group id names one campaign and ad group, whose cells a writer formats alike
 * whatever its `plain` bits say (they only spare the check), so a group's keyword and negative
 * lines start alike. It is flattened once (a string made by `+` is a tree of its pieces until
 * something reads it): each line then copies it as one piece.
 */
export class LinePrefix {
  group = -1;
  text = '';
  /** Read from each prefix to flatten it (kept so the read is not optimised away). */
  probe = 0;

  set(group: number, text: string): void {
    this.group = group;
    this.text = text;
    this.probe ^= text.charCodeAt(0);
  }
}
