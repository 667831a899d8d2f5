import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importCsvRows } from '@adloom/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { PackedFeedRows, readFeed } from './feed.ts';

/** A feed row's cells, the unnamed ones empty. */
function data(
  cells: Partial<Record<'root' | 'mod' | 'var1' | 'var2' | 'var3' | 'url' | 'status', string>>,
) {
  return { root: '', mod: '', var1: '', var2: '', var3: '', url: '', status: '', ...cells };
}

describe('PackedFeedRows', () => {
  it('gives back each row as added: ASCII, non-ASCII, empty cells', () => {
    const rows = new PackedFeedRows();
    const added = [
      data({ root: 'nike', mod: 'air max', var1: 'red', url: 'https://x.example/a' }),
      data({
        root: 'Café',
        mod: 'Straße',
        var2: '😀 ok',
        var3: '日本',
        url: 'https://x.example/é',
      }),
      data({}),
      data({ root: 'a, "b"', url: 'not a url' }),
      data({ root: 'paused', url: 'https://x.example/p', status: 'Paused' }),
      data({ root: 'Crème', url: 'https://x.example/ü', status: 'out of stock' }),
      data({ root: 'odd', status: 'soon' }),
    ];
    added.forEach((row, i) => rows.add(row, i + 2));
    expect(rows.length).toBe(added.length);
    added.forEach((row, i) => {
      expect(rows.at(i)).toEqual({ id: String(i + 1), ...row });
      expect(rows.lineOfRow(i + 1)).toBe(i + 2);
    });
    // The statuses are known without making the rows: paused, paused, unknown.
    expect(Array.from(rows.statusCodes() ?? [])).toEqual([0, 0, 0, 0, 1, 1, 2]);
    const bounds = new Int32Array(9);
    const bytes = rows.asciiCells(4, bounds);
    expect(Buffer.from(bytes!.subarray(bounds[5], bounds[6])).toString()).toBe(
      'https://x.example/p',
    );
    expect(Buffer.from(bytes!.subarray(bounds[6], bounds[7])).toString()).toBe('Paused');
  });

  it('keeps the halves of a surrogate pair split between two cells apart', () => {
    // Each half alone is written as U+FFFD, as a cell of its own always was: joined with the
    // next cell they would make one emoji, read back across the two cells.
    const rows = new PackedFeedRows();
    rows.add(data({ root: 'a\ud83d', mod: '\ude00b', var1: 'c\ud83d', url: '\ude00' }), 2);
    expect(rows.at(0)).toEqual({
      id: '1',
      ...data({ root: 'a\ufffd', mod: '\ufffdb', var1: 'c\ufffd', url: '\ufffd' }),
    });
  });

  it("tells each cell's first character without making the row, as the row made would", () => {
    const rows = new PackedFeedRows();
    const added = [
      data({ root: '=sum', mod: '+49', var1: '-20%', var2: '@home', var3: 'x', url: '=url' }),
      data({ root: 'Café', mod: '=Straße', var2: '@😀', url: '-https://x.example/é' }),
      data({}),
      data({ var3: '+', url: 'h' }),
      data({ root: 'é', url: 'https://x', status: 'Paused' }),
      data({ url: 'https://y', status: '=x' }),
    ];
    added.forEach((row, i) => rows.add(row, i + 2));
    const columns = ['root', 'mod', 'var1', 'var2', 'var3', 'url', 'status'] as const;
    for (let i = 0; i < added.length; i++)
      for (const c of columns)
        expect(rows.firstCodeOf(i, c), `row ${i} ${c}`).toEqual(
          (added[i] as Record<string, string>)[c]?.charCodeAt(0),
        );
    expect(rows.firstCodeOf(added.length, 'root')).toBeNaN();
  });

  it("gives an ASCII row's cells as bytes, and nothing for another row", () => {
    const rows = new PackedFeedRows();
    const added = [
      data({ root: 'nike', mod: 'Air Max', var2: 'a, "b"', url: 'https://x.example/a' }),
      data({ root: 'Café', mod: 'x' }),
      data({}),
      data({ root: 'tab\there', var3: 'z' }),
    ];
    added.forEach((row, i) => rows.add(row, i + 2));
    const columns = ['root', 'mod', 'var1', 'var2', 'var3', 'url'] as const;
    const bounds = new Int32Array(columns.length + 1);
    for (const i of [0, 2, 3]) {
      const bytes = rows.asciiCells(i, bounds);
      if (!bytes) throw new Error(`row ${i} has no bytes`);
      const cells = columns.map((_, c) =>
        Buffer.from(bytes.subarray(bounds[c], bounds[c + 1])).toString('latin1'),
      );
      expect(cells, `row ${i}`).toEqual(
        columns.map((c) => (added[i] as Record<string, string>)[c]),
      );
    }
    expect(rows.asciiCells(1, bounds)).toBeUndefined();
    expect(rows.asciiCells(added.length, bounds)).toBeUndefined();
  });
});

describe('readFeed', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'adloom-feed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The feed's rows as [root, url], its encoding and its rows' lines. */
  async function read(name: string, bytes: Uint8Array) {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    const feed = await readFeed(file);
    const rows = Array.from({ length: feed.rows.length }, (_, i) => feed.rows.at(i)!);
    return {
      encoding: feed.encoding,
      cells: rows.map((r) => [r.root, r.url]),
      lines: rows.map((_, i) => feed.rows.lineOfRow(i + 1)),
    };
  }

  // 4,000 ASCII rows of 25 bytes: more than one piece read from the file.
  const ascii = Array.from(
    { length: 4000 },
    (_, i) => `r${String(i).padStart(5, '0')},https://x.example`,
  );

  it('reads a piece of UTF-8 after pieces of ASCII, a character split between pieces', async () => {
    const head = `root,url\n${ascii.join('\n')}\n`;
    // Blank lines up to the three bytes of €, which the end of the second piece cuts.
    const blank = '\n'.repeat((2 << 16) - 1 - head.length);
    const text = `${head}${blank}€,https://x.example\ncafé,https://x.example/é\n`;
    const feed = await read('utf8.csv', Buffer.from(text));
    expect(feed.encoding).toBe('utf-8');
    expect(feed.cells.slice(3999)).toEqual([
      ['r03999', 'https://x.example'],
      ['€', 'https://x.example'],
      ['café', 'https://x.example/é'],
    ]);
    expect(feed.lines.slice(3999)).toEqual([4001, 4002 + blank.length, 4003 + blank.length]);
  });

  it('keeps as text a U+FEFF that starts the first piece that is not ASCII', async () => {
    const head = `root,url\n${ascii.join('\n')}\n`;
    // Blank lines up to "a", the last byte of the third piece; U+FEFF starts the fourth.
    const blank = '\n'.repeat((3 << 16) - 1 - head.length);
    const feed = await read('zwnbsp.csv', Buffer.from(`${head}${blank}a\ufeffb,c\nd,e\n`));
    expect(feed.encoding).toBe('utf-8');
    expect(feed.cells.slice(-2)).toEqual([
      ['a\ufeffb', 'c'],
      ['d', 'e'],
    ]);
  });

  it('reads as windows-1252 a character that ASCII breaks off at a piece end', async () => {
    // 0xE2 0x82 ends the first piece, ASCII follows: not UTF-8, though the 0xAC that starts the
    // third piece would finish the euro sign begun there.
    const head = Buffer.from(`root,url\n${'\n'.repeat((1 << 16) - 2 - 9)}`);
    // A second piece of ASCII: 2,000 rows and blank lines.
    const rows = `,x\n${ascii.slice(0, 2000).join('\n')}\n`;
    const rest = Buffer.from(rows + '\n'.repeat((1 << 16) - rows.length));
    const tail = Buffer.from([0xac, 0x2c, 0x79]);
    const bytes = Buffer.concat([head, Buffer.from([0xe2, 0x82]), rest, tail]);
    const feed = await read('broken.csv', bytes);
    expect(feed.encoding).toBe('windows-1252');
    expect(feed.cells[0]).toEqual(['â‚', 'x']);
    expect(feed.cells.at(-1)).toEqual(['¬', 'y']);
  });

  it('reads a file as windows-1252 when a byte after pieces of ASCII is not UTF-8', async () => {
    const text = Buffer.from(`root,url\n${ascii.join('\n')}\n`);
    // 0x80 is € and 0x93 0x94 are “ ” in windows-1252.
    const feed = await read(
      'cp1252.csv',
      Buffer.concat([text, Buffer.from([0x80, 0x2c, 0x93, 0x78, 0x94])]),
    );
    expect(feed.encoding).toBe('windows-1252');
    expect(feed.cells.at(-1)).toEqual(['€', '“x”']);
    expect(feed.cells).toHaveLength(4001);
  });

  it('drops the BOM of an ASCII file', async () => {
    const rows = Buffer.from(`root,url\n${ascii.join('\n')}`);
    const plain = await read('plain.csv', rows);
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(await read('bom.csv', Buffer.concat([bom, rows]))).toEqual(plain);
    // The decoder drops the first BOM and the CSV parser the second.
    expect(await read('bom2.csv', Buffer.concat([bom, bom, rows]))).toEqual(plain);
  });
});

describe('readFeed, against the import of the whole text (importCsvRows)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'adloom-feed-bytes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;

  /** A file holding `bytes`, written once for every piece size it is read in. */
  function fileOf(bytes: Uint8Array): string {
    const file = path.join(dir, `${files++}.csv`);
    writeFileSync(file, bytes);
    return file;
  }

  /** What readFeed makes of `file` read in pieces of `pieceBytes`, in importCsvRows' shape. */
  async function readAs(file: string, pieceBytes: number) {
    try {
      const feed = await readFeed(file, pieceBytes);
      const rows = Array.from({ length: feed.rows.length }, (_, i) => {
        const { id: _id, ...row } = feed.rows.at(i)!;
        return row;
      });
      return {
        ok: true,
        rows,
        truncated: feed.truncated,
        columns: feed.columns,
        ignoredHeaders: feed.ignoredHeaders,
        sourceLines: rows.map((_, i) => feed.rows.lineOfRow(i + 1)),
        delimiter: feed.delimiter,
        encoding: feed.encoding,
      };
    } catch (e) {
      return { ok: false, error: String((e as Error).message).replace(`Feed ${file}: `, '') };
    }
  }

  /**
   * Reads `text` as a UTF-8 file (or `bytes`) in pieces of every size up to 200 bytes (every
   * place in the file is a piece's end with some) and of a few bigger sizes.
   */
  async function expectAsImported(text: string, encoding = 'utf-8', bytes = Buffer.from(text)) {
    const imported = importCsvRows(text);
    const expected = imported.ok ? { ...imported, encoding } : imported;
    const sizes = Array.from({ length: Math.min(bytes.length + 2, 200) }, (_, i) => i + 1);
    const file = fileOf(bytes);
    for (const size of [...sizes, 1000, 4096, 1 << 16])
      expect(await readAs(file, size), `pieces of ${size} bytes`).toEqual(expected);
    rmSync(file);
  }

  const header = 'Root,Modifier,Var 1,Final URL';

  it('reads plain records, blank records and every line ending as the import does', async () => {
    await expectAsImported(
      `${header}\r\nnike,shoes,red,https://x.example/1\n\nadidas,boots,,https://x.example/2\r` +
        `\r\n,,,\r\npuma,,blue,\n,,,x\nasics,a,b,c,extra,cells\nreebok\r\nhoka,trail`,
    );
  });

  it('reads quoted cells, line breaks inside them and stray quotes as the import does', async () => {
    await expectAsImported(
      `${header}\n"a,b",shoes,"x""y",https://x.example/5\n"say ""hi""",` +
        `"two\nlines","cr\rand\r\ncrlf",u\nmid"quote,x"y"z,"q"after,w\n` +
        `"",""""\n"open,"\nnext,row`,
    );
    // A quoted cell never closed runs to the end of the file.
    await expectAsImported(`${header}\nplain,row\n"never closed,a\nb\r\nc`);
  });

  it('trims and blanks cells as the import does, Unicode spaces too', async () => {
    // One cell to trim a line, in each column in turn: a record is read whole one way or the
    // other, so a cell to trim among plain ones must not pass as plain.
    const spaced = [
      ' a',
      'b ',
      '\tc',
      'd\t',
      '\u00a0e',
      'f\u00a0',
      '\u3000g',
      'h\u2009',
      '\u200ai',
    ];
    const more = ['\u2028j', 'k\ufeff', '\ufeffl', 'm\u000b', '\u000cn', ' ', '\u00a0', '\u3000'];
    const lines = [...spaced, ...more].map((cell, i) => {
      const cells = ['w', 'x', 'y', 'z'];
      cells[i % 4] = cell;
      return cells.join(',');
    });
    await expectAsImported(`${header}\n${lines.join('\n')}\n`);
    // Blank records, kept characters inside cells and at their ends, characters not spaces.
    await expectAsImported(
      `${header}\n  ,\t, \n\u00a0,\u3000\n,,,\u00a0\nx\ufeffy,a\u00a0b,\u0001w,z\u0001\n` +
        `é,ß,😀,日本\ncafé crème,Straße,🏃 run,https://x.example/é\n\u00e9\u00a1,\u2030,\u3001,x`,
    );
  });

  it('cuts long cells and reports them as the import does', async () => {
    const long = 'abcdefghij'.repeat(3);
    await expectAsImported(
      `${header}\n${long},${long}x,${'é'.repeat(30)},${'é'.repeat(31)}\n` +
        `${'😀'.repeat(15)},${'😀'.repeat(16)},${'日'.repeat(29)}a b,u\n` +
        `${long}  ,x,y,https://x.example/${'a'.repeat(2040)}\n` +
        `a,b,c,https://x.example/${'é'.repeat(2020)}\n"${long}x",q,r,s`,
    );
  });

  it('maps headers as the import does: columns named twice, unknown and missing columns', async () => {
    await expectAsImported(
      'x,root,Root,y,url,Final URL\n1,,b,2,,u2\n1,a,b,2,u1,u2\n1, ,b,2, u1 ,u2\n,,,,,\n1,,,2,,\n',
    );
    await expectAsImported('url,mod\nhttps://x.example,m\n');
    await expectAsImported('"Root","Var 3"\r\n"a",b\r\n');
  });

  it('keeps a U+FEFF that starts a record after the first, before a quote too', async () => {
    await expectAsImported(`${header}\na,b\n\ufeff"c,d",e\n\ufeffx,y\n`);
    // The file's BOM.
    await expectAsImported(`\ufeff${header}\n\ufeffa,b\n`);
  });

  it('drops two BOMs that start the file, as the decoder and the CSV parser each drop one', async () => {
    const text = '"Root",url\n"a,b",c\n';
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const feed = await readAs(fileOf(Buffer.concat([bom, bom, Buffer.from(text)])), 1 << 16);
    expect(feed).toEqual({ ...importCsvRows(text), encoding: 'utf-8' });
  });

  it("tells each cell's first character as the row read tells it, rows as in the file too", async () => {
    const texts = [
      `${header}\n=a,+b,-c,@d\nx,,,\n,,,=u\nCafé,=ß,@😀,-é\n"=q",r,s,t\n`,
      'Var 3,x,Root,url,mod\n=a,1,+b,-u,@m\n,,,@u,\n',
      'url,root\n=u,+r\n',
    ];
    for (const text of texts) {
      const feed = await readFeed(fileOf(Buffer.from(text)), 16);
      for (let i = 0; i < feed.rows.length; i++)
        for (const c of ['root', 'mod', 'var1', 'var2', 'var3', 'url'] as const)
          expect(feed.rows.firstCodeOf(i, c), `${text} row ${i} ${c}`).toEqual(
            feed.rows.at(i)![c].charCodeAt(0),
          );
    }
  });

  it('gives the import errors: an empty file, a blank first line, no known column', async () => {
    await expectAsImported('');
    await expectAsImported('\n\n');
    await expectAsImported('\nroot\nx\n');
    await expectAsImported('name,price\nx,1\n');
    await expectAsImported(' , \nroot\n');
  });

  it('reads a file as windows-1252 when a byte at any place is not UTF-8', async () => {
    const text = `${header}\ncafé,crème,x,https://x.example/é\nplain,row,,u\n`;
    for (const at of [0, 10, text.indexOf('é') + 1, text.length - 2]) {
      // 0xE9 is é in windows-1252 and Latin-1, and never a whole character in UTF-8.
      const latin1 = `${text.slice(0, at)}é${text.slice(at)}`;
      await expectAsImported(latin1, 'windows-1252', Buffer.from(latin1, 'latin1'));
    }
    // A character cut off by the end of the file.
    const cut = Buffer.concat([Buffer.from(`${header}\na,b\nc,`), Buffer.from('€').subarray(0, 2)]);
    const cutFile = fileOf(cut);
    for (let size = 1; size <= cut.length; size++)
      expect((await readAs(cutFile, size)).encoding, `pieces of ${size}`).toBe('windows-1252');
  });

  it('reads a UTF-16 file as the import does', async () => {
    const text = `${header}\n"a,b",é,😀,u\nx,y,z,w\n`;
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    await expectAsImported(text, 'utf-16le', bytes);
  });

  it("reads Excel's Unicode text and Editor's export: UTF-16 with a BOM, tab-separated", async () => {
    const text = `Root\tModifier\tVar 1\tFinal URL\r\nnike\t"air, max"\tcafé 😀\thttps://x.example/1\r\n`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    await expectAsImported(text, 'utf-16le', le);
    const be = Buffer.from(text, 'utf16le').swap16();
    await expectAsImported(text, 'utf-16be', Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
    const feed = await readAs(fileOf(le), 1 << 16);
    expect(feed).toMatchObject({
      ok: true,
      delimiter: '\t',
      columns: ['root', 'mod', 'var1', 'url'],
    });
    expect(feed.ok && feed.rows?.[0]).toMatchObject({
      root: 'nike',
      mod: 'air, max',
      var1: 'café 😀',
    });
  });

  it('reads a semicolon-separated file (Excel in European locales), in UTF-8 or windows-1252', async () => {
    const text = `Root;Modifier;Var 1;Final URL\r\nnike;"air; max";crème;https://x.example/1\r\n${Array.from({ length: 300 }, (_, i) => `r${i};;;u`).join('\n')}\n`;
    await expectAsImported(text);
    const feed = await readAs(fileOf(Buffer.from(text)), 1 << 16);
    expect(feed).toMatchObject({ ok: true, delimiter: ';' });
    expect(feed.ok && feed.rows?.[0]).toMatchObject({
      root: 'nike',
      mod: 'air; max',
      var1: 'crème',
    });
    await expectAsImported(text, 'windows-1252', Buffer.from(text, 'latin1'));
  });

  it('keeps a comma file whose cells hold semicolons a comma file', async () => {
    const text = `${header}\nnike;adidas,a;b;c,x,https://x.example/?a=1;b=2\n`;
    await expectAsImported(text);
    const feed = await readAs(fileOf(Buffer.from(text)), 1 << 16);
    expect(feed).toMatchObject({ ok: true, delimiter: ',' });
    expect(feed.ok && feed.rows?.[0]).toMatchObject({ root: 'nike;adidas', mod: 'a;b;c' });
  });
});
