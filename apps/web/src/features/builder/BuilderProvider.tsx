import { createContext, useEffect, useState, type ReactNode } from 'react';
import { session } from '../../state/session.ts';
import type { BuilderWorkspaceHolder } from './builderWorkspace.ts';

/**
 * Where the builder's workspace holder is kept. The holder (and the builder's code) comes with
 * the signed-in app's first use of it (useBuilderWorkspace), so the public pages load none of it.
 */
export interface BuilderSlot {
  holder: BuilderWorkspaceHolder | null;
}

export const BuilderSlotContext = createContext<BuilderSlot | null>(null);

/**
 * Owns the signed-in user's builder workspace and its outputs. Sits around every route, so
 * leaving the builder and coming back (or signing out and in again) keeps the work in memory;
 * signing out drops the generated outputs.
 */
export function BuilderProvider({ children }: { children: ReactNode }) {
  const [slot] = useState<BuilderSlot>(() => ({ holder: null }));
  useEffect(
    () =>
      session.subscribe(() => {
        if (session.get() === null) slot.holder?.signedOut();
      }),
    [slot],
  );
  return <BuilderSlotContext.Provider value={slot}>{children}</BuilderSlotContext.Provider>;
}
