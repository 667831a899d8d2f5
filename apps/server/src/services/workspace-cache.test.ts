import { describe, expect, it } from 'vitest';
import { FeedRowsCache } from './workspace-cache.ts';

describe('FeedRowsCache', () => {
  it('answers only the version it holds, and forgets an outdated one', () => {
    const cache = new FeedRowsCache(100);
    cache.set('f1', 'v1', '[1]');
    expect(cache.get('f1', 'v1')).toBe('[1]');
    expect(cache.get('f1', 'v2')).toBeUndefined();
    expect(cache.get('f1', 'v1')).toBeUndefined();
    expect(cache.heldChars).toBe(0);
  });

  it('evicts the least recently used entries beyond its budget', () => {
    const cache = new FeedRowsCache(10);
    cache.set('a', 'v', '1234');
    cache.set('b', 'v', '1234');
    expect(cache.get('a', 'v')).toBe('1234'); // a is now the most recent
    cache.set('c', 'v', '1234');
    expect(cache.get('b', 'v')).toBeUndefined();
    expect(cache.get('a', 'v')).toBe('1234');
    expect(cache.get('c', 'v')).toBe('1234');
    expect(cache.heldChars).toBe(8);
  });

  it('does not hold an entry larger than the whole budget, and replaces on set', () => {
    const cache = new FeedRowsCache(5);
    cache.set('big', 'v', '123456');
    expect(cache.get('big', 'v')).toBeUndefined();
    cache.set('a', 'v1', '12');
    cache.set('a', 'v2', '345');
    expect(cache.get('a', 'v2')).toBe('345');
    expect(cache.heldChars).toBe(3);
  });
});
