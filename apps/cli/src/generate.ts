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
  formatCsvLine,
  generateBuild,
  editorFileStem,
  generateRunExtensions,
  GOOGLE_ADS_EDITOR,
  GroupKeyMaker,
  IMAGES_NEEDED_FILE_STEM,
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
  type AdGroupRef,
  type AdGroupStore,
  type AdGroupTarget,
  type ExportTableKind,
  type ExtensionTypeName,
  type RowGroupKeys,
  type RowIssue,
  type GeneratedExtension,
  type Table,
} from '@adloom/engine';
import { PackedAdGroups, TextRuns } from './adGroups.ts';
import { AdsThread, fileChunks } from './adsThread.ts';
import { sharedArray } from './bytes.ts';
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
import { IssueReport, MAX_LISTED_ISSUES, plural } from './report.ts';

/**
 * The command's names for a format's files: the stem with hyphens for its spaces and the
 * extension (`asset-groups.csv`), where the web app writes `<client> - asset groups - <date>.csv`.
 */
export function commandFileName(stem: string, extension: string): string {
  return `${stem.replaceAll(' ', '-')}.${extension}`;
}

/** The table each output `--only` can name holds (the report is the command's own). */
const OUTPUT_TABLES = {
  campaigns: 'campaigns',
  'ad-groups': 'ad-groups',
  keywords: 'keywords',
  negatives: 'negatives',
  rsa: 'responsive-search-ads',
  'asset-groups': 'asset-groups',
  callouts: 'callouts',
  sitelinks: 'sitelinks',
  'structured-snippets': 'structured-snippets',
} as const satisfies Record<string, ExportTableKind>;

/** An output `--only` can name. */
export type OutputKind = keyof typeof OUTPUT_TABLES | 'report';

/**
 * What `--only` names, and the file each is written to: the Google Ads Editor format's file of
 * its table (`editorFileStem`), and the command's report of every reported item.
 */
export const OUTPUT_KINDS: Readonly<Record<OutputKind, string>> = {
  ...(Object.fromEntries(
    Object.entries(OUTPUT_TABLES).map(([kind, table]) => [
      kind,
      commandFileName(editorFileStem(table), 'csv'),
    ]),
  ) as Record<keyof typeof OUTPUT_TABLES, string>),
  report: 'adloom-report.csv',
};

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
  /**
   * The compiled command: given, the responsive search ads of a run into a folder are made on a
   * thread of their own, beside the keyword step (adsThread.ts); else on this one.
   */
  adsThreadScript?: URL;
}

/** Written beside asset groups: they cannot run until images are added in Editor. */
const IMAGES_NEEDED_FILE = commandFileName(IMAGES_NEEDED_FILE_STEM, 'txt');

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

const EXTENSION_FILES: Record<
  ExtensionTypeName,
  { kind: keyof typeof OUTPUT_TABLES; table: (e: GeneratedExtension[]) => Table; noun: string }
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
  // The ads' thread loads while the inputs are read (it does nothing until it is given a job).
  const adsThread =
    o.adsThreadScript && o.out !== undefined && (o.rsa || o.legacyAd)
      ? new AdsThread(o.adsThreadScript)
      : undefined;
  try {
    return await generate(o, adsThread);
  } finally {
    await adsThread?.stop();
  }
}

async function generate(o: GenerateOptions, adsThread: AdsThread | undefined): Promise<string> {
  // 1. Read and check every input before generating anything.
  const feed = await readFeed(o.feed);
  const { rows } = feed;

  const campaignJson = await readJson(o.campaign, 'Campaign template');
  failOnProblems(o.campaign, 'Campaign template', findCampaignTemplateProblems(campaignJson));
  const campaign = restoreCampaignTemplate(campaignJson);
  const isPerformance = campaign.type === 'performance';

  let rsa;
  let rsaJson: unknown;
  if (o.rsa) {
    const json = await readJson(o.rsa, 'RSA template');
    rsaJson = json;
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
  let legacyJson: unknown;
  if (o.legacyAd) {
    const json = await readJson(o.legacyAd, 'Legacy ad template');
    legacyJson = json;
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
    const onAdGroup = (g: AdGroupRef): void => {
      if (adGroupLines) {
        adGroupCells[0] = g.campaign;
        adGroupCells[1] = g.adGroup;
        adGroupLines.add(formatCsvLine(adGroupCells));
      }
      progress?.group(g.id);
    };
    const rsaOut = isPerformance || !(rsa || legacy) ? undefined : open('rsa');
    rsaOut?.line(RSA_HEADERS);
    let rsaCount = 0;
    // With the ads' thread, this thread makes the keywords and hands each ad group over; the
    // thread writes the RSA file (header written here first) and its items to a scratch part.
    const threaded = adsThread && !isPerformance;
    let reportPart: { fd: number; file: string } | undefined;
    const groupKeys: RowGroupKeys | undefined =
      threaded && GroupKeyMaker.usesGroupKeys(campaign)
        ? {
            keys: sharedArray(Int32Array, rows.length),
            named: sharedArray(Uint8Array, rows.length),
          }
        : undefined;
    if (threaded) {
      rsaOut?.end();
      if (wants('report')) reportPart = folder.scratch('ads-report.part');
      progress?.watchAds(() => adsThread.progress());
      adsThread.begin({
        feed: rows.share(),
        rsa: rsaJson,
        legacy: legacyJson,
        today: o.today,
        constant: campaign.const,
        rsaFd: rsaOut && folder.fdOf(OUTPUT_KINDS.rsa),
        reportFd: reportPart?.fd,
        groupKeys: groupKeys && { campaign: campaignJson, out: groupKeys },
      });
      // The keyword step's look-ahead keys every row before the first group exists: the two
      // threads key them together, a chunk at a time.
      if (groupKeys) await adsThread.keyRows(new GroupKeyMaker(campaign), rows, groupKeys);
    }
    const adGroupStore = threaded
      ? new HandedOver(onAdGroup, adsThread)
      : new PackedAdGroups(onAdGroup);
    const build = generateBuild(
      {
        rows,
        campaign,
        rsa: threaded ? undefined : rsa,
        pmax,
        legacy: threaded ? undefined : legacy,
        // With the ads' thread, extensions are made once the ads are (their items follow the ads').
        extensions: threaded ? [] : extensionTemplates,
        today: o.today,
        groupKeys,
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
    let extensions = build.extensions;
    // With the ads' thread, this thread's own outputs are done while it finishes: they are written
    // out, and the extensions and the formula check are made meanwhile (their items are reported
    // after the ads', as one thread reports them).
    const extensionItems: RowIssue[] = [];
    if (threaded) {
      keywordsOut?.end();
      negativesOut?.end();
      adGroupsOut?.end();
      extensions = generateRunExtensions(
        { rows, campaign, extensions: extensionTemplates },
        (items) => {
          for (const i of items) extensionItems.push(i);
        },
      );
    }
    const formulaCells = findFormulaCells(rows, {
      campaign,
      rsa,
      pmax,
      legacy,
      extensions: extensionTemplates,
    });
    const { campaigns, assetGroups } = build;
    // A whole table goes through the Google Ads Editor format: its file, and the notes beside it
    // (the images note beside asset groups, in a folder only). The command starts every file in
    // a folder with a BOM (OutputFolder.file), the note too.
    const write = (kind: keyof typeof OUTPUT_TABLES, what: string, table: () => Table): void => {
      if (!wants(kind)) return;
      const files = GOOGLE_ADS_EDITOR.files([{ kind: OUTPUT_TABLES[kind], read: table }], {
        fileName: commandFileName,
        withNotes: o.out !== undefined,
      });
      for (const file of files) {
        folder.writeFile(file.name, file.chunks());
        counts.push([file.name, file.name === IMAGES_NEEDED_FILE ? IMAGES_NEEDED_NOTE : what]);
      }
    };
    write('campaigns', plural(campaigns.length, 'campaign'), () => campaignsTable(campaigns));
    if (threaded) {
      const done = await waitForAds(adsThread, progress);
      rsaCount = done.ads;
      report.merge(done.tallies, reportPart ? fileChunks(reportPart.fd) : []);
      if (reportPart) folder.dropScratch(reportPart.file);
      for (const i of extensionItems) report.add(i);
    }
    for (const i of formulaCells) report.add(i);

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
    } else {
      if (adGroupsOut) counts.push(['ad-groups.csv', plural(adGroupStore.length, 'ad group')]);
      if (keywordsOut) counts.push(['keywords.csv', plural(build.keywordLines, 'keyword')]);
      if (negativesOut)
        counts.push(['negatives.csv', plural(build.negativeLines, 'negative keyword')]);
      if (rsaOut)
        counts.push(['responsive-search-ads.csv', plural(rsaCount, 'responsive search ad')]);
    }
    for (const [type, list] of extensions) {
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
      feed.delimiter === ','
        ? feed.encoding
        : `${feed.encoding}, ${DELIMITER_WORDS[feed.delimiter]}`,
      feed.columns,
      feed.ignoredHeaders,
      counts,
      report,
    );
  } finally {
    folder.discard();
  }
}

/** How the summary names a separator other than the comma. */
const DELIMITER_WORDS = { ';': 'semicolon-separated', '\t': 'tab-separated' } as const;

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

/**
 * The ad group store of a run whose ads are made on their own thread: each group is handed over
 * as it comes and counted, not kept (this thread makes no ads, so it never reads them back).
 */
class HandedOver implements AdGroupStore {
  length = 0;
  constructor(
    private readonly onAdd: (g: AdGroupRef) => void,
    private readonly thread: AdsThread,
  ) {}

  add(g: AdGroupRef): void {
    this.onAdd(g);
    this.thread.add(g);
    this.length++;
  }

  [Symbol.iterator](): Iterator<AdGroupTarget> {
    throw new Error('The ad groups went to the ads thread');
  }
}

/** Awaits the ads' thread, showing its progress meanwhile. */
async function waitForAds(
  thread: AdsThread,
  progress: Progress | undefined,
): ReturnType<AdsThread['finish']> {
  const done = thread.finish();
  if (!progress) return done;
  const timer = setInterval(() => progress.waitingForAds(), 100);
  try {
    return await done;
  } finally {
    clearInterval(timer);
  }
}
