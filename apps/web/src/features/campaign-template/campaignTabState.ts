import type { CampaignTemplate } from '@adloom/engine';
import { createStore } from '../../state/store.ts';
import { campaignOutputStore } from '../builder/campaignOutputStore.ts';
import type { CampaignOutput } from './campaignJobs.ts';

/** The Campaigns tab's last output (kept while the person visits other tabs). */
export interface CampaignTabOutput {
  /** The template object it was made from: any edit makes a new object and clears it. */
  template: CampaignTemplate;
  output: CampaignOutput;
  rowCount: number;
  elapsedMs: number;
}

export const campaignTabOutput = createStore<CampaignTabOutput | null>(null);

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
export function clearOutputUnlessFrom(template: CampaignTemplate | null): void {
  const current = campaignTabOutput.get();
  if (current && current.template !== template) {
    campaignTabOutput.set(null);
    campaignOutputStore.set(null);
  }
}

/** Replaces one output table with an empty one (its Clear button). */
export function clearOneOutput(
  which: keyof Pick<CampaignOutput, 'keywords' | 'negatives' | 'campaigns' | 'assetGroups'>,
): void {
  const current = campaignTabOutput.get();
  if (!current) return;
  const table = current.output[which];
  campaignTabOutput.set({
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
