import { describe, expect, it } from 'vitest';
import {
  CHUNK_CHARS_MAX,
  formatCsv,
  forEachCsvRecord,
  formatCsvCell,
  formatCsvText,
  formatTsv,
  parseCsv,
} from './csv.ts';

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

describe('forEachCsvRecord', () => {
  /** Each record as [cells, line, start]. */
  function records(text: string, delimiter = ','): Array<[string[], number, number]> {
    const out: Array<[string[], number, number]> = [];
    forEachCsvRecord(text, (cells, line, start) => void out.push([cells, line, start]), delimiter);
    return out;
  }

  it.each([
    // A quote inside a plain cell is kept; a record with a quote is read by the general parser.
    [
      'a"b,c\nd,e',
      [
        [['a"b', 'c'], 1, 0],
        [['d', 'e'], 2, 6],
      ],
    ],
    // After a quoted record, plain ones are cut at the right delimiters and line ends.
    [
      '"x,y",z\r\np,q\rr\n"m\nn"\ns,t',
      [
        [['x,y', 'z'], 1, 0],
        [['p', 'q'], 2, 9],
        [['r'], 3, 13],
        [['m\nn'], 4, 15],
        [['s', 't'], 6, 21],
      ],
    ],
    // One column, no delimiter at all: each line is a record of one cell.
    [
      'a\nbb\n\nccc\n',
      [
        [['a'], 1, 0],
        [['bb'], 2, 2],
        [[''], 3, 5],
        [['ccc'], 4, 6],
      ],
    ],
    // Text after a closing quote is kept; a quote left open runs to the end.
    ['"a"b,"c\nd', [[['ab', 'c\nd'], 1, 0]]],
    // A delimiter at the end of a record and of the text.
    [
      'a,\n,b\nc,',
      [
        [['a', ''], 1, 0],
        [['', 'b'], 2, 3],
        [['c', ''], 3, 6],
      ],
    ],
  ])('%j', (text, expected) => {
    expect(records(text)).toEqual(expected);
  });

  it('cuts at the delimiter given', () => {
    expect(records('a\tb,c\n"d\te"\tf', '\t')).toEqual([
      [['a', 'b,c'], 1, 0],
      [['d\te', 'f'], 2, 6],
    ]);
    expect(records('a;b\nc;"d;e"', ';')).toEqual([
      [['a', 'b'], 1, 0],
      [['c', 'd;e'], 2, 4],
    ]);
  });

  it('stops when the callback returns false', () => {
    const seen: string[][] = [];
    forEachCsvRecord('a\nb\n"c"\nd', (cells) => {
      seen.push(cells);
      return seen.length < 3;
    });
    expect(seen).toEqual([['a'], ['b'], ['c']]);
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

  it('yields chunks of at most a line past CHUNK_CHARS_MAX characters however long the lines', () => {
    // An ad's line: 15 headlines and 4 descriptions, about 1,000 characters.
    const row = Array.from({ length: 19 }, (_, i) => `${'x'.repeat(50)} ${i}`);
    const table = {
      headers: row.map((_, i) => `H${i}`),
      rows: Array.from({ length: 3000 }, () => row),
    };
    const chunks = [...formatCsv(table)];
    const lineChars = `${row.join(',')}\r\n`.length;
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(CHUNK_CHARS_MAX + lineChars);
    expect(chunks.join('')).toBe(formatCsvText(table));
    expect(chunks.join('').split('\r\n')).toHaveLength(3002);
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
