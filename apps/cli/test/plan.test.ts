/**
 * The account loop on the command line: `adloom generate` writes its build record, `adloom plan`
 * compares the next build with it (or with an Editor export of the account) and writes only the
 * changes. Runs the real command (bin/adloom.js) on feeds and templates made here.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_RECORD_VERSION, readBuildRecord } from '@adloom/engine';
import { describe, expect, it, vi } from 'vitest';
import { csvRecordsOfFile } from '../src/fileTables.ts';
import { runAdloom, workFolder } from './runCommand.ts';

vi.setConfig({ testTimeout: 60_000 });

const at = workFolder('adloom-plan-');

const run = (args: string[]) => runAdloom(args);

/** One campaign; an ad group and two keywords a row. */
const CAMPAIGN = {
  name: 'Loop',
  type: 'search',
  const: 'Shoes',
  campaign: '{const}',
  adGroup: '{root} {mod}',
  keywords: [
    { keyword: '{root} {mod}', matchType: 'Broad' },
    { keyword: '{root} {mod}', matchType: 'Exact' },
  ],
  settings: { budget: { value: 20, selected: true } },
};

/** Fallback A needs Var 1; rows without it take fallback B. */
function rsaTemplate(bHeadline: string): unknown {
  return {
    name: 'Loop RSA',
    templates: [
      {
        headlines: ['{root} {mod}', '{mod} in {var1}', 'Free Delivery'],
        descriptions: ['Shop {root} {mod} today.', 'Official stockist.'],
        paths: ['{root}', ''],
        labels: [],
      },
      {
        headlines: ['{root} {mod}', bHeadline, 'Free Delivery'],
        descriptions: ['Shop {root} {mod} today.', 'Official stockist.'],
        paths: ['{root}', ''],
        labels: [],
      },
    ],
  };
}

interface FeedRow {
  n: number;
  var1: string;
  url: string;
  status: string;
}

function feedText(rows: readonly FeedRow[]): string {
  const lines = ['Root,Modifier,Var 1,Final URL,Status'];
  for (const r of rows) lines.push(`Brand${r.n},Model${r.n},${r.var1},${r.url},${r.status}`);
  return `${lines.join('\n')}\n`;
}

/** Rows 1-10: 9 and 10 without Var 1 (fallback B). */
const BASE: FeedRow[] = Array.from({ length: 10 }, (_, i) => ({
  n: i + 1,
  var1: i + 1 >= 9 ? '' : 'Red',
  url: `https://shop.example/${i + 1}`,
  status: 'in stock',
}));

/** The day after: rows 1-3 gone, 4-5 new URLs, 6-7 out of stock, 11-14 new. */
const NEXT: FeedRow[] = [
  ...BASE.filter((r) => r.n > 3).map((r) => ({
    ...r,
    url: r.n === 4 || r.n === 5 ? `https://shop.example/new/${r.n}` : r.url,
    status: r.n === 6 || r.n === 7 ? 'out of stock' : r.status,
  })),
  ...[11, 12, 13, 14].map((n) => ({
    n,
    var1: 'Red',
    url: `https://shop.example/${n}`,
    status: 'in stock',
  })),
];

writeFileSync(at('campaign.json'), JSON.stringify(CAMPAIGN));
writeFileSync(at('rsa.json'), JSON.stringify(rsaTemplate('Shop {root} Today')));
writeFileSync(at('rsa-next.json'), JSON.stringify(rsaTemplate('Shop {root} Now')));
writeFileSync(at('feed.csv'), feedText(BASE));
writeFileSync(at('feed-next.csv'), feedText(NEXT));

const inputs = (feed: string, rsa: string): string[] => [
  '--feed',
  at(feed),
  '--campaign',
  at('campaign.json'),
  '--rsa',
  at(rsa),
  '--today',
  '20261201',
];

/** A CSV file the command wrote, as records (header first). */
function csv(file: string): string[][] {
  return [...csvRecordsOfFile(file)];
}

/** Records as objects by header. */
function rowsOf(file: string): Record<string, string>[] {
  const [headers, ...rows] = csv(file);
  return rows.map((r) => Object.fromEntries(headers!.map((h, i) => [h, r[i] ?? ''])));
}

/** The printed counts table: per kind label, [new, changed, paused, resumed, removed, unchanged]. */
function printedCounts(stdout: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const line of stdout.split('\n')) {
    const m = /^ {2}(\S.*?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)(?:\s+(\d+))?$/.exec(
      line,
    );
    if (m) out.set(m[1]!, m.slice(2, 8).map(Number));
  }
  return out;
}

const FIRST = at('first');
const first = run(['generate', ...inputs('feed.csv', 'rsa.json'), '--out', FIRST]);

describe('adloom generate writes its build record', () => {
  it('beside the files, and it reads back as the items of those files', () => {
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/adloom-build\.json +the build record/);
    const text = readFileSync(path.join(FIRST, 'adloom-build.json'), 'utf8');
    expect(text.startsWith('{"format":"adloom-build"')).toBe(true);
    // No BOM; the header is the first line, as JSON (the items are lines of the record's own).
    const doc = JSON.parse(text.slice(0, text.indexOf('\n'))) as {
      version: number;
      label: string;
      feed: string;
      templates: string[];
    };
    expect(doc.version).toBe(BUILD_RECORD_VERSION);
    expect(doc.label).toBe('adloom');
    expect(doc.feed).toBe('feed.csv');
    expect(doc.templates).toEqual(['Loop', 'Loop RSA']);
    const record = readBuildRecord([text]);
    const count = (file: string): number => csv(path.join(FIRST, file)).length - 1;
    expect(record.header.counts).toEqual({
      campaign: 1,
      'ad-group': count('ad-groups.csv'),
      keyword: count('keywords.csv'),
      'responsive-search-ad': count('responsive-search-ads.csv'),
    });
    expect(count('ad-groups.csv')).toBe(10);
    // Each item's identity, status and feed line: the keyword of row 4 (feed line 5).
    const k = record.find('keyword', ['Shoes', 'Brand4 Model4', 'brand4 model4', 'Exact']);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(record.statusOf(k)).toBe('Enabled');
    expect(record.lineOf(k)).toBe(5);
    const ad = record.find('ad-group', ['Shoes', 'Brand9 Model9']);
    expect(record.lineOf(ad)).toBe(10);
  });

  it('marks campaigns, ad groups, keywords and ads with the client label', () => {
    for (const file of ['campaigns.csv', 'ad-groups.csv', 'keywords.csv']) {
      const rows = rowsOf(path.join(FIRST, file)).filter((r) => !r['Location ID']);
      expect(rows.length, file).toBeGreaterThan(0);
      for (const r of rows) expect(r.Labels, file).toBe('adloom');
    }
    for (const r of rowsOf(path.join(FIRST, 'responsive-search-ads.csv')))
      expect(r.Labels).toBe('adloom');
    const out = at('labelled');
    const r = run([
      'generate',
      ...inputs('feed.csv', 'rsa.json'),
      '--label',
      'Acme Feed',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(rowsOf(path.join(out, 'keywords.csv'))[0]!.Labels).toBe('Acme Feed');
    expect(
      readBuildRecord([readFileSync(path.join(out, 'adloom-build.json'), 'utf8')]).header.label,
    ).toBe('Acme Feed');
  });

  it.each([
    [['--label', ''], '--label must not be empty'],
    [['--label', 'a;b'], '--label must not contain ";"'],
  ])('refuses %j with exit code 2', (extra, message) => {
    const r = run(['generate', ...inputs('feed.csv', 'rsa.json'), '--out', at('x'), ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(at('x'))).toBe(false);
  });

  it('writes no record with --stdout or --only', () => {
    const out = at('only');
    const r = run([
      'generate',
      ...inputs('feed.csv', 'rsa.json'),
      '--only',
      'keywords',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(readdirSync(out)).toEqual(['keywords.csv']);
  });
});

describe('adloom plan against the last build', () => {
  const PLANNED = at('planned');
  const planned = run([
    'plan',
    ...inputs('feed-next.csv', 'rsa-next.json'),
    '--previous',
    FIRST,
    '--out',
    PLANNED,
  ]);

  it('counts exactly the feed and template changes per kind', () => {
    expect(planned.stderr).toBe('');
    expect(planned.code).toBe(0);
    const counts = printedCounts(planned.stdout);
    //                          new changed paused resumed removed unchanged
    expect(counts.get('Campaign')).toEqual([0, 0, 0, 0, 0, 1]);
    // 4 new rows; 3 rows gone and 2 out of stock are paused; 5 as they were.
    expect(counts.get('Ad group')).toEqual([4, 0, 5, 0, 0, 5]);
    expect(counts.get('Keyword')).toEqual([8, 0, 10, 0, 0, 10]);
    // New: 4 rows' ads and the 2 edited ads (rows 9, 10); changed: 2 final URLs; paused: 3 gone,
    // 2 out of stock, the 2 edited ads' old versions (they keep their history); unchanged: row 8.
    expect(counts.get('Responsive search ad')).toEqual([6, 2, 7, 0, 0, 1]);
    expect(counts.get('Total')).toEqual([18, 2, 22, 0, 0, 17]);
  });

  it('lists each change in adloom-plan.csv with its reason and feed line', () => {
    const plan = rowsOf(path.join(PLANNED, 'adloom-plan.csv'));
    expect(Object.keys(plan[0]!)).toEqual([
      'Action',
      'Kind',
      'Campaign',
      'Ad Group',
      'Item',
      'Reason',
      'Feed line',
    ]);
    expect(plan).toHaveLength(42);
    const of = (action: string, kind: string) =>
      plan.filter((p) => p.Action === action && p.Kind === kind);
    // New rows 11-14 are lines 9-12 of the new feed.
    expect(of('add', 'Ad group').map((p) => [p['Ad Group'], p['Feed line']])).toEqual([
      ['Brand11 Model11', '9'],
      ['Brand12 Model12', '10'],
      ['Brand13 Model13', '11'],
      ['Brand14 Model14', '12'],
    ]);
    expect(of('update', 'Responsive search ad').map((p) => p['Ad Group'])).toEqual([
      'Brand4 Model4',
      'Brand5 Model5',
    ]);
    for (const p of of('update', 'Responsive search ad')) expect(p.Reason).toMatch(/final URL/i);
    const paused = of('pause', 'Ad group')
      .map((p) => p['Ad Group'])
      .sort();
    expect(paused).toEqual([
      'Brand1 Model1',
      'Brand2 Model2',
      'Brand3 Model3',
      'Brand6 Model6',
      'Brand7 Model7',
    ]);
    expect(
      of('pause', 'Ad group').find((p) => p['Ad Group'] === 'Brand6 Model6')!['Feed line'],
    ).toBe('4');
    expect(of('pause', 'Ad group').find((p) => p['Ad Group'] === 'Brand1 Model1')!.Reason).toMatch(
      /no longer in the feed/,
    );
    const edited = of('add', 'Responsive search ad').filter((p) =>
      /Brand(9|10) /.test(p['Ad Group']!),
    );
    expect(edited).toHaveLength(2);
    for (const p of edited) expect(p.Reason).toMatch(/headline 2 changed/i);
  });

  it('writes Editor files holding only the changes, with their statuses', () => {
    expect(readdirSync(PLANNED).sort()).toEqual([
      'ad-groups.csv',
      'adloom-build.json',
      'adloom-plan.csv',
      'adloom-report.csv',
      'keywords.csv',
      'responsive-search-ads.csv',
    ]);
    const groups = rowsOf(path.join(PLANNED, 'ad-groups.csv'));
    const status = (rows: Record<string, string>[], key: string, column: string) =>
      Object.fromEntries(rows.map((r) => [r[key], r[column]]));
    expect(status(groups, 'Ad Group', 'Ad Group Status')).toEqual({
      'Brand6 Model6': 'Paused',
      'Brand7 Model7': 'Paused',
      'Brand11 Model11': 'Enabled',
      'Brand12 Model12': 'Enabled',
      'Brand13 Model13': 'Enabled',
      'Brand14 Model14': 'Enabled',
      'Brand1 Model1': 'Paused',
      'Brand2 Model2': 'Paused',
      'Brand3 Model3': 'Paused',
    });
    const keywords = rowsOf(path.join(PLANNED, 'keywords.csv'));
    expect(keywords).toHaveLength(18);
    for (const k of keywords) {
      const n = Number(/Brand(\d+)/.exec(k['Ad Group']!)![1]);
      expect(k.Status, k.Keyword).toBe(n >= 11 ? 'Enabled' : 'Paused');
    }
    const ads = rowsOf(path.join(PLANNED, 'responsive-search-ads.csv'));
    expect(ads).toHaveLength(15);
    const adStatus = ads.map((a) => `${a['Ad Group']}|${a['Headline 2']}|${a.Status}`).sort();
    expect(adStatus).toEqual(
      [
        'Brand1 Model1|Model1 in Red|Paused',
        'Brand2 Model2|Model2 in Red|Paused',
        'Brand3 Model3|Model3 in Red|Paused',
        'Brand4 Model4|Model4 in Red|Enabled',
        'Brand5 Model5|Model5 in Red|Enabled',
        'Brand6 Model6|Model6 in Red|Paused',
        'Brand7 Model7|Model7 in Red|Paused',
        'Brand9 Model9|Shop Brand9 Today|Paused',
        'Brand10 Model10|Shop Brand10 Today|Paused',
        'Brand9 Model9|Shop Brand9 Now|Enabled',
        'Brand10 Model10|Shop Brand10 Now|Enabled',
        'Brand11 Model11|Model11 in Red|Enabled',
        'Brand12 Model12|Model12 in Red|Enabled',
        'Brand13 Model13|Model13 in Red|Enabled',
        'Brand14 Model14|Model14 in Red|Enabled',
      ].sort(),
    );
    // The updated ads carry their new final URL.
    expect(ads.find((a) => a['Ad Group'] === 'Brand4 Model4')!['Final URL']).toBe(
      'https://shop.example/new/4',
    );
  });

  it('plans nothing right after, against its own record', () => {
    const again = at('again');
    const r = run([
      'plan',
      ...inputs('feed-next.csv', 'rsa-next.json'),
      '--previous',
      PLANNED,
      '--out',
      again,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Nothing to change');
    const counts = printedCounts(r.stdout);
    expect(counts.get('Total')!.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(readdirSync(again).sort()).toEqual([
      'adloom-build.json',
      'adloom-plan.csv',
      'adloom-report.csv',
    ]);
    expect(csv(path.join(again, 'adloom-plan.csv'))).toHaveLength(1);
  });

  it("with nothing dropped, its record is the build's own, and the next plan plans nothing", () => {
    const same = at('same');
    const r = run(['plan', ...inputs('feed.csv', 'rsa.json'), '--previous', FIRST, '--out', same]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Nothing to change');
    const items = (dir: string): string[] => {
      const b = readBuildRecord([readFileSync(path.join(dir, 'adloom-build.json'), 'utf8')]);
      return Array.from({ length: b.size }, (_, i) => JSON.stringify(b.item(i)));
    };
    expect(items(same)).toEqual(items(FIRST));
    const after = run([
      'plan',
      ...inputs('feed.csv', 'rsa.json'),
      '--previous',
      same,
      '--out',
      at('same2'),
    ]);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('Nothing to change');
  });

  it("started with --single-threaded (the command's own first line), runs again without it, with the same output and exit code", () => {
    const flagged = (args: string[]) => runAdloom(args, undefined, ['--single-threaded']);
    const bad = flagged(['plan', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option '--bogus'");
    const out = at('flagged');
    const ok = flagged([
      'plan',
      ...inputs('feed.csv', 'rsa.json'),
      '--previous',
      FIRST,
      '--out',
      out,
    ]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Nothing to change');
    expect(existsSync(path.join(out, 'adloom-build.json'))).toBe(true);
  });

  it('removes dropped items with --dropped remove, and leaves them with keep', () => {
    const removed = run([
      'plan',
      ...inputs('feed-next.csv', 'rsa-next.json'),
      '--previous',
      FIRST,
      '--dropped',
      'remove',
      '--out',
      at('removed'),
    ]);
    expect(removed.code).toBe(0);
    // 3 rows gone: 3 ad groups, 6 keywords, 5 ads (3 + the 2 edited ads' old versions); the
    // out-of-stock rows' 8 items are still paused.
    expect(printedCounts(removed.stdout).get('Total')).toEqual([18, 2, 8, 0, 14, 17]);
    const groups = rowsOf(path.join(at('removed'), 'ad-groups.csv'));
    expect(groups.find((g) => g['Ad Group'] === 'Brand1 Model1')!['Ad Group Status']).toBe(
      'Removed',
    );
    const kept = run([
      'plan',
      ...inputs('feed-next.csv', 'rsa-next.json'),
      '--previous',
      FIRST,
      '--dropped',
      'keep',
      '--out',
      at('kept'),
    ]);
    expect(printedCounts(kept.stdout).get('Total')).toEqual([18, 2, 8, 0, 0, 31]);
  });
});

/** The account after the first build's import, plus what people made by hand, as Editor exports it. */
function accountExport(): Buffer {
  const files = ['campaigns.csv', 'ad-groups.csv', 'keywords.csv', 'responsive-search-ads.csv'];
  const headers: string[] = [];
  const tables = files.map((f) => {
    const [h, ...rows] = csv(path.join(FIRST, f));
    for (const c of h!) if (!headers.includes(c)) headers.push(c);
    return { file: f, h: h!, rows };
  });
  for (const c of ['Campaign Status', 'Ad Group Status', 'Status']) headers.push(c);
  const lines: string[][] = [headers];
  const put = (cells: Record<string, string>): void => {
    lines.push(headers.map((h) => cells[h] ?? ''));
  };
  for (const t of tables)
    for (const row of t.rows) {
      const cells = Object.fromEntries(t.h.map((h, i) => [h, row[i] ?? '']));
      if (t.file === 'campaigns.csv' && !cells['Location ID']) cells['Campaign Status'] = 'Enabled';
      else if (t.file === 'ad-groups.csv') cells['Ad Group Status'] = 'Enabled';
      else if (t.file !== 'campaigns.csv') cells.Status = 'Enabled';
      put(cells);
    }
  // Hand-made: a keyword in an Adloom ad group, an ad group that a new row will make, and a
  // campaign of its own.
  put({
    Campaign: 'Shoes',
    'Ad Group': 'Brand4 Model4',
    Keyword: 'brand4 sale',
    'Criterion Type': 'Phrase',
    Status: 'Enabled',
  });
  put({ Campaign: 'Shoes', 'Ad Group': 'Brand12 Model12', 'Ad Group Status': 'Enabled' });
  put({
    Campaign: 'Shoes',
    'Ad Group': 'Brand12 Model12',
    Keyword: 'brand12 model12',
    'Criterion Type': 'Broad',
    Status: 'Paused',
  });
  put({
    Campaign: 'Hand Made',
    'Campaign Type': 'Search',
    Budget: '5',
    'Campaign Status': 'Enabled',
  });
  put({ Campaign: 'Hand Made', 'Ad Group': 'Mine', 'Ad Group Status': 'Enabled' });
  put({
    Campaign: 'Hand Made',
    'Ad Group': 'Mine',
    Keyword: 'my keyword',
    'Criterion Type': 'Exact',
    Status: 'Enabled',
  });
  const text = lines.map((l) => l.join('\t')).join('\r\n');
  // Editor's export: UTF-16 little-endian with a BOM, tab-separated.
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

describe('adloom plan against an Editor export of the account', () => {
  it('touches no hand-made item and reports the collisions', () => {
    const file = at('account.csv');
    writeFileSync(file, accountExport());
    const feed = at('feed-account.csv');
    writeFileSync(
      feed,
      feedText([
        ...BASE,
        ...[11, 12].map((n) => ({ n, var1: 'Red', url: `https://shop.example/${n}`, status: '' })),
      ]),
    );
    const out = at('against-account');
    const r = run([
      'plan',
      ...inputs('feed-account.csv', 'rsa.json'),
      '--account',
      file,
      '--out',
      out,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/without the label "adloom": never changed/);
    const counts = printedCounts(r.stdout);
    // Row 11 is new (its ad group, 2 keywords, its ad); row 12's ad group is a person's: its
    // ad group, keywords and ad collide and are not written. Nothing else changes.
    expect(counts.get('Total')!.slice(0, 5)).toEqual([4, 0, 0, 0, 0]);
    expect(r.stdout).toMatch(/4 new items not written/);
    const plan = rowsOf(path.join(out, 'adloom-plan.csv'));
    expect(plan.map((p) => `${p.Action} ${p.Kind} ${p['Ad Group']}`).sort()).toEqual(
      [
        'add Ad group Brand11 Model11',
        'add Keyword Brand11 Model11',
        'add Keyword Brand11 Model11',
        'add Responsive search ad Brand11 Model11',
      ].sort(),
    );
    for (const p of plan) expect(p.Campaign).not.toBe('Hand Made');
    const collisions = rowsOf(path.join(out, 'adloom-collisions.csv'));
    expect(collisions.map((c) => `${c.Kind} ${c['Ad Group']}`).sort()).toEqual(
      [
        'Ad group Brand12 Model12',
        'Keyword Brand12 Model12',
        'Keyword Brand12 Model12',
        'Responsive search ad Brand12 Model12',
      ].sort(),
    );
    for (const c of collisions) expect(c.Reason).toMatch(/without the label "adloom"/);
    // The Editor files hold row 11's items only.
    const written = ['ad-groups.csv', 'keywords.csv', 'responsive-search-ads.csv'].flatMap((f) =>
      rowsOf(path.join(out, f)),
    );
    expect(written).toHaveLength(4);
    for (const w of written) expect(w['Ad Group']).toBe('Brand11 Model11');
  });
});

describe('adloom plan on bad input', () => {
  it.each([
    ['a folder without a record', () => mkdtempSync(at('empty-')), /has no adloom-build\.json/],
    [
      'a cut record',
      () => {
        const dir = at('cut');
        const text = readFileSync(path.join(FIRST, 'adloom-build.json'), 'utf8');
        rmSync(dir, { recursive: true, force: true });
        run(['generate', ...inputs('feed.csv', 'rsa.json'), '--out', dir]);
        writeFileSync(path.join(dir, 'adloom-build.json'), text.slice(0, text.length / 2));
        return dir;
      },
      /adloom-build\.json: .*incomplete|unreadable/,
    ],
  ])('exits 1 for %s and writes nothing', (_what, previous, message) => {
    const out = at('bad-plan');
    const r = run([
      'plan',
      ...inputs('feed.csv', 'rsa.json'),
      '--previous',
      previous(),
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('Nothing was written.');
    expect(existsSync(out)).toBe(false);
  });
});
