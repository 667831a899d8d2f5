import type { CampaignTemplate } from '@adloom/engine';
import { createStore, type Store } from '../../state/store.ts';
import { useBuilderWorkspace } from '../builder/BuilderProvider.tsx';
import { campaignOutputOf } from '../builder/campaignOutputStore.ts';
import type { OutputRegistry } from '../builder/outputRegistry.ts';
import type { CampaignOutput } from './campaignJobs.ts';

/** The Campaigns tab's last output (kept while the person visits other tabs). */
export interface CampaignTabOutput {
  /** The template object it was made from: any edit makes a new object and clears it. */
  template: CampaignTemplate;
  output: CampaignOutput;
  rowCount: number;
  elapsedMs: number;
}

/** The Campaigns tab's output store: kept for the workspace, cleared by a template change. */
export function campaignTabOutputOf(outputs: OutputRegistry): Store<CampaignTabOutput | null> {
  return outputs.session('campaignTabOutput', () => createStore<CampaignTabOutput | null>(null));
}

/** The Campaigns tab's output store of the builder around this component. */
export function useCampaignTabOutputStore(): Store<CampaignTabOutput | null> {
  return campaignTabOutputOf(useBuilderWorkspace().outputs);
}

/** The output words of each table's Editor file name (`editorFileName(client, word)`). */
export const CAMPAIGN_FILE_NAMES = {
  keywords: 'keywords',
  negatives: 'negatives',
  assetGroups: 'asset groups',
  campaigns: 'campaigns',
} as const satisfies Record<
  keyof Pick<CampaignOutput, 'keywords' | 'negatives' | 'campaigns' | 'assetGroups'>,
  string
>;

/**
 * Spec section 4: changing the campaign template clears output, asset groups and ad groups.
 * Called with the active template; clears when it is not the one the output came from.
 */
export function clearOutputUnlessFrom(
  outputs: OutputRegistry,
  template: CampaignTemplate | null,
): void {
  const tabOutput = campaignTabOutputOf(outputs);
  const current = tabOutput.get();
  if (current && current.template !== template) {
    tabOutput.set(null);
    campaignOutputOf(outputs).set(null);
  }
}

/** Replaces one output table with an empty one (its Clear button). */
export function clearOneOutput(
  tabOutput: Store<CampaignTabOutput | null>,
  which: keyof Pick<CampaignOutput, 'keywords' | 'negatives' | 'campaigns' | 'assetGroups'>,
): void {
  const current = tabOutput.get();
  if (!current) return;
  const table = current.output[which];
  tabOutput.set({
    ...current,
    output: {
      ...current.output,
      [which]: {
        ...table,
        rowCount: 0,
        columns: table.columns.map(() => ({ text: '', offsets: new Uint32Array(1), codes: null })),
      },
    },
  });
}
