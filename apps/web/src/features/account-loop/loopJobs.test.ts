import { afterEach, describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { forEachCsvRecord, type Table } from '@adloom/engine';
import { packTable, readPackedCell, type PackedTable } from '../generation/packTable.ts';
import { testJobContext } from '../generation/testing/jobContext.ts';
import type { ExportTableRef } from '../exports/exportables.ts';
import { holdTable } from '../exports/heldTables.ts';
import {
  forgetLoopState,
  gzipRecord,
  loopChangesJob,
  loopChangesRecordJob,
  loopPlanJob,
  loopPlanLinesJob,
  loopRecordJob,
  readRecordBlob,
  type LoopBaselineInput,
  type LoopPlanOutput,
} from './loopJobs.ts';

const ctx = testJobContext([]);
const INFO = {
  created: '2026-12-01T09:00:00.000Z',
  client: 'Acme',
  feed: 'brands',
  templates: ['Shoes'],
};

/** One feed row's campaign, ad group and keyword, with its final URL. */
interface Row {
  line: number;
  brand: string;
  url: string;
  status?: 'Paused';
}

/** A packed table with the feed line of each row, as the generation jobs give them. */
function packed(table: Table, lines: number[]): PackedTable {
  return { ...packTable(table), lines: Uint32Array.from(lines) } as PackedTable;
}

/** The kept tables of a build of `rows`: a campaign, an ad group and a keyword per row. */
function tablesOf(rows: readonly Row[]): ExportTableRef[] {
  const campaigns = packed(
    {
      headers: ['Campaign', 'Campaign Type', 'Budget', 'Campaign Status'],
      rows: [['Shoes', 'Search', '10', 'Enabled']],
    },
    [rows[0]?.line ?? 0],
  );
  const adGroups = packed(
    {
      headers: ['Campaign', 'Ad Group', 'Ad Group Status'],
      rows: rows.map((r) => ['Shoes', r.brand, r.status ?? 'Enabled']),
    },
    rows.map((r) => r.line),
  );
  const keywords = packed(
    {
      headers: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type', 'Final URL', 'Status'],
      rows: rows.map((r) => ['Shoes', r.brand, r.brand, 'Exact', r.url, r.status ?? 'Enabled']),
    },
    rows.map((r) => r.line),
  );
  return [
    { kind: 'keywords', source: { packed: keywords } },
    { kind: 'campaigns', source: { packed: campaigns } },
    { kind: 'ad-groups', source: { packed: adGroups } },
  ];
}

const ROWS: Row[] = [
  { line: 1, brand: 'nike', url: 'https://shop.example/nike' },
  { line: 2, brand: 'puma', url: 'https://shop.example/puma' },
  { line: 3, brand: 'asics', url: 'https://shop.example/asics' },
];

/** A CSV file's records (a byte order mark skipped). */
function parseCsvText(text: string): string[][] {
  const out: string[][] = [];
  forEachCsvRecord(text, (cells) => {
    out.push([...cells]);
  });
  return out;
}

function rowsOf(table: PackedTable): string[][] {
  const out: string[][] = [];
  for (let r = 0; r < table.rowCount; r++)
    out.push(table.headers.map((_, c) => readPackedCell(table, r, c)));
  return out;
}

function recordBaseline(record: Blob, key = 'b1'): LoopBaselineInput {
  return { kind: 'record', key, record };
}

async function plan(
  tables: ExportTableRef[],
  baseline: LoopBaselineInput,
  dropped = 'pause' as const,
) {
  return loopPlanJob({ tables, baseline, dropped, label: 'adloom' }, ctx);
}

function changed(p: LoopPlanOutput): number {
  const t = p.totals;
  return t.add + t.update + t.pause + t.enable + t.remove;
}

/**
 * The test tables with the keywords held as the ads are (made anew on every read, their feed
 * lines too), and how many times each was made: [tables, lines].
 */
function heldKeywordTables(): { tables: ExportTableRef[]; counts: () => [number, number] } {
  let reads = 0;
  let lineReads = 0;
  const keywords = {
    headers: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type', 'Final URL', 'Status'],
    rows: ROWS.map((r) => ['Shoes', r.brand, r.brand, 'Exact', r.url, 'Enabled']),
  };
  const id = holdTable(
    'test:keywords',
    () => {
      reads++;
      return keywords;
    },
    () => {
      lineReads++;
      return ROWS.map((r) => r.line);
    },
  );
  const tables = tablesOf(ROWS).map((t) =>
    t.kind === 'keywords'
      ? { ...t, source: { held: { slot: 'test:keywords', id, missing: 'gone' } } }
      : t,
  );
  return { tables, counts: () => [reads, lineReads] };
}

afterEach(() => forgetLoopState());

describe('the build record of a download', () => {
  it('is gzip of every item with its feed line, and counts the items per kind', async () => {
    const { record, counts } = await loopRecordJob(
      { tables: tablesOf(ROWS), info: { ...INFO, label: 'adloom' } },
      ctx,
    );
    const bytes = new Uint8Array(await record.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(record.type).toBe('application/gzip');
    expect(counts).toEqual({ campaign: 1, 'ad-group': 3, keyword: 3 });
    const baseline = await readRecordBlob(record);
    expect(baseline.size).toBe(7);
    expect(baseline.header.feed).toBe('brands');
    const lines = Array.from({ length: baseline.size }, (_, i) => baseline.lineOf(i)).sort();
    expect(lines).toEqual([1, 1, 1, 2, 2, 3, 3]);
  });

  it('gzips a record given in many chunks as the same text', async () => {
    const { record } = gzipRecord(['{"a":', '1', '}\n']);
    const text = await new Response(
      record.stream().pipeThrough(new DecompressionStream('gzip')),
    ).text();
    expect(text).toBe('{"a":1}\n');
  });
});

describe('the change plan', () => {
  it('is a first export against no record: every item new, named by its feed line', async () => {
    const p = await plan(tablesOf(ROWS), { kind: 'none' });
    expect(p.compared).toEqual({ source: 'none' });
    expect(p.totals.add).toBe(7);
    const keywordLines = rowsOf(p.lines).filter((r) => r[1] === 'Keyword');
    expect(keywordLines.map((r) => [r[0], r[4], r[6]])).toEqual([
      ['add', '[nike]', '1'],
      ['add', '[puma]', '2'],
      ['add', '[asics]', '3'],
    ]);
  });

  it("plans against the record it just made from that record's own reading, once", async () => {
    const made = await loopRecordJob(
      { tables: tablesOf(ROWS), info: { ...INFO, label: 'adloom' } },
      ctx,
    );
    expect(made.madeId).toBeDefined();
    // Named by its madeId, the stored copy is not read back: a copy that cannot be read is never
    // opened (the worker's reading of the record as it was made is used).
    const unreadable = new Blob(['not a record'], { type: 'application/gzip' });
    const p = await plan(tablesOf(ROWS), {
      kind: 'record',
      key: 'b1',
      record: unreadable,
      madeId: made.madeId!,
    });
    expect(p.compared).toMatchObject({ source: 'record', created: INFO.created, items: 7 });
    expect(changed(p)).toBe(0);
    // Used once: another build's baseline (another key) reads its Blob.
    await expect(
      plan(tablesOf(ROWS), { kind: 'record', key: 'b2', record: unreadable, madeId: made.madeId! }),
    ).rejects.toThrow("The last export's record could not be read");
  });

  it('lists exactly what changed since the last record, and filters by action and kind', async () => {
    const { record } = await loopRecordJob(
      { tables: tablesOf(ROWS), info: { ...INFO, label: 'adloom' } },
      ctx,
    );
    // asics gone, puma's URL changed, nike out of stock, reebok new.
    const next: Row[] = [
      { line: 1, brand: 'nike', url: 'https://shop.example/nike', status: 'Paused' },
      { line: 2, brand: 'puma', url: 'https://shop.example/puma-2' },
      { line: 3, brand: 'reebok', url: 'https://shop.example/reebok' },
    ];
    const p = await plan(tablesOf(next), recordBaseline(record));
    expect(p.compared).toMatchObject({ source: 'record', created: INFO.created, items: 7 });
    const keyword = p.counts.find((c) => c.kind === 'keyword')!.counts;
    expect(keyword).toMatchObject({ add: 1, update: 1, pause: 2, unchanged: 0 });
    const lines = rowsOf(p.lines).filter((r) => r[1] === 'Keyword');
    expect(lines.map((r) => [r[0], r[4], r[5], r[6]])).toEqual([
      ['pause', '[nike]', 'feed row paused or out of stock', '1'],
      ['update', '[puma]', 'final URL changed', '2'],
      ['add', '[reebok]', 'new in the feed', '3'],
      ['pause', '[asics]', 'no longer in the feed', ''],
    ]);
    const { lines: updates } = await loopPlanLinesJob(
      { planId: p.planId, filter: { action: 'update', kind: null } },
      ctx,
    );
    expect(rowsOf(updates).map((r) => r[4])).toEqual(['[puma]']);
    const { lines: groups } = await loopPlanLinesJob(
      { planId: p.planId, filter: { action: 'pause', kind: 'ad-group' } },
      ctx,
    );
    expect(rowsOf(groups).map((r) => r[3])).toEqual(['nike', 'asics']);
  });

  it('downloads only the changes with their statuses, and a plan right after has nothing to do', async () => {
    const { record } = await loopRecordJob(
      { tables: tablesOf(ROWS), info: { ...INFO, label: 'adloom' } },
      ctx,
    );
    const next: Row[] = [
      { line: 1, brand: 'nike', url: 'https://shop.example/nike' },
      { line: 2, brand: 'puma', url: 'https://shop.example/puma-2' },
    ];
    const tables = tablesOf(next);
    const p = await plan(tables, recordBaseline(record));
    const out = await loopChangesJob(
      { planId: p.planId, naming: { client: 'Acme', date: '20261202' } },
      ctx,
    );
    const zip = unzipSync(new Uint8Array(await out.blob.arrayBuffer()));
    expect(Object.keys(zip).sort()).toEqual([
      'Acme - ad groups - 20261202.csv',
      'Acme - keywords - 20261202.csv',
      'adloom-plan.csv',
    ]);
    const keywords = parseCsvText(
      strFromU8(zip['Acme - keywords - 20261202.csv']!).replace(/^\uFEFF/, ''),
    );
    const header = keywords[0]!;
    const at = (name: string) => header.indexOf(name);
    expect(
      keywords.slice(1).map((r) => [r[at('Keyword')], r[at('Status')], r[at('Final URL')]]),
    ).toEqual([
      ['puma', 'Enabled', 'https://shop.example/puma-2'],
      ['asics', 'Paused', ''],
    ]);
    expect(keywords[1]![at('Labels')]).toBe('adloom');
    const planCsv = parseCsvText(strFromU8(zip['adloom-plan.csv']!).replace(/^\uFEFF/, ''));
    expect(planCsv[0]).toEqual([
      'Action',
      'Kind',
      'Campaign',
      'Ad Group',
      'Item',
      'Reason',
      'Feed line',
    ]);
    expect(planCsv.length - 1).toBe(changed(p));

    const nextRecord = await loopChangesRecordJob({ planId: p.planId, info: INFO }, ctx);
    const after = await plan(tables, recordBaseline(nextRecord.record, 'b2'));
    expect(changed(after)).toBe(0);
    expect(after.lines.rowCount).toBe(0);
  });

  it('answers a plan asked for after another replaced it with a clear error', async () => {
    const first = await plan(tablesOf(ROWS), { kind: 'none' });
    await plan(tablesOf(ROWS), { kind: 'none' });
    await expect(
      Promise.resolve().then(() =>
        loopPlanLinesJob({ planId: first.planId, filter: { action: null, kind: null } }, ctx),
      ),
    ).rejects.toThrow(/out of date/);
  });

  it('makes a held table (the ads, generated anew on each read) once per plan and once per changes download', async () => {
    const { tables, counts } = heldKeywordTables();
    const p = await plan(tables, { kind: 'none' });
    expect(p.totals.add).toBe(7);
    expect(p.lines.rowCount).toBe(7);
    expect(counts()).toEqual([1, 1]);
    await loopChangesJob({ planId: p.planId, naming: { client: 'Acme', date: '20261202' } }, ctx);
    expect(counts()).toEqual([2, 2]);
    // The record after the changes reads what the changes' download read.
    await loopChangesRecordJob({ planId: p.planId, info: INFO }, ctx);
    expect(counts()).toEqual([2, 2]);
    // Asked again, it reads the tables itself.
    await loopChangesRecordJob({ planId: p.planId, info: INFO }, ctx);
    expect(counts()).toEqual([3, 3]);
  });

  it("hands the held tables Download everything's record made to the plan right after it, once", async () => {
    const { tables, counts } = heldKeywordTables();
    const reads = () => counts()[0];
    const made = await loopRecordJob({ tables, info: { ...INFO, label: 'adloom' } }, ctx);
    expect(reads()).toBe(1);
    const baseline = { ...recordBaseline(made.record), madeId: made.madeId! };
    const same = await plan(tables, baseline);
    expect(changed(same)).toBe(0);
    expect(same.counts.find((c) => c.kind === 'keyword')!.counts.unchanged).toBe(3);
    expect(reads()).toBe(1);
    // Only the plan right after: the next one (and the held plan's later jobs) make it again.
    await plan(tables, baseline);
    expect(reads()).toBe(2);
  });

  it('says a record it cannot read is unreadable', async () => {
    await expect(
      plan(tablesOf(ROWS), {
        kind: 'record',
        key: 'bad',
        record: new Blob([new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3])]),
      }),
    ).rejects.toThrow(/last export's record could not be read/);
  });
});

describe('against an Editor export of the account', () => {
  /** Editor's own CSV: UTF-16 LE with a BOM, tab-separated, CRLF. */
  function utf16(lines: string[][]): Blob {
    const text = `\uFEFF${lines.map((l) => l.join('\t')).join('\r\n')}\r\n`;
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      bytes[2 * i] = text.charCodeAt(i) & 0xff;
      bytes[2 * i + 1] = text.charCodeAt(i) >> 8;
    }
    return new Blob([bytes]);
  }

  it('never touches hand-made items and lists a collision with one', async () => {
    const header = [
      'Campaign',
      'Campaign Type',
      'Budget',
      'Campaign Status',
      'Ad Group',
      'Ad Group Status',
      'Keyword',
      'Criterion Type',
      'Final URL',
      'Labels',
      'Status',
    ];
    const blank = (cells: Partial<Record<string, string>>) => header.map((h) => cells[h] ?? '');
    const file = utf16([
      header,
      blank({
        Campaign: 'Shoes',
        'Campaign Type': 'Search',
        Budget: '10',
        'Campaign Status': 'Enabled',
        Labels: 'adloom',
      }),
      blank({
        Campaign: 'Shoes',
        'Ad Group': 'nike',
        'Ad Group Status': 'Enabled',
        Labels: 'adloom',
      }),
      blank({
        Campaign: 'Shoes',
        'Ad Group': 'nike',
        Keyword: 'nike',
        'Criterion Type': 'Exact',
        'Final URL': 'https://shop.example/nike',
        Labels: 'adloom',
        Status: 'Enabled',
      }),
      // Made by a person: an ad group of the name the feed now makes, and a keyword of their own.
      blank({ Campaign: 'Shoes', 'Ad Group': 'puma', 'Ad Group Status': 'Enabled' }),
      blank({
        Campaign: 'Shoes',
        'Ad Group': 'nike',
        Keyword: 'nike sale',
        'Criterion Type': 'Phrase',
        Status: 'Enabled',
      }),
    ]);
    const p = await plan(tablesOf(ROWS.slice(0, 2)), {
      kind: 'account',
      key: 'a1',
      files: [file],
      names: ['account.csv'],
    });
    expect(p.compared).toMatchObject({ source: 'account', names: ['account.csv'], unlabelled: 2 });
    const lines = rowsOf(p.lines);
    expect(lines.some((r) => r[4] === '"nike sale"' || r[3] === 'puma')).toBe(false);
    expect(p.totals.pause + p.totals.remove).toBe(0);
    const collisions = rowsOf(p.collisions);
    expect(collisions.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['Keyword', 'puma', '[puma]'],
      ['Ad group', 'puma', 'puma'],
    ]);
    expect(collisions[0]![4]).toMatch(/without the label "adloom"/);
  });
});

describe('a plan against a Microsoft Advertising bulk download (issue 40)', () => {
  /** A bulk download holding the build of ROWS, labelled, and a hand-made keyword. */
  function bulkDownload(): Blob {
    const header =
      'Type,Status,Id,Parent Id,Campaign,Ad Group,Name,Budget,Keyword,Match Type,Label';
    const lines = [
      header,
      'Format Version,,,,,,6.0,,,,',
      'Label,Active,7,,,,,,,,adloom',
      'Campaign,Active,11,149,Shoes,,,10,,,',
      'Campaign Label,Active,7,11,Shoes,,,,,,',
      ...ROWS.flatMap((r, i) => [
        `Ad Group,Active,${21 + i},11,Shoes,${r.brand},,,,,`,
        `Ad Group Label,Active,7,${21 + i},Shoes,${r.brand},,,,,`,
        `Keyword,Active,${31 + i},${21 + i},Shoes,${r.brand},,,${r.brand},Exact,`,
        `Keyword Label,Active,7,${31 + i},Shoes,${r.brand},,,,,`,
      ]),
      'Keyword,Active,99,21,Shoes,nike,,,by hand,Phrase,',
    ];
    return new Blob([`\uFEFF${lines.join('\r\n')}\r\n`]);
  }

  it('reads the download as the baseline and downloads the changes as Microsoft bulk records by Id', async () => {
    const account: LoopBaselineInput = {
      kind: 'account',
      key: 'ms',
      files: [bulkDownload()],
      names: ['Bulk_Download.csv'],
    };
    const same = await plan(tablesOf(ROWS), account);
    expect(same.compared).toMatchObject({ source: 'account', microsoft: true, unlabelled: 1 });
    expect(changed(same)).toBe(0);

    // asics leaves the feed: its ad group and keyword are paused by their Microsoft Ids.
    const p = await plan(tablesOf(ROWS.slice(0, 2)), account);
    expect(p.totals).toMatchObject({ pause: 2, add: 0, update: 0 });
    const out = await loopChangesJob(
      { planId: p.planId, naming: { client: 'Acme', date: '20261202' } },
      ctx,
    );
    expect(out.microsoft).toBe(true);
    const zip = unzipSync(new Uint8Array(await out.blob.arrayBuffer()));
    expect(Object.keys(zip).sort()).toEqual([
      'Acme - microsoft advertising changes - 20261202.csv',
      'Acme - microsoft advertising report - 20261202.csv',
      'adloom-plan.csv',
    ]);
    const bulk = parseCsvText(
      strFromU8(zip['Acme - microsoft advertising changes - 20261202.csv']!).replace(/^\uFEFF/, ''),
    );
    const at = (name: string) => bulk[0]!.indexOf(name);
    expect(
      bulk.slice(1).map((r) => [r[at('Type')], r[at('Status')], r[at('Id')], r[at('Parent Id')]]),
    ).toEqual([
      ['Format Version', '', '', ''],
      ['Ad Group', 'Paused', '23', '11'],
      ['Keyword', 'Paused', '33', '23'],
    ]);
  });

  it('leaves out an item Microsoft cannot take: nothing to change, the item in the report', async () => {
    const account: LoopBaselineInput = {
      kind: 'account',
      key: 'ms-long',
      files: [bulkDownload()],
      names: ['Bulk_Download.csv'],
    };
    // A second keyword in nike's ad group, longer than Microsoft's 100 characters.
    const tooLong = 'nike '.repeat(21).trim();
    const tables = tablesOf(ROWS).map((t) =>
      t.kind === 'keywords'
        ? {
            kind: t.kind,
            source: {
              packed: packed(
                {
                  headers: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type', 'Status'],
                  rows: [
                    ...ROWS.map((r) => ['Shoes', r.brand, r.brand, 'Exact', 'Enabled']),
                    ['Shoes', 'nike', tooLong, 'Exact', 'Enabled'],
                  ],
                },
                [1, 2, 3, 1],
              ),
            },
          }
        : t,
    );
    const p = await plan(tables, account);
    expect(changed(p)).toBe(0);
    expect(p.refused).toBe(1);
    const out = await loopChangesJob(
      { planId: p.planId, naming: { client: 'Acme', date: '20261202' } },
      ctx,
    );
    const zip = unzipSync(new Uint8Array(await out.blob.arrayBuffer()));
    const bulk = parseCsvText(
      strFromU8(zip['Acme - microsoft advertising changes - 20261202.csv']!).replace(/^\uFEFF/, ''),
    );
    expect(bulk.slice(1).map((r) => r[0])).toEqual(['Format Version']);
    const report = parseCsvText(
      strFromU8(zip['Acme - microsoft advertising report - 20261202.csv']!).replace(/^\uFEFF/, ''),
    );
    expect(report.slice(1)).toEqual([
      [
        'Keyword',
        'Shoes',
        'nike',
        tooLong,
        'Not written',
        "longer than Microsoft's 100 characters",
      ],
    ]);
  });
});
