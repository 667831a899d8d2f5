import { describe, expect, it } from 'vitest';
import { importCsvRows } from './data.ts';
import { countSheetRowsNotIn, formatSheetValues, readSheetRows } from './sheetRows.ts';

const blank = { root: '', mod: '', var1: '', var2: '', var3: '', url: '', status: '' };

describe('readSheetRows', () => {
  it('matches headers as CSV import does and keeps what the person typed as text', () => {
    const values = [
      ['Final URL', 'ROOT', 'Modifier', 'Var 1', 'variable_2', 'var-3', 'price'],
      [' https://a.com ', '00042', '=1+1', '12345678901234567890', '2024-01-02', 'x', '9'],
      [],
      ['', '', ''],
      ['', 'b'],
    ];
    const out = readSheetRows(values);
    expect(out).toEqual({
      ok: true,
      columns: ['url', 'root', 'mod', 'var1', 'var2', 'var3'],
      ignoredHeaders: ['price'],
      truncatedCells: 0,
      rows: [
        {
          root: '00042',
          mod: '=1+1',
          var1: '12345678901234567890',
          var2: '2024-01-02',
          var3: 'x',
          url: 'https://a.com',
          status: '',
        },
        { ...blank, root: 'b' },
      ],
    });
    const csv = importCsvRows(values.map((cells) => cells.join(',')).join('\n'));
    expect(csv.ok && csv.rows).toEqual(out.ok && out.rows);
  });

  it('cuts text cells to the feed limits and counts them; a URL stays whole', () => {
    const out = readSheetRows([
      ['root', 'url'],
      ['r'.repeat(31), `https://a.com/${'p'.repeat(2100)}`],
      ['ok', ''],
    ]);
    expect(out.ok && out.rows.map((r) => [r.root.length, r.url.length])).toEqual([
      [30, 2114],
      [2, 0],
    ]);
    expect(out.ok && out.truncatedCells).toBe(1);
  });

  it.each([
    ['an empty sheet', [], 'no-header-row'],
    ['a blank first row', [['', ' '], ['a']], 'no-header-row'],
    ['the same column twice', [['root', 'Root']], 'repeated-header'],
    ['two names of one column', [['mod', 'Modifier']], 'repeated-header'],
    ['the same unknown text twice', [['root', 'Price', 'price']], 'repeated-header'],
    [
      'no recognised column',
      [
        ['name', 'price'],
        ['a', '1'],
      ],
      'no-recognised-column',
    ],
  ] as const)('refuses %s', (_, values, problem) => {
    const out = readSheetRows(values as unknown as string[][]);
    expect(out.ok).toBe(false);
    expect(!out.ok && out.problem).toBe(problem);
    expect(!out.ok && out.error).not.toBe('');
  });

  it('allows blank header cells between columns', () => {
    const out = readSheetRows([
      ['root', '', '', 'url'],
      ['a', 'x', 'y', 'u'],
    ]);
    expect(out.ok && out.rows).toEqual([{ ...blank, root: 'a', url: 'u' }]);
  });
});

describe('formatSheetValues', () => {
  it('writes the header row and the seven cells of each row, and reads back the same rows', () => {
    const rows = [
      { root: '00042', mod: '=1+1', var1: '', var2: '2024-01-02', var3: 'c', url: 'u', status: '' },
      { ...blank, var3: 'only', status: 'paused' },
    ];
    const values = formatSheetValues(rows);
    expect(values).toEqual([
      ['root', 'mod', 'var1', 'var2', 'var3', 'url', 'status'],
      ['00042', '=1+1', '', '2024-01-02', 'c', 'u', ''],
      ['', '', '', '', 'only', '', 'paused'],
    ]);
    const back = readSheetRows(values);
    expect(back.ok && back.rows).toEqual(rows);
  });
});

describe('countSheetRowsNotIn', () => {
  const rows = [
    { ...blank, root: 'a', url: 'u' },
    { ...blank, root: 'b' },
  ];
  it('counts the sheet rows the upload does not hold, by their six values', () => {
    const values = [
      ['url', 'root', 'note'],
      [' u', 'a ', 'ignored'],
      ['', 'b'],
      ['', 'c'],
      [],
      ['u2', 'a'],
    ];
    // 'ignored' under 'note' would be lost by the upload: that row counts too.
    expect(countSheetRowsNotIn(values, rows)).toBe(3);
    expect(countSheetRowsNotIn(values.slice(0, 3), rows)).toBe(1);
    expect(countSheetRowsNotIn([values[0]!, [' u', 'a '], ['', 'b']], rows)).toBe(0);
  });
  it('recognises a downloaded row whose long cell was cut as held', () => {
    const long = 'x'.repeat(40);
    const values = [['root'], [long]];
    const read = readSheetRows(values);
    if (!read.ok) throw new Error(read.error);
    expect(read.rows[0]!.root).toHaveLength(30);
    expect(countSheetRowsNotIn(values, read.rows)).toBe(0);
    expect(countSheetRowsNotIn(values, [{ ...blank, root: 'y' }])).toBe(1);
  });
  it('skips rows with text only under ignored columns', () => {
    const read = readSheetRows([['root', 'notes'], ['a', ''], ['', 'only a note'], ['b']]);
    if (!read.ok) throw new Error(read.error);
    expect(read.rows.map((row) => row.root)).toEqual(['a', 'b']);
  });
  it('counts every non-blank row of a sheet whose headers cannot be read', () => {
    expect(countSheetRowsNotIn([['name'], ['a'], [''], ['b']], rows)).toBe(3);
    expect(countSheetRowsNotIn([], rows)).toBe(0);
    expect(countSheetRowsNotIn([[''], ['x']], rows)).toBe(1);
  });
});
