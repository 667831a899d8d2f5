import type { CampaignTemplate, CampaignType } from '@adloom/engine';
import type { Store } from '../../state/store.ts';
import { useBuilderWorkspace } from '../builder/useBuilderWorkspace.ts';
import type { OutputOrigin } from '../exports/outputOrigin.ts';
import type { OutputRegistry } from '../exports/outputRegistry.ts';
import { emptyPackedTable } from '../generation/jobs.ts';
import type { CampaignOutput } from './campaignJobs.ts';

/** One campaign type's last output on the Campaigns tab. */
export interface CampaignTabOutput {
  /** The template as it was when the output was made (a later edit makes it stale, see origin). */
  template: CampaignTemplate;
  output: CampaignOutput;
  rowCount: number;
  elapsedMs: number;
  origin: OutputOrigin;
}

/** The Campaigns tab's outputs: per campaign type the one generated last. */
export type CampaignTabOutputs = Readonly<Partial<Record<CampaignType, CampaignTabOutput>>>;

/**
 * The Campaigns tab's outputs of the active client: each kept until that campaign type is
 * generated again, the person clears it or the client changes (another template chosen keeps it).
 */
export function campaignTabOutputOf(outputs: OutputRegistry): Store<CampaignTabOutputs> {
  return outputs.clientStore<CampaignTabOutputs>('campaignTabOutput', {});
}

/** The Campaigns tab's output store of the builder around this component. */
export function useCampaignTabOutputStore(): Store<CampaignTabOutputs> {
  return campaignTabOutputOf(useBuilderWorkspace().outputs);
}

/** Replaces one output table with an empty one (its Clear button). */
export function clearOneOutput(
  tabOutput: Store<CampaignTabOutputs>,
  type: CampaignType,
  which: keyof Pick<
    CampaignOutput,
    'keywords' | 'negatives' | 'adGroups' | 'campaigns' | 'assetGroups'
  >,
): void {
  const current = tabOutput.get()[type];
  if (!current) return;
  tabOutput.set((all) => ({
    ...all,
    [type]: {
      ...current,
      output: { ...current.output, [which]: emptyPackedTable(current.output[which].headers) },
    },
  }));
}
