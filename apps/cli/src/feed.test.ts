import { describe, expect, it } from 'vitest';
import { PackedFeedRows } from './feed.ts';

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
});
