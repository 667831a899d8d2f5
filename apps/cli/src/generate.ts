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
  generateBuild,
  IMAGES_NEEDED_FILE_TEXT,
  IMAGES_NEEDED_NOTE,
  importCsvRows,
  performanceMaxAdsTable,
  responsiveSearchAdsTable,
  restoreAdTemplate,
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restorePerformanceMaxTemplate,
  restoreRsaTemplate,
  sitelinksTable,
  structuredSnippetsTable,
  withRowIds,
  type ExtensionTypeName,
  type FormatCsvOptions,
  type GeneratedExtension,
  type RowIssue,
  type Table,
} from '@adloom/engine';
import {
  decodeText,
  InputError,
  parseJsonFile,
  readInputFile,
  writeAllOrNothing,
  type OutputFile,
} from './files.ts';

/** Options of `runGenerate` (paths as given on the command line). */
export interface GenerateOptions {
  feed: string;
  campaign: string;
  rsa?: string;
  pmax?: string;
  extensions: string[];
  legacyAd?: string;
  out: string;
  /** yyyymmdd for the label helpers. */
  today: string;
}

const MAX_LISTED_ISSUES = 20;

/** Written beside asset groups: they cannot run until images are added in Editor. */
const IMAGES_NEEDED_FILE = 'performance-max-images-needed.txt';

async function readJson(file: string, what: string): Promise<unknown> {
  const buf = await readInputFile(file, what);
  return parseJsonFile(decodeText(buf).text, file);
}

function failOnProblems(file: string, what: string, problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, MAX_LISTED_ISSUES).map((p) => `  ${p}`);
  if (problems.length > shown.length)
    shown.push(`  ... and ${problems.length - shown.length} more`);
  throw new InputError(`${what} ${file} is not valid:\n${shown.join('\n')}`);
}

function csv(name: string, table: Table, options: FormatCsvOptions = {}): OutputFile {
  return { name, chunks: formatCsv(table, options) };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const EXTENSION_FILES: Record<
  ExtensionTypeName,
  { file: string; table: (e: GeneratedExtension[]) => Table; noun: string }
> = {
  Callout: { file: 'callouts.csv', table: calloutsTable, noun: 'callout' },
  Sitelink: { file: 'sitelinks.csv', table: sitelinksTable, noun: 'sitelink' },
  'Structured Snippet': {
    file: 'structured-snippets.csv',
    table: structuredSnippetsTable,
    noun: 'structured snippet',
  },
};

/** Runs generation; returns the summary text. Throws InputError for bad input (nothing written). */
export async function runGenerate(o: GenerateOptions): Promise<string> {
  // 1. Read and check every input before generating anything.
  const feedText = decodeText(await readInputFile(o.feed, 'Feed'));
  const imported = importCsvRows(feedText.text);
  if (!imported.ok) throw new InputError(`Feed ${o.feed}: ${imported.error}`);
  const rows = withRowIds(imported.rows, (i) => `row-${i + 1}`);

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

  // 2. Generate.
  /** The physical line of the feed where row `n` (from 1) starts. */
  const lineOfRow = (n: number): number => imported.sourceLines[n - 1] ?? 0;
  const issues: RowIssue[] = [];
  for (const t of imported.truncated) {
    issues.push({
      kind: 'cleaned',
      output: 'feed',
      rowId: `row-${t.rowNumber}`,
      rowNumber: t.rowNumber,
      code: 'cell-truncated',
      message: `${t.column} cut to 30 characters: "${t.original}"`,
    });
  }
  const keywordChunks: string[] = [];
  const negativeChunks: string[] = [];
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
      keywords: (chunk) => keywordChunks.push(chunk),
      negatives: (chunk) => negativeChunks.push(chunk),
    },
  );
  issues.push(...build.issues);
  issues.push(
    ...findFormulaCells(rows, {
      campaign,
      rsa,
      pmax,
      legacy,
      extensions: extensionTemplates,
    }),
  );
  const { campaigns, adGroups, assetGroups } = build;
  const files: OutputFile[] = [];
  const counts: Array<[string, string]> = [];
  files.push(csv('campaigns.csv', campaignsTable(campaigns)));
  counts.push(['campaigns.csv', plural(campaigns.length, 'campaign')]);

  if (isPerformance) {
    if (build.performanceMaxAds) {
      const ads = build.performanceMaxAds;
      files.push(csv('asset-groups.csv', performanceMaxAdsTable(ads)));
      counts.push([
        'asset-groups.csv',
        `${plural(ads.length, 'asset group')} with assets (of ${assetGroups.length})`,
      ]);
    } else {
      files.push(csv('asset-groups.csv', assetGroupsTable(assetGroups)));
      counts.push(['asset-groups.csv', plural(assetGroups.length, 'asset group')]);
    }
    // Editor takes text-only asset groups, but they cannot run until images are added.
    files.push({ name: IMAGES_NEEDED_FILE, chunks: [IMAGES_NEEDED_FILE_TEXT] });
    counts.push([IMAGES_NEEDED_FILE, IMAGES_NEEDED_NOTE]);
  } else {
    files.push(csv('ad-groups.csv', adGroupsTable(adGroups)));
    counts.push(['ad-groups.csv', plural(adGroups.length, 'ad group')]);
    files.push({ name: 'keywords.csv', chunks: keywordChunks });
    counts.push(['keywords.csv', plural(build.keywordLines, 'keyword')]);
    files.push({ name: 'negatives.csv', chunks: negativeChunks });
    counts.push(['negatives.csv', plural(build.negativeLines, 'negative keyword')]);
    if (build.rsaAds) {
      const ads = build.rsaAds;
      files.push(csv('responsive-search-ads.csv', responsiveSearchAdsTable(ads)));
      counts.push(['responsive-search-ads.csv', plural(ads.length, 'responsive search ad')]);
    }
  }
  for (const [type, list] of build.extensions) {
    const f = EXTENSION_FILES[type];
    files.push(csv(f.file, f.table(list)));
    counts.push([f.file, plural(list.length, f.noun)]);
  }
  const lineOf = (i: RowIssue): number => lineOfRow(i.rowNumber);
  // The report is for a spreadsheet: cells starting with = + - @ get an apostrophe.
  files.push(
    csv(
      'adloom-report.csv',
      {
        headers: ['Kind', 'Output', 'Line', 'Code', 'Message'],
        rows: issues.map((i) => [
          i.kind,
          i.output,
          i.rowNumber ? String(lineOf(i)) : '',
          i.code,
          i.message,
        ]),
      },
      { neutraliseFormulas: true },
    ),
  );
  counts.push(['adloom-report.csv', plural(issues.length, 'reported item')]);

  // 3. Write everything or nothing.
  await writeAllOrNothing(o.out, files);
  return formatSummary(
    o,
    rows.length,
    feedText.encoding,
    imported.columns,
    imported.ignoredHeaders,
    counts,
    issues,
    lineOf,
  );
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
  lines.push(`Wrote to ${o.out}:`);
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
