import { createStore, type Store } from '../../state/store.ts';
import { useBuilderWorkspace } from '../builder/BuilderProvider.tsx';
import { campaignOutputOf } from '../builder/campaignOutputStore.ts';
import type { OutputRegistry } from '../builder/outputRegistry.ts';
import type { AdOutput } from './adJobs.ts';

/** The last generated ads of each ad tab (kept while the person moves between tabs). */
export interface AdOutputs {
  rsa: AdOutput | null;
  performance: AdOutput | null;
}

/** The output words of each kind's Editor file name (`editorFileName(client, word)`). */
export const AD_FILE_NAMES: Readonly<Record<keyof AdOutputs, string>> = {
  rsa: 'responsive search ads',
  performance: 'performance max ads',
};

/**
 * Generated ads; cleared when the campaign output is (spec section 4: the campaign template or
 * the client changed), which they were generated from.
 */
export function adOutputsOf(outputs: OutputRegistry): Store<AdOutputs> {
  return outputs.session('adOutputs', () => {
    const ads = createStore<AdOutputs>({ rsa: null, performance: null });
    const campaign = campaignOutputOf(outputs);
    campaign.subscribe(() => {
      if (campaign.get() === null) ads.set({ rsa: null, performance: null });
    });
    return ads;
  });
}

/** The ad outputs store of the builder around this component. */
export function useAdOutputsStore(): Store<AdOutputs> {
  return adOutputsOf(useBuilderWorkspace().outputs);
}
