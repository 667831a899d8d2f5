export { TextCounter, isTypedTextOver } from './TextCounter.tsx';
export { ValidatorScore } from './ValidatorScore.tsx';
export { measurerFromRows, type TextMeasurer } from './measurer.ts';
export { validatorFromRows, type FallbackValidator } from './validator.ts';
export { type Longest, type FallbackCheck } from './checks.ts';
export { useLongest } from './useLongest.ts';
