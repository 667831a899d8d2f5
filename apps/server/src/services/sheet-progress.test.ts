import { afterEach, describe, expect, it, vi } from 'vitest';
import { SheetProgressRegistry } from './sheet-progress.ts';

describe('SheetProgressRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers a call's progress to its user only, and drops it a while after it ends", () => {
    vi.useFakeTimers();
    const registry = new SheetProgressRegistry(1000);
    const reporter = registry.start('alice', 'p1');
    expect(registry.find('alice', 'p1')).toEqual({ phase: 'reading', done: 0, total: 0 });
    reporter.report('writing', 20_000, 100_001);
    expect(registry.find('alice', 'p1')).toEqual({
      phase: 'writing',
      done: 20_000,
      total: 100_001,
    });
    expect(registry.find('bob', 'p1')).toBeUndefined();
    expect(registry.find('alice', 'p2')).toBeUndefined();
    reporter.finish();
    expect(registry.find('alice', 'p1')).toEqual({ phase: 'done', done: 100_001, total: 100_001 });
    vi.advanceTimersByTime(999);
    expect(registry.find('alice', 'p1')?.phase).toBe('done');
    vi.advanceTimersByTime(1);
    expect(registry.find('alice', 'p1')).toBeUndefined();
  });

  it('keeps a new call with a reused id when the earlier one ends', () => {
    vi.useFakeTimers();
    const registry = new SheetProgressRegistry(1000);
    const first = registry.start('alice', 'p');
    first.finish();
    const second = registry.start('alice', 'p');
    second.report('reading', 5, 10);
    vi.advanceTimersByTime(5000);
    expect(registry.find('alice', 'p')).toEqual({ phase: 'reading', done: 5, total: 10 });
  });

  it('keeps nothing for a call without a progress id', () => {
    const registry = new SheetProgressRegistry();
    const reporter = registry.start('alice', undefined);
    reporter.report('reading', 1, 2);
    reporter.finish();
    expect(registry.find('alice', 'undefined')).toBeUndefined();
  });
});
