import { useSyncExternalStore } from 'react';
import type { FeedStore } from './feedStore.ts';

/** Re-renders the component whenever the store changes; returns the store's version. */
export function useFeedStoreVersion(store: FeedStore): number {
  return useSyncExternalStore(store.subscribe, store.getVersion, store.getVersion);
}
