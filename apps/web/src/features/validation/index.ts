export { TextCounter, type TextCounterProps } from './TextCounter.tsx';
export { measureLongest, findLongestNow, type Longest } from './longest.ts';
export { forEachInSlices, SliceCancelled } from './slices.ts';
