/**
 * `adloom plan --format microsoft-advertising --account BULK.csv` (issue 40), run as the real
 * command: only the changes in microsoft-advertising.csv, by Microsoft's Ids, against a bulk
 * download of the account. The upload is played by the engine's stand-in of Microsoft's import
 * (packages/engine/test/helpers/microsoftImport.ts: negative keys become ids; updates and deletes
 * by Id), so the loop closes here.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { formatCsvLine } from '@adloom/engine';
import { importInto } from '@adloom/engine/test/microsoft-import';
import { describe, expect, it, vi } from 'vitest';
import { csvRecordsOfFile } from '../src/fileTables.ts';
import { runAdloom, workFolder } from './runCommand.ts';

vi.setConfig({ testTimeout: 60_000 });

const at = workFolder('adloom-msplan-');

const run = (args: string[]) => runAdloom(args);

const CAMPAIGN = {
  name: 'Loop',
  type: 'search',
  const: 'Shoes',
  campaign: '{const}',
  adGroup: '{root} {mod}',
  keywords: [
    { keyword: '{root} {mod}', matchType: 'Broad' },
    { keyword: '{root} {mod}', matchType: 'Exact' },
    { keyword: '{mod} repair', matchType: 'Negative Broad' },
  ],
  settings: { budget: { value: 20, selected: true } },
};
const RSA = {
  name: 'Loop RSA',
  templates: [
    {
      headlines: ['{root} {mod}', 'Official Stockist', 'Free Delivery'],
      descriptions: ['Shop {root} {mod} today.', 'Official stockist.'],
      paths: ['{root}', ''],
      labels: [],
    },
  ],
};

function feedText(
  rows: readonly number[],
  url = (n: number) => `https://shop.example/${n}`,
): string {
  const lines = ['Root,Modifier,Final URL'];
  for (const n of rows) lines.push(`Brand${n},Model${n},${url(n)}`);
  return `${lines.join('\n')}\n`;
}

writeFileSync(at('campaign.json'), JSON.stringify(CAMPAIGN));
writeFileSync(at('rsa.json'), JSON.stringify(RSA));
writeFileSync(at('feed.csv'), feedText([1, 2, 3, 4, 5]));
// The next day: row 1 gone, row 2's URL changed, row 6 new.
writeFileSync(
  at('feed-next.csv'),
  feedText([2, 3, 4, 5, 6], (n) =>
    n === 2 ? 'https://shop.example/new/2' : `https://shop.example/${n}`,
  ),
);

const inputs = (feed: string): string[] => [
  '--feed',
  at(feed),
  '--campaign',
  at('campaign.json'),
  '--rsa',
  at('rsa.json'),
  '--today',
  '20261201',
  '--format',
  'microsoft-advertising',
];

type Rec = Record<string, string>;

/** A CSV file's records as objects under its header. */
function recordsOf(file: string): Rec[] {
  const [header, ...rows] = [...csvRecordsOfFile(file)];
  return rows
    .filter((r) => r.length > 1)
    .map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

/** Microsoft's import of a bulk file (the engine's stand-in), for the loop. */
const importFile = (account: Rec[], file: string): Rec[] =>
  importInto(account, readFileSync(file, 'utf8'));

function writeDownload(file: string, records: Rec[]): void {
  const header = ['Type', 'Status', 'Id', 'Parent Id', 'Campaign', 'Ad Group'];
  for (const r of records) for (const k of Object.keys(r)) if (!header.includes(k)) header.push(k);
  if (!header.includes('Name')) header.push('Name');
  const lines = [
    formatCsvLine(header),
    formatCsvLine(header.map((h) => (h === 'Type' ? 'Format Version' : h === 'Name' ? '6.0' : ''))),
  ];
  for (const r of records) lines.push(formatCsvLine(header.map((h) => r[h] ?? '')));
  writeFileSync(file, `\uFEFF${lines.join('')}`);
}

describe('adloom plan --format microsoft-advertising', () => {
  it('says plainly that it needs a bulk download of the account, and why', () => {
    for (const baseline of [[], ['--previous', at('')]]) {
      const r = run(['plan', ...inputs('feed.csv'), ...baseline, '--out', at('never')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'needs --account FILE, a bulk download of the Microsoft Advertising account',
      );
      expect(r.stderr).toContain(
        "names the item by Microsoft's Id, which only the account's download holds",
      );
      expect(existsSync(at('never'))).toBe(false);
    }
    writeFileSync(at('not-bulk.csv'), 'Campaign,Keyword\nShoes,red\n');
    const bad = run([
      'plan',
      ...inputs('feed.csv'),
      '--account',
      at('not-bulk.csv'),
      '--out',
      at('never'),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not a Microsoft Advertising bulk download');
  });

  it("plans against the account: everything new at first, nothing after the upload, then only the feed's changes by Id", () => {
    writeDownload(at('empty.csv'), []);
    const first = run([
      'plan',
      ...inputs('feed.csv'),
      '--account',
      at('empty.csv'),
      '--out',
      at('first'),
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      'Compared with the Microsoft Advertising bulk download empty.csv',
    );
    const bulk = readFileSync(at('first/microsoft-advertising.csv'), 'utf8');
    expect(bulk.startsWith('\uFEFF')).toBe(true);
    const added = recordsOf(at('first/microsoft-advertising.csv'));
    const of = (records: Rec[], type: string) => records.filter((r) => r.Type === type);
    expect(of(added, 'Keyword')).toHaveLength(10);
    expect(of(added, 'Keyword Label')).toHaveLength(10);
    expect(of(added, 'Label')).toEqual([expect.objectContaining({ Label: 'adloom', Id: '-1' })]);
    expect(existsSync(at('first/keywords.csv'))).toBe(false);
    expect(existsSync(at('first/adloom-build.json'))).toBe(false);
    expect(recordsOf(at('first/adloom-plan.csv')).every((l) => l.Action === 'add')).toBe(true);

    // Uploaded, and a hand-made keyword added in Microsoft Advertising.
    let account = importFile([], at('first/microsoft-advertising.csv'));
    const group = account.find((r) => r.Type === 'Ad Group' && r['Ad Group'] === 'Brand1 Model1')!;
    account.push({
      Type: 'Keyword',
      Status: 'Active',
      Id: '9001',
      'Parent Id': group.Id!,
      Campaign: 'Shoes',
      'Ad Group': 'Brand1 Model1',
      Keyword: 'by hand',
      'Match Type': 'Exact',
    });
    writeDownload(at('download-1.csv'), account);
    const same = run([
      'plan',
      ...inputs('feed.csv'),
      '--account',
      at('download-1.csv'),
      '--out',
      at('same'),
    ]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('Nothing to change: the account is what the feed makes.');
    expect(recordsOf(at('same/microsoft-advertising.csv')).map((r) => r.Type)).toEqual([
      'Format Version',
    ]);

    const next = run([
      'plan',
      ...inputs('feed-next.csv'),
      '--account',
      at('download-1.csv'),
      '--out',
      at('next'),
    ]);
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    const changes = recordsOf(at('next/microsoft-advertising.csv')).slice(1);
    const idOf = (type: string, adGroup: string) =>
      account.find((r) => r.Type === type && r['Ad Group'] === adGroup)!.Id;
    // Row 1 dropped: its ad group, keywords and ad paused by their Ids, its negative deleted.
    const paused = changes.filter((r) => r.Status === 'Paused');
    expect(paused.map((r) => `${r.Type} ${r.Id}`).sort()).toEqual(
      account
        .filter(
          (r) =>
            r['Ad Group'] === 'Brand1 Model1' &&
            ['Ad Group', 'Keyword', 'Responsive Search Ad'].includes(r.Type!) &&
            r.Keyword !== 'by hand',
        )
        .map((r) => `${r.Type} ${r.Id}`)
        .sort(),
    );
    expect(changes.filter((r) => r.Status === 'Deleted')).toEqual([
      expect.objectContaining({
        Type: 'Ad Group Negative Keyword',
        Id: idOf('Ad Group Negative Keyword', 'Brand1 Model1'),
      }),
    ]);
    expect(changes.some((r) => r.Id === '9001')).toBe(false);
    // Row 2's URL: an update of its ad by Id.
    expect(changes.find((r) => r['Final Url'] === 'https://shop.example/new/2')).toMatchObject({
      Type: 'Responsive Search Ad',
      Id: idOf('Responsive Search Ad', 'Brand2 Model2'),
    });
    // Row 6: a new ad group under the account's campaign, with its keywords.
    const campaignId = account.find((r) => r.Type === 'Campaign')!.Id;
    const newGroup = changes.find((r) => r.Type === 'Ad Group' && r.Status === 'Active')!;
    expect(newGroup).toMatchObject({ 'Ad Group': 'Brand6 Model6', 'Parent Id': campaignId });
    expect(
      changes.filter((r) => r.Type === 'Keyword' && r['Parent Id'] === newGroup.Id),
    ).toHaveLength(2);
    const plan = recordsOf(at('next/adloom-plan.csv'));
    expect(
      plan
        .filter((l) => l.Action === 'pause')
        .map((l) => l.Kind)
        .sort(),
    ).toEqual(['Ad group', 'Keyword', 'Keyword', 'Negative keyword', 'Responsive search ad']);

    // Uploaded again: nothing more to change.
    account = importFile(account, at('next/microsoft-advertising.csv'));
    writeDownload(at('download-2.csv'), account);
    const settled = run([
      'plan',
      ...inputs('feed-next.csv'),
      '--account',
      at('download-2.csv'),
      '--out',
      at('settled'),
    ]);
    expect(settled.code).toBe(0);
    expect(settled.stdout).toContain('Nothing to change');
  });
});

describe('adloom plan --format microsoft-advertising, an item Microsoft cannot take', () => {
  it('is reported once per plan, never added: after the upload, nothing to change', () => {
    // Row 7's final URL has a host so long that its domain with path 1 passes Microsoft's 67
    // characters (Google has no such limit): its ad cannot go to Microsoft.
    const host = `www.${'long'.repeat(16)}.example`;
    writeFileSync(
      at('feed-long.csv'),
      feedText([1, 7], (n) => (n === 7 ? `https://${host}/7` : `https://shop.example/${n}`)),
    );
    writeDownload(at('empty-long.csv'), []);
    const first = run([
      'plan',
      ...inputs('feed-long.csv'),
      '--account',
      at('empty-long.csv'),
      '--out',
      at('long-1'),
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      '1 item Microsoft cannot take: not planned (see microsoft-advertising-report.csv)',
    );
    const ads = (dir: string) =>
      recordsOf(at(`${dir}/microsoft-advertising.csv`)).filter(
        (r) => r.Type === 'Responsive Search Ad',
      );
    expect(ads('long-1').map((r) => r['Ad Group'])).toEqual(['Brand1 Model1']);
    expect(
      recordsOf(at('long-1/adloom-plan.csv')).filter((l) => l.Kind === 'Responsive search ad'),
    ).toHaveLength(1);
    const reported = (dir: string) =>
      recordsOf(at(`${dir}/microsoft-advertising-report.csv`))
        .filter((r) => r.Outcome === 'Not written')
        .map((r) => `${r.Type}|${r['Ad Group']}|${r.Outcome}`);
    expect(reported('long-1')).toEqual(['Responsive Search Ad|Brand7 Model7|Not written']);

    writeDownload(at('download-long.csv'), importFile([], at('long-1/microsoft-advertising.csv')));
    const again = run([
      'plan',
      ...inputs('feed-long.csv'),
      '--account',
      at('download-long.csv'),
      '--out',
      at('long-2'),
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to change: the account is what the feed makes.');
    expect(again.stdout).toContain('1 item Microsoft cannot take: not planned');
    expect(ads('long-2')).toEqual([]);
    expect(reported('long-2')).toEqual(['Responsive Search Ad|Brand7 Model7|Not written']);
  });
});

describe('adloom generate --format microsoft-advertising, then a plan against its import', () => {
  it("carries the client's label: the account loaded from the full file plans nothing, none of it hand-made", () => {
    const made = run([
      'generate',
      ...inputs('feed.csv'),
      '--label',
      'Acme feed',
      '--out',
      at('full'),
    ]);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const full = recordsOf(at('full/microsoft-advertising.csv'));
    expect(full.filter((r) => r.Type === 'Label')).toEqual([
      expect.objectContaining({ Label: 'Acme feed', Id: '-1' }),
    ]);
    for (const type of ['Campaign', 'Ad Group', 'Keyword', 'Responsive Search Ad'])
      expect(full.filter((r) => r.Type === `${type} Label`)).toHaveLength(
        full.filter((r) => r.Type === type).length,
      );
    writeDownload(at('full-download.csv'), importFile([], at('full/microsoft-advertising.csv')));
    const plan = run([
      'plan',
      ...inputs('feed.csv'),
      '--label',
      'Acme feed',
      '--account',
      at('full-download.csv'),
      '--out',
      at('full-plan'),
    ]);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('(0 without the label "Acme feed": never changed)');
    expect(plan.stdout).toContain('Nothing to change: the account is what the feed makes.');
    expect(recordsOf(at('full-plan/microsoft-advertising.csv')).map((r) => r.Type)).toEqual([
      'Format Version',
    ]);
  });
});
