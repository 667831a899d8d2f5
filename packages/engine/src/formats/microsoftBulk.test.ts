/**
 * The Microsoft bulk writer's every path pinned by one hash: random raw tables of every kind the
 * writer reads (statuses of every spelling, removed and paused items, refused campaign types,
 * budgets and names, unknown languages and locations, keywords and negatives of every match type,
 * implied and refused ad groups, ads past Microsoft's limits, extensions at the account, in the
 * library, over the per-entity limit, Performance Max), written with and without the client's
 * label, and checked only (`checkOnly`) with every `onNotWritten` call. A restructuring or a
 * speed change of the writer must leave every record, report line, count and call as it was
 * (records by their filled cells: the file's columns are the build's, `microsoftColumns`).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Table } from '../csv.ts';
import { seeded } from '../plan/testTables.ts';
import type { ExportTable, ExportTableKind } from './exportFormat.ts';
import { writeMicrosoftBulk, type MicrosoftBulkOptions } from './microsoftAdvertising.ts';
import { filledRecordsOf } from '../../test/helpers/microsoftImport.ts';

type Rand = () => number;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

const STATUSES = ['', '', '', 'Enabled', 'Paused', 'Removed', 'enabled', 'paused'];
const TEXTS = ['shoes', 'red "shoes"', 'a, b', 'émoji 😀', '日本', 'x'.repeat(101), 'line\nbreak'];
const CAMPAIGNS = ['C1', 'C2', 'C "3"', 'Gone', 'x'.repeat(257), 'Display one'];

function campaignsOf(rand: Rand): Table {
  const rows: string[][] = [];
  for (const name of CAMPAIGNS) {
    const type = name === 'Display one' ? 'Display' : pick(rand, ['', 'Search', 'search']);
    const location = pick(rand, ['', '', '2826', '2826;2840', '9999', '2840,1234']);
    rows.push([
      name,
      location !== '' && type === '' ? 'Search' : type,
      pick(rand, ['5', '5', '12.5', '', '0', 'x', ' 7 ']),
      location,
      pick(rand, ['', 'en', 'en;xx', 'fr,de', 'zz', 'All', 'en;en']),
      name === 'Gone' ? 'Removed' : pick(rand, ['', 'Enabled', 'Paused']),
    ]);
    // Its location rows, and now and then one of another campaign.
    for (let i = Math.floor(rand() * 3); i > 0; i--)
      rows.push([rand() < 0.8 ? name : 'C1', '', '', pick(rand, ['2840', '1234', '2826']), '', '']);
    if (rand() < 0.3) rows.push([...rows[rows.length - 1]!]);
  }
  return {
    headers: ['Campaign', 'Campaign Type', 'Budget', 'Location ID', 'Languages', 'Campaign Status'],
    rows,
  };
}

const groupOf = (rand: Rand) => pick(rand, ['G1', 'G2', 'G "3"', 'G4', 'y'.repeat(257), '']);

function adGroupsOf(rand: Rand, n: number): Table {
  const rows: string[][] = [];
  for (let i = 0; i < n; i++)
    rows.push([pick(rand, CAMPAIGNS), groupOf(rand), pick(rand, STATUSES)]);
  return { headers: ['Campaign', 'Ad Group', 'Ad Group Status'], rows };
}

function keywordsOf(rand: Rand, n: number): Table {
  const rows: string[][] = [];
  for (let i = 0; i < n; i++)
    rows.push([
      pick(rand, CAMPAIGNS),
      groupOf(rand),
      pick(rand, TEXTS),
      pick(rand, ['Broad', 'Phrase', 'Exact', '', 'Negative Broad']),
      pick(rand, STATUSES),
    ]);
  return { headers: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type', 'Status'], rows };
}

function negativesOf(rand: Rand, n: number): Table {
  const types = ['Broad', 'Phrase', 'Exact', 'Other'].flatMap((m) => [
    `Negative ${m}`,
    `Campaign Negative ${m}`,
    m,
  ]);
  const rows: string[][] = [];
  for (let i = 0; i < n; i++)
    rows.push([
      pick(rand, CAMPAIGNS),
      rand() < 0.3 ? '' : groupOf(rand),
      pick(rand, [...TEXTS, 'one']),
      pick(rand, types),
    ]);
  return { headers: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type'], rows };
}

const HEADLINES = [
  'Contoso',
  'Say "hi"',
  'wide 日本語',
  'emoji 😀',
  'x'.repeat(31),
  'two\nlines',
  'Hi {CUSTOMIZER.x}',
  '{KeyWord:shoes}',
  'lone \ud800',
];

function adsOf(rand: Rand, n: number): Table {
  const headers = ['Campaign', 'Ad Group'];
  for (let i = 1; i <= 5; i++) headers.push(`Headline ${i}`, `Headline ${i} position`);
  for (let i = 1; i <= 3; i++) headers.push(`Description ${i}`, `Description ${i} position`);
  headers.push('Path 1', 'Path 2', 'Final URL', 'Status');
  const rows: string[][] = [];
  for (let i = 0; i < n; i++) {
    // Most in one ad group: over Microsoft's active ads per ad group.
    const row = rand() < 0.5 ? ['C1', 'G1'] : [pick(rand, CAMPAIGNS), groupOf(rand)];
    const heads = rand() < 0.1 ? 2 : 3 + Math.floor(rand() * 3);
    for (let k = 0; k < 5; k++)
      row.push(
        k < heads ? pick(rand, rand() < 0.8 ? HEADLINES.slice(0, 4) : HEADLINES) : '',
        pick(rand, ['', '', '', '1', '2', '3', 'x']),
      );
    const descs = rand() < 0.1 ? 1 : 2 + Math.floor(rand() * 2);
    for (let k = 0; k < 3; k++)
      row.push(k < descs ? pick(rand, ['Fast.', 'Say "yes"', 'Fast.', 'z'.repeat(91)]) : '', '');
    row.push(
      pick(rand, ['shoes', '', 'a/b', 'p'.repeat(16), '日本']),
      pick(rand, ['', 'sale', 'q']),
      pick(rand, [
        'https://www.contoso.com/a',
        'https://www.contoso.com/a',
        'https://www.contoso.com/b',
        'HTTP://contoso.com',
        'ftp://x',
        '',
        `https://${'d'.repeat(60)}.com/`,
        `https://c.com/${'u'.repeat(2050)}`,
      ]),
      pick(rand, STATUSES),
    );
    rows.push(row);
  }
  return { headers, rows };
}

const EXTENSION_PLACES: readonly [string, string][] = [
  ['C1', ''],
  ['C1', 'G1'],
  ['C2', 'G2'],
  ['Gone', ''],
  ['<Account-level>', ''],
  ['', ''],
  ['C "3"', 'G "3"'],
];

function extensionsOf(rand: Rand, kind: ExportTableKind, n: number): Table {
  const headers = [
    'Campaign',
    'Ad Group',
    'Link Text',
    'Description Line 1',
    'Description Line 2',
    'Final URL',
    'Callout text',
    'Header',
    'Snippet Values',
    'Status',
  ];
  const rows: string[][] = [];
  for (let i = 0; i < n; i++) {
    const [campaign, adGroup] = pick(rand, EXTENSION_PLACES);
    const described = rand() < 0.7;
    rows.push([
      campaign,
      adGroup,
      rand() < 0.5 ? `S${i % 29}` : pick(rand, ['Shop', 'Shop now', '', 'l'.repeat(30)]),
      described ? pick(rand, ['one', 'd'.repeat(36)]) : rand() < 0.1 ? 'only one' : '',
      described ? 'two' : '',
      pick(rand, ['https://c.com/s', 'https://c.com/s', 'nope']),
      rand() < 0.5 ? `K${i % 29}` : pick(rand, ['Free', 'Fast', '', 'c'.repeat(26)]),
      pick(rand, ['Brands', 'brands', 'Nope', 'Types', 'Brands']),
      rand() < 0.5 ? `V${i % 29};w` : pick(rand, ['a;b', ' a ; ;b', '', 'v'.repeat(26)]),
      pick(rand, STATUSES),
    ]);
  }
  return { headers, rows };
}

/** A random build's raw tables, in an order the writer does not read them in. */
function randomTables(seed: number): ExportTable[] {
  const rand = seeded(seed);
  const size = 10 + seed * 4;
  const t = (kind: ExportTableKind, read: Table): ExportTable => ({ kind, read: () => read });
  return [
    t('keywords', keywordsOf(rand, size * 2)),
    t('responsive-search-ads', adsOf(rand, size)),
    t('negatives', negativesOf(rand, size)),
    t('ad-groups', adGroupsOf(rand, size)),
    t('callouts', extensionsOf(rand, 'callouts', size * 3)),
    t('campaigns', campaignsOf(rand)),
    t('sitelinks', extensionsOf(rand, 'sitelinks', size * 3)),
    t('structured-snippets', extensionsOf(rand, 'structured-snippets', size * 3)),
    t('asset-groups', {
      headers: ['Campaign', 'Asset Group'],
      rows: [
        ['P', 'AG'],
        ['P', 'B'],
      ],
    }),
    t('performance-max-ads', { headers: ['Campaign', 'Asset Group'], rows: [['P', 'AG']] }),
    t('keywords', keywordsOf(rand, size)),
  ];
}

/** One past each of Microsoft's count limits: campaigns, ad groups, keywords, negatives. */
function limitTables(): ExportTable[] {
  const t = (kind: ExportTableKind, headers: string[], rows: string[][]): ExportTable => ({
    kind,
    read: () => ({ headers, rows }),
  });
  const n = (count: number, row: (i: number) => string[]) =>
    Array.from({ length: count }, (_, i) => row(i));
  return [
    t(
      'campaigns',
      ['Campaign', 'Budget'],
      n(10_001, (i) => [`C${i}`, '5']),
    ),
    t(
      'ad-groups',
      ['Campaign', 'Ad Group'],
      n(20_001, (i) => ['C0', `G${i}`]),
    ),
    t(
      'keywords',
      ['Campaign', 'Ad Group', 'Keyword'],
      n(20_001, (i) => ['C0', 'G0', `k${i}`]),
    ),
    t(
      'negatives',
      ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type'],
      [
        ...n(20_001, (i) => ['C1', 'G', `n${i}`, 'Negative Exact']),
        ...n(20_001, (i) => ['C1', '', `n${i}`, 'Campaign Negative Exact']),
      ],
    ),
    t('callouts', ['Campaign', 'Ad Group', 'Callout text'], [['C2', 'H', 'one']]),
  ];
}

const LOCATIONS: Record<string, string | { id: string } | { reason: string }> = {
  '2826': '188',
  '2840': { id: '190' },
  '9999': { reason: 'not a place Microsoft knows' },
};

/** Every output of the writer over `builds` with `options`, hashed. */
function writerHash(builds: ExportTable[][], options: MicrosoftBulkOptions): string {
  const hash = createHash('sha256');
  for (const tables of builds) {
    const calls: unknown[] = [];
    const bulk = writeMicrosoftBulk(tables, {
      ...options,
      microsoftLocationId: (id) => LOCATIONS[id],
      onNotWritten: (table, row, line) => calls.push([table, row, line]),
    });
    hash.update(filledRecordsOf([...bulk.chunks()].join('')));
    hash.update('\u0000');
    hash.update(JSON.stringify(bulk.report().rows));
    hash.update(JSON.stringify(bulk.counts()));
    hash.update(JSON.stringify(calls));
  }
  return hash.digest('hex');
}

describe('writeMicrosoftBulk: every path, every record as before the restructuring', () => {
  const builds = [...Array.from({ length: 30 }, (_, i) => randomTables(i + 1)), limitTables()];

  // Pinned from the writer at 7ae43af (main before the restructuring; the records' form of these
  // hashes from 288dc72, whose bytes were 7ae43af's): a changed record fails here.
  it.each([
    ['no label', {}, 'd1cf7d62c8a302d58897d1378795c786ef7d17b519ad0ec918150de6a4fed4ab'],
    [
      'a new label',
      { label: { name: 'Acme "North", EU' } },
      '349a223ac1803022ba1b7c9a8800b4f83e98d546702f4ab61cda67cbdcf31c21',
    ],
    [
      "the account's label",
      { label: { name: 'L', id: '42' } },
      'accc14b6d7c12e9e10dbfc8dd8532aa33b8aba040c8a0b8a90850b88f557009d',
    ],
    [
      'checks only',
      { checkOnly: true },
      '42d63eef64914a5c6848cc715b5854cd4b08945f2d0b6a335b54c54863cad501',
    ],
    [
      'checks only, labelled',
      { checkOnly: true, label: { name: 'L' } },
      '32f24b75f273f0c854de8cfcb7bcfc8f4eab70499218a297becf840aaf08088e',
    ],
  ] as [string, MicrosoftBulkOptions, string][])('%s', (_, options, pinned) => {
    expect(writerHash(builds, options)).toBe(pinned);
  });
});

describe('writeMicrosoftBulk: chunks', () => {
  it('yields chunks a sink can flatten as regular strings (under 64 K characters each)', () => {
    const group = (i: number) => `${'ad group '.repeat(10)}${i}`;
    const rows = Array.from({ length: 6_000 }, (_, i) => ['C', group(i % 50), `keyword ${i}`]);
    const bulk = writeMicrosoftBulk(
      [
        {
          kind: 'campaigns',
          read: () => ({ headers: ['Campaign', 'Budget'], rows: [['C', '5']] }),
        },
        { kind: 'keywords', read: () => ({ headers: ['Campaign', 'Ad Group', 'Keyword'], rows }) },
      ],
      { label: { name: 'Adloom' } },
    );
    const chunks = [...bulk.chunks()];
    // 12,000 lines of about 100 characters: chunks of 1,024 lines were about 100,000 characters
    // (V8 makes a string over 128 KB a large object; a two-byte string of 64 K characters is one).
    expect(chunks.join('').length).toBeGreaterThan(1_100_000);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(65_536);
  });
});
