/**
 * Plan benchmark (issue 35): a synthetic Search build of N keywords (three per ad group, a
 * negative per ad group, an ad per ad group, 1,000 campaigns), its build record (written, size
 * gzip'd, read back), and the plan of the build against its own record and against a feed with
 * 1% of its keywords dropped and 1% of its ads' final URLs changed (plan, change lines,
 * changes-only tables). Reports CPU time per step and the heap in use after each, then one JSON
 * line with the figures.
 *
 *   npx tsx packages/engine/bench/plan.bench.ts [--keywords 1000000]
 */
import { gzipSync } from 'node:zlib';
import {
  adGroupsTable,
  buildRecordChunks,
  campaignsTable,
  changesTables,
  keywordsTable,
  planChanges,
  planLines,
  readBuildRecord,
  responsiveSearchAdsTable,
  type ExportTable,
  type KeywordLine,
  type RsaAd,
} from '../src/index.ts';

const arg = process.argv.indexOf('--keywords');
const KEYWORDS = arg > 0 ? Number(process.argv[arg + 1]) : 1_000_000;
const GROUPS = Math.ceil(KEYWORDS / 3);
const CAMPAIGNS = 1000;

const BRANDS = ['nike', 'adidas', 'puma', 'reebok', 'asics', 'new balance', 'saucony', 'hoka'];
const MODS = ['running shoes', 'trainers', 'sneakers', 'boots', 'sandals', 'trail shoes'];
const MATCH = ['Broad', 'Phrase', 'Exact'] as const;

function campaignOf(g: number): string {
  return `Shoes - ${BRANDS[g % BRANDS.length]} ${g % CAMPAIGNS}`;
}
function groupOf(g: number): string {
  return `${BRANDS[g % BRANDS.length]} ${MODS[g % MODS.length]} ${g}`;
}

/** The build's tables; `drop` leaves out every n-th keyword, `moveUrl` changes every n-th ad's URL. */
function makeTables(drop = 0, moveUrl = 0): ExportTable[] {
  const keywords: KeywordLine[] = [];
  for (let k = 0; k < KEYWORDS; k++) {
    if (drop > 0 && k % drop === 0) continue;
    const g = Math.floor(k / 3);
    keywords.push({
      campaign: campaignOf(g),
      adGroup: groupOf(g),
      keyword: `${BRANDS[g % BRANDS.length]} ${MODS[g % MODS.length]} ${g}`,
      matchType: MATCH[k % 3]!,
    });
  }
  const negatives: KeywordLine[] = [];
  const groups: { key: string; campaign: string; adGroup: string; id: string }[] = [];
  const ads: RsaAd[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const campaign = campaignOf(g);
    const adGroup = groupOf(g);
    groups.push({ key: '', campaign, adGroup, id: '' });
    negatives.push({ campaign, adGroup, keyword: 'second hand', matchType: 'Negative Broad' });
    ads.push({
      campaign,
      adGroup,
      rowId: '',
      fallbackIndex: 0,
      headlines: [
        `${BRANDS[g % BRANDS.length]} ${g}`,
        'Free Delivery on Orders',
        `Shop ${MODS[g % MODS.length]}`,
      ],
      headlinePositions: [1, 0, 0],
      descriptions: [
        `Shop ${BRANDS[g % BRANDS.length]} ${g} online.`,
        'Official stockist. Order today.',
      ],
      descriptionPositions: [0, 0],
      paths: [BRANDS[g % BRANDS.length]!.replace(' ', ''), ''],
      labels: ['20261206-v1'],
      finalUrl:
        moveUrl > 0 && g % moveUrl === 0
          ? `https://www.shoes.example/moved/${g}`
          : `https://www.shoes.example/p/${g}`,
    });
  }
  const campaigns = Array.from({ length: CAMPAIGNS }, (_, c) => ({
    campaign: campaignOf(c),
    campaignType: 'Search' as const,
    budget: 20,
    locationId: '2826',
    settings: {},
    rowId: '',
  }));
  const lines = (n: number) => Int32Array.from({ length: n }, (_, i) => i + 1);
  return [
    { kind: 'keywords', read: () => keywordsTable(keywords), lines: () => lines(keywords.length) },
    { kind: 'negatives', read: () => keywordsTable(negatives) },
    { kind: 'ad-groups', read: () => adGroupsTable(groups), lines: () => lines(groups.length) },
    {
      kind: 'responsive-search-ads',
      read: () => responsiveSearchAdsTable(ads),
      lines: () => lines(ads.length),
    },
    { kind: 'campaigns', read: () => campaignsTable(campaigns) },
  ];
}

function heapMb(): number {
  global.gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
}

function timed<T>(what: string, f: () => T): { value: T; seconds: number } {
  const start = process.cpuUsage();
  const value = f();
  const used = process.cpuUsage(start);
  const seconds = (used.user + used.system) / 1e6;
  console.log(`${what.padEnd(44)} ${seconds.toFixed(2).padStart(6)} s   heap ${heapMb()} MB`);
  return { value, seconds };
}

const info = {
  created: new Date(0).toISOString(),
  client: 'Bench',
  feed: 'bench',
  templates: ['bench'],
  label: 'adloom',
};
const tables = makeTables();
console.log(
  `${KEYWORDS} keywords, ${GROUPS} ad groups and ads, heap ${heapMb()} MB with the tables' data`,
);
const rssBefore = process.memoryUsage().rss;
const written = timed('write the record', () => {
  const parts: Buffer[] = [];
  let chars = 0;
  for (const c of buildRecordChunks(info, tables)) {
    parts.push(Buffer.from(c));
    chars += c.length;
  }
  return { bytes: Buffer.concat(parts), chars };
});
const gz = timed('gzip it (level 6)', () => gzipSync(written.value.bytes, { level: 6 }));
const baseline = timed('read it into a baseline', () =>
  readBuildRecord([written.value.bytes.toString('utf8')]),
);
const self = timed('plan the build against its own record', () =>
  planChanges(baseline.value, tables),
);
const changed = makeTables(100, 100);
const plan = timed('plan 1% dropped keywords, 1% moved URLs', () =>
  planChanges(baseline.value, changed),
);
const lines = timed('its change lines', () => [...planLines(plan.value, changed)].length);
const rows = timed('its changes-only tables', () => {
  let n = 0;
  for (const t of changesTables(plan.value, changed)) for (const _ of t.read().rows) n++;
  return n;
});
const figures = {
  keywords: KEYWORDS,
  items: baseline.value.size,
  recordMb: +(written.value.bytes.length / 1e6).toFixed(1),
  recordGzipMb: +(gz.value.length / 1e6).toFixed(1),
  writeSeconds: +written.seconds.toFixed(2),
  readSeconds: +baseline.seconds.toFixed(2),
  planSelfSeconds: +self.seconds.toFixed(2),
  planSelfChanges: self.value.totals.add + self.value.totals.update + self.value.totals.pause,
  planSeconds: +plan.seconds.toFixed(2),
  planChanges: lines.value,
  linesSeconds: +lines.seconds.toFixed(2),
  changesRows: rows.value,
  changesSeconds: +rows.seconds.toFixed(2),
  heapMb: heapMb(),
  rssGrowthMb: Math.round((process.memoryUsage().rss - rssBefore) / 1e6),
};
console.log(JSON.stringify(figures));
