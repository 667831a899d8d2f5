/** `adloom generate`: read and check every input, generate with the engine, write all files or none. */
import path from 'node:path';
import {
  assetGroupsTable,
  calloutsTable,
  campaignsTable,
  FEED_COLUMN_MAX_CHARS,
  findAdTemplateProblems,
  findCampaignTemplateProblems,
  findExtensionTemplateProblems,
  findFormulaCells,
  findPerformanceMaxTemplateProblems,
  findRsaTemplateProblems,
  findBuildStatus,
  formatCsvLine,
  generateBuild,
  IntChunks,
  responsiveSearchAdCells,
  rowStatusCodes,
  editorStatus,
  editorFileStem,
  generateRunExtensions,
  GOOGLE_ADS_EDITOR,
  GroupKeyMaker,
  IMAGES_NEEDED_FILE_STEM,
  BUILD_RECORD_FILE_NAME,
  linesOfCampaigns,
  linesOfItems,
  IMAGES_NEEDED_NOTE,
  performanceMaxAdsTable,
  restoreAdTemplate,
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restorePerformanceMaxTemplate,
  restoreRsaTemplate,
  sitelinksTable,
  structuredSnippetsTable,
  type AdGroupRef,
  type AdGroupStore,
  type AdGroupTarget,
  type BuildStatus,
  type ExportStreamFile,
  type ExportTableKind,
  type ExtensionTypeName,
  type RowGroupKeys,
  type RowIssue,
  type GeneratedExtension,
  type StreamedTableKind,
  type Table,
} from '@adloom/engine';
import { PackedAdGroups, TextRuns } from './adGroups.ts';
import { AdsThread, fileChunks } from './adsThread.ts';
import { sharedArray } from './bytes.ts';
import { readFeed } from './feed.ts';
import type { BuildFile } from './fileTables.ts';
import { RecordCsvChunks, RecordWriter } from './recordStream.ts';
import { adsMatchedToGroups, labelAdTemplate, labelRsaTemplate } from './label.ts';
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
  /**
   * Given, filled with the feed line of each row of each streamed table (keywords, negatives,
   * ad groups), in file order (`ExportTable.lines`): what a build record reads.
   */
  lines?: Map<ExportTableKind, ArrayLike<number>>;
  /**
   * The client's label: added to the Labels column of campaigns, ad groups, keywords and
   * responsive search ads (an account export then tells Adloom's items from hand-made ones).
   * Checked by the caller (`checkClientLabel`).
   */
  label: string;
  /**
   * Given (a folder, every output): the build record, `adloom-build.json`, is written beside
   * the files, with this date (ISO) in it.
   */
  record?: { created: string };
}

/** What a generation made, for a change plan. */
export interface GenerateResult {
  /** What the command prints. */
  summary: string;
  /** Its first line: the rows read, from which feed, in which encoding. */
  readLine: string;
  /** The reported items' lines of the summary. */
  issueLines: string[];
  /** The Editor files written into the folder (paths in it), each with its rows' feed lines. */
  files: BuildFile[];
  /** The templates' names (campaign, ads, extensions), for a build record. */
  templates: string[];
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
  {
    kind: keyof typeof OUTPUT_TABLES;
    table: (e: GeneratedExtension[], status?: BuildStatus) => Table;
    noun: string;
  }
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
  return (await runGenerateBuild(o)).summary;
}

/** Runs generation; returns what it made. Throws InputError for bad input (nothing written). */
export async function runGenerateBuild(o: GenerateOptions): Promise<GenerateResult> {
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

async function generate(
  o: GenerateOptions,
  adsThread: AdsThread | undefined,
): Promise<GenerateResult> {
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

  const templates = [
    campaign.name,
    ...(rsa ? [rsa.name] : []),
    ...(legacy ? [legacy.name] : []),
    ...(pmax ? [pmax.name] : []),
    ...extensionTemplates.map((t) => t.name),
  ];

  // 2. Generate, writing each output as it is made into files beside the output folder.
  /** The physical line of the feed where row `n` (from 1) starts. */
  const lineOfRow = (n: number): number => rows.lineOfRow(n);
  const wants = (kind: OutputKind): boolean => !o.only || o.only.has(kind);
  // Items every row behind is paused go out Paused (none paused: no status column at all).
  const status = findBuildStatus(
    { rows, campaign, extensions: extensionTemplates },
    rowStatusCodes(rows),
  );
  // The streamed files are the Google Ads Editor format's: their names, headers (the status
  // column too) and where the client label goes.
  const streamOf = (kind: StreamedTableKind): ExportStreamFile =>
    GOOGLE_ADS_EDITOR.stream(
      { kind, ...(status ? { status } : {}) },
      { fileName: commandFileName, clientLabel: o.label },
    );
  const adGroupsStream = streamOf('ad-groups');
  const keywordsStream = streamOf('keywords');
  const negativesStream = streamOf('negatives');
  const rsaStream = streamOf('responsive-search-ads');
  // Ads carry the label in their own labels when the format says so: the templates' fallbacks
  // get it, so every writer of ads (this thread's, the ads' thread's) carries it.
  const adLabel = rsaStream.itemLabel;
  if (rsa && adLabel !== undefined) rsa = labelRsaTemplate(rsa, adLabel);
  if (legacy && adLabel !== undefined) legacy = labelAdTemplate(legacy, adLabel);
  // A plan reads the build's files back and needs each streamed row's feed line.
  const lineMap = o.lines;
  const folder = OutputFolder.open(o.out);
  try {
    // The build record is written as the items are (recordStream.ts): a folder, every output.
    const record =
      o.record !== undefined && o.out !== undefined && !o.only
        ? new RecordWriter(folder.file(BUILD_RECORD_FILE_NAME, false), {
            created: o.record.created,
            client: '',
            feed: path.basename(o.feed),
            templates,
            label: o.label,
          })
        : undefined;
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
        message: `${t.column} cut to ${FEED_COLUMN_MAX_CHARS[t.column]} characters: "${t.original}"`,
      });
    }
    const counts: Array<[string, string]> = [];
    const progress = o.progress;
    progress?.start(rows.length);
    /** The sink of a streamed output, its header written, or undefined when it is not written. */
    const open = (kind: OutputKind, stream: ExportStreamFile): OutputSink | undefined => {
      if (!wants(kind)) return undefined;
      const sink = folder.file(stream.name, stream.bom);
      sink.text(stream.header);
      return sink;
    };
    const keywordsOut = isPerformance ? undefined : open('keywords', keywordsStream);
    const negativesOut = isPerformance ? undefined : open('negatives', negativesStream);
    const adGroupsOut = isPerformance ? undefined : open('ad-groups', adGroupsStream);
    const adGroupItems = adGroupsOut && record?.rows('ad-groups', adGroupsStream.headers);
    // The ad group lines as CSV text, joined into long runs (see TextRuns); one list of cells
    // for every line: the group's, its status, then what the format adds.
    const adGroupLines = adGroupsOut && new TextRuns((text) => adGroupsOut.text(text));
    const adGroupCells = ['', ''];
    const adGroupRows = lineMap && new IntChunks();
    const onAdGroup = (g: AdGroupRef): void => {
      if (adGroupLines) {
        adGroupCells[0] = g.campaign;
        adGroupCells[1] = g.adGroup;
        if (status) adGroupCells[2] = editorStatus(status.groupPaused(g.campaign, g.adGroup));
        const cells = adGroupsStream.row(adGroupCells);
        adGroupLines.add(formatCsvLine(cells));
        adGroupItems?.row(cells, lineOfRow(Number(g.id)));
      }
      adGroupRows?.push(lineOfRow(Number(g.id)));
      progress?.group(g.id);
    };
    const rsaOut = isPerformance || !(rsa || legacy) ? undefined : open('rsa', rsaStream);
    let rsaCount = 0;
    // With the ads' thread, this thread makes the keywords and hands each ad group over; the
    // thread writes the RSA file (header written here first) and its items to a scratch part.
    // With paused rows the ads are made here, each with its ad group's status, and so they are
    // when the format adds cells to each row.
    const threaded = adsThread && !isPerformance && !status && !rsaStream.addsCells;
    let reportPart: { fd: number; file: string } | undefined;
    // The ads' thread writes its ads' items as a part of the record (recordStream.ts).
    let recordPart: { fd: number; file: string } | undefined;
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
      if (record && rsaOut) recordPart = folder.scratch('ads-record.part');
      progress?.watchAds(() => adsThread.progress());
      adsThread.begin({
        feed: rows.share(),
        rsa,
        legacy,
        today: o.today,
        constant: campaign.const,
        rsaFd: rsaOut && folder.fdOf(rsaStream.name),
        reportFd: reportPart?.fd,
        record: recordPart && { fd: recordPart.fd, label: o.label, headers: rsaStream.headers },
        groupKeys: groupKeys && { campaign: campaignJson, out: groupKeys },
      });
      // The keyword step's look-ahead keys every row before the first group exists: the two
      // threads key them together, a chunk at a time.
      if (groupKeys) await adsThread.keyRows(new GroupKeyMaker(campaign), rows, groupKeys);
    }
    const adGroupStore = threaded
      ? new HandedOver(onAdGroup, adsThread)
      : new PackedAdGroups(onAdGroup);
    const keywordRows = (lineMap || record) && new IntChunks();
    const negativeRows = (lineMap || record) && new IntChunks();
    /** The feed line of line `i` of a keywords or negatives file. */
    const lineOfLine =
      (rows: IntChunks | undefined) =>
      (i: number): number =>
        rows && i < rows.length ? lineOfRow(rows.at(i) + 1) : 0;
    const keywordItems =
      keywordsOut && record && new RecordCsvChunks(record, 'keywords', lineOfLine(keywordRows));
    keywordItems?.chunk(keywordsStream.header);
    const negativeItems =
      negativesOut && record && new RecordCsvChunks(record, 'negatives', lineOfLine(negativeRows));
    negativeItems?.chunk(negativesStream.header);
    // Ads made on this thread for a record are written from their cells, each an item.
    const rsaItems =
      rsaOut && !threaded ? record?.rows('responsive-search-ads', rsaStream.headers) : undefined;
    const rsaCells: string[] = [];
    const build = generateBuild(
      {
        status,
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
        // The format writes the headers.
        hasHeader: false,
        keywords: (chunk) => {
          const text = keywordsStream.text(chunk);
          keywordsOut?.text(text);
          keywordItems?.chunk(text);
          progress?.lines(chunk);
        },
        negatives: (chunk) => {
          const text = negativesStream.text(chunk);
          negativesOut?.text(text);
          negativeItems?.chunk(text);
          progress?.lines(chunk);
        },
        ...(status || rsaItems || rsaStream.addsCells
          ? {
              rsaAd: (ad) => {
                rsaCount++;
                progress?.ad(ad.rowId);
                const made = responsiveSearchAdCells(ad, rsaCells);
                if (status) made.push(editorStatus(status.groupPaused(ad.campaign, ad.adGroup)));
                const cells = rsaStream.row(made);
                rsaOut?.line(cells);
                rsaItems?.row(cells, lineOfRow(Number(ad.rowId)));
              },
            }
          : {
              rsaLines: {
                csv: rsaOut,
                ad: (rowId) => {
                  rsaCount++;
                  progress?.ad(rowId);
                },
              },
            }),
        keywordRows,
        negativeRows,
        adGroupStore,
        issue: (i) => report.add(i),
      },
    );
    adGroupLines?.end();
    for (const [stream, out, items] of [
      [keywordsStream, keywordsOut, keywordItems],
      [negativesStream, negativesOut, negativeItems],
    ] as const) {
      const rest = stream.end();
      out?.text(rest);
      items?.chunk(rest);
    }
    keywordItems?.end();
    negativeItems?.end();
    if (lineMap) {
      const feedLines = (rows: IntChunks | undefined): Uint32Array =>
        Uint32Array.from({ length: rows?.length ?? 0 }, (_, i) => lineOfRow(rows!.at(i) + 1));
      lineMap.set('keywords', feedLines(keywordRows));
      lineMap.set('negatives', feedLines(negativeRows));
      lineMap.set(
        'ad-groups',
        Uint32Array.from({ length: adGroupRows?.length ?? 0 }, (_, i) => adGroupRows!.at(i)),
      );
    }
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
    // (the images note beside asset groups, in a folder only), each with the BOM the format
    // gives it (the tables one, the note none, as the web app's downloads).
    // The Editor files written, with what their rows are, for the record or a plan.
    const built: Array<{ name: string; kind: ExportTableKind; lines?: () => ArrayLike<number> }> =
      [];
    const lineOfRowId = (id: string): number => lineOfRow(Number(id));
    const write = (
      kind: keyof typeof OUTPUT_TABLES,
      what: string,
      table: () => Table,
      lines?: () => ArrayLike<number>,
      /** The kind of its rows when it is not the file's (Performance Max ads in asset-groups.csv). */
      rowsKind: ExportTableKind = OUTPUT_TABLES[kind],
    ): void => {
      if (!wants(kind)) return;
      const files = GOOGLE_ADS_EDITOR.files([{ kind: OUTPUT_TABLES[kind], read: table }], {
        fileName: commandFileName,
        withNotes: o.out !== undefined,
        clientLabel: o.label,
      });
      for (const file of files) {
        folder.writeFile(file.name, file.chunks(), file.bom);
        counts.push([file.name, file.name === IMAGES_NEEDED_FILE ? IMAGES_NEEDED_NOTE : what]);
        if (file.name !== IMAGES_NEEDED_FILE)
          built.push({ name: file.name, kind: rowsKind, ...(lines ? { lines } : {}) });
      }
      record?.table({ kind: rowsKind, read: table, ...(lines ? { lines } : {}) });
    };
    write(
      'campaigns',
      plural(campaigns.length, 'campaign'),
      () => campaignsTable(campaigns, status),
      () => linesOfCampaigns(campaigns, lineOfRowId),
    );
    if (threaded) {
      const done = await waitForAds(adsThread, progress);
      rsaCount = done.ads;
      report.merge(done.tallies, reportPart ? fileChunks(reportPart.fd) : []);
      if (reportPart) folder.dropScratch(reportPart.file);
      if (recordPart && done.record) {
        record?.part(fileChunks(recordPart.fd), done.record);
        folder.dropScratch(recordPart.file);
      }
      for (const i of extensionItems) report.add(i);
    }
    for (const i of formulaCells) report.add(i);

    if (isPerformance) {
      if (build.performanceMaxAds) {
        const ads = build.performanceMaxAds;
        write(
          'asset-groups',
          `${plural(ads.length, 'asset group')} with assets (of ${assetGroups.length})`,
          () => performanceMaxAdsTable(ads, status),
          () => linesOfItems(ads, (a) => a.rowId, lineOfRowId),
          'performance-max-ads',
        );
      } else {
        write(
          'asset-groups',
          plural(assetGroups.length, 'asset group'),
          () => assetGroupsTable(assetGroups, status),
          () => linesOfItems(assetGroups, (g) => g.id, lineOfRowId),
        );
      }
    } else {
      if (adGroupsOut) counts.push([adGroupsStream.name, plural(adGroupStore.length, 'ad group')]);
      if (keywordsOut) counts.push([keywordsStream.name, plural(build.keywordLines, 'keyword')]);
      if (negativesOut)
        counts.push([negativesStream.name, plural(build.negativeLines, 'negative keyword')]);
      if (rsaOut) counts.push([rsaStream.name, plural(rsaCount, 'responsive search ad')]);
    }
    for (const [type, list] of extensions) {
      const f = EXTENSION_FILES[type];
      write(
        f.kind,
        plural(list.length, f.noun),
        () => f.table(list, status),
        () => linesOfItems(list, (e) => e.rowId, lineOfRowId),
      );
    }
    if (wants('report')) counts.push([OUTPUT_KINDS.report, plural(report.count, 'reported item')]);

    // The streamed files, in the order a full build lists its tables.
    const streamed: Array<[ExportStreamFile, ExportTableKind, OutputSink | undefined]> = [
      [adGroupsStream, 'ad-groups', adGroupsOut],
      [keywordsStream, 'keywords', keywordsOut],
      [negativesStream, 'negatives', negativesOut],
    ];
    const at = built.length > 0 && built[0]!.kind === 'campaigns' ? 1 : 0;
    built.splice(
      at,
      0,
      ...streamed
        .filter(([, , sink]) => sink)
        .map(([stream, tableKind]) => ({
          name: stream.name,
          kind: tableKind,
          ...(lineMap ? { lines: () => lineMap.get(tableKind) ?? [] } : {}),
        })),
    );
    // Where the files are: the temporary folder, then the output folder after the commit.
    const place = (name: string): string =>
      committed ? path.join(path.resolve(o.out!), name) : folder.pathOf(name);
    let committed = false;
    if (rsaOut) {
      const rsaAt = built.findIndex((b) => b.kind === 'negatives') + 1 || built.length;
      built.splice(rsaAt, 0, {
        name: rsaStream.name,
        kind: 'responsive-search-ads',
        // An ad is made from its ad group's first row: it takes that row's line.
        ...(lineMap && adGroupsOut
          ? {
              lines: () =>
                adsMatchedToGroups(
                  place(adGroupsStream.name),
                  place(rsaStream.name),
                  lineMap.get('ad-groups') ?? [],
                ),
            }
          : {}),
      });
    }
    const files: BuildFile[] =
      o.out === undefined
        ? []
        : built.map((b) => ({
            kind: b.kind,
            file: folder.pathOf(b.name),
            ...(b.lines ? { lines: b.lines } : {}),
          }));
    if (record) {
      record.end();
      counts.push([BUILD_RECORD_FILE_NAME, 'the build record (what a plan compares with)']);
    }

    // 3. Move the files into the output folder.
    folder.commit();
    committed = true;
    progress?.end();
    const readLine = formatReadLine(
      o,
      rows.length,
      feed.delimiter === ','
        ? feed.encoding
        : `${feed.encoding}, ${DELIMITER_WORDS[feed.delimiter]}`,
      feed.columns,
      feed.ignoredHeaders,
    );
    const issueLines = [...report.summaryLines()];
    return {
      summary: formatSummary(o, readLine, counts, issueLines),
      readLine,
      issueLines,
      // After the commit the files are in the output folder.
      files: files.map((f) => ({ ...f, file: place(path.basename(f.file)) })),
      templates,
    };
  } finally {
    folder.discard();
  }
}

/** How the summary names a separator other than the comma. */
const DELIMITER_WORDS = { ';': 'semicolon-separated', '\t': 'tab-separated' } as const;

function formatReadLine(
  o: GenerateOptions,
  rowCount: number,
  encoding: string,
  columns: readonly string[],
  ignored: readonly string[],
): string {
  return `Read ${plural(rowCount, 'row')} from ${path.basename(o.feed)} (${encoding}; columns: ${columns.join(', ')}${ignored.length ? `; ignored: ${ignored.join(', ')}` : ''})`;
}

function formatSummary(
  o: GenerateOptions,
  readLine: string,
  counts: ReadonlyArray<[string, string]>,
  issueLines: readonly string[],
): string {
  const lines: string[] = [readLine];
  lines.push(`Wrote to ${o.out ?? 'standard output'}:`);
  const width = Math.max(...counts.map(([f]) => f.length));
  for (const [file, what] of counts) lines.push(`  ${file.padEnd(width)}  ${what}`);
  for (const line of issueLines) lines.push(line);
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
