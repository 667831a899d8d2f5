/**
 * The change plan for Microsoft Advertising (issue 40): a bulk download of the account read into
 * the plan's baseline, and the changes-only bulk file. The hand-made downloads are written in the
 * layout of Microsoft's record pages (MicrosoftDocs/Advertising, bingads-13/bulk-service:
 * keyword.md, campaign.md, ad-group.md, label.md, keyword-label.md, responsive-search-ad.md,
 * campaign-sitelink-ad-extension.md...): a `Type` column first, `Format Version` 6.0 in `Name`,
 * then one record per line with `Id`, `Parent Id` and `Status`.
 */
import { describe, expect, test } from 'vitest';
import { formatCsvLine } from '../csv.ts';
import { MICROSOFT_ADVERTISING } from '../formats/microsoftAdvertising.ts';
import { writeMicrosoftChanges, MICROSOFT_CHANGES_HEADERS } from './microsoftChanges.ts';
import { microsoftPlanInput } from './microsoftRefusals.ts';
import {
  MicrosoftAccountReader,
  readMicrosoftAccount,
  type MicrosoftAccount,
} from './microsoftAccount.ts';
import { planChanges, type DroppedPolicy } from './plan.ts';
import { copyBuild, randomBuild, tablesOf, type TestBuild } from './testTables.ts';
import { bulkRecordsOf as recordsOf, importInto } from '../../test/helpers/microsoftImport.ts';

/** A download from records given as objects, under the schema's own column names. */
function download(records: Record<string, string>[]): string {
  const header = [
    'Type',
    'Status',
    'Id',
    'Parent Id',
    'Campaign',
    'Ad Group',
    'Client Id',
    'Modified Time',
    'Name',
    'Budget',
    'Budget Type',
    'Campaign Type',
    'Keyword',
    'Match Type',
    'Final Url',
    'Headline',
    'Description',
    'Path 1',
    'Path 2',
    'Label',
  ];
  const lines = [
    formatCsvLine(header),
    formatCsvLine(header.map((h) => (h === 'Type' ? 'Format Version' : h === 'Name' ? '6.0' : ''))),
  ];
  for (const r of records) lines.push(formatCsvLine(header.map((h) => r[h] ?? '')));
  return `\uFEFF${lines.join('')}`;
}

const EMPTY = download([]);

/** The account's records as a download (every column any record has). */
function asDownload(records: Record<string, string>[]): string {
  const header = [...MICROSOFT_CHANGES_HEADERS];
  for (const r of records) for (const k of Object.keys(r)) if (!header.includes(k)) header.push(k);
  const lines = [
    formatCsvLine(header),
    formatCsvLine(header.map((h) => (h === 'Type' ? 'Format Version' : h === 'Name' ? '6.0' : ''))),
  ];
  for (const r of records) lines.push(formatCsvLine(header.map((h) => r[h] ?? '')));
  return lines.join('');
}

/** Plans `build` against a download; returns the plan and the changes file. */
function planFor(
  build: TestBuild,
  text: string,
  dropped: DroppedPolicy = 'pause',
): {
  account: MicrosoftAccount;
  plan: ReturnType<typeof planChanges>;
  file: string;
  report: string[][];
} {
  const account = readMicrosoftAccount(text, { label: 'adloom' });
  const { tables, planTables, refusals } = microsoftPlanInput(tablesOf(build), account.baseline, {
    label: 'adloom',
  });
  const plan = planChanges(account.baseline, planTables, { dropped, label: 'adloom' });
  const changes = writeMicrosoftChanges(plan, tables, planTables, account, {
    label: 'adloom',
    refused: refusals.report,
  });
  const file = [...changes.chunks()].join('');
  return { account, plan, file, report: changes.report().rows as string[][] };
}

/** A build Microsoft takes whole: plain texts, no location (its ids are Google's). */
function plainBuild(seed: number): TestBuild {
  const b = randomBuild(seed, 12, false);
  for (const c of b.campaigns) delete c.locationId;
  return b;
}

/** A plan that changes nothing: no change counted, a changes file of its format line alone. */
function expectNothingToChange(planned: ReturnType<typeof planFor>): void {
  const { add, update, pause, enable, remove } = planned.plan.totals;
  expect({ add, update, pause, enable, remove }).toEqual({
    add: 0,
    update: 0,
    pause: 0,
    enable: 0,
    remove: 0,
  });
  expect(recordsOf(planned.file).map((r) => r.Type)).toEqual(['Format Version']);
}

describe('a Microsoft Advertising bulk download as the baseline', () => {
  const text = download([
    { Type: 'Account', Id: '149' },
    { Type: 'Label', Status: 'Active', Id: '7', Label: 'Adloom' },
    { Type: 'Label', Status: 'Active', Id: '8', Label: 'brand' },
    {
      Type: 'Campaign',
      Status: 'Active',
      Id: '11',
      'Parent Id': '149',
      Campaign: 'Shoes',
      Budget: '50.00',
      'Budget Type': 'DailyBudgetStandard',
      'Campaign Type': 'Search',
    },
    { Type: 'Campaign Label', Id: '7', 'Parent Id': '11', Campaign: 'Shoes', Status: 'Active' },
    {
      Type: 'Campaign',
      Status: 'Paused',
      Id: '12',
      'Parent Id': '149',
      Campaign: 'By hand',
      Budget: '5',
      'Campaign Type': 'Search',
    },
    { Type: 'Campaign Label', Id: '8', 'Parent Id': '12', Campaign: 'By hand', Status: 'Active' },
    {
      Type: 'Campaign',
      Status: 'Active',
      Id: '13',
      'Parent Id': '149',
      Campaign: 'Shopping',
      'Campaign Type': 'Shopping',
    },
    {
      Type: 'Ad Group',
      Status: 'Active',
      Id: '21',
      'Parent Id': '11',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
    },
    { Type: 'Ad Group Label', Id: '7', 'Parent Id': '21', Campaign: 'Shoes', 'Ad Group': 'Red' },
    {
      Type: 'Keyword',
      Status: 'Active',
      Id: '31',
      'Parent Id': '21',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
      Keyword: 'red shoes',
      'Match Type': 'Phrase',
    },
    { Type: 'Keyword Label', Id: '7', 'Parent Id': '31' },
    // Hand-made (no label) in Adloom's ad group.
    {
      Type: 'Keyword',
      Status: 'Paused',
      Id: '32',
      'Parent Id': '21',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
      Keyword: 'crimson shoes',
      'Match Type': 'Exact',
    },
    {
      Type: 'Ad Group Negative Keyword',
      Status: 'Active',
      Id: '41',
      'Parent Id': '21',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
      Keyword: 'cheap',
      'Match Type': 'Phrase',
    },
    {
      Type: 'Campaign Negative Keyword',
      Status: 'Active',
      Id: '42',
      'Parent Id': '11',
      Campaign: 'Shoes',
      Keyword: 'free',
      'Match Type': 'Exact',
    },
    {
      Type: 'Responsive Search Ad',
      Status: 'Active',
      Id: '51',
      'Parent Id': '21',
      Campaign: 'Shoes',
      'Ad Group': 'Red',
      'Final Url': 'https://example.com/red',
      Headline:
        '[{"id":1,"text":"Red shoes","pinnedField":"Headline1"},{"text":"Free delivery"},{"text":"Sizes 3-12"}]',
      Description: '[{"text":"All reds."},{"text":"Order today."}]',
      'Path 1': 'shoes',
      'Path 2': 'red',
    },
    { Type: 'Responsive Search Ad Label', Id: '7', 'Parent Id': '51' },
    {
      Type: 'Campaign Location Criterion',
      Status: 'Active',
      Id: '61',
      'Parent Id': '11',
      Campaign: 'Shoes',
    },
  ]);

  test('reads each record type with its Id, Parent Id and status; the label tells who owns it', () => {
    const account = readMicrosoftAccount(text, { label: 'adloom' });
    const { baseline, ids } = account;
    const find = (kind: Parameters<typeof baseline.find>[0], identity: string[]) => {
      const i = baseline.find(kind, identity);
      expect(i, identity.join('|')).toBeGreaterThanOrEqual(0);
      return { i, ids: ids[i]!, status: baseline.statusOf(i), owned: baseline.isOwned(i) };
    };
    expect(account.labelId).toBe('7');
    expect(find('campaign', ['Shoes'])).toMatchObject({
      ids: { id: '11', parentId: '149', type: 'Campaign' },
      status: 'Enabled',
      owned: true,
    });
    expect(find('campaign', ['By hand'])).toMatchObject({ status: 'Paused', owned: false });
    expect(baseline.find('campaign', ['Shopping'])).toBe(-1);
    expect(find('ad-group', ['Shoes', 'Red'])).toMatchObject({
      ids: { id: '21', parentId: '11' },
      owned: true,
    });
    expect(find('keyword', ['Shoes', 'Red', 'red shoes', 'Phrase'])).toMatchObject({
      ids: { id: '31', parentId: '21' },
      owned: true,
    });
    expect(find('keyword', ['Shoes', 'Red', 'crimson shoes', 'Exact'])).toMatchObject({
      status: 'Paused',
      owned: false,
    });
    // Negatives take their ad group's, or their campaign's, ownership.
    expect(find('negative', ['Shoes', 'Red', 'cheap', 'Negative Phrase'])).toMatchObject({
      ids: { id: '41', type: 'Ad Group Negative Keyword' },
      owned: true,
    });
    expect(find('negative', ['Shoes', '', 'free', 'Campaign Negative Exact'])).toMatchObject({
      ids: { id: '42', parentId: '11' },
      owned: true,
    });
    const ad = [
      'Shoes',
      'Red',
      'Red shoes',
      'Free delivery',
      'Sizes 3-12',
      ...Array<string>(12).fill(''),
      '1',
      ...Array<string>(14).fill(''),
      'All reds.',
      'Order today.',
      '',
      '',
      '',
      '',
      '',
      '',
      'shoes',
      'red',
    ];
    expect(find('responsive-search-ad', ad)).toMatchObject({ ids: { id: '51' }, owned: true });
    expect(baseline.adIdOf(baseline.find('responsive-search-ad', ad))).toBe('51');
    expect(account.summary).toEqual({ rows: 17, otherRows: 2 });
  });

  test('reads the same in pieces of any size as whole, a parent read after its child too', () => {
    // The ad group's record moved after its keyword's, whose names are left out (by Parent Id).
    const lines = text.split('\r\n');
    const group = lines.findIndex((l) => l.startsWith('Ad Group,'));
    const keyword = lines.findIndex((l) => l.startsWith('Keyword,Active,31,'));
    const moved = [...lines];
    moved[keyword] = moved[keyword]!.replace(',Shoes,Red,', ',,,');
    moved.splice(keyword + 1, 0, moved[group]!);
    moved.splice(group, 1);
    // A campaign with a multi-byte character and quotes in its name, cut between pieces.
    const shuffled = `${moved.join('\r\n')}Campaign,Active,14,149,"Café, ""bar""",,,,9,,Search\r\n`;
    const summaryOf = (account: MicrosoftAccount) => {
      const { baseline, ids } = account;
      const items: string[] = [];
      for (let i = 0; i < baseline.size; i++)
        items.push(
          [
            baseline.kindOf(i),
            baseline.identityOf(i).join('|'),
            baseline.statusOf(i),
            baseline.isOwned(i),
            ids[i]!.id,
            ids[i]!.parentId,
            ids[i]!.type,
          ].join(' '),
        );
      return { items: items.sort(), labelId: account.labelId, summary: account.summary };
    };
    const whole = summaryOf(readMicrosoftAccount(text, { label: 'adloom' }));
    const wholeMoved = summaryOf(readMicrosoftAccount(shuffled, { label: 'adloom' }));
    expect(wholeMoved.items).toEqual(
      [...whole.items, 'campaign Café, "bar" Enabled false 14 149 Campaign'].sort(),
    );
    const bytes = new TextEncoder().encode(`\uFEFF${shuffled}`);
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const reader = new MicrosoftAccountReader({ label: 'adloom' });
      for (let at = 0; at < bytes.length; at += size)
        reader.pushBytes(bytes.subarray(at, at + size));
      expect(summaryOf(reader.end()), `pieces of ${size}`).toEqual(wholeMoved);
    }
  });

  test('a plan against an empty account adds everything, labelled, parents by their keys', () => {
    const build = plainBuild(3);
    const { plan, file, report } = planFor(build, EMPTY);
    expect(plan.totals.update + plan.totals.pause + plan.totals.remove).toBe(0);
    const records = recordsOf(file);
    expect(records[0]).toMatchObject({ Type: 'Format Version', Name: '6.0' });
    const of = (type: string) => records.filter((r) => r.Type === type);
    expect(of('Keyword')).toHaveLength(build.keywords.length);
    expect(of('Responsive Search Ad')).toHaveLength(build.ads.length);
    expect(of('Label')).toEqual([expect.objectContaining({ Id: '-1', Label: 'adloom' })]);
    // Every campaign, ad group, keyword and ad carries the label; each parent before its child.
    const seen = new Set<string>();
    for (const r of records) {
      if (r['Parent Id']!.startsWith('-'))
        expect(seen.has(r['Parent Id']!), `${r.Type} ${r['Parent Id']}`).toBe(true);
      if (r.Type!.endsWith(' Label')) expect(seen.has(r.Id!)).toBe(true);
      if (
        r.Id!.startsWith('-') &&
        !r.Type!.endsWith(' Label') &&
        !/^(Campaign|Ad Group) .* Ad Extension$/.test(r.Type!)
      ) {
        expect(seen.has(r.Id!), `${r.Type} ${r.Id} twice`).toBe(false);
        seen.add(r.Id!);
      }
    }
    for (const type of ['Campaign', 'Ad Group', 'Keyword', 'Responsive Search Ad'])
      expect(of(`${type} Label`)).toHaveLength(of(type).length);
    expect(report.filter((r) => r[4] === 'Not written')).toEqual([]);
  });

  test('against a download holding the previous build, nothing changes; a dropped row pauses or removes exactly its items', () => {
    const build = plainBuild(5);
    const first = planFor(build, EMPTY);
    const account = importInto([], first.file);
    // A hand-made keyword in Adloom's first ad group, and a hand-made campaign.
    const g = build.adGroups[0]!;
    const group = account.find((r) => r.Type === 'Ad Group' && r['Ad Group'] === g.adGroup)!;
    account.push(
      {
        Type: 'Keyword',
        Status: 'Active',
        Id: '9001',
        'Parent Id': group.Id!,
        Campaign: g.campaign,
        'Ad Group': g.adGroup,
        Keyword: 'made by hand',
        'Match Type': 'Exact',
      },
      {
        Type: 'Campaign',
        Status: 'Active',
        Id: '9002',
        'Parent Id': '149',
        Campaign: 'Hand campaign',
        Budget: '3',
        'Campaign Type': 'Search',
      },
    );
    const again = planFor(build, asDownload(account));
    expectNothingToChange(again);

    // The feed drops the last ad group's row: its ad group, keywords, negative and ad go.
    const next = copyBuild(build);
    const gone = next.adGroups.pop()!;
    const inGone = (x: { adGroup: string; campaign: string }) =>
      x.adGroup === gone.adGroup && x.campaign === gone.campaign;
    next.keywords = next.keywords.filter((k) => !inGone(k));
    next.negatives = next.negatives.filter((k) => !inGone(k));
    next.ads = next.ads.filter((a) => !inGone(a));
    next.sitelinks = next.sitelinks.filter((s) => !inGone(s as never));
    const expected = (types: RegExp) =>
      account
        .filter((r) => r.Campaign === gone.campaign && r['Ad Group'] === gone.adGroup)
        .filter((r) => types.test(r.Type!))
        .map((r) => `${r.Type}|${r.Id}|${r['Parent Id']}`)
        .sort();
    const items = /^(Ad Group|Keyword|Ad Group Negative Keyword|Responsive Search Ad)$/;
    const associations = /^Ad Group (Sitelink|Callout|Structured Snippet) Ad Extension$/;
    for (const [policy, status] of [
      ['pause', 'Paused'],
      ['remove', 'Deleted'],
    ] as const) {
      const dropped = planFor(next, asDownload(account), policy);
      const records = recordsOf(dropped.file).slice(1);
      // Extension associations are Active or Deleted: deleted with remove, reported with pause.
      const wanted = expected(
        policy === 'remove' ? new RegExp(`${items.source}|${associations.source}`) : items,
      );
      expect(records.map((r) => `${r.Type}|${r.Id}|${r['Parent Id']}`).sort()).toEqual(wanted);
      const associated = expected(associations).length;
      expect(associated).toBeGreaterThan(0);
      expect(dropped.report.filter((r) => r[4] === 'Not planned')).toHaveLength(
        policy === 'pause' ? associated : 0,
      );
      for (const r of records)
        // Microsoft's negatives are Active or Deleted: a dropped one is deleted.
        expect(r.Status).toBe(
          r.Type === 'Ad Group Negative Keyword' || associations.test(r.Type!) ? 'Deleted' : status,
        );
      expect(
        records.some((r) => r.Keyword === 'made by hand' || r.Campaign === 'Hand campaign'),
      ).toBe(false);
      // Only the columns an update needs: no text of the item.
      for (const r of records) expect(r.Keyword ?? '').toBe('');
      // Imported, then planned again: nothing more to change.
      const after = importInto(account, dropped.file);
      const settled = planFor(next, asDownload(after), policy);
      expect(recordsOf(settled.file).map((r) => r.Type)).toEqual(['Format Version']);
    }
  });

  test('a new row adds its items under the ad groups and campaigns the account has, by their Ids', () => {
    const build = plainBuild(8);
    const account = importInto([], planFor(build, EMPTY).file);
    const next = copyBuild(build);
    const g = next.adGroups[0]!;
    next.keywords.push({
      campaign: g.campaign,
      adGroup: g.adGroup,
      keyword: 'brand new',
      matchType: 'Exact',
      line: 99,
    });
    next.adGroups.push({ campaign: g.campaign, adGroup: 'Fresh group', line: 100 });
    next.keywords.push({
      campaign: g.campaign,
      adGroup: 'Fresh group',
      keyword: 'fresh',
      matchType: 'Broad',
      line: 100,
    });
    const { plan, file } = planFor(next, asDownload(account));
    expect(plan.totals).toMatchObject({ add: 3, update: 0, pause: 0, remove: 0 });
    const records = recordsOf(file);
    const groupId = account.find((r) => r.Type === 'Ad Group' && r['Ad Group'] === g.adGroup)!.Id;
    const campaignId = account.find((r) => r.Type === 'Campaign' && r.Campaign === g.campaign)!.Id;
    const labelId = account.find((r) => r.Type === 'Label')!.Id;
    const kw = records.find((r) => r.Keyword === 'brand new')!;
    expect(kw).toMatchObject({
      Type: 'Keyword',
      Status: 'Active',
      'Parent Id': groupId,
      'Match Type': 'Exact',
    });
    const fresh = records.find((r) => r.Type === 'Ad Group')!;
    expect(fresh).toMatchObject({
      'Ad Group': 'Fresh group',
      'Parent Id': campaignId,
      Status: 'Active',
    });
    expect(records.find((r) => r.Keyword === 'fresh')!['Parent Id']).toBe(fresh.Id);
    // The account's label is applied, not made again.
    expect(records.filter((r) => r.Type === 'Label')).toEqual([]);
    expect(records.filter((r) => r.Type!.endsWith(' Label')).every((r) => r.Id === labelId)).toBe(
      true,
    );
  });

  test('a changed budget, final URL or headline is an update of that Id; a paused row pauses it', () => {
    const build = plainBuild(11);
    const account = importInto([], planFor(build, EMPTY).file);
    const next = copyBuild(build);
    next.campaigns[0]!.budget = 77;
    const ad = next.ads[0]!;
    ad.headlines[2] = 'An edited headline';
    next.ads[1]!.finalUrl = 'https://example.com/moved';
    next.keywords[0]!.status = 'Paused';
    const { plan, file } = planFor(next, asDownload(account));
    expect(plan.totals).toMatchObject({ add: 0, update: 3, pause: 1, remove: 0 });
    const records = recordsOf(file).slice(1);
    const idOf = (type: string, pred: (r: Record<string, string>) => boolean) =>
      account.find((r) => r.Type === type && pred(r))!.Id;
    const campaign = records.find((r) => r.Type === 'Campaign')!;
    expect(campaign).toMatchObject({
      Id: idOf('Campaign', (r) => r.Campaign === next.campaigns[0]!.campaign),
      Budget: '77',
      Status: 'Active',
    });
    const edited = records.find(
      (r) => r.Type === 'Responsive Search Ad' && r.Headline!.includes('An edited headline'),
    )!;
    expect(edited.Id).toBe(
      idOf(
        'Responsive Search Ad',
        (r) => r['Ad Group'] === ad.adGroup && r.Campaign === ad.campaign,
      ),
    );
    expect(JSON.parse(edited.Headline!)[0]).toEqual({
      text: ad.headlines[0],
      pinnedField: 'Headline1',
    });
    const moved = records.find((r) => r['Final Url'] === 'https://example.com/moved')!;
    expect(moved.Type).toBe('Responsive Search Ad');
    const kw = records.find((r) => r.Type === 'Keyword')!;
    expect(kw).toMatchObject({
      Status: 'Paused',
      Keyword: '',
      Id: idOf(
        'Keyword',
        (r) =>
          r.Keyword === next.keywords[0]!.keyword && r['Ad Group'] === next.keywords[0]!.adGroup,
      ),
    });
    // Imported, the account is what the feed makes.
    const settled = planFor(next, asDownload(importInto(account, file)));
    expect(recordsOf(settled.file).map((r) => r.Type)).toEqual(['Format Version']);
  });

  test('a hand-made item of a new name is a collision, never written', () => {
    const build = plainBuild(13);
    const k = build.keywords[0]!;
    const account = importInto([], planFor(build, EMPTY).file).filter(
      (r) => !(r.Type === 'Keyword' && r.Keyword === k.keyword && r['Ad Group'] === k.adGroup),
    );
    const group = account.find((r) => r.Type === 'Ad Group' && r['Ad Group'] === k.adGroup)!;
    account.push({
      Type: 'Keyword',
      Status: 'Active',
      Id: '777',
      'Parent Id': group.Id!,
      Campaign: k.campaign,
      'Ad Group': k.adGroup,
      Keyword: k.keyword,
      'Match Type': k.matchType,
    });
    const { plan, file } = planFor(build, asDownload(account));
    expect(plan.totals.collisions).toBe(1);
    expect(recordsOf(file).map((r) => r.Type)).toEqual(['Format Version']);
  });
  test("a new association of a sitelink the account's library holds names that sitelink", () => {
    const build = plainBuild(17);
    const existing = build.sitelinks[0]!;
    const account = importInto([], planFor(build, EMPTY).file);
    const library = account.find((r) => r.Type === 'Sitelink Ad Extension')!;
    const next = copyBuild(build);
    const other = next.adGroups.find((g) => g.adGroup !== existing.adGroup)!;
    next.sitelinks.push({
      ...existing,
      campaign: other.campaign,
      adGroup: other.adGroup,
      line: 50,
    });
    const { plan, file } = planFor(next, asDownload(account));
    expect(plan.totals).toMatchObject({ add: 1, update: 0, pause: 0, remove: 0 });
    const records = recordsOf(file).slice(1);
    expect(records).toEqual([
      expect.objectContaining({
        Type: 'Ad Group Sitelink Ad Extension',
        Id: library.Id,
        'Parent Id': account.find(
          (r) =>
            r.Type === 'Ad Group' &&
            r['Ad Group'] === other.adGroup &&
            r.Campaign === other.campaign,
        )!.Id,
      }),
    ]);
  });
  test('an item Microsoft cannot take is not planned: reported once, and nothing to change after the import', () => {
    const build = plainBuild(23);
    const g = build.adGroups[0]!;
    const tooLong = 'long '.repeat(21).trim();
    expect(tooLong.length).toBeGreaterThan(100);
    build.keywords.push({
      campaign: g.campaign,
      adGroup: g.adGroup,
      keyword: tooLong,
      matchType: 'Exact',
      line: 77,
    });
    const refusedLine = [
      'Keyword',
      g.campaign,
      g.adGroup,
      tooLong,
      'Not written',
      "longer than Microsoft's 100 characters",
    ];
    const first = planFor(build, EMPTY);
    const keywords = recordsOf(first.file).filter((r) => r.Type === 'Keyword');
    expect(keywords).toHaveLength(build.keywords.length - 1);
    expect(first.plan.counts.keyword.add).toBe(build.keywords.length - 1);
    expect(first.report.filter((r) => r[4] === 'Not written')).toEqual([refusedLine]);

    const again = planFor(build, asDownload(importInto([], first.file)));
    expectNothingToChange(again);
    expect(again.report).toEqual([refusedLine]);
  });

  test('an item the account holds stays in the plan when Microsoft would refuse it as new', () => {
    const build = plainBuild(29);
    const account = importInto([], planFor(build, EMPTY).file);
    // The campaign's budget is gone from the feed: a new campaign without one is refused, but
    // this one is in the account: not paused as dropped, not reported.
    const next = copyBuild(build);
    (next.campaigns[0] as { budget?: unknown }).budget = '';
    const { plan, file, report } = planFor(next, asDownload(account));
    expect(plan.totals).toMatchObject({ add: 0, update: 0, pause: 0, remove: 0 });
    expect(recordsOf(file).map((r) => r.Type)).toEqual(['Format Version']);
    expect(report).toEqual([]);
  });

  test("an account loaded from the full file (the client's label in it) plans nothing, none of it hand-made", () => {
    for (const seed of [31, 37, 41]) {
      const build = plainBuild(seed);
      const files = MICROSOFT_ADVERTISING.files(tablesOf(build), {
        fileName: (stem, ext) => `${stem}.${ext}`,
        clientLabel: 'adloom',
      });
      const full = [...files[0]!.chunks()].join('');
      const account = importInto([], full);
      const again = planFor(build, asDownload(account));
      expect(again.account.baseline.unownedCount(), `seed ${seed}`).toBe(0);
      const { add, update, pause, enable, remove, collisions } = again.plan.totals;
      expect({ add, update, pause, enable, remove, collisions }).toEqual({
        add: 0,
        update: 0,
        pause: 0,
        enable: 0,
        remove: 0,
        collisions: 0,
      });
      expect(recordsOf(again.file).map((r) => r.Type)).toEqual(['Format Version']);
    }
  });

  test('a campaign none of whose locations Microsoft takes is never enabled by a plan', () => {
    const build = plainBuild(19);
    build.campaigns[0]!.locationId = '2826';
    const first = planFor(build, EMPTY);
    const campaign = recordsOf(first.file).find(
      (r) => r.Campaign === build.campaigns[0]!.campaign && r.Type === 'Campaign',
    )!;
    expect(campaign.Status).toBe('Paused');
    const again = planFor(build, asDownload(importInto([], first.file)));
    expect(recordsOf(again.file).map((r) => r.Type)).toEqual(['Format Version']);
    expect(again.report).toEqual([
      expect.arrayContaining(['Campaign', build.campaigns[0]!.campaign, 'Not planned']),
    ]);
  });
});
