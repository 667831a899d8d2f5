import { describe, expect, it } from 'vitest';
import { chooseColumnsByPosition, describeFileColumn, previewMappedRows } from './csvMapping.ts';
import type { CsvHead } from './csvImport.ts';

const head: CsvHead = {
  firstRow: ['Keyword', '', 'Landing page'],
  rows: [
    ['  shoes ', 'acme', 'https://a.test/1'],
    ['x'.repeat(40), '', 'https://a.test/2'],
  ],
  columnCount: 3,
};

describe('the CSV column mapping dialog', () => {
  it('first guesses file column i for feed column i, none past the last file column', () => {
    expect(chooseColumnsByPosition(3)).toEqual([0, 1, 2, null, null, null, null]);
    expect(chooseColumnsByPosition(9)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('names file columns by number and, when the first row holds names, by header', () => {
    expect(describeFileColumn(head, 0, true)).toBe('Column 1: Keyword');
    expect(describeFileColumn(head, 1, true)).toBe('Column 2');
    expect(describeFileColumn(head, 0, false)).toBe('Column 1');
  });

  it('previews the rows as the mapping imports them, the first row too when it is data', () => {
    const sources = [[2], [0], [], [], [], [1, 0]];
    expect(previewMappedRows(head, { sources, hasHeader: true })).toEqual([
      ['https://a.test/1', 'shoes', '', '', '', 'acme'],
      ['https://a.test/2', 'x'.repeat(30), '', '', '', 'x'.repeat(40)],
    ]);
    expect(previewMappedRows(head, { sources, hasHeader: false })[0]).toEqual([
      'Landing page',
      'Keyword',
      '',
      '',
      '',
      'Keyword',
    ]);
  });
});
