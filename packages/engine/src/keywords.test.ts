import { describe, expect, it } from 'vitest';
import { cleanKeyword, normaliseKeyword } from './keywords.ts';

describe('keyword hygiene', () => {
  it.each([
    ['Nike  Air   Max', 'nike air max'],
    [' Nike ', 'nike'],
    ['NIKE', 'nike'],
  ])('normalises %j to %j', (raw, expected) => {
    expect(normaliseKeyword(raw)).toBe(expected);
  });

  it.each([
    ['nike, shoes!', 'nike shoes', [',', '!']],
    ['50% off (today)', '50 off today', ['%', '(', ')']],
    ['a=b;c~d<e>f?g\\h|i', 'a b c d e f g h i', ['=', ';', '~', '<', '>', '?', '\\', '|']],
    ['email@x {x} ^', 'email x x', ['@', '{', '}', '^']],
  ])('cleans %j to %j', (raw, keyword, removed) => {
    const r = cleanKeyword(raw);
    expect(r).toMatchObject({ ok: true, keyword, removed });
  });

  it.each([['men\'s shoes&socks #1 -50$ [x] c++ a+b ./:_ "q"'], ['t-shirt nike -sale']])(
    'keeps allowed characters in %j',
    (raw) => {
      const r = cleanKeyword(raw);
      expect(r.ok && r.keyword).toBe(raw);
      expect(r.ok && r.removed).toEqual([]);
      expect(r.ok && r.notation).toEqual([]);
    },
  );

  it.each([
    ['-Puma', 'puma', ['-'], []],
    ['- Puma Suede', 'puma suede', ['-'], []],
    ['--puma', 'puma', ['-'], []],
    ['+nike +running shoes', 'nike running shoes', ['+'], []],
    ['nike ++air', 'nike air', ['+'], []],
    ['-+nike +air', 'nike air', ['-', '+'], []],
    ['-(puma)', 'puma', ['-'], ['(', ')']],
  ])('strips match type notation from %j: %j', (raw, keyword, notation, removed) => {
    expect(cleanKeyword(raw)).toEqual({ ok: true, keyword, isChanged: true, removed, notation });
  });

  it.each([
    ['', 'empty'],
    ['!!!', 'empty'],
    ['-', 'empty'],
    ['+ -', 'empty'],
    ['a'.repeat(81), 'too-long'],
    ['one two three four five six seven eight nine ten eleven', 'too-many-words'],
  ])('drops %j (%s)', (raw, reason) => {
    expect(cleanKeyword(raw)).toMatchObject({ ok: false, reason });
  });

  it('accepts exactly 80 characters and 10 words', () => {
    expect(cleanKeyword('a'.repeat(80)).ok).toBe(true);
    expect(cleanKeyword('1 2 3 4 5 6 7 8 9 10').ok).toBe(true);
  });
});
