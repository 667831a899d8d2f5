import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { formatCsvText, GOOGLE_ADS_EDITOR, type ExportFormat, type Table } from '@adloom/engine';
import { createStore } from '../../state/store.ts';
import { emptyPackedTable, packTable } from '../generation/packTable.ts';
import { testJobContext } from '../generation/testing/jobContext.ts';
import { exportFileNames } from './downloads.ts';
import { everythingExport } from './everything.ts';
import type { ExportableKind } from './exportables.ts';
import {
  exportFilesJob,
  exportFilesOf,
  makeExportFilesJob,
  type ExportFilesInput,
} from './exportJobs.ts';
import { MICROSOFT_FORMAT_ID } from './formats.ts';
import { holdTable } from './heldTables.ts';
import { OutputRegistry } from './outputRegistry.ts';

const TODAY = new Date(2026, 10, 23);
const SITELINKS: Table = {
  headers: ['Campaign', 'Link Text', 'Final URL'],
  rows: [
    ['Shoes', 'Nike, the brand', 'https://a.example'],
    ['Shoes', '-50% sale', 'https://b.example'],
  ],
};

/** A template kind no feature has: it keeps one sitelinks table in its own store. */
function fakeKind(table: Table | null): ExportableKind {
  const store = createStore(table ? packTable(table) : null);
  return {
    id: 'fake',
    store: () => store,
    tables() {
      const packed = store.get();
      return {
        tables: packed && packed.rowCount > 0 ? [{ kind: 'sitelinks', source: { packed } }] : [],
        report: packed
          ? [{ output: 'Fake', template: 'fake template', issues: emptyPackedTable(['Row']) }]
          : [],
      };
    },
  };
}

/** A second format: every table in one text file, a line per row with its kind. */
const LINES_FORMAT: ExportFormat = {
  id: 'lines',
  label: 'Lines',
  files(tables, context) {
    if (tables.length === 0) return [];
    return [
      {
        name: context.fileName('all tables', 'txt'),
        type: 'text/plain',
        bom: false,
        *chunks() {
          for (const table of tables)
            for (const row of table.read().rows) yield `${table.kind}: ${row.join(' | ')}\n`;
        },
      },
    ];
  },
};

const job = makeExportFilesJob([GOOGLE_ADS_EDITOR, LINES_FORMAT]);

async function bytesOf(input: ExportFilesInput): Promise<Uint8Array> {
  const { blob } = (await job(input, testJobContext([]))) as { blob: Blob };
  return new Uint8Array(await blob.arrayBuffer());
}

const text = (bytes: Uint8Array | undefined) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

describe('the export step', () => {
  it('zips a registered kind\'s table in "Download everything", as its Editor CSV', async () => {
    const input = everythingExport([fakeKind(SITELINKS)], new OutputRegistry(), 'Acme', TODAY);
    expect(exportFileNames(input)).toEqual([
      'Acme - sitelinks - 20261123.csv',
      'Acme - skipped and cleaned - 20261123.csv',
    ]);
    const entries = unzipSync(await bytesOf(input));
    expect(Object.keys(entries)).toEqual(exportFileNames(input));
    expect(text(entries['Acme - sitelinks - 20261123.csv'])).toBe(
      `\uFEFF${formatCsvText(SITELINKS)}`,
    );
    expect(text(entries['Acme - skipped and cleaned - 20261123.csv'])).toBe(
      '\uFEFFOutput,Template,Row\r\n',
    );
  });

  it('zips the same tables as a Microsoft Advertising bulk file with its reports', async () => {
    const sitelinks: Table = {
      headers: ['Campaign', 'Ad Group', 'Link Text', 'Final URL'],
      rows: [['Shoes', '', 'Nike', 'https://a.example']],
    };
    const input = everythingExport(
      [fakeKind(sitelinks)],
      new OutputRegistry(),
      'Acme',
      TODAY,
      'adloom',
      MICROSOFT_FORMAT_ID,
    );
    expect(input.clientLabel).toBeUndefined();
    expect(exportFileNames(input)).toEqual([
      'Acme - microsoft advertising - 20261123.csv',
      'Acme - microsoft advertising report - 20261123.csv',
      'Acme - skipped and cleaned - 20261123.csv',
    ]);
    // The app's own job, over the app's formats.
    const { blob } = (await exportFilesJob(input, testJobContext([]))) as { blob: Blob };
    const entries = unzipSync(new Uint8Array(await blob.arrayBuffer()));
    const bulk = text(entries['Acme - microsoft advertising - 20261123.csv']).split('\r\n');
    expect(bulk[0]!.startsWith('\uFEFFType,Status,Id,Parent Id,Campaign,Ad Group,')).toBe(true);
    expect(bulk[1]!.startsWith('Format Version,')).toBe(true);
    expect(bulk.slice(2, 4).map((l) => l.split(',').slice(0, 5))).toEqual([
      ['Sitelink Ad Extension', 'Active', '-1', '0', ''],
      ['Campaign Sitelink Ad Extension', 'Active', '-1', '', 'Shoes'],
    ]);
    expect(text(entries['Acme - microsoft advertising report - 20261123.csv'])).toBe(
      '\uFEFFType,Campaign,Ad Group,Item,Outcome,Reason\r\n',
    );

    // A download adds the client's label (downloadExport): the file carries it on what it adds.
    const keywords: Table = {
      headers: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type'],
      rows: [['Shoes', 'Nike', 'nike shoes', 'Exact']],
    };
    const labelled = (await exportFilesJob(
      {
        ...input,
        tables: [{ kind: 'keywords', source: { packed: packTable(keywords) } }],
        clientLabel: 'adloom',
      },
      testJobContext([]),
    )) as { blob: Blob };
    const files = unzipSync(new Uint8Array(await labelled.blob.arrayBuffer()));
    const lines = text(files['Acme - microsoft advertising - 20261123.csv']).split('\r\n');
    expect(lines[0]!.endsWith(',Label')).toBe(true);
    expect(lines.slice(2, 5).map((l) => l.split(',').slice(0, 6))).toEqual([
      ['Keyword', 'Active', '-2', '', 'Shoes', 'Nike'],
      ['Label', 'Active', '-1', '', '', ''],
      ['Keyword Label', '', '-1', '-2', '', ''],
    ]);
    expect(lines[3]!.endsWith(',adloom')).toBe(true);
  });

  it('has nothing to zip while a registered kind keeps no table with lines', () => {
    const registry = new OutputRegistry();
    expect(exportFileNames(everythingExport([fakeKind(null)], registry, 'Acme', TODAY))).toEqual(
      [],
    );
    const empty = { headers: SITELINKS.headers, rows: [] };
    expect(exportFileNames(everythingExport([fakeKind(empty)], registry, 'Acme', TODAY))).toEqual(
      [],
    );
  });

  it("makes a second format's files from the same tables, the held ones too", async () => {
    const kept = everythingExport([fakeKind(SITELINKS)], new OutputRegistry(), null, TODAY);
    const id = holdTable('test:callouts', () => ({
      headers: ['Callout text'],
      rows: [['Free delivery']],
    }));
    const input: ExportFilesInput = {
      format: 'lines',
      tables: [
        ...kept.tables,
        { kind: 'callouts', source: { held: { slot: 'test:callouts', id, missing: 'Gone' } } },
      ],
      naming: kept.naming,
      zip: false,
    };
    expect(text(await bytesOf(input))).toBe(
      'sitelinks: Shoes | Nike, the brand | https://a.example\n' +
        'sitelinks: Shoes | -50% sale | https://b.example\n' +
        'callouts: Free delivery\n',
    );
  });

  it("gives each table's feed lines as its job made them: packed, held, or none", () => {
    const id = holdTable(
      'test:lines',
      () => ({ headers: ['Callout text'], rows: [['Free delivery']] }),
      () => Uint32Array.of(7),
    );
    const seen: (number[] | undefined)[] = [];
    const format: ExportFormat = {
      id: 'seen',
      label: 'Seen',
      files(tables) {
        for (const table of tables) seen.push(table.lines && [...Array.from(table.lines())]);
        return [];
      },
    };
    exportFilesOf(
      format,
      {
        tables: [
          {
            kind: 'sitelinks',
            source: { packed: { ...packTable(SITELINKS), lines: Uint32Array.of(3, 9) } },
          },
          { kind: 'sitelinks', source: { packed: packTable(SITELINKS) } },
          { kind: 'callouts', source: { held: { slot: 'test:lines', id, missing: 'Gone' } } },
        ],
        naming: null,
      },
      () => SITELINKS,
    );
    expect(seen).toEqual([[3, 9], undefined, [7]]);
  });

  it("refuses a held table it no longer holds, with the holder's message", () => {
    const first = holdTable('test:slot', () => SITELINKS);
    holdTable('test:slot', () => SITELINKS);
    const input: ExportFilesInput = {
      format: 'google-ads-editor',
      tables: [
        {
          kind: 'sitelinks',
          source: { held: { slot: 'test:slot', id: first, missing: 'Make it again' } },
        },
      ],
      naming: null,
      zip: false,
    };
    expect(() => job(input, testJobContext([]))).toThrow('Make it again');
  });

  it('fails for a format it does not know, and for one file asked of many', () => {
    const tables = [{ kind: 'sitelinks' as const, source: { packed: packTable(SITELINKS) } }];
    expect(() =>
      job({ format: 'nope', tables, naming: null, zip: true }, testJobContext([])),
    ).toThrow('Unknown export format nope');
    expect(() =>
      job(
        { format: 'google-ads-editor', tables: [...tables, ...tables], naming: null, zip: false },
        testJobContext([]),
      ),
    ).toThrow('One file expected, the format made 2');
  });
});
