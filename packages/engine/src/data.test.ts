import { describe, expect, it } from 'vitest';
import {
  combineSeeds,
  describeCsvReading,
  detectCsvDelimiter,
  findFeedColumn,
  importCsvRows,
  parsePastedRows,
  splitSeedLines,
} from './data.ts';

describe('combineSeeds', () => {
  it('yields every combination of the non-empty lists', () => {
    const out = combineSeeds({
      seeds: { root: ['nike', 'adidas'], mod: [], var1: ['red', 'blue'] },
    });
    expect(out.ok && out.rows.map((r) => [r.root, r.var1])).toEqual([
      ['nike', 'red'],
      ['nike', 'blue'],
      ['adidas', 'red'],
      ['adidas', 'blue'],
    ]);
  });
  it('zips linked neighbouring columns', () => {
    const out = combineSeeds({
      seeds: { root: ['nike', 'adidas'], mod: ['air', 'boost'], var1: ['x', 'y', 'z'] },
      links: [true],
    });
    expect(out.ok && out.rows.map((r) => `${r.root} ${r.mod} ${r.var1}`)).toEqual([
      'nike air x',
      'nike air y',
      'nike air z',
      'adidas boost x',
      'adidas boost y',
      'adidas boost z',
    ]);
  });
  it('rejects linked columns of unequal length with the spec message', () => {
    expect(combineSeeds({ seeds: { root: ['a', 'b'], mod: ['c'] }, links: [true] })).toEqual({
      ok: false,
      error: 'Linked variables must have the same number of rows',
    });
  });
  it('splits seed lines, trimming and dropping empties', () => {
    expect(splitSeedLines(' a \n\n b\r\nc ')).toEqual(['a', 'b', 'c']);
  });
});

describe('parsePastedRows', () => {
  it('skips the first line and maps tab-separated columns', () => {
    const out = parsePastedRows('root\tmod\n nike \tair\tx\t\t\thttps://a.com\n\nadidas');
    expect(out.rows).toEqual([
      { root: 'nike', mod: 'air', var1: 'x', var2: '', var3: '', url: 'https://a.com', status: '' },
      { root: 'adidas', mod: '', var1: '', var2: '', var3: '', url: '', status: '' },
    ]);
  });
  it('limits feed cells to 30 characters and reports it', () => {
    const out = parsePastedRows(`h\n${'a'.repeat(35)}`);
    expect(out.rows[0]?.root).toBe('a'.repeat(30));
    expect(out.truncated).toEqual([{ rowNumber: 1, column: 'root', original: 'a'.repeat(35) }]);
  });
  it('numbers a cut cell by its row among the rows read, blank lines not counted', () => {
    const out = parsePastedRows(`h\nx\n\n${'b'.repeat(31)}`);
    expect(out.truncated).toEqual([{ rowNumber: 2, column: 'root', original: 'b'.repeat(31) }]);
  });
});

describe('CSV import', () => {
  it.each([
    ['root', 'root'],
    ['Root', 'root'],
    ['Modifier', 'mod'],
    ['mod', 'mod'],
    ['Var 1', 'var1'],
    ['var_3', 'var3'],
    ['Final URL', 'url'],
    ['url', 'url'],
    ['price', undefined],
  ])('header %s -> %s', (h, col) => {
    expect(findFeedColumn(h)).toBe(col);
  });
  it('maps by header names, trims cells and keeps ids as text', () => {
    const out = importCsvRows('Final URL,Root,price\n https://a.com ,00123,9\n,,\n');
    expect(out).toMatchObject({ ok: true, columns: ['url', 'root'], ignoredHeaders: ['price'] });
    expect(out.ok && out.rows).toEqual([
      { root: '00123', mod: '', var1: '', var2: '', var3: '', url: 'https://a.com', status: '' },
    ]);
  });
  it('says on which physical line each row starts, and numbers cut cells by row read', () => {
    const long = 'c'.repeat(31);
    const out = importCsvRows(`root,mod\n"a\nb",x\n\n,\n${long},"y\r\nz"\nlast,`);
    expect(out.ok && out.rows.map((r) => r.root)).toEqual(['a\nb', 'c'.repeat(30), 'last']);
    expect(out.ok && out.sourceLines).toEqual([2, 6, 8]);
    expect(out.ok && out.truncated).toEqual([{ rowNumber: 2, column: 'root', original: long }]);
  });
  it('takes a column named twice from its first non-empty cell and reports every cut cell; never cuts a URL', () => {
    const long = 'd'.repeat(31);
    const url = `https://a.example/${'u'.repeat(2048)}`;
    const out = importCsvRows(
      `Root,url,root,Var 3,mod\n,${url},b,v,${long}\n  a , ,${long},,\n \t, ,\nshort\n`,
    );
    expect(out.ok && out.rows).toEqual([
      // Issue 36: a URL cut to 2,048 was another page, written as if it were the row's.
      { root: 'b', mod: 'd'.repeat(30), var1: '', var2: '', var3: 'v', url, status: '' },
      { root: 'a', mod: '', var1: '', var2: '', var3: '', url: '', status: '' },
      { root: 'short', mod: '', var1: '', var2: '', var3: '', url: '', status: '' },
    ]);
    expect(out.ok && out.truncated).toEqual([
      { rowNumber: 1, column: 'mod', original: long },
      { rowNumber: 2, column: 'root', original: long },
    ]);
    expect(out.ok && out.sourceLines).toEqual([2, 3, 5]);
  });
  it('fails with a clear message when no column is recognised', () => {
    const out = importCsvRows('a,b\n1,2');
    expect(out.ok).toBe(false);
    expect(!out.ok && out.error).toContain('No recognised column');
  });
});

describe('detectCsvDelimiter (semicolon and tab-separated feeds)', () => {
  it.each([
    ['root,mod,url\nnike,shoes,https://a.com', ','],
    ['root;Modifier;Final URL\nnike;shoes;https://a.com', ';'],
    ['\uFEFFRoot\tModifier\tFinal URL\r\nnike\tshoes\thttps://a.com', '\t'],
    // A comma CSV whose cells (and even a header's quoted cell) hold semicolons stays comma.
    ['root,mod,url\n"nike;adidas",a;b;c;d,https://a.com/?x=1;y=2', ','],
    ['root,"notes; more; words",url\nnike,a;b,https://a.com', ','],
    // Blank lines before the header are skipped; a header naming no column: most cells wins.
    ['\n\nroot;mod\nnike;x', ';'],
    ['a;b;c\n1;2;3', ';'],
    ['a,b;c\n1,2', ','],
  ])('%j is %j-separated', (text, delimiter) => {
    expect(detectCsvDelimiter(text)).toBe(delimiter);
  });
  it('reads a semicolon-separated file (Excel in European locales) with its cells', () => {
    const out = importCsvRows('Root;Modifier;Final URL\r\nnike;"air; max";https://a.com\r\n');
    expect(out).toMatchObject({ ok: true, delimiter: ';', columns: ['root', 'mod', 'url'] });
    expect(out.ok && out.rows).toEqual([
      {
        root: 'nike',
        mod: 'air; max',
        var1: '',
        var2: '',
        var3: '',
        url: 'https://a.com',
        status: '',
      },
    ]);
  });
  it("reads a tab-separated file (Excel's Unicode text, Editor's export)", () => {
    const out = importCsvRows('root\tmod\nnike\tshoes, red\n');
    expect(out).toMatchObject({ ok: true, delimiter: '\t' });
    expect(out.ok && out.rows.map((r) => [r.root, r.mod])).toEqual([['nike', 'shoes, red']]);
  });
  it('says how a file was read, naming only what is not plain UTF-8 and commas', () => {
    expect(describeCsvReading('utf-8', ',')).toBe('');
    expect(describeCsvReading('utf-16le', '\t')).toBe('Read as UTF-16, tab-separated');
    expect(describeCsvReading('utf-16be', ',')).toBe('Read as UTF-16');
    expect(describeCsvReading('utf-8', ';')).toBe('Read as semicolon-separated');
    expect(describeCsvReading('windows-1252', ';')).toBe(
      'Read as windows-1252, semicolon-separated',
    );
  });
});
