import { useMemo } from 'react';
import { useStore } from '../../state/store.ts';
import { useKeptOutputs, type KeptOutputsHost } from './keptOutputs.ts';

/**
 * Who a download is for: the client its files are named after and the client's label on the
 * items they make (issue 35). Every web download takes one, so a tab's own download, a tab's zip
 * and Download everything carry the same Labels for the same table.
 */
export interface DownloadTarget {
  client: string | null;
  /** The client's label, asked when a download starts; undefined: the files go without one. */
  label(): Promise<string | undefined>;
}

/** What knows the active client's label (the account loop, which loads its settings). */
export interface ClientLabelSource {
  label(): Promise<string | undefined>;
}

/** The workspace's label source, kept for its session (set once the account loop is made). */
function labelSlot(host: KeptOutputsHost): { source: ClientLabelSource | null } {
  return host.outputs.session('client-label-source', () => ({ source: null }));
}

/** Makes `source` the workspace's label source for every download from now on. */
export function provideClientLabel(host: KeptOutputsHost, source: ClientLabelSource): void {
  labelSlot(host).source = source;
}

/** The download target of the workspace's active client. */
export function downloadTargetOf(host: KeptOutputsHost): DownloadTarget {
  const slot = labelSlot(host);
  return {
    client: host.state.get().client,
    label: () => slot.source?.label() ?? Promise.resolve(undefined),
  };
}

/** The download target of the active client, for a control inside a `KeptOutputsContext`. */
export function useDownloadTarget(): DownloadTarget {
  const host = useKeptOutputs();
  const { client } = useStore(host.state);
  return useMemo(() => ({ ...downloadTargetOf(host), client }), [host, client]);
}
