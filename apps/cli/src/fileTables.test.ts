import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvRecordsAfter, csvRecordsOfFile, someCsvRecordsOfFile } from './fileTables.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'adloom-file-tables-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A cell as the command writes it: quoted when it holds a comma, a quote or a line break. */
function cell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Seeded random numbers in [0, 1). */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('reading some records of a file the command wrote', () => {
  it.each([1, 2, 3])(
    'gives exactly the wanted records, with their indices, whatever they hold (seed %i)',
    (seed) => {
      const rand = seeded(seed);
      const pieces = [
        'plain',
        'a, comma',
        'a "quote"',
        'two\r\nlines',
        '',
        'Ünïcödé ✓',
        'x'.repeat(3000),
      ];
      const rows: string[][] = [];
      // Enough rows that the file spans several of the reader's 1 MB pieces.
      for (let r = 0; r < 4000; r++)
        rows.push(Array.from({ length: 4 }, () => pieces[Math.floor(rand() * pieces.length)]!));
      const file = path.join(dir, `t${seed}.csv`);
      const text = [['A', 'B', 'C', 'D'], ...rows].map((r) => r.map(cell).join(',')).join('\r\n');
      writeFileSync(file, `\uFEFF${text}\r\n`);
      const all = [...csvRecordsOfFile(file)];
      expect(all.slice(1)).toEqual(rows);
      const wanted = new Set(rows.map((_, r) => r).filter(() => rand() < 0.1));
      const got = [...someCsvRecordsOfFile(file, (r) => wanted.has(r))];
      expect(got[0]).toEqual([-1, ['A', 'B', 'C', 'D']]);
      expect(got.slice(1)).toEqual([...wanted].sort((a, b) => a - b).map((r) => [r, rows[r]]));
    },
  );

  it('reads the last record without a line break after it', () => {
    const file = path.join(dir, 'last.csv');
    writeFileSync(file, 'A,B\r\n1,2\r\n"3\n",4\r\n5,6');
    expect([...someCsvRecordsOfFile(file, (r) => r !== 1)]).toEqual([
      [-1, ['A', 'B']],
      [0, ['1', '2']],
      [2, ['5', '6']],
    ]);
  });
});

describe('records of chunks, each after the text the last one left', () => {
  it.each([4, 5, 6])('are the records of the whole text, however it is cut (seed %i)', (seed) => {
    const rand = seeded(seed);
    const values = [
      'plain',
      'a, comma',
      'a "quote"',
      'two\r\nlines',
      'ends\n',
      'lone\rcr',
      '',
      'Ünïcödé',
    ];
    const rows = Array.from({ length: 300 }, () =>
      Array.from({ length: 3 }, () => values[Math.floor(rand() * values.length)]!),
    );
    const text = `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
    const got: string[][] = [];
    let carry = '';
    for (let at = 0; at < text.length;) {
      const n = 1 + Math.floor(rand() * 120);
      const parsed = csvRecordsAfter(carry, text.slice(at, at + n), at + n >= text.length);
      got.push(...parsed.records);
      carry = parsed.rest;
      at += n;
    }
    expect(carry).toBe('');
    expect(got).toEqual(rows);
  });
});
