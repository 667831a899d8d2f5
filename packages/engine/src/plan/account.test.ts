import { describe, expect, test } from 'vitest';
import { formatCsvText } from '../csv.ts';
import { GOOGLE_ADS_EDITOR } from '../formats/googleAdsEditor.ts';
import { readAccountExport, AccountExportReader } from './account.ts';
import { changesTables, planCollisions, planLines } from './changes.ts';
import { addLabel, labelTables } from './label.ts';
import { planChanges } from './plan.ts';
import { randomBuild, tablesOf } from './testTables.ts';

/** An Editor export as Editor writes it: UTF-16 LE with a BOM, tab-separated, CRLF. */
function utf16(lines: string[][]): Uint8Array {
  const text = `\uFEFF${lines.map((l) => l.join('\t')).join('\r\n')}\r\n`;
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    bytes[2 * i] = text.charCodeAt(i) & 0xff;
    bytes[2 * i + 1] = text.charCodeAt(i) >> 8;
  }
  return bytes;
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

const H = Array.from({ length: 15 }, (_, i) => `Headline ${i + 1}`);
const HEADER = [
  'Campaign',
  'Campaign Type',
  'Budget',
  'Campaign Status',
  'Ad Group',
  'Ad Group Status',
  'Keyword',
  'Criterion Type',
  'Ad type',
  ...H,
  ...H.map((h) => `${h} position`),
  'Description 1',
  'Description 2',
  'Path 1',
  'Path 2',
  'Final URL',
  'Labels',
  'Status',
  'Ad ID',
];

/** A row under HEADER from named cells. */
function row(cells: Record<string, string>): string[] {
  return HEADER.map((h) => cells[h] ?? '');
}

describe('an Editor export of the account as baseline', () => {
  // The build: one campaign, two ad groups, a keyword each, an ad each.
  const build = randomBuild(21, 10, false);
  build.campaigns = [build.campaigns[0]!];
  const c = build.campaigns[0]!.campaign;
  build.campaigns[0]!.locationId = undefined;
  build.adGroups = build.adGroups.filter((g) => g.campaign === c).slice(0, 2);
  const [g1, g2] = build.adGroups.map((g) => g.adGroup) as [string, string];
  build.keywords = build.keywords.filter((k) => k.adGroup === g1 || k.adGroup === g2).slice(0, 2);
  build.negatives = [];
  build.sitelinks = [];
  build.ads = build.ads.filter((a) => a.adGroup === g1 || a.adGroup === g2);
  const [k1] = build.keywords;
  const ad = build.ads[0]!;
  const adCells = (a: typeof ad, headline3 = a.headlines[2]!): Record<string, string> => ({
    Campaign: a.campaign,
    'Ad Group': a.adGroup,
    'Ad type': 'Responsive search ad',
    'Headline 1': a.headlines[0]!,
    'Headline 2': a.headlines[1]!,
    'Headline 3': headline3,
    'Headline 1 position': '1',
    'Description 1': a.descriptions[0]!,
    'Description 2': a.descriptions[1]!,
    'Path 1': a.paths[0],
    'Path 2': a.paths[1],
    'Final URL': a.finalUrl,
  });

  const accountRows = (): string[][] => [
    HEADER,
    row({
      Campaign: c,
      'Campaign Type': 'Search',
      Budget: `${build.campaigns[0]!.budget}.00`,
      'Campaign Status': 'Enabled',
      Labels: 'Adloom; brand',
    }),
    ...build.adGroups.map((g) =>
      row({ Campaign: c, 'Ad Group': g.adGroup, 'Ad Group Status': 'Enabled', Labels: 'adloom' }),
    ),
    row({
      Campaign: c,
      'Ad Group': k1!.adGroup,
      Keyword: k1!.keyword,
      'Criterion Type': k1!.matchType,
      Status: 'Enabled',
      Labels: 'adloom',
    }),
    // The build's second keyword, made by hand: a collision.
    row({
      Campaign: c,
      'Ad Group': build.keywords[1]!.adGroup,
      Keyword: build.keywords[1]!.keyword,
      'Criterion Type': build.keywords[1]!.matchType,
      Status: 'Enabled',
    }),
    // Hand-made keywords the build does not make: never paused.
    row({
      Campaign: c,
      'Ad Group': g1,
      Keyword: 'hand made',
      'Criterion Type': 'Exact',
      Status: 'Enabled',
    }),
    row({ Campaign: 'By hand', 'Campaign Type': 'Search', 'Campaign Status': 'Enabled' }),
    // Adloom's keyword the feed no longer makes: paused.
    row({
      Campaign: c,
      'Ad Group': g1,
      Keyword: 'old product',
      'Criterion Type': 'Phrase',
      Status: 'Enabled',
      Labels: 'adloom',
    }),
    // The first ad, as the account has it before its third headline was edited, with its ID.
    row({
      ...adCells(ad, 'Old headline'),
      Status: 'Enabled',
      Labels: 'adloom;20261101-v1',
      'Ad ID': '712345678901',
    }),
    ...build.ads
      .slice(1)
      .map((a) => row({ ...adCells(a), Status: 'Enabled', Labels: 'adloom;20261101-v1' })),
  ];

  test('reads UTF-16 tab-separated exports in odd pieces; hand-made items are left alone', () => {
    const bytes = utf16(accountRows());
    const reader = new AccountExportReader();
    for (let at = 0; at < bytes.length; at += 7) reader.pushBytes(bytes.subarray(at, at + 7));
    const account = reader.end();
    expect(account.summary).toEqual({ rows: accountRows().length - 1, otherRows: 0 });
    const hand = account.find('keyword', [c, g1, 'hand made', 'Exact']);
    expect(hand).toBeGreaterThanOrEqual(0);
    expect(account.isOwned(hand)).toBe(false);
    expect(account.isOwned(account.find('campaign', [c]))).toBe(true);
    // Without the label: the colliding keyword, 'hand made' and the campaign 'By hand'.
    expect(account.unownedCount()).toBe(3);

    const tables = tablesOf(build);
    const plan = planChanges(account, tables);
    const lines = [...planLines(plan, tables)].map(
      (l) => `${l.action} ${l.kind} ${l.item} | ${l.reason}`,
    );
    expect(lines.sort()).toEqual(
      [
        `pause keyword "old product" | no longer in the feed`,
        `update responsive-search-ad ${ad.headlines[0]} | headline 3 changed`,
      ].sort(),
    );
    const collisions = [...planCollisions(plan, tables)];
    expect(collisions).toEqual([
      {
        kind: 'keyword',
        campaign: c,
        adGroup: build.keywords[1]!.adGroup,
        item: expect.stringContaining(build.keywords[1]!.keyword) as string,
        reason: 'an item of this name exists without the label "adloom"',
        line: build.keywords[1]!.line,
      },
    ]);
    // The edited ad is updated in place through its Ad ID; the collision is not written.
    const changes = changesTables(plan, tables);
    expect(changes.map((t) => t.kind)).toEqual(['keywords', 'responsive-search-ads']);
    const ads = changes[1]!.read();
    const [adRow] = [...ads.rows];
    expect(adRow![ads.headers.indexOf('Ad ID')]).toBe('712345678901');
    expect(adRow![ads.headers.indexOf('Headline 3')]).toBe(ad.headlines[2]);
    const kws = [...changes[0]!.read().rows];
    expect(kws).toEqual([[c, g1, 'old product', 'Phrase', 'Paused']]);
  });

  test('reads UTF-8 comma files with or without BOM, one per entity type', () => {
    const rows = accountRows();
    const csv = (rs: string[][]) => formatCsvText({ headers: rs[0]!, rows: rs.slice(1) });
    const campaigns = rows.filter((r, i) => i === 0 || (r[4] === '' && r[0] !== ''));
    const rest = rows.filter((r, i) => i === 0 || r[4] !== '');
    const account = readAccountExport([utf8(`\uFEFF${csv(campaigns)}`), utf8(csv(rest))]);
    const tables = tablesOf(build);
    const plan = planChanges(account, tables);
    expect(plan.totals).toMatchObject({ add: 0, update: 1, pause: 1, collisions: 1 });
  });

  test('a campaign a person made blocks what Adloom would put in it', () => {
    const rows = accountRows();
    rows[1] = row({ Campaign: c, 'Campaign Type': 'Search', 'Campaign Status': 'Enabled' });
    const account = readAccountExport([utf16(rows)]);
    const tables = tablesOf(build);
    const plan = planChanges(account, tables);
    expect(plan.totals.add + plan.totals.update + plan.totals.enable).toBe(0);
    const reasons = new Set([...planCollisions(plan, tables)].map((x) => x.reason));
    expect(reasons).toEqual(
      new Set([
        'an item of this name exists without the label "adloom"',
        'its campaign exists without the label "adloom"',
      ]),
    );
  });
});

describe('the client label', () => {
  test('is added to campaigns, ad groups, keywords and ads, after the template labels', () => {
    expect(addLabel('20261206-v1', 'adloom')).toBe('20261206-v1;adloom');
    expect(addLabel('AdLoom; x', 'adloom')).toBe('AdLoom;x');
    const b = randomBuild(22, 10, false);
    b.campaigns[0]!.locationId = '2826';
    const tables = labelTables(tablesOf(b), 'adloom');
    const read = (kind: string) => tables.find((t) => t.kind === kind)!.read();
    const kws = read('keywords');
    expect(kws.headers.at(-1)).toBe('Labels');
    expect([...kws.rows].every((r) => r.at(-1) === 'adloom')).toBe(true);
    const ads = read('responsive-search-ads');
    expect([...ads.rows][0]![ads.headers.indexOf('Labels')]).toBe('20261206-v1;adloom');
    const campaigns = [...read('campaigns').rows];
    expect(campaigns[0]!.at(-1)).toBe('adloom');
    expect(campaigns[1]!.at(-1)).toBe(''); // its location row
    expect(read('negatives').headers).not.toContain('Labels');
  });

  test('is off unless the host asks: Editor files stay as they were', () => {
    const tables = tablesOf(randomBuild(23, 10, false));
    const text = (clientLabel?: string) =>
      GOOGLE_ADS_EDITOR.files(tables, {
        fileName: (s, e) => `${s}.${e}`,
        ...(clientLabel ? { clientLabel } : {}),
      }).map((f) => [...f.chunks()].join(''));
    const plain = text();
    expect(plain).toEqual(tables.map((t) => formatCsvText(t.read())));
    expect(text('adloom')[0]).toContain('Labels');
  });
});
