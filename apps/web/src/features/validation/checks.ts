/**
 * The row-by-row checks behind counters and validators, on the engine's own rules: the longest
 * a text becomes after substitution, and which rows an ad template's fallbacks serve (and why
 * the others fail). Pure: runs on the main thread in slices or in the engine worker.
 */
import {
  compilePattern,
  compilePerformanceMaxTemplate,
  compileRsaTemplate,
  describeFailure,
  describeFailureField,
  FEED_TEXT_COLUMNS,
  type FeedRow,
  fillPerformanceMaxFallback,
  fillRsaFallback,
  measureFill,
  newFeedCells,
  newValueFacts,
  type PerformanceMaxFallback,
  type PlaceholderValues,
  prepareValueFacts,
  type RsaFallback,
  type TextFailure,
} from '@adloom/engine';

/** The longest substituted text: its length and the index of the (first) row giving it. */
export interface Longest {
  length: number;
  /**
   * Index into the rows (the worker's measuring job gives the feed position, the grid row - 1);
   * -1 when the text has no placeholder or there are no rows.
   */
  rowIndex: number;
}

/**
 * The longest each text becomes over `rows` (the engine's measuring, with space tidying);
 * `constant` fills `{const}` (the active campaign template's constant).
 */
export function findLongestOfTexts(
  texts: readonly string[],
  rows: readonly FeedRow[],
  constant = '',
  onProgress?: (fraction: number) => void,
): Longest[] {
  const facts = newValueFacts();
  const values: PlaceholderValues = { row: rows[0] as FeedRow, const: constant };
  return texts.map((text, t) => {
    const pattern = compilePattern(text);
    if (pattern.isStatic || rows.length === 0)
      return { length: pattern.isStatic ? pattern.staticLength : 0, rowIndex: -1 };
    let best: Longest = { length: -1, rowIndex: 0 };
    for (let i = 0; i < rows.length; i++) {
      values.row = rows[i] as FeedRow;
      prepareValueFacts(facts, values, pattern.slots);
      measureFill(pattern, values, facts);
      if (facts.measured > best.length) best = { length: facts.measured, rowIndex: i };
    }
    onProgress?.((t + 1) / texts.length);
    return best;
  });
}

/**
 * What a validator checks: some fallbacks of an RSA or Performance Max template, with the
 * campaign template's constant for `{const}` (the validator adds it, see `useFallbackValidator`).
 */
export type FallbackCheck = (
  | { kind: 'rsa'; fallbacks: readonly RsaFallback[] }
  | { kind: 'performance'; fallbacks: readonly PerformanceMaxFallback[] }
) & { constant?: string };

/** A row no fallback serves, with the first fallback's reason. */
export interface RowFailure {
  /** Position among the checked rows, from 1. */
  rowNumber: number;
  /** The row's feed row number when known (from 1), else 0. */
  feedRowNumber: number;
  /** The row's values, to recognise it: root, mod, var1.. joined. */
  rowText: string;
  /** 'Headline 2', 'Description 1', 'Path 1' ... */
  field: string;
  reason: string;
}

/** A validator's answer. */
export interface ValidationResult {
  valid: number;
  total: number;
  /** The first failing rows (at most `FAILURES_KEPT`). */
  failures: RowFailure[];
  /** How many rows fail in all. */
  failing: number;
}

/** Failing rows kept for the list (the count covers them all). */
export const FAILURES_KEPT = 200;

type RowChecker = (
  values: PlaceholderValues,
  facts: ReturnType<typeof newValueFacts>,
) => TextFailure | null;

const NO_FALLBACK: TextFailure = {
  field: 'Fallback',
  index: 0,
  text: '',
  length: 0,
  min: 1,
  max: 0,
};

/** A function telling, for one row, null (a fallback serves it) or the first fallback's failure. */
export function makeRowChecker(check: FallbackCheck): RowChecker {
  if (check.kind === 'rsa') {
    const compiled = compileRsaTemplate({ name: '', templates: [...check.fallbacks] });
    return (values, facts) => {
      let first: TextFailure | null = null;
      for (const f of compiled) {
        const filled = fillRsaFallback(f, values, facts);
        if (filled.ok) return null;
        first ??= filled.failure;
      }
      return first ?? NO_FALLBACK;
    };
  }
  const compiled = compilePerformanceMaxTemplate({ name: '', templates: [...check.fallbacks] });
  return (values, facts) => {
    let first: TextFailure | null = null;
    for (const f of compiled) {
      const filled = fillPerformanceMaxFallback(f, values, facts);
      if (filled.ok) return null;
      first ??= filled.failure;
    }
    return first ?? NO_FALLBACK;
  };
}

function rowText(row: FeedRow): string {
  return FEED_TEXT_COLUMNS.map((column) => row[column])
    .filter((v) => v !== '')
    .join(' · ');
}

/** Accumulates a validation over rows, one row at a time. */
export class FallbackValidation {
  private readonly checker: RowChecker;
  private readonly facts = newValueFacts();
  private readonly values: PlaceholderValues = {
    row: newFeedCells(),
  };
  readonly result: ValidationResult;

  constructor(check: FallbackCheck, total: number) {
    this.checker = makeRowChecker(check);
    this.values.const = check.constant ?? '';
    this.result = { valid: 0, total, failures: [], failing: 0 };
  }

  /** Checks row `index` (its feed position, if known, in `feedPosition`). */
  checkRow(row: FeedRow, index: number, feedPosition = -1): void {
    this.values.row = row;
    prepareValueFacts(this.facts, this.values);
    const failure = this.checker(this.values, this.facts);
    if (failure === null) {
      this.result.valid++;
      return;
    }
    this.result.failing++;
    if (this.result.failures.length < FAILURES_KEPT) {
      this.result.failures.push({
        rowNumber: index + 1,
        feedRowNumber: feedPosition + 1,
        rowText: rowText(row),
        field: failure === NO_FALLBACK ? 'Fallback' : describeFailureField(failure),
        reason: failure === NO_FALLBACK ? 'The template has no fallback' : describeFailure(failure),
      });
    }
  }
}

/** Validates fallbacks over all rows at once (inside the worker, or for few rows). */
export function validateFallbacks(
  check: FallbackCheck,
  rows: readonly FeedRow[],
  rowPositions?: Uint32Array,
  onProgress?: (fraction: number) => void,
): ValidationResult {
  const v = new FallbackValidation(check, rows.length);
  for (let i = 0; i < rows.length; i++) {
    v.checkRow(rows[i] as FeedRow, i, rowPositions ? (rowPositions[i] ?? -1) : -1);
    if (onProgress && (i & 4095) === 4095) onProgress(i / rows.length);
  }
  return v.result;
}
