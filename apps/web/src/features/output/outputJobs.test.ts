import { testJobContext } from '../generation/testing/jobContext.ts';
import { describe, expect, it } from 'vitest';
import { formatTsv, keywordsTable, type KeywordLine } from '@adloom/engine';
import {
  TablePacker,
  encodeRecord,
  fieldColumn,
  packTable,
  unpackTable,
} from '../generation/packTable.ts';
import { formatPackedTsvParts, TSV_LINES_PER_PART } from '../exports/tsv.ts';
import { clipboardTextJob } from './outputJobs.ts';

function lines(n: number): KeywordLine[] {
  return Array.from({ length: n }, (_, i) => ({
    campaign: `Campaign ${i % 3}`,
    adGroup: i === 5 ? 'Group\twith a tab' : `Group ${i % 7}`,
    keyword: i === 7 ? 'two\r\nlines' : `keyword ${i}`,
    matchType: i % 2 ? 'Exact' : 'Broad',
  }));
}

const ctx = testJobContext([]);

describe('formatPackedTsvParts', () => {
  it('is the engine TSV, split into parts of whole lines', () => {
    const count = TSV_LINES_PER_PART * 2 + 10;
    const packed = packTable(keywordsTable(lines(count)));
    const parts = formatPackedTsvParts(packed);
    const expected = formatTsv(unpackTable(packed));
    expect(parts.length).toBe(3);
    expect(parts.join('')).toBe(expected);
    const text = parts.join('');
    expect(text.split('\n')[0]).toBe('Campaign\tAd Group\tKeyword\tCriterion Type');
    expect(text.split('\n')).toHaveLength(count + 1);
    expect(text.split('\n')[6]).toBe('Campaign 2\tGroup with a tab\tkeyword 5\tExact');
    expect(text.split('\n')[8]).toBe('Campaign 1\tGroup 0\ttwo lines\tExact');
  });

  it('gives the header line alone for an empty table', () => {
    const packed = packTable(keywordsTable([]));
    expect(formatPackedTsvParts(packed).join('')).toBe(
      'Campaign\tAd Group\tKeyword\tCriterion Type',
    );
  });

  it('cleans tabs and line breaks inside record fields as in any other cell', () => {
    const records = new TablePacker(['Record']);
    records.addRow([encodeRecord(['a\tb', 'line\none'])]);
    const table = {
      headers: ['First', 'Second'],
      rowCount: 2,
      columns: [fieldColumn(0, true), fieldColumn(1, true)],
      sources: Uint32Array.of(0, 0),
      records: records.finish().columns[0]!,
    };
    const text = formatPackedTsvParts(table).join('');
    expect(text).toBe('First\tSecond\na b\tline one\na b\tline one');
    expect(text).toBe(formatTsv(unpackTable(table)));
  });

  it('ends exactly on a part boundary without an empty last part', () => {
    const packed = packTable(keywordsTable(lines(TSV_LINES_PER_PART - 1)));
    const parts = formatPackedTsvParts(packed);
    expect(parts).toHaveLength(1);
    expect(parts.join('')).toBe(formatTsv(unpackTable(packed)));
  });
});

describe('clipboardTextJob', () => {
  it('gives the engine TSV as text, without the mark that makes it two-byte', async () => {
    const packed = packTable(keywordsTable(lines(TSV_LINES_PER_PART + 3)));
    const result = await clipboardTextJob({ table: packed }, ctx);
    expect(result.text).toBe(formatTsv(unpackTable(packed)));
    expect(result.text.startsWith('Campaign\tAd Group')).toBe(true);
  });

  it('neutralises cells starting with = + - @ only when asked (a list for a spreadsheet)', async () => {
    const packed = packTable({
      headers: ['Row', 'What happened', 'Reason'],
      rows: [
        ['53', 'Warning', '=HYPERLINK("x")'],
        ['7', '-20%', '@home\tnow'],
        ['8', 'Cleaned', 'a = b'],
      ],
    });
    const plain = await clipboardTextJob({ table: packed }, ctx);
    expect(plain.text).toBe(formatTsv(unpackTable(packed)));
    const neutral = await clipboardTextJob({ table: packed, neutraliseFormulas: true }, ctx);
    expect(neutral.text).toBe(formatTsv(unpackTable(packed), { neutraliseFormulas: true }));
    expect(neutral.text.split('\n')).toEqual([
      'Row\tWhat happened\tReason',
      '53\tWarning\t\'=HYPERLINK("x")',
      "7\t'-20%\t'@home now",
      '8\tCleaned\ta = b',
    ]);
  });
});
