import { describe, expect, it } from 'vitest';
import {
  FEED_COLUMN_DEFINITIONS,
  FEED_COLUMN_LABELS,
  FEED_COLUMNS,
  FEED_TEXT_COLUMNS,
  URL_COLUMN_INDEX,
  STATUS_COLUMN_INDEX,
  completeFeedRow,
  describeFeedColumnKeys,
  feedCellsFrom,
  haveSameFeedCells,
  isEmptyFeedCells,
} from './feedColumns.ts';
import { SEED_COLUMNS, findFeedColumn } from './data.ts';
import { FEED_CELL_MAX_CHARS } from './limits.ts';
import { PLACEHOLDERS, SLOT_NUMBER, compilePattern, fillPattern } from './text.ts';

describe('the feed-column list', () => {
  it('has unique keys, text columns first, then url, then status (packed rows rely on it)', () => {
    expect(new Set(FEED_COLUMNS).size).toBe(FEED_COLUMNS.length);
    expect(FEED_COLUMNS.slice(-2)).toEqual(['url', 'status']);
    expect(URL_COLUMN_INDEX).toBe(FEED_COLUMNS.length - 2);
    expect(STATUS_COLUMN_INDEX).toBe(FEED_COLUMNS.length - 1);
    expect(FEED_TEXT_COLUMNS).toEqual(FEED_COLUMNS.slice(0, -2));
    for (const d of FEED_COLUMN_DEFINITIONS)
      if (d.isText) expect(d.maxChars).toBe(FEED_CELL_MAX_CHARS);
  });

  it('is where the placeholders, seeds and labels come from', () => {
    expect(PLACEHOLDERS).toEqual([...FEED_COLUMNS, 'const', 'mt']);
    PLACEHOLDERS.forEach((name, i) => expect(SLOT_NUMBER[name]).toBe(i));
    expect(SEED_COLUMNS).toEqual(FEED_TEXT_COLUMNS);
    expect(Object.keys(FEED_COLUMN_LABELS)).toEqual(FEED_COLUMNS);
  });

  it('fills every column placeholder from its cell', () => {
    const row = feedCellsFrom(FEED_COLUMNS.map((c) => `<${c}>`));
    const pattern = compilePattern(FEED_COLUMNS.map((c) => `{${c.toUpperCase()}}`).join(' '));
    expect(fillPattern(pattern, { row })).toBe(FEED_COLUMNS.map((c) => `<${c}>`).join(' '));
  });

  it('maps each column from its key, its label and its aliases, in any case', () => {
    for (const d of FEED_COLUMN_DEFINITIONS) {
      expect(findFeedColumn(d.key.toUpperCase())).toBe(d.key);
      expect(findFeedColumn(` ${d.label.toLowerCase()} `.replace(' ', '_'))).toBe(d.key);
      for (const alias of d.headerAliases) expect(findFeedColumn(alias)).toBe(d.key);
    }
    expect(findFeedColumn('Final URL')).toBe('url');
    expect(findFeedColumn('Modifier')).toBe('mod');
    expect(findFeedColumn('Availability')).toBe('status');
    expect(findFeedColumn('nothing')).toBeUndefined();
  });

  it('completes partial rows and names its keys', () => {
    expect(completeFeedRow('r', { root: 'a', url: 'u' })).toEqual({
      id: 'r',
      ...Object.fromEntries(FEED_COLUMNS.map((c) => [c, ''])),
      root: 'a',
      url: 'u',
    });
    expect(describeFeedColumnKeys(['a', 'b', 'c'])).toBe('a, b or c');
  });

  it('reads a row stored before the status column as one whose status is empty', () => {
    const legacy = { root: '', mod: '', var1: '', var2: '', var3: '', url: '' };
    expect(isEmptyFeedCells(legacy)).toBe(true);
    expect(isEmptyFeedCells({ ...legacy, status: 'paused' })).toBe(false);
    expect(haveSameFeedCells({ ...legacy, root: 'a' }, { ...legacy, root: 'a', status: '' })).toBe(
      true,
    );
    expect(
      haveSameFeedCells({ ...legacy, root: 'a' }, { ...legacy, root: 'a', status: 'paused' }),
    ).toBe(false);
  });
});
