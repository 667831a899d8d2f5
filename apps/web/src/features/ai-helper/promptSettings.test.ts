import { describe, expect, it } from 'vitest';
import type { FeedRow } from '@adloom/engine';
import { clampPosition, valuesFromRows } from './promptSettings.ts';

const row = (root: string, mod: string): FeedRow => ({
  id: root + mod,
  root,
  mod,
  var1: '',
  var2: '',
  var3: '',
  url: '',
});

describe('valuesFromRows', () => {
  it('joins the distinct non-empty values of a column, first seen first', () => {
    const rows = [row('shoes', 'red'), row('boots', ' '), row('shoes', 'blue')];
    expect(valuesFromRows(rows, 'root')).toBe('shoes, boots');
    expect(valuesFromRows(rows, 'mod')).toBe('red, blue');
    expect(valuesFromRows(rows, 'var1')).toBe('');
  });
});

describe('clampPosition', () => {
  it('keeps the panel inside the viewport', () => {
    const size = { width: 380, height: 600 };
    const viewport = { width: 1000, height: 700 };
    expect(clampPosition({ x: -50, y: -10 }, size, viewport)).toEqual({ x: 0, y: 0 });
    expect(clampPosition({ x: 900, y: 900 }, size, viewport)).toEqual({ x: 620, y: 652 });
    expect(clampPosition({ x: 100, y: 200 }, size, viewport)).toEqual({ x: 100, y: 200 });
  });
});
