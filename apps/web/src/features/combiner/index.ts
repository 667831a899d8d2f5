// The keyword combiner: seed boxes, links and Combine (rows made in a worker).
export { Combiner, SEED_LABELS, type CombinerProps } from './Combiner.tsx';
export { combineIntoStore, type CombineOutcome } from './combineIntoStore.ts';
export {
  planCombination,
  parseSeedText,
  generateCombinationChunks,
  LINKED_LENGTH_MESSAGE,
  COMBINE_MAX_ROWS,
  type CombineInput,
  type CombinePlan,
} from './combine.ts';
