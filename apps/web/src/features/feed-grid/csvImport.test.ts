import { describe, expect, it } from 'vitest';
import { FEED_COLUMNS } from '@adloom/engine';
import { readChunkCell, type ColumnChunk } from './columnChunk.ts';
import {
  CSV_CUTS_NAMED,
  CSV_MESSAGES,
  CsvImportError,
  decodeCsvBytes,
  decodeWindows1252,
  describeCsvImport,
  findHeaderMapping,
  parseCsvText,
  planCsvImport,
  readCsvHead,
  type CsvColumnMapping,
} from './csvImport.ts';

/** Imports as the worker does: by the file's headers, or by `mapping` when given. */
function parse(text: string, chunkRows?: number, mapping?: CsvColumnMapping) {
  const chunks: ColumnChunk[] = [];
  const progress: number[] = [];
  const plan = mapping ? { mapping } : planCsvImport(text);
  if (!('mapping' in plan)) throw new Error('the headers name no feed column');
  const summary = parseCsvText({
    text,
    mapping: plan.mapping,
    onChunk: (c) => chunks.push(c),
    onProgress: (p) => progress.push(p),
    chunkRows,
  });
  const rows: string[][] = [];
  for (const chunk of chunks) {
    for (let r = 0; r < chunk.rowCount; r += 1)
      rows.push(FEED_COLUMNS.map((_, c) => readChunkCell(chunk, r, c)));
  }
  return { summary, rows, chunks, progress };
}

describe('parseCsvText', () => {
  it('maps engine headers and UI labels case-insensitively, in any order', () => {
    const { rows, summary } = parse(
      'URL,var1,ROOT,Modifier,Var 2,final url,Var 3,STATUS\nhttps://a.test,v1,shoes,red,v2,dup,v3,Paused\n',
    );
    expect(rows).toEqual([['shoes', 'red', 'v1', 'v2', 'v3', 'https://a.test', 'Paused']]);
    expect(summary.unrecognisedColumns).toEqual([]);
  });

  it("reads a merchant feed's availability column as Status, as written", () => {
    const { rows, summary } = parse(
      'id,title,link,availability\n1,Shoe,https://a.test/1,in_stock\n2,Boot,https://a.test/2,out of stock\n',
    );
    expect(rows.map((row) => row[6])).toEqual(['in_stock', 'out of stock']);
    expect(summary.unrecognisedColumns).toEqual(['id', 'title', 'link']);
  });

  it('takes the first non-empty cell of a column named twice, as the engine does', () => {
    const { rows } = parse(
      'url,Final URL,root\n,https://b.test,x\nhttps://a.test,https://c.test,y\n',
    );
    expect(rows.map((row) => row[5])).toEqual(['https://b.test', 'https://a.test']);
  });

  it('cuts cells to 30 characters and counts them, trims, skips blank rows, keeps 00123', () => {
    const long = 'x'.repeat(35);
    const { rows, summary } = parse(
      `root,mod,price\n  ${long} ,00123,9\n,,\n" quoted, comma ",b,1\n`,
    );
    expect(rows).toEqual([
      ['x'.repeat(30), '00123', '', '', '', '', ''],
      ['quoted, comma', 'b', '', '', '', '', ''],
    ]);
    expect(summary).toEqual({
      rowCount: 2,
      cellsCut: 1,
      cuts: [{ row: 0, column: 0 }],
      unrecognisedColumns: ['price'],
      reading: '',
      hasUrlColumn: false,
      rowsWithoutUrl: 2,
      withoutUrl: [0, 1],
    });
  });

  it('splits many rows into chunks and reports progress up to 1', () => {
    const lines = ['root,url'];
    for (let i = 0; i < 2500; i += 1) lines.push(`k${i},https://x.test/${i}`);
    const { rows, chunks, progress } = parse(lines.join('\n'), 1000);
    expect(rows).toHaveLength(2500);
    expect(chunks.map((c) => c.rowCount)).toEqual([1000, 1000, 500]);
    expect(rows[2499]).toEqual(['k2499', '', '', '', '', 'https://x.test/2499', '']);
    expect(progress.at(-1)).toBe(1);
  });

  it.each(['', '   \n'])('refuses %j', (text) => {
    expect(() => parse(text)).toThrow(new CsvImportError(CSV_MESSAGES.empty));
  });

  it('names the first cuts by imported row and column, and counts the rest; never cuts a URL', () => {
    const long = 'y'.repeat(31);
    const lines = ['root,mod,url'];
    for (let i = 0; i < CSV_CUTS_NAMED + 2; i += 1) lines.push(`${long},ok,https://a.test/${i}`);
    const longUrl = `https://b.test/${'u'.repeat(2050)}`;
    lines.push(`fine,${long},${longUrl}`);
    const { rows, summary } = parse(lines.join('\n'));
    expect(summary.cellsCut).toBe(CSV_CUTS_NAMED + 3);
    // Issue 36: the URL was cut to 2,048, another page; it stays whole and the engine reports it.
    expect(rows.at(-1)?.[5]).toBe(longUrl);
    expect(summary.cuts).toHaveLength(CSV_CUTS_NAMED);
    expect(summary.cuts.slice(0, 2)).toEqual([
      { row: 0, column: 0 },
      { row: 1, column: 0 },
    ]);
  });
});

describe('semicolon and tab-separated files, and rows that cannot make an ad', () => {
  it('reads a semicolon-separated file (Excel in European locales) and says so', () => {
    const { rows, summary } = parse(
      'Root;Modifier;Final URL\r\nnike;"air; max";https://a.test\r\n',
    );
    expect(rows).toEqual([['nike', 'air; max', '', '', '', 'https://a.test', '']]);
    expect(summary.reading).toBe('Read as semicolon-separated');
  });

  it('reads a tab-separated UTF-16 file and says so', () => {
    const text = 'Root\tModifier\tFinal URL\r\nnike\tshoes, red\thttps://a.test\r\n';
    const decoded = decodeCsvBytes(Uint8Array.from([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]));
    const chunks: ColumnChunk[] = [];
    const plan = planCsvImport(decoded.text);
    if (!('mapping' in plan)) throw new Error('the headers name no feed column');
    const summary = parseCsvText({
      ...decoded,
      mapping: plan.mapping,
      onChunk: (c) => chunks.push(c),
    });
    expect([0, 1, 5].map((c) => readChunkCell(chunks[0]!, 0, c))).toEqual([
      'nike',
      'shoes, red',
      'https://a.test',
    ]);
    expect(summary.reading).toBe('Read as UTF-16, tab-separated');
  });

  it('keeps a comma file whose cells hold semicolons a comma file', () => {
    const { rows, summary } = parse('root,mod,url\nnike;adidas,a;b;c,https://a.test/?a=1;b=2\n');
    expect(rows).toEqual([['nike;adidas', 'a;b;c', '', '', '', 'https://a.test/?a=1;b=2', '']]);
    expect(summary.reading).toBe('');
  });

  it('shows a headerless semicolon file split into its columns for the mapping', () => {
    expect(readCsvHead('shoes;acme;https://a.test\nboots;zed;x\n').firstRow).toEqual([
      'shoes',
      'acme',
      'https://a.test',
    ]);
  });

  it('counts the rows with no Final URL (they make no ad) and names the first', () => {
    const lines = ['root,url'];
    for (let i = 0; i < CSV_CUTS_NAMED + 3; i += 1) lines.push(`k${i},`);
    lines.push('ok,https://a.test');
    const { summary } = parse(lines.join('\n'));
    expect(summary.hasUrlColumn).toBe(true);
    expect(summary.rowsWithoutUrl).toBe(CSV_CUTS_NAMED + 3);
    expect(summary.withoutUrl).toEqual(Array.from({ length: CSV_CUTS_NAMED }, (_, i) => i));
    expect(parse('root,url\na,https://a.test\n').summary.rowsWithoutUrl).toBe(0);
  });
});

describe('the column mapping of a file whose headers name no feed column', () => {
  const text =
    'Keyword,Brand,Landing page,Stock\nshoes,acme,https://a.test/1,in stock\n\nboots,zed,https://a.test/2,out of stock\n';

  it('asks for a mapping, with the first row and the rows under it', () => {
    expect(planCsvImport(text)).toEqual({
      head: {
        firstRow: ['Keyword', 'Brand', 'Landing page', 'Stock'],
        rows: [
          ['shoes', 'acme', 'https://a.test/1', 'in stock'],
          ['boots', 'zed', 'https://a.test/2', 'out of stock'],
        ],
        columnCount: 4,
      },
    });
    expect(readCsvHead('a,b\n1\n2\n3', 2).rows).toEqual([['1'], ['2']]);
  });

  it('imports by the mapping a person chose, the header row left out', () => {
    const mapping = { sources: [[1], [0], [], [], [], [2], [3]], hasHeader: true };
    const { rows, summary } = parse(text, undefined, mapping);
    expect(rows).toEqual([
      ['acme', 'shoes', '', '', '', 'https://a.test/1', 'in stock'],
      ['zed', 'boots', '', '', '', 'https://a.test/2', 'out of stock'],
    ]);
    expect(summary.unrecognisedColumns).toEqual([]);
  });

  it('imports the first row too when it holds no column names', () => {
    const mapping = { sources: [[0], [], [], [], [], [], []], hasHeader: false };
    const { rows } = parse('shoes,1\nboots,2\n', undefined, mapping);
    expect(rows.map((row) => row[0])).toEqual(['shoes', 'boots']);
  });

  it('leaves Status empty under a mapping made before the column existed (six columns)', () => {
    const mapping = { sources: [[0], [], [], [], [], [1]], hasHeader: false };
    const { rows } = parse('shoes,https://a.test/1,paused\n', undefined, mapping);
    expect(rows).toEqual([['shoes', '', '', '', '', 'https://a.test/1', '']]);
  });

  it('finds the headers it knows, a column named twice in order', () => {
    expect(findHeaderMapping(['url', 'price', 'Final URL', 'ROOT'])).toEqual({
      sources: [[3], [], [], [], [], [0, 2], []],
      hasHeader: true,
    });
    expect(findHeaderMapping(['Brand', 'availability', 'ROOT', 'Status'])?.sources[6]).toEqual([
      1, 3,
    ]);
    expect(findHeaderMapping(['name', 'price'])).toBeNull();
  });
});

describe('decodeCsvBytes', () => {
  it('decodes UTF-8 and falls back to Windows-1252', () => {
    expect(decodeCsvBytes(new TextEncoder().encode('root\ncafé'))).toEqual({
      text: 'root\ncafé',
      encoding: 'utf-8',
    });
    expect(
      decodeCsvBytes(Uint8Array.of(0x72, 0x6f, 0x6f, 0x74, 0x0a, 0x63, 0x61, 0x66, 0xe9)),
    ).toEqual({ text: 'root\ncafé', encoding: 'windows-1252' });
  });

  it('reads € – — “ ” ™ (0x80-0x9F) of a windows-1252 file', () => {
    const bytes = Uint8Array.of(0x72, 0x0a, 0x80, 0x20, 0x96, 0x97, 0x93, 0x78, 0x94, 0x99, 0xe9);
    expect(decodeCsvBytes(bytes).text).toBe('r\n€ –—“x”™é');
  });

  it('maps every byte 0x80-0x9F as WHATWG windows-1252 does', () => {
    const high = Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i);
    const text = decodeWindows1252(high);
    expect(text).toHaveLength(32);
    expect([...text].map((c) => c.codePointAt(0)!.toString(16))).toEqual(
      // prettier-ignore
      ['20ac', '81', '201a', '192', '201e', '2026', '2020', '2021', '2c6', '2030', '160', '2039',
       '152', '8d', '17d', '8f', '90', '2018', '2019', '201c', '201d', '2022', '2013', '2014',
       '2dc', '2122', '161', '203a', '153', '9d', '17e', '178'],
    );
  });

  it("reads UTF-16 with a byte order mark (Excel's Unicode text, Editor's export)", () => {
    const text = 'Root\tFinal URL\r\ncafé 😀\thttps://a.test\r\n';
    const le = Uint8Array.from([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);
    const be = Uint8Array.from([0xfe, 0xff, ...Buffer.from(text, 'utf16le').swap16()]);
    expect(decodeCsvBytes(le)).toEqual({ text, encoding: 'utf-16le' });
    expect(decodeCsvBytes(be)).toEqual({ text, encoding: 'utf-16be' });
  });

  it('refuses binary and empty files', () => {
    expect(() => decodeCsvBytes(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0, 0, 0))).toThrow(
      CSV_MESSAGES.notText,
    );
    expect(() => decodeCsvBytes(new Uint8Array(0))).toThrow(CSV_MESSAGES.empty);
  });
});

describe('describeCsvImport', () => {
  it('says rows in, the cells cut by grid row and column, and unrecognised columns', () => {
    expect(
      describeCsvImport(
        {
          rowCount: 1200,
          cellsCut: 3,
          cuts: [
            { row: 0, column: 0 },
            { row: 6, column: 2 },
          ],
          unrecognisedColumns: ['price', 'sku'],
          reading: '',
          hasUrlColumn: true,
          rowsWithoutUrl: 0,
          withoutUrl: [],
        },
        11,
      ),
    ).toBe(
      'Imported 1,200 rows. 3 cells were cut to 30 characters: Root in row 11, Var 1 in row 17 and 1 more. Not recognised: price, sku.',
    );
    expect(
      describeCsvImport({
        rowCount: 1,
        cellsCut: 0,
        cuts: [],
        unrecognisedColumns: [],
        reading: '',
        hasUrlColumn: true,
        rowsWithoutUrl: 0,
        withoutUrl: [],
      }),
    ).toBe('Imported 1 row.');
  });

  it('says how the file was read and warns about rows that cannot make an ad', () => {
    const summary = {
      rowCount: 330,
      cellsCut: 0,
      urlsCut: 0,
      cuts: [],
      unrecognisedColumns: [],
      reading: 'Read as UTF-16, tab-separated',
      hasUrlColumn: true,
      rowsWithoutUrl: 12,
      withoutUrl: [3, 7],
    };
    expect(describeCsvImport(summary, 5)).toBe(
      'Imported 330 rows. Read as UTF-16, tab-separated. 12 rows have no Final URL, so they make no ad: rows 8, 12 and 10 more.',
    );
    expect(describeCsvImport({ ...summary, rowsWithoutUrl: 1, withoutUrl: [0] })).toBe(
      'Imported 330 rows. Read as UTF-16, tab-separated. 1 row has no Final URL, so it makes no ad: row 1.',
    );
    expect(
      describeCsvImport({ ...summary, reading: '', hasUrlColumn: false, rowsWithoutUrl: 330 }),
    ).toBe('Imported 330 rows. No Final URL column: the rows make keywords but no ads.');
  });
});
