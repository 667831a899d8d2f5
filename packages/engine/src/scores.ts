/** Validators and scores: how many selected rows a template serves, shown as 'valid/total (percent) emoji'. */
import { compilePerformanceMaxTemplate, fillPerformanceMaxFallback } from './ads/performanceMax.ts';
import { compileRsaTemplate, fillRsaFallback } from './ads/rsa.ts';
import {
  compileExtensionTemplate,
  fillExtensionValues,
  findExtensionProblem,
} from './extensions.ts';
import {
  SCORE_BAND_GOOD_FROM_PERCENT,
  SCORE_BAND_LOW_BELOW_PERCENT,
  SCORE_PERFECT_PERCENT,
} from './limits.ts';
import { NO_ROW_VALUES, RowValues, type PlaceholderValues, type ValueFacts } from './text.ts';
import type { ExtensionTemplate, FeedRow, PerformanceMaxTemplate, RsaTemplate } from './types.ts';

/** The four reaction bands of spec section 4. */
export type ScoreBand = 'low' | 'fair' | 'good' | 'perfect';

/** Emoji and colour of each band (each 5:1 or more on white); red when none matches (no rows). */
export const SCORE_REACTIONS: Readonly<Record<ScoreBand, { emoji: string; color: string }>> = {
  low: { emoji: '😱', color: '#c92a2a' },
  fair: { emoji: '😐', color: '#a35200' },
  good: { emoji: '🙂', color: '#4f7a0b' },
  perfect: { emoji: '🤩', color: '#237032' },
};
/** Colour when no band matches. */
export const SCORE_NO_MATCH_COLOR = '#c92a2a';

/** A template's score over the selected rows. */
export interface Score {
  valid: number;
  total: number;
  percent: number;
  band: ScoreBand | undefined;
  /** 'valid/total (percent%) emoji', or 'NO FEED SELECTED!' when there are no rows. */
  text: string;
  color: string;
}

/** The percent rule: rounds up below 1, otherwise down (0 of n is 0). */
export function scorePercent(valid: number, total: number): number {
  if (total <= 0) return 0;
  const p = (valid / total) * 100;
  return p < 1 ? Math.ceil(p) : Math.floor(p);
}

/** The band of a percent: under 50, 50 to 79, 80 to 99, exactly 100. */
export function scoreBand(percent: number): ScoreBand {
  if (percent >= SCORE_PERFECT_PERCENT) return 'perfect';
  if (percent >= SCORE_BAND_GOOD_FROM_PERCENT) return 'good';
  if (percent >= SCORE_BAND_LOW_BELOW_PERCENT) return 'fair';
  return 'low';
}

/** Builds the score shown beside a template. */
export function makeScore(valid: number, total: number): Score {
  if (total <= 0)
    return {
      valid,
      total,
      percent: 0,
      band: undefined,
      text: 'NO FEED SELECTED!',
      color: SCORE_NO_MATCH_COLOR,
    };
  const percent = scorePercent(valid, total);
  const band = scoreBand(percent);
  const r = SCORE_REACTIONS[band];
  return {
    valid,
    total,
    percent,
    band,
    text: `${valid}/${total} (${percent}%) ${r.emoji}`,
    color: r.color,
  };
}

function values(): PlaceholderValues {
  return { row: NO_ROW_VALUES };
}

/** For each row, the index of the first compiled fallback that `fill` accepts (-1 when none). */
function findFirstValidFallbacks<C>(
  compiled: readonly C[],
  rows: readonly FeedRow[],
  constant: string,
  fill: (fallback: C, v: PlaceholderValues, facts: ValueFacts) => { ok: boolean },
): Int32Array {
  const out = new Int32Array(rows.length).fill(-1);
  const current = new RowValues();
  current.values.const = constant;
  for (let r = 0; r < rows.length; r++) {
    current.setRow(rows[r] as FeedRow);
    for (let i = 0; i < compiled.length; i++) {
      if (fill(compiled[i]!, current.values, current.facts).ok) {
        out[r] = i;
        break;
      }
    }
  }
  return out;
}

/** Index of the first RSA fallback valid for each row (-1 when none); `constant` fills `{const}`. */
export function findValidRsaFallbacks(
  template: RsaTemplate,
  rows: readonly FeedRow[],
  constant = '',
): Int32Array {
  return findFirstValidFallbacks(compileRsaTemplate(template), rows, constant, fillRsaFallback);
}

/** Index of the first Performance Max fallback valid for each row (-1 when none). */
export function findValidPerformanceMaxFallbacks(
  template: PerformanceMaxTemplate,
  rows: readonly FeedRow[],
  constant = '',
): Int32Array {
  return findFirstValidFallbacks(
    compilePerformanceMaxTemplate(template),
    rows,
    constant,
    fillPerformanceMaxFallback,
  );
}

function countValid(indexes: Int32Array): number {
  let n = 0;
  for (const i of indexes) if (i >= 0) n++;
  return n;
}

/** Score of an RSA template: rows with a valid fallback over rows. */
export function scoreRsaTemplate(
  template: RsaTemplate,
  rows: readonly FeedRow[],
  constant = '',
): Score {
  return makeScore(countValid(findValidRsaFallbacks(template, rows, constant)), rows.length);
}

/** Score of a Performance Max template. */
export function scorePerformanceMaxTemplate(
  template: PerformanceMaxTemplate,
  rows: readonly FeedRow[],
  constant = '',
): Score {
  return makeScore(
    countValid(findValidPerformanceMaxFallbacks(template, rows, constant)),
    rows.length,
  );
}

/** Score of an extension template: rows for which some fallback is valid. */
export function scoreExtensionTemplate(
  template: ExtensionTemplate,
  rows: readonly FeedRow[],
): Score {
  const compiled = compileExtensionTemplate(template);
  const type = template.extensionType.name;
  const v = values();
  let valid = 0;
  for (const row of rows) {
    v.row = row;
    if (
      compiled.some(
        (fs) => findExtensionProblem(template, fillExtensionValues(type, fs, v)) === undefined,
      )
    )
      valid++;
  }
  return makeScore(valid, rows.length);
}
