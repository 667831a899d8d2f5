// The keyword combiner: seed boxes, links and Combine (rows made in a worker).
export { Combiner, SEED_LABELS } from './Combiner.tsx';
export { parseSeedText } from './combine.ts';
