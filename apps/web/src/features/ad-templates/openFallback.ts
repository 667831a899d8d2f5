import { createStore } from '../../state/store.ts';
import { keptForPage } from '../../state/pageState.ts';

/**
 * The fallback the person has open in an ad tab (the tab's kind and the slide shown), or null
 * when neither ad tab is open: where the AI helper's Add puts a suggestion.
 */
export interface OpenFallback {
  kind: 'rsa' | 'performance';
  index: number;
}

/** The open fallback, set by the ad template editors while they show. */
export const openFallback = createStore<OpenFallback | null>(null);
keptForPage(() => openFallback.set(null));
