import { describe, expect, it } from 'vitest';
import { pickNewXmlRows } from './xmlRows.ts';

describe('pickNewXmlRows (issue 17: each combination once)', () => {
  it('leaves out the pairs the feed holds, case and outer spaces ignored', () => {
    const existing: [string, string][] = [
      ['acme', 'SHOES'],
      ['Lumen', ''],
    ];
    expect(
      pickNewXmlRows(existing, [
        { root: 'Acme', mod: 'Shoes' },
        { root: ' lumen ', mod: '' },
        { root: 'Lumen', mod: 'Home' },
        { root: 'Acme', mod: 'Hats' },
      ]),
    ).toEqual([
      { root: 'Lumen', mod: 'Home' },
      { root: 'Acme', mod: 'Hats' },
    ]);
  });

  it('keeps the first of pairs that differ only in case, in the order given', () => {
    expect(
      pickNewXmlRows(
        [],
        [
          { root: 'Café Noir', mod: '' },
          { root: 'CAFÉ NOIR', mod: '' },
          { root: 'Ben & Jerry’s', mod: 'Food' },
        ],
      ),
    ).toEqual([
      { root: 'Café Noir', mod: '' },
      { root: 'Ben & Jerry’s', mod: 'Food' },
    ]);
  });
});
