/** `adloom generate`: read and check every input, generate with the engine, write all files or none. */
import path from 'node:path';
import {
  adGroupsTable,
  assetGroupsTable,
  calloutsTable,
  campaignsTable,
  findAdTemplateProblems,
  findCampaignTemplateProblems,
  findExtensionTemplateProblems,
  findFormulaCells,
  findPerformanceMaxTemplateProblems,
  findRsaTemplateProblems,
  formatCsv,
  formatCsvLine,
  generateBuild,
  IMAGES_NEEDED_FILE_TEXT,
  IMAGES_NEEDED_NOTE,
  performanceMaxAdsTable,
  restoreAdTemplate,
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restorePerformanceMaxTemplate,
  restoreRsaTemplate,
  RSA_HEADERS,
  sitelinksTable,
  structuredSnippetsTable,
  type ExtensionTypeName,
  type GeneratedExtension,
  type RowIssue,
  type Table,
} from '@adloom/engine';
import { PackedAdGroups, TextRuns } from './adGroups.ts';
import { readFeed } from './feed.ts';
import {
  decodeText,
  InputError,
  OutputFolder,
  parseJsonFile,
  readInputFile,
  type OutputSink,
} from './files.ts';
import type { Progress } from './progress.ts';

/** What `--only` names, and the file each is written to. */
export const OUTPUT_KINDS = {
  campaigns: 'campaigns.csv',
  'ad-groups': 'ad-groups.csv',
  keywords: 'keywords.csv',
  negatives: 'negatives.csv',
  rsa: 'responsive-search-ads.csv',
  'asset-groups': 'asset-groups.csv',
  callouts: 'callouts.csv',
  sitelinks: 'sitelinks.csv',
  'structured-snippets': 'structured-snippets.csv',
  report: 'adloom-report.csv',
} as const;

/** An output `--only` can name. */
export type OutputKind = keyof typeof OUTPUT_KINDS;

/** Options of `runGenerate` (paths as given on the command line). */
export interface GenerateOptions {
  feed: string;
  campaign: string;
  rsa?: string;
  pmax?: string;
  extensions: string[];
  legacyAd?: string;
  /** The output folder; undefined: the one output of `only` goes to standard output. */
  out: string | undefined;
  /** yyyymmdd for the label helpers. */
  today: string;
  /** The outputs to write (undefined: every one that applies). */
  only?: ReadonlySet<OutputKind>;
  /** Where progress is shown while the outputs are written. */
  progress?: Progress;
}

const MAX_LISTED_ISSUES = 20;

/** Written beside asset groups: they cannot run until images are added in Editor. */
const IMAGES_NEEDED_FILE = 'performance-max-images-needed.txt';

async function readJson(file: string, what: string): Promise<unknown> {
  const buf = readInputFile(file, what);
  return parseJsonFile((await decodeText(buf)).text, file);
}

function failOnProblems(file: string, what: string, problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, MAX_LISTED_ISSUES).map((p) => `  ${p}`);
  if (problems.length > shown.length)
    shown.push(`  ... and ${problems.length - shown.length} more`);
  throw new InputError(`${what} ${file} is not valid:\n${shown.join('\n')}`);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const EXTENSION_FILES: Record<
  ExtensionTypeName,
  { kind: OutputKind; table: (e: GeneratedExtension[]) => Table; noun: string }
> = {
  Callout: { kind: 'callouts', table: calloutsTable, noun: 'callout' },
  Sitelink: { kind: 'sitelinks', table: sitelinksTable, noun: 'sitelink' },
  'Structured Snippet': {
    kind: 'structured-snippets',
    table: structuredSnippetsTable,
    noun: 'structured snippet',
  },
};

/** Runs generation; returns the summary text. Throws InputError for bad input (nothing written). */
export async function runGenerate(o: GenerateOptions): Promise<string> {
  // 1. Read and check every input before generating anything.
  const feed = await readFeed(o.feed);
  const { rows } = feed;

  const campaignJson = await readJson(o.campaign, 'Campaign template');
  failOnProblems(o.campaign, 'Campaign template', findCampaignTemplateProblems(campaignJson));
  const campaign = restoreCampaignTemplate(campaignJson);
  const isPerformance = campaign.type === 'performance';

  let rsa;
  if (o.rsa) {
    const json = await readJson(o.rsa, 'RSA template');
    failOnProblems(o.rsa, 'RSA template', findRsaTemplateProblems(json));
    if (isPerformance)
      throw new InputError(
        `Responsive search ads cannot be generated for performance campaigns (${o.campaign} has type "performance")`,
      );
    rsa = restoreRsaTemplate(json);
  }
  let pmax;
  if (o.pmax) {
    const json = await readJson(o.pmax, 'Performance Max template');
    failOnProblems(o.pmax, 'Performance Max template', findPerformanceMaxTemplateProblems(json));
    if (!isPerformance)
      throw new InputError(
        `Performance ads cannot be generated for Search campaigns (${o.campaign} has type "search"; set "type": "performance")`,
      );
    pmax = restorePerformanceMaxTemplate(json);
  }
  let legacy;
  if (o.legacyAd) {
    const json = await readJson(o.legacyAd, 'Legacy ad template');
    failOnProblems(o.legacyAd, 'Legacy ad template', findAdTemplateProblems(json));
    if (isPerformance)
      throw new InputError(
        `Legacy expanded text ads become responsive search ads, which performance campaigns cannot have (${o.campaign} has type "performance")`,
      );
    legacy = restoreAdTemplate(json);
  }
  const extensionTemplates = [];
  for (const file of o.extensions) {
    const json = await readJson(file, 'Extension template');
    failOnProblems(file, 'Extension template', findExtensionTemplateProblems(json));
    extensionTemplates.push(restoreExtensionTemplate(json));
  }

  // 2. Generate, writing each output as it is made into files beside the output folder.
  /** The physical line of the feed where row `n` (from 1) starts. */
  const lineOfRow = (n: number): number => rows.lineOfRow(n);
  const wants = (kind: OutputKind): boolean => !o.only || o.only.has(kind);
  const folder = OutputFolder.open(o.out);
  try {
    // Each reported item goes to the report as it comes; the summary keeps what it prints.
    const report = new IssueReport(
      wants('report') ? folder.file(OUTPUT_KINDS.report) : undefined,
      lineOfRow,
      rows.length,
    );
    for (const t of feed.truncated) {
      report.add({
        kind: 'cleaned',
        output: 'feed',
        rowId: String(t.rowNumber),
        rowNumber: t.rowNumber,
        code: 'cell-truncated',
        message: `${t.column} cut to 30 characters: "${t.original}"`,
      });
    }
    const counts: Array<[string, string]> = [];
    const progress = o.progress;
    progress?.start(rows.length);
    /** The sink of an output, or undefined when it is not written. */
    const open = (kind: OutputKind): OutputSink | undefined =>
      wants(kind) ? folder.file(OUTPUT_KINDS[kind]) : undefined;
    const keywordsOut = isPerformance ? undefined : open('keywords');
    const negativesOut = isPerformance ? undefined : open('negatives');
    const adGroupsOut = isPerformance ? undefined : open('ad-groups');
    adGroupsOut?.line(adGroupsTable([]).headers);
    // The ad group lines as CSV text, joined into long runs (see TextRuns); one list of cells
    // for every line.
    const adGroupLines = adGroupsOut && new TextRuns((text) => adGroupsOut.text(text));
    const adGroupCells = ['', ''];
    const adGroupStore = new PackedAdGroups((g) => {
      if (adGroupLines) {
        adGroupCells[0] = g.campaign;
        adGroupCells[1] = g.adGroup;
        adGroupLines.add(formatCsvLine(adGroupCells));
      }
      progress?.group(g.id);
    });
    const rsaOut = isPerformance || !(rsa || legacy) ? undefined : open('rsa');
    rsaOut?.line(RSA_HEADERS);
    let rsaCount = 0;
    const build = generateBuild(
      {
        rows,
        campaign,
        rsa,
        pmax,
        legacy,
        extensions: extensionTemplates,
        today: o.today,
        // Messages that name another row name its physical line, as the report does.
        rowLabel: (n) => `line ${lineOfRow(n)}`,
      },
      {
        keywords: (chunk) => {
          keywordsOut?.text(chunk);
          progress?.lines(chunk);
        },
        negatives: (chunk) => {
          negativesOut?.text(chunk);
          progress?.lines(chunk);
        },
        rsaLines: {
          csv: rsaOut,
          ad: (rowId) => {
            rsaCount++;
            progress?.ad(rowId);
          },
        },
        adGroupStore,
        issue: (i) => report.add(i),
      },
    );
    adGroupLines?.end();
    const formulaCells = findFormulaCells(rows, {
      campaign,
      rsa,
      pmax,
      legacy,
      extensions: extensionTemplates,
    });
    for (const i of formulaCells) report.add(i);
    const { campaigns, assetGroups } = build;
    const write = (kind: OutputKind, what: string, table: () => Table): void => {
      if (!wants(kind)) return;
      folder.writeFile(OUTPUT_KINDS[kind], formatCsv(table()));
      counts.push([OUTPUT_KINDS[kind], what]);
    };
    write('campaigns', plural(campaigns.length, 'campaign'), () => campaignsTable(campaigns));

    if (isPerformance) {
      if (build.performanceMaxAds) {
        const ads = build.performanceMaxAds;
        write(
          'asset-groups',
          `${plural(ads.length, 'asset group')} with assets (of ${assetGroups.length})`,
          () => performanceMaxAdsTable(ads),
        );
      } else {
        write('asset-groups', plural(assetGroups.length, 'asset group'), () =>
          assetGroupsTable(assetGroups),
        );
      }
      // Editor takes text-only asset groups, but they cannot run until images are added.
      if (wants('asset-groups') && o.out !== undefined) {
        folder.writeFile(IMAGES_NEEDED_FILE, [IMAGES_NEEDED_FILE_TEXT]);
        counts.push([IMAGES_NEEDED_FILE, IMAGES_NEEDED_NOTE]);
      }
    } else {
      if (adGroupsOut) counts.push(['ad-groups.csv', plural(adGroupStore.length, 'ad group')]);
      if (keywordsOut) counts.push(['keywords.csv', plural(build.keywordLines, 'keyword')]);
      if (negativesOut)
        counts.push(['negatives.csv', plural(build.negativeLines, 'negative keyword')]);
      if (rsaOut)
        counts.push(['responsive-search-ads.csv', plural(rsaCount, 'responsive search ad')]);
    }
    for (const [type, list] of build.extensions) {
      const f = EXTENSION_FILES[type];
      write(f.kind, plural(list.length, f.noun), () => f.table(list));
    }
    if (wants('report')) counts.push([OUTPUT_KINDS.report, plural(report.count, 'reported item')]);

    // 3. Move the files into the output folder.
    folder.commit();
    progress?.end();
    return formatSummary(
      o,
      rows.length,
      feed.encoding,
      feed.columns,
      feed.ignoredHeaders,
      counts,
      report,
    );
  } finally {
    folder.discard();
  }
}

function formatSummary(
  o: GenerateOptions,
  rowCount: number,
  encoding: string,
  columns: readonly string[],
  ignored: readonly string[],
  counts: ReadonlyArray<[string, string]>,
  report: IssueReport,
): string {
  const lines: string[] = [];
  lines.push(
    `Read ${plural(rowCount, 'row')} from ${path.basename(o.feed)} (${encoding}; columns: ${columns.join(', ')}${ignored.length ? `; ignored: ${ignored.join(', ')}` : ''})`,
  );
  lines.push(`Wrote to ${o.out ?? 'standard output'}:`);
  const width = Math.max(...counts.map(([f]) => f.length));
  for (const [file, what] of counts) lines.push(`  ${file.padEnd(width)}  ${what}`);
  for (const line of report.summaryLines()) lines.push(line);
  return `${lines.join('\n')}\n`;
}

/** The columns of adloom-report.csv. */
const REPORT_HEADERS = ['Kind', 'Output', 'Line', 'Code', 'Message'];

/** The summary's part for one kind of item: its count and what it lists, not every item. */
class KindTally {
  count = 0;
  /** The first items not bound to a row (template problems), and the first bound to one. */
  readonly fromTemplates: RowIssue[] = [];
  readonly fromRows: RowIssue[] = [];
  hasTemplateItems = false;
  /** The feed rows with an item: one bit per row number (a Set of a million numbers holds 50 MB). */
  private rowBits: Uint32Array;
  rowsAffected = 0;

  constructor(rowCount: number) {
    this.rowBits = new Uint32Array((rowCount >>> 5) + 1);
  }

  add(i: RowIssue): void {
    this.count++;
    if (i.rowNumber === 0) {
      this.hasTemplateItems = true;
      if (this.fromTemplates.length < MAX_LISTED_ISSUES) this.fromTemplates.push(i);
      return;
    }
    if (this.fromRows.length < MAX_LISTED_ISSUES) this.fromRows.push(i);
    const n = i.rowNumber;
    const word = n >>> 5;
    if (word >= this.rowBits.length) {
      // A row number past the feed's end (not expected): the bit set grows to hold it.
      const grown = new Uint32Array(2 * word + 1);
      grown.set(this.rowBits);
      this.rowBits = grown;
    }
    const bit = 1 << (n & 31);
    if ((this.rowBits[word] as number) & bit) return;
    this.rowBits[word] = (this.rowBits[word] as number) | bit;
    this.rowsAffected++;
  }
}

/**
 * The reported items of a run: each written to adloom-report.csv as it comes (when the report is
 * written), and counted for the summary, which lists only the first items of each kind. A run
 * that warns once per row of a million-row feed then holds no item after it is written.
 */
export class IssueReport {
  /** Items reported so far. */
  count = 0;
  private readonly kinds: Record<RowIssue['kind'], KindTally>;
  private readonly cells = ['', '', '', '', ''];

  /**
   * `out`: the report's sink (undefined: not written); `lineOfRow`: the physical feed line of a
   * row number; `rowCount`: the feed's rows.
   */
  constructor(
    private readonly out: OutputSink | undefined,
    private readonly lineOfRow: (rowNumber: number) => number,
    rowCount: number,
  ) {
    this.kinds = {
      skipped: new KindTally(rowCount),
      cleaned: new KindTally(rowCount),
      warning: new KindTally(rowCount),
    };
    out?.text(formatCsvLine(REPORT_HEADERS));
  }

  add(i: RowIssue): void {
    this.count++;
    this.kinds[i.kind].add(i);
    if (!this.out) return;
    const cells = this.cells;
    cells[0] = i.kind;
    cells[1] = i.output;
    cells[2] = i.rowNumber ? String(this.lineOfRow(i.rowNumber)) : '';
    cells[3] = i.code;
    cells[4] = i.message;
    // The report is for a spreadsheet: cells starting with = + - @ get an apostrophe.
    this.out.text(formatCsvLine(cells, true));
  }

  /** The summary's lines on the items: per kind the count, their sources and the first items. */
  summaryLines(): string[] {
    const lines: string[] = [];
    const where = (i: RowIssue): string =>
      i.rowNumber ? `line ${this.lineOfRow(i.rowNumber)}` : 'template';
    for (const [kind, title] of [
      ['skipped', 'Skipped'],
      ['cleaned', 'Cleaned'],
      ['warning', 'Warnings'],
    ] as const) {
      const tally = this.kinds[kind];
      if (tally.count === 0) continue;
      const sources = [
        ...(tally.rowsAffected ? [plural(tally.rowsAffected, 'feed row')] : []),
        ...(tally.hasTemplateItems ? ['the templates'] : []),
      ];
      lines.push(`${title}: ${plural(tally.count, 'item')} from ${sources.join(' and ')}`);
      // Template problems (not bound to a row) first: they concern every row.
      const listed = [...tally.fromTemplates, ...tally.fromRows].slice(0, MAX_LISTED_ISSUES);
      for (const i of listed) lines.push(`  ${where(i)}, ${i.output}: ${i.message}`);
      if (tally.count > MAX_LISTED_ISSUES)
        lines.push(`  ... and ${tally.count - MAX_LISTED_ISSUES} more (see adloom-report.csv)`);
    }
    if (this.count === 0) lines.push('No rows skipped or cleaned.');
    return lines;
  }
}
