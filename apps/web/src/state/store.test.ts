import { describe, expect, it } from 'vitest';
import { combineStores, createStore } from './store.ts';

describe('combineStores', () => {
  it('gives the same array until one store changes, and tells its listeners of every change', () => {
    const a = createStore(1);
    const b = createStore('x');
    const both = combineStores([a, b]);
    const first = both.get();
    expect(first).toEqual([1, 'x']);
    expect(both.get()).toBe(first);
    let calls = 0;
    const stop = both.subscribe(() => (calls += 1));
    b.set('y');
    expect(both.get()).toEqual([1, 'y']);
    expect(both.get()).not.toBe(first);
    stop();
    a.set(2);
    expect(calls).toBe(1);
  });
});
