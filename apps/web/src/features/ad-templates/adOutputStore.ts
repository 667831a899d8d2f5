import type { Store } from '../../state/store.ts';
import { useBuilderWorkspace } from '../builder/useBuilderWorkspace.ts';
import type { OutputOrigin } from '../exports/outputOrigin.ts';
import type { OutputRegistry } from '../exports/outputRegistry.ts';
import type { AdOutput } from './adJobs.ts';

/** Generated ads as the tab keeps them: which template and rows made them, from which groups. */
export interface KeptAdOutput extends AdOutput {
  /** The ad template and the rows. */
  origin: OutputOrigin;
  /** The campaign output whose ad groups (or asset groups) the ads are for. */
  groupsOrigin: OutputOrigin;
}

/** The last generated ads of each ad tab (kept while the person moves between tabs). */
export interface AdOutputs {
  rsa: KeptAdOutput | null;
  performance: KeptAdOutput | null;
}

/**
 * Generated ads of the active client: each kind kept until it is generated again, the person
 * clears it or the client changes; a campaign template change keeps them (issue 14).
 */
export function adOutputsOf(outputs: OutputRegistry): Store<AdOutputs> {
  return outputs.clientStore<AdOutputs>('adOutputs', { rsa: null, performance: null });
}

/** The ad outputs store of the builder around this component. */
export function useAdOutputsStore(): Store<AdOutputs> {
  return adOutputsOf(useBuilderWorkspace().outputs);
}
