import { describe, expect, it } from 'vitest';
import { cleanName, foldName, makeUniqueName } from './names.ts';

describe('makeUniqueName', () => {
  it.each([
    ['brands', [], 'brands'],
    ['brands', ['brands'], 'brands (1)'],
    ['brands', ['brands', 'brands (1)'], 'brands (2)'],
    ['brands', ['brands', 'brands (2)'], 'brands (1)'],
    ['Brands', ['brands'], 'Brands'],
  ])('%s among %j -> %s', (name, existing, expected) => {
    expect(makeUniqueName(name, existing)).toBe(expected);
  });
  it('accepts a Set', () => {
    expect(makeUniqueName('a', new Set(['a', 'a (1)']))).toBe('a (2)');
  });
});

describe('cleanName', () => {
  it.each([
    ['Nike  Shoes', 'Nike Shoes', ''],
    ['Nike\nShoes\r', 'Nike Shoes', 'line breaks became spaces'],
    ['Nike\tShoes', 'Nike Shoes', 'tabs became spaces'],
    ['Ni\u0000ke\u0085', 'Nike', 'control characters (such as NUL) were removed'],
    ['Cafe\u0301', 'Caf\u00e9', ''],
    // Issue 36: invisible characters made a second campaign that looks the same in Editor.
    ['Ni\u200bke', 'Nike', 'the invisible zero-width space (U+200B) removed'],
    [
      '\u200eNike\u00ad Air\ufeff',
      'Nike Air',
      'the invisible left-to-right mark (U+200E), soft hyphen (U+00AD), byte order mark (U+FEFF) removed',
    ],
    [
      'Ni\u200dke \u2060x',
      'Nike x',
      'the invisible zero-width joiner (U+200D), word joiner (U+2060) removed',
    ],
    // What shows stays: joiners inside emoji sequences, a variation selector after its character,
    // a zero-width non-joiner between Persian letters.
    [
      'Family \u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
      'Family \u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
      '',
    ],
    ['Love \u2764\ufe0f\u200d\u{1f525}', 'Love \u2764\ufe0f\u200d\u{1f525}', ''],
    [
      '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645',
      '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645',
      '',
    ],
    ['\ufe0fNike', 'Nike', 'the invisible U+FE0F removed'],
  ])('%j -> %j (%s)', (raw, name, change) => {
    expect(cleanName(raw)).toEqual({ name, change, isTooLong: false });
  });

  it('is too long from 255 characters (code points) on', () => {
    expect(cleanName('x'.repeat(254)).isTooLong).toBe(false);
    expect(cleanName('x'.repeat(255)).isTooLong).toBe(true);
    expect(cleanName('😀'.repeat(200)).isTooLong).toBe(false);
  });

  it('folds names equal but for case', () => {
    expect(foldName(cleanName('NIKE Café').name)).toBe(foldName(cleanName('nike Cafe\u0301').name));
  });
});
