/**
 * The longest a text pattern becomes after substitution over the selected rows, measured as
 * Google counts it (the engine's `measureFill`, which agrees with `countAdTextLength`).
 */
import {
  compilePattern,
  countAdTextLength,
  measureFill,
  newValueFacts,
  prepareValueFacts,
  type FeedRow,
  type PlaceholderValues,
} from '@adloom/engine';
import { forEachInSlices } from './slices.ts';

/** The longest substituted text: its length and the index of the (first) row giving it. */
export interface Longest {
  length: number;
  /** Index into the rows; -1 when the text has no placeholder (every row gives the same text). */
  rowIndex: number;
}

const cache = new WeakMap<readonly FeedRow[], Map<string, Longest>>();
const CACHE_LIMIT_PER_ROWS = 2000;

function remembered(rows: readonly FeedRow[], text: string): Longest | undefined {
  return cache.get(rows)?.get(text);
}

function remember(rows: readonly FeedRow[], text: string, longest: Longest): void {
  let byText = cache.get(rows);
  if (!byText) cache.set(rows, (byText = new Map()));
  if (byText.size >= CACHE_LIMIT_PER_ROWS) byText.clear();
  byText.set(text, longest);
}

/** The answer known without a pass over the rows (a static text, no rows, or a cached result). */
export function findLongestNow(text: string, rows: readonly FeedRow[]): Longest | undefined {
  const pattern = compilePattern(text);
  if (pattern.isStatic) return { length: pattern.staticLength, rowIndex: -1 };
  if (rows.length === 0) return { length: countAdTextLength(text), rowIndex: -1 };
  return remembered(rows, text);
}

/**
 * Measures `text` filled with every row, in slices that never hold the main thread for long;
 * results are cached per rows array (rows arrays are treated as immutable).
 */
export async function measureLongest(
  text: string,
  rows: readonly FeedRow[],
  signal?: AbortSignal,
): Promise<Longest> {
  const known = findLongestNow(text, rows);
  if (known) return known;
  const pattern = compilePattern(text);
  const facts = newValueFacts();
  const values: PlaceholderValues = { row: rows[0] as FeedRow };
  let best: Longest = { length: -1, rowIndex: 0 };
  await forEachInSlices(
    rows.length,
    (i) => {
      values.row = rows[i] as FeedRow;
      prepareValueFacts(facts, values, pattern.slots);
      measureFill(pattern, values, facts);
      if (facts.measured > best.length) best = { length: facts.measured, rowIndex: i };
    },
    signal ? { signal } : {},
  );
  remember(rows, text, best);
  return best;
}
