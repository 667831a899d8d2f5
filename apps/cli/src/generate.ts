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
  type FormatCsvOptions,
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
  const issues: RowIssue[] = [];
  for (const t of feed.truncated) {
    issues.push({
      kind: 'cleaned',
      output: 'feed',
      rowId: String(t.rowNumber),
      rowNumber: t.rowNumber,
      code: 'cell-truncated',
      message: `${t.column} cut to 30 characters: "${t.original}"`,
    });
  }
  const wants = (kind: OutputKind): boolean => !o.only || o.only.has(kind);
  const folder = OutputFolder.open(o.out);
  try {
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
      },
    );
    adGroupLines?.end();
    for (const i of build.issues) issues.push(i);
    const formulaCells = findFormulaCells(rows, {
      campaign,
      rsa,
      pmax,
      legacy,
      extensions: extensionTemplates,
    });
    for (const i of formulaCells) issues.push(i);
    const { campaigns, assetGroups } = build;
    const write = (
      kind: OutputKind,
      what: string,
      table: () => Table,
      options: FormatCsvOptions = {},
    ): void => {
      if (!wants(kind)) return;
      folder.writeFile(OUTPUT_KINDS[kind], formatCsv(table(), options));
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
    const lineOf = (i: RowIssue): number => lineOfRow(i.rowNumber);
    // The report is for a spreadsheet: cells starting with = + - @ get an apostrophe.
    write(
      'report',
      plural(issues.length, 'reported item'),
      () => ({
        headers: ['Kind', 'Output', 'Line', 'Code', 'Message'],
        rows: issues.map((i) => [
          i.kind,
          i.output,
          i.rowNumber ? String(lineOf(i)) : '',
          i.code,
          i.message,
        ]),
      }),
      { neutraliseFormulas: true },
    );

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
      issues,
      lineOf,
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
  issues: readonly RowIssue[],
  lineOf: (i: RowIssue) => number,
): string {
  const where = (i: RowIssue) => (i.rowNumber ? `line ${lineOf(i)}` : 'template');
  const lines: string[] = [];
  lines.push(
    `Read ${plural(rowCount, 'row')} from ${path.basename(o.feed)} (${encoding}; columns: ${columns.join(', ')}${ignored.length ? `; ignored: ${ignored.join(', ')}` : ''})`,
  );
  lines.push(`Wrote to ${o.out ?? 'standard output'}:`);
  const width = Math.max(...counts.map(([f]) => f.length));
  for (const [file, what] of counts) lines.push(`  ${file.padEnd(width)}  ${what}`);
  for (const [kind, title] of [
    ['skipped', 'Skipped'],
    ['cleaned', 'Cleaned'],
    ['warning', 'Warnings'],
  ] as const) {
    // Template problems (not bound to a row) first: they concern every row.
    const list = [
      ...issues.filter((i) => i.kind === kind && i.rowNumber === 0),
      ...issues.filter((i) => i.kind === kind && i.rowNumber !== 0),
    ];
    if (list.length === 0) continue;
    const rowsAffected = new Set(list.filter((i) => i.rowNumber !== 0).map((i) => i.rowNumber))
      .size;
    const sources = [
      ...(rowsAffected ? [plural(rowsAffected, 'feed row')] : []),
      ...(list.some((i) => i.rowNumber === 0) ? ['the templates'] : []),
    ];
    lines.push(`${title}: ${plural(list.length, 'item')} from ${sources.join(' and ')}`);
    for (const i of list.slice(0, MAX_LISTED_ISSUES))
      lines.push(`  ${where(i)}, ${i.output}: ${i.message}`);
    if (list.length > MAX_LISTED_ISSUES)
      lines.push(`  ... and ${list.length - MAX_LISTED_ISSUES} more (see adloom-report.csv)`);
  }
  if (issues.length === 0) lines.push('No rows skipped or cleaned.');
  return `${lines.join('\n')}\n`;
}
