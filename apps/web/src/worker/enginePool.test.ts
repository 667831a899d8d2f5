/**
 * Generation across a pool of workers (issue 39): the Campaigns and RSA jobs run over a pool of
 * three workers, each over its campaigns' rows, and merged on the page, give exactly the tables
 * one worker gives (headers, every cell, every feed line, the counts), on fixed template shapes
 * and on seeded random feeds of awkward rows. The workers run in this thread (engineScope), the
 * page's side is the app's own (runPooledEngineJob, the lanes, the merge).
 */
import { describe, expect, it } from 'vitest';
import {
  restoreCampaignTemplate,
  restoreRsaTemplate,
  type CampaignTemplate,
  type FeedRow,
  type RsaTemplate,
  seededRandom,
} from '@adloom/engine';
import { FeedStore } from '../features/feed-grid/index.ts';
import {
  runPooledEngineJob,
  selectedRowsSource,
  setEngineWorkerFactory,
  setEnginePoolSize,
  type RowsSource,
} from '../features/generation/index.ts';
import { unpackTable, type PackedTable } from '../features/generation/packTable.ts';
import type { FromWorkerMessage, ToWorkerMessage } from '../features/generation/jobTypes.ts';
import { mergeCampaignParts } from '../features/campaign-template/mergeCampaignParts.ts';
import type { CampaignOutput } from '../features/campaign-template/campaignJobs.ts';
import { mergeAdParts } from '../features/ad-templates/mergeAdParts.ts';
import type { AdOutput } from '../features/ad-templates/adJobs.ts';
import { adsHeldRef } from '../features/ad-templates/adsHeld.ts';
import { readHeldLines, readHeldTable } from '../features/exports/heldTables.ts';
import { engineScope } from './engineScope.ts';

/** An engine worker in this thread: messages cloned both ways, each handled in a task. */
class ThreadWorker {
  onmessage: ((event: { data: FromWorkerMessage }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  private isTerminated = false;
  private readonly take = engineScope((message) => {
    const copy = structuredClone(message);
    setTimeout(() => {
      if (!this.isTerminated) this.onmessage?.({ data: copy });
    }, 0);
  });
  postMessage(message: ToWorkerMessage): void {
    const copy = structuredClone(message);
    setTimeout(() => this.take(copy), 0);
  }
  terminate(): void {
    this.isTerminated = true;
  }
}

setEngineWorkerFactory(() => new ThreadWorker() as unknown as Worker);

const pick = <T>(next: () => number, xs: readonly T[]): T =>
  xs[Math.floor(next() * xs.length)] as T;

/** The selected rows of a store holding `rows`, every other row left unselected when asked. */
function sourceOf(rows: readonly Partial<FeedRow>[], skipSome = false): RowsSource {
  const store = new FeedStore();
  store.load(rows.map((row, i) => ({ ...row, id: `r${i}` })));
  for (let i = 0; i < rows.length; i += 1)
    if (!skipSome || i % 5 !== 2) store.setSelected(store.getSlotAt(i), true);
  return selectedRowsSource(store);
}

/** A table as plain data: headers, cells, feed lines. */
function plain(table: PackedTable) {
  const t = unpackTable(table);
  return {
    headers: t.headers,
    rowCount: table.rowCount,
    cells: [...t.rows].map((row) => row.join('\u001f')),
    lines: table.lines ? [...table.lines] : undefined,
  };
}

function plainCampaign(output: CampaignOutput) {
  return {
    keywords: plain(output.keywords),
    negatives: plain(output.negatives),
    adGroups: plain(output.adGroups),
    campaigns: plain(output.campaigns),
    assetGroups: plain(output.assetGroups),
    issues: plain(output.issues),
    counts: [output.adGroupCount, output.assetGroupCount, output.campaignCount],
    fields: Object.keys(output).sort(),
  };
}

function plainAds(output: AdOutput) {
  // The ads' Editor table a download reads, held by the first worker (made over every row).
  const ref = adsHeldRef('rsa', output.outputId);
  const held = readHeldTable(ref);
  return {
    held: {
      headers: held.headers,
      cells: [...held.rows].map((row) => row.join('\u001f')),
      lines: Array.from(readHeldLines(ref) ?? []),
    },
    table: plain(output.table),
    issues: plain(output.issues),
    counts: [output.adCount, output.groupCount],
    fields: Object.keys(output).sort(),
  };
}

let lanes = 0;

/**
 * The Campaigns job (then the RSA job) of `campaign` over `source` on one worker and on a pool of
 * three, and how many parts the pool merged.
 */
async function both(source: RowsSource, campaign: CampaignTemplate, rsa?: RsaTemplate) {
  lanes += 1;
  const parts: number[] = [];
  const run = async (size: number, lane: string) => {
    setEnginePoolSize(size);
    const options = { rows: source, lane };
    const output = await runPooledEngineJob(
      'generateCampaign',
      { template: campaign },
      campaign,
      (p) => (parts.push(p.length), mergeCampaignParts(p)),
      options,
    );
    const ads = rsa
      ? await runPooledEngineJob(
          'generateRsa',
          { template: rsa, campaign, today: '20260102' },
          campaign,
          (p) => (parts.push(p.length), mergeAdParts(p)),
          options,
        )
      : undefined;
    return { campaign: plainCampaign(output), ads: ads && plainAds(ads) };
  };
  try {
    const one = await run(1, `one-${lanes}`);
    const pool = await run(3, `pool-${lanes}`);
    return { one, pool, parts };
  } finally {
    setEnginePoolSize(null);
  }
}

const RSA = restoreRsaTemplate({
  name: 'Ads',
  templates: [
    {
      headlines: ['{root} {mod} deals and more', '{mod}', 'Sale', 'Deals', 'Shop {var1}'],
      descriptions: ['Shop {root} {mod} today.', 'Free delivery.'],
      paths: ['{mod}', 'sale'],
      labels: ['a', 'yyyymmdd-v1'],
    },
    {
      headlines: ['{root}', 'Sale', 'Deals', 'Shop', 'New', 'Top', 'Best', 'More'],
      descriptions: ['Shop {root}.', 'Free delivery.'],
      paths: [],
    },
  ],
});

/** The template shapes: the bench's, {mt} with cross negatives, big groups, blocking negatives. */
const SHAPES: Record<string, CampaignTemplate> = {
  bench: restoreCampaignTemplate({
    name: 'Bench',
    campaign: '{root} - Search',
    adGroup: '{root} {mod} - {mt}',
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Broad' },
      { keyword: '{root} {mod}', matchType: 'Exact' },
      { keyword: '{root} {mod} {var1}', matchType: 'Phrase' },
      { keyword: '{var1}', matchType: 'Negative Exact' },
    ],
  }),
  crossNegatives: restoreCampaignTemplate({
    name: 'Mt',
    campaign: '{root}',
    adGroup: '{mod} - {mt}',
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Broad' },
      { keyword: '{root} {mod}', matchType: 'Exact' },
      { keyword: '{mod} {var1}', matchType: 'Phrase' },
    ],
  }),
  bigGroups: restoreCampaignTemplate({
    name: 'Big',
    const: 'Shoes',
    campaign: '{const} {root}',
    adGroup: '{var2}',
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Broad' },
      { keyword: '{mod}', matchType: 'Exact' },
      { keyword: 'cheap {mod}', matchType: 'Negative Broad' },
      { keyword: '{var1}', matchType: 'Negative Phrase' },
    ],
    settings: { keepKeywordInFirstAdGroup: true },
  }),
  dropBlocking: restoreCampaignTemplate({
    name: 'Drop',
    campaign: '{root}',
    adGroup: '{mod} {mt}',
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Broad' },
      { keyword: '{mod} {var1}', matchType: 'Exact' },
      { keyword: '{mod}', matchType: 'Negative Phrase' },
      { keyword: '{var1}', matchType: 'Negative Exact' },
    ],
    settings: { dropBlockingNegatives: true },
  }),
};

const ROOTS = [
  'Nike',
  'nike',
  'PUMA',
  'Puma ',
  'Asics  Gel',
  '',
  'Café',
  'Cafe\u0301',
  '=SUM(1)',
  '東京',
];
const MODS = ['Air', 'air', 'Boots', '', 'Red!', 'a "b"', 'x'.repeat(90), 'Trail\u200b', '+1'];

/** A random feed: campaigns interleaved or in runs, duplicates, empty and overlong cells. */
function randomFeed(next: () => number): Partial<FeedRow>[] {
  const n = 1 + Math.floor(next() * 80);
  const inRuns = next() < 0.4;
  let root = pick(next, ROOTS);
  return Array.from({ length: n }, () => {
    if (!inRuns || next() < 0.2) root = pick(next, ROOTS);
    return {
      root,
      mod: pick(next, MODS),
      var1: pick(next, ['', 'blue', 'Air', 'cheap', 'x'.repeat(85)]),
      var2: pick(next, ['', 'g1', 'G1', 'g2']),
      url: pick(next, ['https://shop.example/a', '', 'shop.example/b', 'https://shop.example/é']),
    };
  });
}

describe('generation across a pool of workers', () => {
  const feed = Array.from({ length: 240 }, (_, i) => ({
    root: `brand ${i % 7}`,
    mod: `model ${i % 31}`,
    var1: `colour ${i % 5}`,
    var2: `size ${i % 3}`,
    url: `https://shop.example.com/p/${i}`,
  }));

  for (const [name, campaign] of Object.entries(SHAPES))
    it(`merges three parts into one worker's tables: ${name} template`, async () => {
      const r = await both(sourceOf(feed, true), campaign, RSA);
      expect(r.parts).toEqual([3, 3]);
      expect(r.pool.campaign.keywords.rowCount).toBeGreaterThan(100);
      expect(r.pool.ads!.table.rowCount).toBeGreaterThan(20);
      expect(r.pool.ads!.held.cells).toHaveLength(r.pool.ads!.table.rowCount);
      expect(r.pool).toEqual(r.one);
    });

  it('runs a Performance Max template across the pool too', async () => {
    const campaign = restoreCampaignTemplate({
      name: 'PMax',
      type: 'performance',
      campaign: '{root}',
      assetGroup: '{mod}',
    });
    const r = await both(sourceOf(feed), campaign);
    expect(r.parts).toEqual([3]);
    expect(r.pool.campaign.assetGroups.rowCount).toBeGreaterThan(30);
    expect(r.pool).toEqual(r.one);
  });

  it('leaves a feed of one campaign to one worker', async () => {
    const r = await both(
      sourceOf(feed.map((row) => ({ ...row, root: 'one' }))),
      SHAPES.bench!,
      RSA,
    );
    expect(r.parts).toEqual([1, 1]);
    expect(r.pool).toEqual(r.one);
  });

  it('merges exactly on random feeds of awkward rows and template shapes (seeded)', async () => {
    let split = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = seededRandom(seed);
      const rows = randomFeed(next);
      const campaign = pick(next, Object.values(SHAPES));
      const r = await both(sourceOf(rows, next() < 0.5), campaign, RSA);
      if (r.parts.some((n) => n > 1)) split += 1;
      expect(r.pool, `seed ${seed}`).toEqual(r.one);
    }
    expect(split).toBeGreaterThan(20);
  }, 120_000);
});
