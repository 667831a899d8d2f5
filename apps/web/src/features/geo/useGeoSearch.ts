import { useEffect, useState } from 'react';
import type { GeoParamsInput, GeoSearchAnswer } from '@adloom/contract';
import { describeGeoFailure, searchGeoTargets, type GeoFailure } from '../../api/geo.ts';

/** The search runs this long after the last keystroke. */
export const GEO_SEARCH_DEBOUNCE_MS = 200;
/** How many of the first matches the modal lists. */
export const GEO_PREVIEW_ROWS = 20;

/** The live search of the modal. */
export type GeoSearchState =
  /** No complete search yet (no type, or no country code where one is needed). */
  | { kind: 'idle' }
  /** A search is waiting or running; `previous` is the last answer, shown meanwhile. */
  | { kind: 'searching'; previous: GeoSearchAnswer | null }
  | { kind: 'done'; answer: GeoSearchAnswer }
  | { kind: 'failed'; failure: GeoFailure };

/**
 * Searches `params` (debounced) and keeps the answer of the newest search: a search made stale
 * by another keystroke is cancelled, and its answer, should it still arrive, is dropped.
 */
export function useGeoSearch(params: GeoParamsInput | null): GeoSearchState {
  const key = params === null ? null : JSON.stringify(params);
  const [state, setState] = useState<GeoSearchState>({ kind: 'idle' });

  useEffect(() => {
    if (key === null) {
      setState({ kind: 'idle' });
      return undefined;
    }
    const search = JSON.parse(key) as GeoParamsInput;
    const controller = new AbortController();
    setState((current) => ({
      kind: 'searching',
      previous:
        current.kind === 'done'
          ? current.answer
          : current.kind === 'searching'
            ? current.previous
            : null,
    }));
    const timer = setTimeout(() => {
      searchGeoTargets(search, GEO_PREVIEW_ROWS, controller.signal).then(
        (answer) => {
          if (!controller.signal.aborted) setState({ kind: 'done', answer });
        },
        (error: unknown) => {
          if (!controller.signal.aborted)
            setState({ kind: 'failed', failure: describeGeoFailure(error) });
        },
      );
    }, GEO_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]);

  return state;
}
