/** The packed ad group store gives back every name and id as it was added. */
import { describe, expect, it } from 'vitest';
import { PackedAdGroups, rowNumberOf, sharedStart, TextRuns } from './adGroups.ts';

describe('rowNumberOf', () => {
  it('reads ids that are row numbers, and no other', () => {
    expect(rowNumberOf('1')).toBe(1);
    expect(rowNumberOf('2147483647')).toBe(2147483647);
    for (const id of [
      '',
      '0',
      '012',
      '-1',
      '+1',
      '1e3',
      ' 12',
      '12 ',
      '2147483648',
      'x',
      '9999999999',
    ])
      expect(rowNumberOf(id)).toBe(0);
  });
});

describe('PackedAdGroups', () => {
  it('reads back campaigns, names and ids in order', () => {
    const groups = [
      { campaign: 'A', adGroup: 'nike running', id: '1' },
      { campaign: 'A', adGroup: 'Café 🏃', id: '2' },
      { campaign: 'B', adGroup: 'x', id: 'row-3' },
      { campaign: 'A', adGroup: '', id: '007' },
    ];
    const store = new PackedAdGroups();
    for (const g of groups) store.add({ key: `${g.campaign}/${g.adGroup}`, ...g });
    expect([...store]).toEqual(groups);
  });

  it('reads back names that share starts, long names and names over many blocks', () => {
    const long = 'é'.repeat(200) + 'x'.repeat(300);
    const names = [
      '',
      'nike 0 Exact',
      'nike 0 Phrase',
      'nike 0 Broad',
      'nike 0 Broad',
      'nike 0',
      '',
      long,
      long + '🏃',
      long + '🏄',
      '🏃a',
      '🏄a',
      '\ud83c',
      '\ud83cx',
      'a\udc00',
      'a',
    ];
    // 8 blocks' worth of 100-character names, each sharing a start with the one before.
    for (let i = 0; i < 400_000; i++)
      names.push(`${'ß'.repeat(i % 7)}${String(i).repeat(100)}`.slice(0, 100));
    const store = new PackedAdGroups();
    names.forEach((adGroup, i) =>
      store.add({ key: adGroup, campaign: 'C', adGroup, id: String(i + 1) }),
    );
    const got = [...store];
    expect(got.length).toBe(names.length);
    got.forEach((g, i) => {
      if (g.adGroup !== Buffer.from(names[i] as string).toString())
        expect([i, g.adGroup]).toEqual([i, names[i]]);
      if (g.id !== String(i + 1)) expect(g.id).toBe(String(i + 1));
    });
  });
});

describe('sharedStart', () => {
  it('counts the units two names share, at most 255, never half a surrogate pair', () => {
    expect(sharedStart('nike 0 Exact', 'nike 0 Phrase')).toBe(7);
    expect(sharedStart('', 'a')).toBe(0);
    expect(sharedStart('abc', 'abc')).toBe(3);
    expect(sharedStart('x'.repeat(300), 'x'.repeat(300))).toBe(255);
    expect(sharedStart('a🏃', 'a🏄')).toBe(1);
    expect(sharedStart('a🏃', 'a🏃b')).toBe(3);
  });
});

describe('TextRuns', () => {
  it('hands over every text once, in order, in runs', () => {
    const got: string[] = [];
    const runs = new TextRuns((text) => got.push(text));
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i},é 🏃\r\n`);
    for (const line of lines) runs.add(line);
    runs.end();
    runs.end();
    expect(got.length).toBeGreaterThan(1);
    expect(got.join('')).toBe(lines.join(''));
    expect(got.every((t) => t !== '')).toBe(true);
  });
});
