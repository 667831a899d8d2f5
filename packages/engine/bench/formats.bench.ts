/**
 * Export formats benchmark: the same build's tables written as the Google Ads Editor files and as
 * the Microsoft Advertising bulk file (with its report), at about 1M table rows (keywords,
 * negatives, ad groups, campaigns, one RSA per ad group). The tables are made before the clock
 * starts; each run writes every file of the format to the end in a fresh child process (peak
 * memory is its own). Runs alternate Editor, Microsoft, Editor, … (the machine is shared); the
 * best CPU time of each counts, and the median is printed beside it (one run's CPU moves by a
 * fifth with the garbage collector's timing). Prints a table, then one JSON line with the figures.
 *
 *   npx tsx packages/engine/bench/formats.bench.ts [--rows N] [--runs N] [--label NAME]
 *   npx tsx packages/engine/bench/formats.bench.ts [--rows N] [--label NAME] --write DIR
 *
 * `--label NAME` gives both formats the client's label, as the app's downloads and the command
 * do (Editor: the Labels column; Microsoft: the Label record and an association per campaign,
 * ad group, keyword and ad), and adds a third run, the Microsoft file without it, to compare.
 *
 * `--write DIR` times nothing: it writes every file of both formats for that build into
 * DIR/<format id>/, so a change to a writer can be compared byte for byte (`diff -r` against a
 * folder written before the change).
 */
import { fork } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  GOOGLE_ADS_EDITOR,
  MICROSOFT_ADVERTISING,
  adGroupsTable,
  campaignsTable,
  exportFileParts,
  keywordsTable,
  responsiveSearchAdsTable,
  restoreCampaignTemplate,
  generateCampaignStructure,
  type ExportFormat,
  type ExportTable,
  type FeedRow,
  type RsaAd,
} from '../src/index.ts';

const BRANDS = ['nike', 'adidas', 'puma', 'reebok', 'asics', 'new balance', 'saucony', 'hoka'];
const MODS = ['running shoes', 'trainers', 'sneakers', 'boots', 'sandals', 'trail shoes'];
const COLOURS = ['red', 'blue', 'black', 'white', 'grey', 'green', 'navy', 'pink'];

function makeRows(n: number): FeedRow[] {
  const rows = new Array<FeedRow>(n);
  for (let i = 0; i < n; i++) {
    const brand = BRANDS[i % BRANDS.length]!;
    rows[i] = {
      id: `r${i}`,
      root: `${brand} ${i % 1000}`,
      mod: MODS[i % MODS.length]!,
      var1: COLOURS[i % COLOURS.length]!,
      var2: String(i),
      var3: '',
      url: `https://www.${brand.replace(' ', '')}.example/p/${i}`,
    };
  }
  return rows;
}

const template = restoreCampaignTemplate({
  name: 'Bench',
  const: 'Shoes',
  campaign: '{const} - {root}',
  adGroup: '{root} {mod} {var2}',
  budget: '25',
  keywords: [
    { keyword: '{root} {mod}', matchType: 'Broad' },
    { keyword: '{root} {mod} {var1}', matchType: 'Phrase' },
    { keyword: '{root} {mod} {var2}', matchType: 'Exact' },
    { keyword: 'cheap', matchType: 'Negative Phrase' },
  ],
});

/** A build's export tables over `feedRows` feed rows (about 5 table rows per feed row). */
function buildTables(feedRows: number): { tables: ExportTable[]; tableRows: number } {
  const out = generateCampaignStructure({ template, rows: makeRows(feedRows) });
  const ads: RsaAd[] = out.adGroups.map((g, i) => ({
    campaign: g.campaign,
    adGroup: g.adGroup,
    headlines: [`Buy ${g.adGroup}`.slice(0, 30), 'Free delivery over 50', `Model ${i}`],
    headlinePositions: [1, 0, 0],
    descriptions: ['Fast shipping and free returns on every order.', 'Compare prices and save.'],
    descriptionPositions: [0, 0],
    paths: ['shoes', 'sale'],
    finalUrl: `https://www.example.com/p/${i}`,
    labels: [],
    rowId: '',
    fallbackIndex: 0,
  }));
  const campaigns = out.campaigns.map((c) => ({ ...c, budget: c.budget ?? 25 }));
  const tables: ExportTable[] = [
    { kind: 'keywords', read: () => keywordsTable(out.keywords) },
    { kind: 'negatives', read: () => keywordsTable(out.negatives) },
    { kind: 'ad-groups', read: () => adGroupsTable(out.adGroups) },
    { kind: 'responsive-search-ads', read: () => responsiveSearchAdsTable(ads) },
    { kind: 'campaigns', read: () => campaignsTable(campaigns) },
  ];
  const tableRows =
    out.keywords.length + out.negatives.length + out.adGroups.length * 2 + campaigns.length;
  return { tables, tableRows };
}

interface Figures {
  format: string;
  tableRows: number;
  ms: number;
  cpuMs: number;
  chars: number;
  files: number;
  peakRssMb: number;
}

/** Writes every file of `format` to the end; a real sink reads each chunk. */
function writeAll(
  format: ExportFormat,
  tables: ExportTable[],
  tableRows: number,
  label: string,
): Figures {
  const files = format.files(tables, {
    fileName: (stem, ext) => `${stem}.${ext}`,
    ...(label ? { clientLabel: label } : {}),
  });
  const cpu = process.cpuUsage();
  const start = performance.now();
  let chars = 0;
  let probe = 0;
  for (const file of files)
    for (const chunk of exportFileParts(file)) {
      chars += chunk.length;
      probe ^= chunk.charCodeAt(chunk.length - 1);
    }
  const c = process.cpuUsage(cpu);
  return {
    format: format.id,
    tableRows,
    ms: Math.round(performance.now() - start),
    cpuMs: Math.round((c.user + c.system) / 1000),
    chars: chars + (probe & 0),
    files: files.length,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

const FORMATS: Record<string, ExportFormat> = {
  [GOOGLE_ADS_EDITOR.id]: GOOGLE_ADS_EDITOR,
  [MICROSOFT_ADVERTISING.id]: MICROSOFT_ADVERTISING,
};
/** Said after a format's id when its run has no label (with `--label`, the third run). */
const UNLABELLED = ' (no label)';

function runChild(format: string, feedRows: number, label: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(import.meta.url),
      ['--child', format, String(feedRows), label],
      {
        execArgv: process.execArgv,
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      },
    );
    child.on('message', (m) => resolve(m as Figures));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${format} exited with ${code}`));
    });
  });
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    const format = FORMATS[args[1] ?? '']!;
    const label = args[3] ?? '';
    const warm = buildTables(2_000);
    writeAll(format, warm.tables, warm.tableRows, label);
    const { tables, tableRows } = buildTables(Number(args[2]));
    process.send?.(writeAll(format, tables, tableRows, label));
    return;
  }
  const at = (flag: string, fallback: number) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const feedRows = at('--rows', 200_000);
  const runs = at('--runs', 3);
  const labelAt = args.indexOf('--label');
  const label = labelAt >= 0 ? (args[labelAt + 1] ?? '') : '';
  const writeAt = args.indexOf('--write');
  if (writeAt >= 0) {
    const dir = args[writeAt + 1] ?? '';
    const { tables } = buildTables(feedRows);
    for (const format of Object.values(FORMATS)) {
      mkdirSync(path.join(dir, format.id), { recursive: true });
      const context = {
        fileName: (stem: string, ext: string) => `${stem}.${ext}`,
        ...(label ? { clientLabel: label } : {}),
      };
      for (const file of format.files(tables, context)) {
        const fd = openSync(path.join(dir, format.id, file.name), 'w');
        for (const chunk of exportFileParts(file)) writeSync(fd, chunk);
        closeSync(fd);
      }
    }
    console.log(`wrote ${Object.keys(FORMATS).join(', ')} for ${feedRows} feed rows to ${dir}`);
    return;
  }
  const loadBefore = loadAverage();
  const all: Figures[] = [];
  for (let i = 0; i < runs; i++) {
    for (const id of Object.keys(FORMATS)) all.push(await runChild(id, feedRows, label));
    if (label) {
      const run = await runChild(MICROSOFT_ADVERTISING.id, feedRows, '');
      all.push({ ...run, format: `${run.format}${UNLABELLED}` });
    }
  }
  const best = (id: string) =>
    all.filter((f) => f.format === id).reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a));
  /** The median CPU of a format's runs (the mean of the middle two for an even count). */
  const median = (id: string) => {
    const cpu = all
      .filter((f) => f.format === id)
      .map((f) => f.cpuMs)
      .sort((a, b) => a - b);
    const mid = cpu.length >> 1;
    return cpu.length % 2 === 1 ? cpu[mid]! : Math.round((cpu[mid - 1]! + cpu[mid]!) / 2);
  };
  const editor = best(GOOGLE_ADS_EDITOR.id);
  const microsoft = best(MICROSOFT_ADVERTISING.id);
  const unlabelled = label ? best(`${MICROSOFT_ADVERTISING.id}${UNLABELLED}`) : undefined;
  console.log('format                  table rows  cpu ms  wall ms  MB chars  files  peak RSS MB');
  for (const f of all)
    console.log(
      `${f.format.padEnd(24)}${String(f.tableRows).padStart(10)}${String(f.cpuMs).padStart(8)}${String(f.ms).padStart(9)}${(f.chars / 1e6).toFixed(1).padStart(10)}${String(f.files).padStart(7)}${String(f.peakRssMb).padStart(13)}`,
    );
  const ratio = microsoft.cpuMs / editor.cpuMs;
  const editorMedian = median(GOOGLE_ADS_EDITOR.id);
  const microsoftMedian = median(MICROSOFT_ADVERTISING.id);
  const medianRatio = microsoftMedian / editorMedian;
  console.log(
    `best of ${runs}, ${editor.tableRows} table rows: Editor ${editor.cpuMs} ms CPU, Microsoft ${microsoft.cpuMs} ms CPU (${ratio.toFixed(2)}x)${unlabelled ? `, Microsoft without the label ${unlabelled.cpuMs} ms CPU` : ''}; medians: Editor ${editorMedian} ms, Microsoft ${microsoftMedian} ms (${medianRatio.toFixed(2)}x); load average before ${loadBefore}, after ${loadAverage()}`,
  );
  console.log(
    JSON.stringify({
      tableRows: editor.tableRows,
      editorCpuMs: editor.cpuMs,
      editorWallMs: editor.ms,
      microsoftCpuMs: microsoft.cpuMs,
      microsoftWallMs: microsoft.ms,
      microsoftToEditorCpu: Number(ratio.toFixed(2)),
      editorMedianCpuMs: editorMedian,
      microsoftMedianCpuMs: microsoftMedian,
      microsoftToEditorMedianCpu: Number(medianRatio.toFixed(2)),
      editorPeakRssMb: editor.peakRssMb,
      microsoftPeakRssMb: microsoft.peakRssMb,
      ...(label ? { label } : {}),
      ...(unlabelled
        ? {
            unlabelledMicrosoftCpuMs: unlabelled.cpuMs,
            unlabelledMicrosoftPeakRssMb: unlabelled.peakRssMb,
          }
        : {}),
      loadAverageBefore: loadBefore,
      loadAverage: loadAverage(),
      runs: all,
    }),
  );
}

await main();
