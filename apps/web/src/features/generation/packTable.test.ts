import { describe, expect, it } from 'vitest';
import { formatCsvText, keywordsTable, type KeywordLine } from '@adloom/engine';
import {
  DICTIONARY_MAX_ENTRIES,
  PIECE_CHARS,
  TablePacker,
  decodeRecord,
  encodeRecord,
  fieldColumn,
  longestPackedCell,
  packColumns,
  packIssues,
  packTable,
  readPackedCell,
  unpackTable,
} from './packTable.ts';

function lines(n: number): KeywordLine[] {
  return Array.from({ length: n }, (_, i) => ({
    campaign: `Campaign ${i % 3}`,
    adGroup: `Group ${i % 7}`,
    keyword: `keyword ${i}`,
    matchType: i % 2 ? 'Exact' : 'Broad',
  }));
}

describe('packTable', () => {
  it('keeps every cell, with repeating and distinct columns', () => {
    const source = lines(5000);
    const packed = packTable(keywordsTable(source));
    expect(packed.rowCount).toBe(5000);
    expect(packed.headers).toEqual(['Campaign', 'Ad Group', 'Keyword', 'Criterion Type']);
    // Repeating columns are dictionary coded, the keyword column is not.
    expect(packed.columns[0]?.codes).not.toBeNull();
    expect(packed.columns[2]?.codes).toBeNull();
    for (const i of [0, 1, 2047, 2048, 2049, 4999]) {
      const l = source[i]!;
      expect([0, 1, 2, 3].map((c) => readPackedCell(packed, i, c))).toEqual([
        l.campaign,
        l.adGroup,
        l.keyword,
        l.matchType,
      ]);
    }
  });

  it('unpacks to the same Editor CSV as the engine table', () => {
    const source = lines(3000);
    const packed = packTable(keywordsTable(source));
    expect(formatCsvText(unpackTable(packed))).toBe(formatCsvText(keywordsTable(source)));
  });

  it('with a bounded dictionary, texts repeated by neighbours and few values repeated far apart are each stored once', () => {
    const rows = 3 * (DICTIONARY_MAX_ENTRIES + 9000);
    const source = {
      headers: ['Ad text', 'Campaign'],
      rows: Array.from({ length: rows }, (_, i) => [
        // Each text three times in a row, as the ad groups of one feed row share their ad.
        `Text of row ${Math.floor(i / 3)}`,
        `Campaign ${i % 97}`,
      ]),
    };
    const packed = packTable(source);
    const [texts, campaigns] = packed.columns;
    // Every text stored once; the 97 campaigns once each although they repeat far apart.
    expect(texts!.offsets.length - 1).toBe(rows / 3);
    expect(campaigns!.offsets.length - 1).toBe(97);
    for (const i of [0, 1, 2, 3, 3 * DICTIONARY_MAX_ENTRIES + 1, rows - 1])
      expect([readPackedCell(packed, i, 0), readPackedCell(packed, i, 1)]).toEqual(source.rows[i]);
  });

  it('packs column by column to the same cells as row by row', () => {
    const source = lines(5000);
    const byRows = packTable(keywordsTable(source));
    const fields = ['campaign', 'adGroup', 'keyword', 'matchType'] as const;
    const byColumns = packColumns({
      headers: byRows.headers,
      rowCount: source.length,
      readers: fields.map((f) => (row: number) => source[row]![f]),
    });
    expect(formatCsvText(unpackTable(byColumns))).toBe(formatCsvText(unpackTable(byRows)));
    expect(byColumns.columns.map((c) => c.texts)).toEqual(byRows.columns.map((c) => c.texts));
  });

  it('keeps empty cells and empty tables', () => {
    const packed = packTable({
      headers: ['A', 'B'],
      rows: [
        ['', 'x'],
        ['y', ''],
      ],
    });
    expect(readPackedCell(packed, 0, 0)).toBe('');
    expect(readPackedCell(packed, 0, 1)).toBe('x');
    expect(readPackedCell(packed, 1, 0)).toBe('y');
    expect(packTable({ headers: ['A'], rows: [] }).rowCount).toBe(0);
  });

  it('lists issues with the feed row number', () => {
    const packed = packIssues(
      [
        {
          kind: 'skipped',
          output: 'keywords',
          rowId: 'r',
          rowNumber: 2,
          code: 'empty',
          message: 'Keyword is empty',
        },
      ],
      { rowPositions: Uint32Array.from([4, 9]) },
    );
    expect([0, 1, 2].map((c) => readPackedCell(packed, 0, c))).toEqual([
      '10',
      'Skipped',
      'Keyword is empty',
    ]);
  });

  it('keeps a column bigger than a piece in pieces that never split a value, and reads every cell', () => {
    const packer = new TablePacker(['Text']);
    const values: string[] = [];
    // Values of varying length (one longer than a piece) so piece ends fall anywhere.
    for (let i = 0, total = 0; total < PIECE_CHARS * 3; i += 1) {
      values.push(i === 5 ? 'x'.repeat(PIECE_CHARS + 7) : `value ${i} `.repeat(1 + (i % 13)));
      total += values[i]!.length;
    }
    for (const v of values) packer.addRow([v]);
    const column = packer.finish().columns[0]!;
    expect(column.texts.length).toBeGreaterThan(2);
    expect(column.texts.join('')).toBe(values.join(''));
    let start = 0;
    column.texts.forEach((t, p) => {
      expect(column.pieceStarts[p]).toBe(start);
      start += t.length;
      // Only a piece of one value may be longer than PIECE_CHARS.
      if (t.length > PIECE_CHARS) expect(values).toContain(t);
    });
    const table = { headers: ['Text'], rowCount: values.length, columns: [column] };
    values.forEach((v, r) => expect(readPackedCell(table, r, 0)).toBe(v));
  });

  it('reads record fields of any characters, through the sources of the rows', () => {
    const sourcesFields = [
      ['tab\there', '', 'NUL \u0000 inside', '\u{1F600} wide 東京'],
      ['x'.repeat(300), 'b', '', 'd'],
    ];
    for (const f of sourcesFields) expect(decodeRecord(encodeRecord(f))).toEqual(f);
    const records = new TablePacker(['Record']);
    for (const f of sourcesFields) records.addRow([encodeRecord(f)]);
    const names = new TablePacker(['Name']);
    for (const n of ['r0', 'r1', 'r2']) names.addRow([n]);
    const table = {
      headers: ['Name', 'Fourth', 'First'],
      rowCount: 3,
      columns: [names.finish().columns[0]!, fieldColumn(3, true), fieldColumn(0, true)],
      sources: Uint32Array.of(0, 0, 1),
      records: records.finish().columns[0]!,
    };
    const read = (r: number) => [0, 1, 2].map((c) => readPackedCell(table, r, c));
    expect([read(0), read(1), read(2)]).toEqual([
      ['r0', '\u{1F600} wide 東京', 'tab\there'],
      ['r1', '\u{1F600} wide 東京', 'tab\there'],
      ['r2', 'd', 'x'.repeat(300)],
    ]);
    expect(longestPackedCell(table, 2)).toBe('x'.repeat(300));
    expect(longestPackedCell(table, 1)).toBe('\u{1F600} wide 東京');
  });

  it('finds the longest text of a column, dictionary coded or not', () => {
    const packed = packTable(keywordsTable(lines(3000)));
    expect(longestPackedCell(packed, 2)).toBe('keyword 1000');
    expect(longestPackedCell(packed, 0)).toBe('Campaign 0');
    expect(longestPackedCell(packTable({ headers: ['Empty'], rows: [] }), 0)).toBe('');
    expect(longestPackedCell(packed, 9)).toBe('');
  });
});
