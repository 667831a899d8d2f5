import { mergePartOutputs } from '../generation/index.ts';
import type { AdOutput } from './adJobs.ts';

/** A pool's ads job parts as one output (on the page; see generation/enginePool.ts). */
export function mergeAdParts(parts: AdOutput[]): Promise<AdOutput> {
  return mergePartOutputs(parts, ['adCount', 'groupCount']);
}
