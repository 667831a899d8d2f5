import { describe, expect, test } from 'vitest';
import { formatCsvText } from '../csv.ts';
import { GOOGLE_ADS_EDITOR } from '../formats/googleAdsEditor.ts';
import type { ExportTable } from '../formats/exportFormat.ts';
import { BaselineBuilder, emptyBaseline, type Baseline } from './baseline.ts';
import {
  changesTables,
  planCollisions,
  planLines,
  planRecordChunks,
  planTable,
} from './changes.ts';
import {
  forEachBuildItem,
  hashField,
  hashIdentity,
  normalizeLabels,
  type BuildItem,
} from './items.ts';
import { planChanges, type ChangeLine } from './plan.ts';
import {
  BUILD_RECORD_VERSION,
  buildRecordChunks,
  readBuildRecord,
  BuildRecordReader,
  BuildRecordWriter,
  recordCountsOfLastChunk,
} from './record.ts';
import { baselineItemsToLoad, readRecordIdentities } from './recordIdentities.ts';
import { copyBuild, randomBuild, seeded, tablesOf, type TestBuild } from './testTables.ts';

const INFO = {
  created: '2026-12-01T09:00:00.000Z',
  client: 'Acme',
  feed: 'Shoes',
  templates: ['Shoes', 'Shoes RSA'],
  label: 'adloom',
};

function items(tables: readonly ExportTable[]): BuildItem[] {
  const out: BuildItem[] = [];
  forEachBuildItem(tables, (i) =>
    out.push({ ...i, identity: [...i.identity], fields: [...i.fields], values: [...i.values] }),
  );
  return out;
}

function record(tables: readonly ExportTable[]) {
  return readBuildRecord(buildRecordChunks(INFO, tables));
}

/** A line as a comparable string. */
const key = (l: ChangeLine): string =>
  [l.action, l.kind, l.campaign, l.adGroup, l.item, l.reason, l.line].join(' | ');

describe('build items', () => {
  test('a campaign and its location rows are one item with its locations sorted', () => {
    const b = randomBuild(1, 10, false);
    b.campaigns[0]!.locationId = '2840;2826';
    const campaigns = items(tablesOf(b)).filter((i) => i.kind === 'campaign');
    expect(campaigns).toHaveLength(b.campaigns.length);
    const first = campaigns[0]!;
    expect(first.identity).toEqual([b.campaigns[0]!.campaign]);
    expect(first.fields).toEqual(['campaigntype', 'budget', 'networks', 'locationid']);
    expect(first.values).toEqual([
      'Search',
      String(b.campaigns[0]!.budget),
      'Google search',
      '2826;2840',
    ]);
    expect(first.rowCount).toBe(3);
  });

  test('status comes from the status column, lines from the table, dated labels do not count', () => {
    const b = randomBuild(2, 10, false);
    b.keywords[1]!.status = 'Paused';
    const all = items(tablesOf(b));
    const kws = all.filter((i) => i.kind === 'keyword');
    expect(kws.map((k) => k.status)).toEqual(b.keywords.map((k) => k.status ?? 'Enabled'));
    expect(kws.map((k) => k.line)).toEqual(b.keywords.map((k) => k.line));
    const ad = all.find((i) => i.kind === 'responsive-search-ad')!;
    expect(ad.identity.slice(0, 3)).toEqual([
      b.ads[0]!.campaign,
      b.ads[0]!.adGroup,
      b.ads[0]!.headlines[0],
    ]);
    expect(ad.values[ad.fields.indexOf('labels')]).toBe('yyyymmdd-v1');
    expect(normalizeLabels('20261206-v2; fallback;adloom', 'adloom')).toBe('fallback;yyyymmdd-v2');
  });
});

/**
 * Both baselines hold the same items in the same order: identity hash (and an ad's ad group key),
 * kind, status, line and content hashes.
 */
function expectSameItems(a: Baseline, b: Baseline): void {
  expect(a.size).toBe(b.size);
  const h1 = { lo: 0, hi: 0 };
  const h2 = { lo: 0, hi: 0 };
  const fields = (x: Baseline, i: number): string[] => {
    const out: string[] = [];
    x.forEachField(i, (f, h) => out.push(`${x.fieldNames[f]}=${h}`));
    return out;
  };
  for (let i = 0; i < b.size; i++) {
    expect(a.identityHashOf(i, h1)).toEqual(b.identityHashOf(i, h2));
    if (b.kindOf(i) === 'responsive-search-ad')
      expect(a.adGroupKeyOf(i, h1)).toEqual(b.adGroupKeyOf(i, h2));
    expect([a.kindOf(i), a.statusOf(i), a.lineOf(i)]).toEqual([
      b.kindOf(i),
      b.statusOf(i),
      b.lineOf(i),
    ]);
    expect(fields(a, i)).toEqual(fields(b, i));
  }
}

describe('the build record', () => {
  test.each([3, 4, 5])(
    'round-trips every item exactly, read in random pieces (seed %i)',
    (seed) => {
      const b = randomBuild(seed, 60);
      b.keywords[0]!.keyword = 'a\u0000b'; // a cell the baseline cannot join
      b.keywords[1]!.status = 'Paused';
      const tables = tablesOf(b);
      const text = [...buildRecordChunks(INFO, tables)].join('');
      const rand = seeded(seed);
      const reader = new BuildRecordReader();
      for (let at = 0; at < text.length;) {
        const n = 1 + Math.floor(rand() * 200);
        reader.push(text.slice(at, at + n));
        at += n;
      }
      const baseline = reader.end();
      const want = items(tables);
      expect(baseline.size).toBe(want.length);
      want.forEach((item, i) => {
        const got = baseline.item(i);
        expect(got.kind).toBe(item.kind);
        expect(got.identity).toEqual(item.identity);
        expect(got.status).toBe(item.status);
        expect(got.line).toBe(item.line);
        expect(got.fields).toEqual(item.fields);
        expect(got.hashes).toEqual(item.fields.map((f, k) => hashField(f, item.values[k]!)));
      });
      expect(baseline.header).toMatchObject({
        ...INFO,
        format: 'adloom-build',
        version: BUILD_RECORD_VERSION,
      });
      expect(baseline.header.counts.keyword).toBe(b.keywords.length);
    },
  );

  test('cells with commas, quotes, line breaks, backslashes and a negative line change round-trip', () => {
    const b = randomBuild(11, 20);
    b.keywords[0]!.keyword = 'two\nlines \\ and\r\\n';
    b.keywords[1]!.keyword = "'quoted', with, commas\\";
    b.keywords[2]!.line = 1; // an earlier line than the keyword before it
    // A place cell with them: the keyword's campaign and ad group.
    b.keywords[3]!.campaign = "Shoes, 'Boots'\\";
    b.keywords[3]!.adGroup = 'Group,\none';
    const tables = tablesOf(b);
    const text = [...buildRecordChunks(INFO, tables)].join('');
    const baseline = readBuildRecord([text]);
    const lean = new BuildRecordReader({ identities: 'on-demand' });
    lean.push(text);
    const leanBaseline = lean.end();
    const want = items(tables);
    const h1 = { lo: 0, hi: 0 };
    const h2 = { lo: 0, hi: 0 };
    want.forEach((item, i) => {
      expect(baseline.item(i).identity).toEqual(item.identity);
      expect(baseline.item(i).line).toBe(item.line);
      expect(leanBaseline.identityHashOf(i, h1)).toEqual(
        hashIdentity(item.kind, item.identity, h2),
      );
    });
    const all = Int32Array.from(want.keys());
    const loaded = readRecordIdentities(all, (push) => push(text));
    want.forEach((item, i) => expect(loaded.get(i)).toEqual(item.identity));
  });

  test("a text repeated down its column is written once, a row's own text in place; hashes are six characters", () => {
    const b = randomBuild(12, 200, false);
    for (const ad of b.ads) ad.headlines[1] = 'Free Delivery on Orders';
    b.ads[0]!.headlines[0] = 'Only in the first ad';
    const text = [...buildRecordChunks(INFO, tablesOf(b))].join('');
    expect(b.ads.length).toBeGreaterThan(100);
    // In place in the first ad, then once as a text every later ad names.
    expect(text.split('Free Delivery on Orders')).toHaveLength(3);
    expect(text).toContain("'Free Delivery on Orders,");
    expect(text).toContain('\nSFree Delivery on Orders\n');
    expect(text.split('Only in the first ad')).toHaveLength(2);
    expect(text).not.toContain('SOnly in the first ad');
    // The last ad's line: contents as a field index and a fixed-width hash.
    const lines = text.split('\n');
    const adLine = [...lines].reverse().find((l) => /^[0-9a-z-]/.test(l) && l.includes('*'))!;
    expect(adLine).toMatch(
      /^-?[0-9a-z]+,\d?,([0-9a-z]+[A-Za-z0-9_-]{6};?)+(,(\*[0-9a-z]+|[0-9a-z]*|'[^,]*))+$/,
    );
  });

  test('a record cut short, damaged, newer or of another format is refused with a clear error', () => {
    const text = [...buildRecordChunks(INFO, tablesOf(randomBuild(6, 10)))].join('');
    expect(() => readBuildRecord([text.slice(0, text.indexOf('\nE{'))])).toThrow(/incomplete/);
    // An item line lost: the end line's count says so.
    const lines = text.split('\n');
    const itemAt = lines.findIndex((l) => /^[0-9a-z]/.test(l));
    const lost = [...lines.slice(0, itemAt), ...lines.slice(itemAt + 1)].join('\n');
    expect(() => readBuildRecord([lost])).toThrow(/items read where the record says .*damaged/);
    // A text line lost: the items after it name a text never written.
    const textAt = lines.findIndex((l) => l.startsWith('S'));
    const noText = [...lines.slice(0, textAt), ...lines.slice(textAt + 1)].join('\n');
    expect(() => readBuildRecord([noText])).toThrow(/line \d+: .*damaged/);
    expect(() => readBuildRecord(['{"format":"other","version":2}\nE{"items":0}\n'])).toThrow(
      /not an Adloom build record/,
    );
    expect(() => readBuildRecord(['not json at all\n'])).toThrow(/not an Adloom build record/);
    expect(() =>
      readBuildRecord(['{"format":"adloom-build","version":4}\nE{"items":0}\n']),
    ).toThrow(/version 4 was written by a newer Adloom/);
  });

  test('a version 2 record (every text an S line) is still read, whole and on demand', () => {
    const v2 = [
      '{"format":"adloom-build","version":2,"created":"2026-12-01T09:00:00.000Z","client":"Acme","feed":"Shoes","templates":["Shoes"],"label":"adloom"}',
      'Kkeyword',
      'SShoes - Nike',
      'SNike Air',
      'P0,1',
      'Snike air',
      'SBroad',
      'Ffinalurl',
      '2,1,0AAAAAB,2,3',
      'SExact',
      '1,,0AAAAAC,2,4',
      'E{"items":2,"counts":{"keyword":2}}',
      '',
    ].join('\n');
    const baseline = readBuildRecord([v2]);
    expect(baseline.header).toMatchObject({ version: 2, counts: { keyword: 2 } });
    expect(baseline.item(0)).toMatchObject({
      kind: 'keyword',
      identity: ['Shoes - Nike', 'Nike Air', 'nike air', 'Broad'],
      status: 'Paused',
      line: 2,
      fields: ['finalurl'],
      hashes: [1],
    });
    expect(baseline.item(1)).toMatchObject({
      identity: ['Shoes - Nike', 'Nike Air', 'nike air', 'Exact'],
      line: 3,
    });
    const reader = new BuildRecordReader({ identities: 'on-demand' });
    reader.push(v2);
    const lean = reader.end();
    const h1 = { lo: 0, hi: 0 };
    const h2 = { lo: 0, hi: 0 };
    for (let i = 0; i < 2; i++)
      expect(lean.identityHashOf(i, h1)).toEqual(baseline.identityHashOf(i, h2));
    expect(readRecordIdentities(Int32Array.of(1), (push) => push(v2)).get(1)).toEqual(
      baseline.identityOf(1),
    );
  });

  test('a version 1 record (one JSON entry per line) is still read', () => {
    const v1 = [
      '{"format":"adloom-build","version":1,"created":"2026-12-01T09:00:00.000Z","client":"Acme","feed":"Shoes","templates":["Shoes"],"label":"adloom","items":[',
      '{"kind":"keyword"}',
      ',{"place":["Shoes - Nike","Nike Air"]}',
      ',{"field":"finalurl"}',
      ',[2,1,[0,-1534],"nike air","Broad"]',
      ',[1,0,0,"nike air","Exact"]',
      '],"counts":{"keyword":2}}',
      '',
    ].join('\n');
    const baseline = readBuildRecord([v1]);
    expect(baseline.header).toMatchObject({
      version: 1,
      created: INFO.created,
      counts: { keyword: 2 },
    });
    expect(baseline.item(0)).toMatchObject({
      kind: 'keyword',
      identity: ['Shoes - Nike', 'Nike Air', 'nike air', 'Broad'],
      status: 'Paused',
      line: 2,
      fields: ['finalurl'],
      hashes: [-1534],
    });
    expect(baseline.item(1)).toMatchObject({
      identity: ['Shoes - Nike', 'Nike Air', 'nike air', 'Exact'],
      line: 3,
    });
  });

  test('a part written by another writer (another thread) reads as the same items', () => {
    const b = randomBuild(14, 40);
    const tables = tablesOf(b);
    const all = items(tables);
    const whole = new BuildRecordWriter(INFO);
    const main = new BuildRecordWriter(INFO);
    const part = BuildRecordWriter.part();
    const text: string[] = [];
    all.forEach((item, i) => {
      whole.addBuildItem(item);
      // The ads go to the part, the rest to the record's own writer.
      (item.kind === 'responsive-search-ad' ? part : main).addBuildItem(item);
      if (i === 5) text.push(...main.take());
    });
    text.push(...main.part(), ...part.take(), ...part.endPart(), ...main.part(part.partCounts()));
    text.push(...main.end());
    const read = readBuildRecord(text);
    const one = readBuildRecord([...whole.take(), ...whole.end()]);
    const listed = (r: typeof read): string[] =>
      Array.from({ length: r.size }, (_, i) => JSON.stringify(r.item(i))).sort();
    expect(read.size).toBe(all.length);
    expect(listed(read)).toEqual(listed(one));
    expect(read.header.counts).toEqual(one.header.counts);
    expect(read.header.counts['responsive-search-ad']).toBe(b.ads.length);
  });

  test.each([21, 22])(
    'read on demand (no text kept), every item has the same hash, place, status and contents (seed %i)',
    (seed) => {
      const b = randomBuild(seed, 60);
      b.keywords[0]!.keyword = 'a\u0000b';
      b.keywords[1]!.keyword = 'two\nlines \\ and\r\\n';
      b.keywords[2]!.status = 'Paused';
      const tables = tablesOf(b);
      // A record with a part of its own (another thread's ads), read in random pieces.
      const main = new BuildRecordWriter(INFO);
      const part = BuildRecordWriter.part();
      for (const item of items(tables))
        (item.kind === 'responsive-search-ad' ? part : main).addBuildItem(item);
      const text = [
        ...main.part(),
        ...part.take(),
        ...part.endPart(),
        ...main.part(part.partCounts()),
        ...main.end(),
      ].join('');
      const rand = seeded(seed);
      const reader = new BuildRecordReader({ identities: 'on-demand' });
      for (let at = 0; at < text.length;) {
        const n = 1 + Math.floor(rand() * 200);
        reader.push(text.slice(at, at + n));
        at += n;
      }
      const lean = reader.end();
      const kept = readBuildRecord([text]);
      expect(lean.identitiesOnDemand).toBe(true);
      expect(lean.size).toBe(kept.size);
      expectSameItems(lean, kept);
      for (let i = 0; i < kept.size; i++)
        expect(lean.find(kept.kindOf(i), kept.identityOf(i))).toBe(i);
      expect(() => lean.identityOf(0)).toThrow(/not loaded/);
      // The identities read again are the kept ones.
      const wanted = Int32Array.from({ length: kept.size }, (_, i) => i).filter((i) => i % 3 === 1);
      const loaded = readRecordIdentities(wanted, (push) => {
        for (let at = 0; at < text.length; at += 97) push(text.slice(at, at + 97));
      });
      expect(loaded.size).toBe(wanted.length);
      for (const i of wanted) expect(loaded.get(i)).toEqual(kept.identityOf(i));
    },
  );

  test.each([0, 1, 'exact', 'ten times'] as const)(
    'a baseline read with %s items expected is the baseline read without',
    (expected) => {
      const tables = tablesOf(randomBuild(15, 60));
      const text = [...buildRecordChunks(INFO, tables)].join('');
      const read = (expectedItems: number): ReturnType<BuildRecordReader['end']> => {
        const reader = new BuildRecordReader({ identities: 'on-demand', expectedItems });
        reader.push(text);
        return reader.end();
      };
      const plain = read(0);
      const n =
        expected === 'exact' ? plain.size : expected === 'ten times' ? 10 * plain.size : expected;
      const sized = read(n);
      expectSameItems(sized, plain);
      const h = { lo: 0, hi: 0 };
      for (let i = 0; i < plain.size; i++)
        expect(sized.findHash(plain.identityHashOf(i, h))).toBe(i);
    },
  );

  test('findNext finds what findHash finds, asked in order or not, the first of a repeated identity', () => {
    const builder = new BaselineBuilder('record');
    const keyword = (text: string, line: number) =>
      builder.add({
        kind: 'keyword',
        identity: ['C', 'G', text, 'Broad'],
        status: 'Enabled',
        line,
        fieldIndices: [],
        hashes: [],
        owned: true,
        droppable: true,
      });
    // 0 a, 1 b, 2 a again (a duplicate: only the first counts), 3 c
    for (const [i, text] of ['a', 'b', 'a', 'c'].entries()) keyword(text, i + 1);
    const baseline = builder.finish();
    const h = (text: string) =>
      hashIdentity('keyword', ['C', 'G', text, 'Broad'], { lo: 0, hi: 0 });
    // After b, the next item is a's duplicate: the first a is the answer, not the item after b.
    expect(['a', 'b', 'a', 'c', 'b', 'x', 'a'].map((t) => baseline.findNext(h(t)))).toEqual([
      0, 1, 0, 3, 1, -1, 0,
    ]);
    expect(['a', 'b', 'c', 'x'].map((t) => baseline.findHash(h(t)))).toEqual([0, 1, 3, -1]);
  });

  test('a host learns the counts from the last chunk', () => {
    const b = randomBuild(13, 30);
    const chunks = [...buildRecordChunks(INFO, tablesOf(b))];
    expect(recordCountsOfLastChunk(chunks.at(-1)!)).toEqual(record(tablesOf(b)).header.counts);
    expect(recordCountsOfLastChunk(chunks.at(-1)!).keyword).toBe(b.keywords.length);
  });
});

describe('the change plan', () => {
  test.each([7, 8, 9, 10])('a build against its own record plans nothing (seed %i)', (seed) => {
    const tables = tablesOf(randomBuild(seed, 80));
    const plan = planChanges(record(tables), tables);
    expect(plan.totals).toMatchObject({ add: 0, update: 0, pause: 0, enable: 0, remove: 0 });
    expect(plan.totals.unchanged).toBe(items(tables).length);
    expect([...planLines(plan, tables)]).toEqual([]);
    expect(changesTables(plan, tables)).toEqual([]);
  });

  test.each([11, 12, 13])(
    'a random change of the feed gives exactly its change lines (seed %i)',
    (seed) => {
      const before = randomBuild(seed, 60, false);
      const baseline = record(tablesOf(before));
      const after = copyBuild(before);
      const rand = seeded(seed * 31);
      const pick = <T>(xs: T[]): number => Math.floor(rand() * xs.length);
      const want: string[] = [];
      // A keyword no longer made.
      const [gone] = after.keywords.splice(pick(after.keywords), 1);
      want.push(
        `pause | keyword | ${gone!.campaign} | ${gone!.adGroup} | ${kw(gone!)} | no longer in the feed | 0`,
      );
      // A new keyword.
      const model = after.keywords[0]!;
      after.keywords.push({
        ...model,
        keyword: 'brand new keyword',
        matchType: 'Exact',
        line: 999,
      });
      want.push(
        `add | keyword | ${model.campaign} | ${model.adGroup} | [brand new keyword] | new in the feed | 999`,
      );
      // An out-of-stock row's keyword.
      const paused = after.keywords[1]!;
      paused.status = 'Paused';
      want.push(
        `pause | keyword | ${paused.campaign} | ${paused.adGroup} | ${kw(paused)} | feed row paused or out of stock | ${paused.line}`,
      );
      // A changed final URL.
      const moved = after.ads[pick(after.ads)]!;
      moved.finalUrl = 'https://example.com/moved';
      want.push(
        `update | responsive-search-ad | ${moved.campaign} | ${moved.adGroup} | ${moved.headlines[0]} | final URL changed | ${moved.line}`,
      );
      // An edited headline: a new ad, the old one paused.
      const edited = after.ads.find((a) => a !== moved)!;
      const oldFirst = edited.headlines[0]!;
      edited.headlines = [...edited.headlines];
      edited.headlines[2] = 'Edited headline';
      want.push(
        `add | responsive-search-ad | ${edited.campaign} | ${edited.adGroup} | ${oldFirst} | headline 3 changed: a new ad (the old ad is paused, with its history) | ${edited.line}`,
        `pause | responsive-search-ad | ${edited.campaign} | ${edited.adGroup} | ${oldFirst} | no longer in the feed: replaced by the edited ad | 0`,
      );
      // A changed budget.
      const budget = after.campaigns[0]!;
      budget.budget = 99;
      want.push(
        `update | campaign | ${budget.campaign} |  | ${budget.campaign} | budget changed | ${budget.line}`,
      );
      const tables = tablesOf(after);
      const plan = planChanges(baseline, tables);
      expect([...planLines(plan, tables)].map(key).sort()).toEqual(want.sort());
      expect(plan.counts.keyword).toMatchObject({ add: 1, pause: 2, update: 0 });
      expect(plan.counts['responsive-search-ad']).toMatchObject({ add: 1, update: 1, pause: 1 });
      expect(plan.counts.campaign.update).toBe(1);
    },
  );

  test('changes-only tables hold exactly the changed rows with their statuses, under the full names', () => {
    const before = randomBuild(14, 30, false);
    const after = copyBuild(before);
    const [gone] = after.keywords.splice(0, 1);
    after.keywords[0]!.status = 'Paused';
    after.ads[0]!.finalUrl = 'https://example.com/new';
    const tables = tablesOf(after);
    const plan = planChanges(record(tablesOf(before)), tables);
    const changes = changesTables(plan, tables);
    expect(changes.map((t) => t.kind)).toEqual(['keywords', 'responsive-search-ads']);
    const kws = changes[0]!.read();
    expect(kws.headers).toEqual(['Campaign', 'Ad Group', 'Keyword', 'Criterion Type', 'Status']);
    expect([...kws.rows]).toEqual([
      [
        after.keywords[0]!.campaign,
        after.keywords[0]!.adGroup,
        after.keywords[0]!.keyword,
        after.keywords[0]!.matchType,
        'Paused',
      ],
      [gone!.campaign, gone!.adGroup, gone!.keyword, gone!.matchType, 'Paused'],
    ]);
    expect(Array.from(changes[0]!.lines!())).toEqual([after.keywords[0]!.line, 0]);
    const ads = changes[1]!.read();
    const rows = [...ads.rows];
    expect(rows).toHaveLength(1);
    expect(rows[0]![ads.headers.indexOf('Final URL')]).toBe('https://example.com/new');
    expect(rows[0]![ads.headers.indexOf('Status')]).toBe('Enabled');
    const names = (ts: ExportTable[]) =>
      GOOGLE_ADS_EDITOR.files(ts, { fileName: (s, e) => `${s}.${e}` }).map((f) => f.name);
    expect(names(changes)).toEqual(
      names(tables.filter((t) => t.kind === 'keywords' || t.kind === 'responsive-search-ads')),
    );
    const plan2 = formatCsvText(planTable(plan, tables)).split('\r\n')[0];
    expect(plan2).toBe('Action,Kind,Campaign,Ad Group,Item,Reason,Feed line');
  });

  test('the record after a plan plans nothing again; a dropped item that returns is resumed', () => {
    const before = randomBuild(15, 30, false);
    const after = copyBuild(before);
    const [gone] = after.keywords.splice(2, 1);
    const tables = tablesOf(after);
    const plan = planChanges(record(tablesOf(before)), tables);
    const next = readBuildRecord(planRecordChunks(INFO, plan, tables));
    const again = planChanges(next, tables);
    expect([...planLines(again, tables)]).toEqual([]);
    const back = copyBuild(after);
    back.keywords.push(gone!);
    const backTables = tablesOf(back);
    const resumed = [...planLines(planChanges(next, backTables), backTables)];
    expect(resumed.map(key)).toEqual([
      `enable | keyword | ${gone!.campaign} | ${gone!.adGroup} | ${kw(gone!)} | back in the feed | ${gone!.line}`,
    ]);
  });

  test.each(['pause', 'remove', 'keep'] as const)(
    'against a record read on demand, the plan writes what it writes against the kept texts (%s)',
    (dropped) => {
      const before = randomBuild(17, 60, false);
      const after = copyBuild(before);
      after.keywords.splice(3, 2);
      after.ads[2]!.finalUrl = 'https://example.com/moved';
      const edited = after.ads[1]!;
      edited.headlines = [...edited.headlines];
      edited.headlines[1] = 'Edited headline';
      after.ads.splice(4, 1);
      const text = [...buildRecordChunks(INFO, tablesOf(before))].join('');
      const tables = tablesOf(after);
      const keptPlan = planChanges(readBuildRecord([text]), tables, { dropped });
      const reader = new BuildRecordReader({ identities: 'on-demand' });
      reader.push(text);
      const leanPlan = planChanges(reader.end(), tables, { dropped });
      const wanted = baselineItemsToLoad(leanPlan);
      expect(wanted.length).toBe(4); // two keywords, the edited ad's old text, the ad dropped
      leanPlan.baseline.loadIdentities(readRecordIdentities(wanted, (push) => push(text)));
      expect(leanPlan.totals).toEqual(keptPlan.totals);
      // The new build's items taken from its own record instead of its tables: the same plan.
      const nextText = [...buildRecordChunks(INFO, tables)];
      const again = new BuildRecordReader({ identities: 'on-demand' });
      again.push(text);
      const fromRecord = planChanges(again.end(), tables, { dropped }, (push) =>
        nextText.forEach(push),
      );
      fromRecord.baseline.loadIdentities(
        readRecordIdentities(baselineItemsToLoad(fromRecord), (push) => push(text)),
      );
      expect(fromRecord.totals).toEqual(keptPlan.totals);
      expect([...fromRecord.actions]).toEqual([...keptPlan.actions]);
      expect([...fromRecord.reasons]).toEqual([...keptPlan.reasons]);
      // With the new build's counts known (exact, or wrong either way): the same plan.
      const counts = recordCountsOfLastChunk(nextText.at(-1)!);
      const fewer = { ...counts, keyword: (counts.keyword ?? 0) - 1 };
      const more = { ...counts, 'ad-group': (counts['ad-group'] ?? 0) + 3 };
      for (const nextCounts of [counts, fewer, more, {}]) {
        const sized = new BuildRecordReader({ identities: 'on-demand' });
        sized.push(text);
        const p = planChanges(sized.end(), tables, { dropped, nextCounts }, (push) =>
          nextText.forEach(push),
        );
        expect(p.totals).toEqual(keptPlan.totals);
        expect([...p.actions]).toEqual([...keptPlan.actions]);
        expect([...p.reasons]).toEqual([...keptPlan.reasons]);
      }
      expect([...planLines(fromRecord, tables)]).toEqual([...planLines(keptPlan, tables)]);
      expect([...planLines(leanPlan, tables)]).toEqual([...planLines(keptPlan, tables)]);
      const rows = (p: typeof keptPlan): string[][] =>
        changesTables(p, tables).flatMap((t) => [...t.read().rows].map((r) => [...r]));
      expect(rows(leanPlan)).toEqual(rows(keptPlan));
      // Tables that pass over unchanged rows (the command's files) give the same lines and rows.
      let asked = 0;
      const skipping = tables.map((t) => ({
        ...t,
        readSome: (wanted: (row: number) => boolean) => {
          const { headers, rows } = t.read();
          const some: Array<readonly [number, readonly string[]]> = [];
          [...rows].forEach((row, r) => {
            if (wanted(r)) some.push([r, row]);
          });
          asked++;
          return { headers, rows: some };
        },
      }));
      expect([...planLines(keptPlan, skipping)]).toEqual([...planLines(keptPlan, tables)]);
      const skipRows = (p: typeof keptPlan): string[][] =>
        changesTables(p, skipping).flatMap((t) => [...t.read().rows].map((r) => [...r]));
      expect(skipRows(keptPlan)).toEqual(rows(keptPlan));
      expect(asked).toBeGreaterThan(1);
      expect([...planRecordChunks(INFO, leanPlan, tables)].join('')).toBe(
        [...planRecordChunks(INFO, keptPlan, tables)].join(''),
      );
      expect(keptPlan.totals.add + keptPlan.totals.pause + keptPlan.totals.remove).toBeGreaterThan(
        0,
      );
    },
  );

  test('dropped items follow the policy: remove, or keep', () => {
    const before = randomBuild(16, 20, false);
    const after = copyBuild(before);
    after.keywords.splice(0, 1);
    const tables = tablesOf(after);
    const baseline = record(tablesOf(before));
    const removed = planChanges(baseline, tables, { dropped: 'remove' });
    expect([...planLines(removed, tables)].map((l) => l.action)).toEqual(['remove']);
    expect([...changesTables(removed, tables)[0]!.read().rows][0]).toContain('Removed');
    const kept = planChanges(baseline, tables, { dropped: 'keep' });
    expect([...planLines(kept, tables)]).toEqual([]);
    expect(kept.counts.keyword.unchanged).toBe(before.keywords.length);
  });

  test('against no baseline every item is new', () => {
    const b = randomBuild(17, 20, false);
    b.keywords[0]!.status = 'Paused';
    const tables = tablesOf(b);
    const plan = planChanges(emptyBaseline(), tables);
    expect(plan.totals.add).toBe(items(tables).length);
    const lines = [...planLines(plan, tables)];
    expect(lines[0]!.reason).toBe('new in the feed; its feed row is paused or out of stock');
    expect([...changesTables(plan, tables)[0]!.read().rows][0]).toContain('Paused');
    expect([...planCollisions(plan, tables)]).toEqual([]);
  });
});

function kw(k: TestBuild['keywords'][number]): string {
  return k.matchType === 'Exact'
    ? `[${k.keyword}]`
    : k.matchType === 'Phrase'
      ? `"${k.keyword}"`
      : k.keyword;
}
