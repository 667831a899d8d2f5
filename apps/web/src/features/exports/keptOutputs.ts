import { createContext, useContext } from 'react';
import type { TemplateKind } from '@adloom/contract';
import type { ReadableStore } from '../../state/store.ts';
import type { RowsHolder } from './outputOrigin.ts';
import type { OutputRegistry } from './outputRegistry.ts';

/**
 * What the exports feature reads of the workspace whose outputs it keeps: its outputs, the active
 * client, the template sets (to tell an output made from a template changed since) and the rows.
 * The builder's workspace is one; the builder page provides it (`KeptOutputsContext`), so this
 * feature never imports the builder.
 */
export interface KeptOutputsHost extends RowsHolder {
  readonly outputs: OutputRegistry;
  /** The active client by name, and by id once its bundle is loaded (the build history's calls). */
  readonly state: ReadableStore<{ client: string | null; clientId?: string | null }>;
  readonly templateSets: {
    get(kind: TemplateKind): {
      readonly state: ReadableStore<{ templates: readonly { name: string }[] }>;
    };
  };
}

export const KeptOutputsContext = createContext<KeptOutputsHost | null>(null);

/** The workspace whose outputs the exports read: only inside a `KeptOutputsContext`. */
export function useKeptOutputs(): KeptOutputsHost {
  const host = useContext(KeptOutputsContext);
  if (!host) throw new Error('useKeptOutputs is used outside a KeptOutputsContext provider');
  return host;
}
