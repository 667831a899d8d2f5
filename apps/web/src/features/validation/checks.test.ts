import { describe, expect, it } from 'vitest';
import { restoreRsaTemplate, type FeedRow } from '@adloom/engine';
import { findLongestOfTexts, validateFallbacks } from './checks.ts';

function row(id: string, root: string, mod = '', url = 'https://shop.example'): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url };
}

const fallbacks = restoreRsaTemplate({
  templates: [
    {
      headlines: ['Shop {root} at {const}', 'Free delivery', 'Official store'],
      descriptions: ['Buy {root} {mod} today.', 'Fast shipping.'],
    },
  ],
}).templates;

describe('validator checks on the engine rules', () => {
  it('fills {const} from the campaign constant and gives each failing row its reason', () => {
    const rows = [
      row('a', 'Nike', 'Air'),
      row('b', 'Puma', ''),
      row('c', 'Asics', 'Gel', 'shop.com'),
    ];
    const result = validateFallbacks({ kind: 'rsa', fallbacks, constant: 'Paris' }, rows);
    expect(result.valid).toBe(1);
    expect(result.failures.map((f) => [f.rowNumber, f.field, f.reason])).toEqual([
      [
        2,
        'Description 1',
        'Description 1 "Buy {root} {mod} today." has {mod}, which is empty for this row',
      ],
      [3, 'Final URL', 'Final URL "shop.com" is not an http:// or https:// address'],
    ]);
    const noConstant = validateFallbacks({ kind: 'rsa', fallbacks }, rows.slice(0, 1));
    expect(noConstant.failures[0]?.reason).toContain('has {const}, which is empty');
  });

  it('measures texts with the constant filled', () => {
    const [longest] = findLongestOfTexts(['{root} at {const}'], [row('a', 'Nike')], 'Paris');
    expect(longest).toEqual({ length: 'Nike at Paris'.length, rowIndex: 0 });
  });
});
