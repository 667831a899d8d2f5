import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PackedFeedRows, readFeed } from './feed.ts';

/** A feed row's cells, the unnamed ones empty. */
function data(cells: Partial<Record<'root' | 'mod' | 'var1' | 'var2' | 'var3' | 'url', string>>) {
  return { root: '', mod: '', var1: '', var2: '', var3: '', url: '', ...cells };
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
    ];
    added.forEach((row, i) => rows.add(row, i + 2));
    expect(rows.length).toBe(added.length);
    added.forEach((row, i) => {
      expect(rows.at(i)).toEqual({ id: String(i + 1), ...row });
      expect(rows.lineOfRow(i + 1)).toBe(i + 2);
    });
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
    ];
    added.forEach((row, i) => rows.add(row, i + 2));
    const columns = ['root', 'mod', 'var1', 'var2', 'var3', 'url'] as const;
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
