import { describe, expect, it } from 'vitest';
import { formatCsvCell, formatCsvText, formatTsv, parseCsv } from './csv.ts';

describe('parseCsv (RFC 4180)', () => {
  it.each([
    [
      'a,b\r\nc,d\r\n',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    [
      'a,b\nc,d',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['"a,1","b ""q"""\n', [['a,1', 'b "q"']]],
    ['"multi\nline",x', [['multi\nline', 'x']]],
    [
      '\uFEFFroot,mod\nx,',
      [
        ['root', 'mod'],
        ['x', ''],
      ],
    ],
    [',,\n', [['', '', '']]],
    ['00123,1e5', [['00123', '1e5']]],
    ['', []],
  ])('%j', (text, rows) => {
    expect(parseCsv(text)).toEqual(rows);
  });
  it.each([
    ['a\nb\nc', [1, 2, 3]],
    ['a\r\n\r\nb\rc', [1, 2, 3, 4]],
    ['h\n"two\nlines",x\nnext', [1, 2, 4]],
    ['h\n"three\r\nlines\rhere"\n\n"q""\n"\nlast', [1, 2, 5, 6, 8]],
    ['\uFEFF"a\n\nb"\nc', [1, 4]],
  ])('notes the physical line each record of %j starts on', (text, lines) => {
    const recordLines: number[] = [];
    const rows = parseCsv(text, ',', recordLines);
    expect(recordLines).toEqual(lines);
    expect(recordLines).toHaveLength(rows.length);
  });
});

describe('formatCsv', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    [' padded ', '" padded "'],
  ])('cell %j -> %j', (cell, out) => {
    expect(formatCsvCell(cell)).toBe(out);
  });

  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@x', "'@x"],
    ['safe', 'safe'],
  ])('neutralises %j for spreadsheets', (cell, out) => {
    expect(formatCsvCell(cell, true)).toBe(out);
    expect(formatCsvCell(cell, false)).toBe(cell);
  });

  it('round-trips through parseCsv', () => {
    const rows = [
      ['a,1', 'b "q"', 'c\nd'],
      ['', 'x', ''],
    ];
    const text = formatCsvText({ headers: ['h1', 'h2', 'h3'], rows });
    expect(parseCsv(text)).toEqual([['h1', 'h2', 'h3'], ...rows]);
  });

  it('formats tab-separated copy with a header line', () => {
    expect(formatTsv({ headers: ['A', 'B'], rows: [['x\ty', 'z']] })).toBe('A\tB\nx y\tz');
  });
});
