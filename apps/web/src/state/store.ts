import { useSyncExternalStore } from 'react';

/** A minimal observable value: read it, replace it, listen to it. */
export interface Store<T> {
  get(): T;
  set(next: T | ((current: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

/** What a reader of a store needs: its value and its changes. */
export type ReadableStore<T> = Pick<Store<T>, 'get' | 'subscribe'>;

/** Creates a store holding `initial`. Listeners run after every change. */
export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const resolved = typeof next === 'function' ? (next as (current: T) => T)(value) : next;
      if (Object.is(resolved, value)) return;
      value = resolved;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Subscribes a component to a store. */
export function useStore<T>(store: ReadableStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/**
 * One readable store over several: its value is their values in order, a new array only when one
 * of them changed (so `useStore` of it re-renders only then).
 */
export function combineStores(
  stores: readonly ReadableStore<unknown>[],
): ReadableStore<readonly unknown[]> {
  let last: readonly unknown[] = stores.map((store) => store.get());
  return {
    get() {
      const now = stores.map((store) => store.get());
      if (now.some((value, i) => !Object.is(value, last[i]))) last = now;
      return last;
    },
    subscribe(listener) {
      const stops = stores.map((store) => store.subscribe(listener));
      return () => {
        for (const stop of stops) stop();
      };
    },
  };
}
