import { describe, expect, it } from 'vitest';
import { formatTsvLines, parseTsvBlock } from './tsv.ts';

describe('parseTsvBlock', () => {
  it.each([
    [
      'a\tb\nc\td\n',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['a\tb\r\nc\r\n', [['a', 'b'], ['c']]],
    ['Root\tModifier\tVar 1\nshoes\tred\tbig', [['shoes', 'red', 'big']]],
    ['root\tmod\turl\nx\ty\tz', [['x', 'y', 'z']]],
    [
      'shoes\tred\nboots\tblue',
      [
        ['shoes', 'red'],
        ['boots', 'blue'],
      ],
    ],
    ['"a\tb"\t"say ""hi"""\n', [['a\tb', 'say "hi"']]],
    ['"multi\nline"\tz', [['multi\nline', 'z']]],
    ['5" nails\tx', [['5" nails', 'x']]],
    ['', []],
    ['\n\n', []],
  ])('parses %j', (text, expected) => {
    expect(parseTsvBlock(text)).toEqual(expected);
  });
});

describe('formatTsvLines', () => {
  it('joins cells with tabs and quotes cells holding tabs, newlines or quotes', () => {
    expect(
      formatTsvLines([
        ['a', 'b'],
        ['c\td', 'say "x"'],
      ]),
    ).toBe('a\tb\n"c\td"\t"say ""x"""');
  });

  it('round-trips through parseTsvBlock', () => {
    const rows = [['shoes', 'red', 'a\nb', '', '', 'https://x.test/?a=1']];
    expect(parseTsvBlock(formatTsvLines(rows))).toEqual(rows);
  });
});
