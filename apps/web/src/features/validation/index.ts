export { TextCounter, isTypedTextOver, type TextCounterProps } from './TextCounter.tsx';
export { ValidatorScore, VALIDATOR_TEXTS, type ValidatorScoreProps } from './ValidatorScore.tsx';
export {
  measurerFromRows,
  createBatchMeasurer,
  NO_ROWS_MEASURER,
  type TextMeasurer,
} from './measurer.ts';
export {
  validatorFromRows,
  createCoalescingValidator,
  type FallbackValidator,
} from './validator.ts';
export {
  findLongestOfTexts,
  validateFallbacks,
  FallbackValidation,
  type Longest,
  type FallbackCheck,
  type RowFailure,
  type ValidationResult,
} from './checks.ts';
export { forEachInSlices, SliceCancelled } from './slices.ts';
export { useLongest, LONGEST_DELAY_MS } from './useLongest.ts';
