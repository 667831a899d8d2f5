import { describe, expect, it } from 'vitest';
import { makeUniqueName } from './names.ts';

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
