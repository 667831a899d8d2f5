import { createStore } from '../../state/store.ts';
import { campaignOutputStore } from '../builder/campaignOutputStore.ts';
import type { AdOutput } from './adJobs.ts';

/** The last generated ads of each ad tab (kept while the person moves between tabs). */
export interface AdOutputs {
  rsa: AdOutput | null;
  performance: AdOutput | null;
}

/** Generated ads; cleared when the campaign output is (spec section 4: the campaign template changed). */
export const adOutputStore = createStore<AdOutputs>({ rsa: null, performance: null });

/** The output words of each kind's Editor file name (`editorFileName(client, word)`). */
export const AD_FILE_NAMES: Readonly<Record<keyof AdOutputs, string>> = {
  rsa: 'responsive search ads',
  performance: 'performance max ads',
};

campaignOutputStore.subscribe(() => {
  if (campaignOutputStore.get() === null) adOutputStore.set({ rsa: null, performance: null });
});
