import { createStore } from '../../state/store.ts';
import { campaignOutputStore } from '../generation/index.ts';
import type { AdOutput } from './adJobs.ts';

/** The last generated ads of each ad tab (kept while the person moves between tabs). */
export interface AdOutputs {
  rsa: AdOutput | null;
  performance: AdOutput | null;
}

/** Generated ads; cleared when the campaign output is (spec section 4: the campaign template changed). */
export const adOutputStore = createStore<AdOutputs>({ rsa: null, performance: null });

campaignOutputStore.subscribe(() => {
  if (campaignOutputStore.get() === null) adOutputStore.set({ rsa: null, performance: null });
});
