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
