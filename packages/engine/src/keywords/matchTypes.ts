/** Match types as the keyword path numbers them: the code of a match type is its index. */
import type { MatchType } from '../types.ts';

/**
 * Match types by code (the code is the index): the positives first (up to `EXACT`), then the
 * negatives. Negative Phrase came last, after the codes were set.
 */
export const MATCH_TYPE_CODES: readonly MatchType[] = [
  'Broad',
  'Phrase',
  'Exact',
  'Negative Broad',
  'Negative Exact',
  'Negative Phrase',
];
export const BROAD = 0;
export const EXACT = 2;
export const NEGATIVE_EXACT = 4;
export const NEGATIVE_PHRASE = 5;
/** Group "match type" code of an ad group pattern without `{mt}`. */
export const NO_MT = 6;

/** The code of `mt`. */
export function matchTypeCode(mt: MatchType): number {
  return MATCH_TYPE_CODES.indexOf(mt);
}
