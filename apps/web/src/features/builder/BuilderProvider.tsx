import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { session } from '../../state/session.ts';
import { useSession } from '../../state/useSession.ts';
import { BuilderWorkspaceHolder, type BuilderWorkspace } from './builderWorkspace.ts';

const BuilderContext = createContext<BuilderWorkspaceHolder | null>(null);

/**
 * Owns the signed-in user's builder workspace and its outputs. Sits around every route, so
 * leaving the builder and coming back (or signing out and in again) keeps the work in memory;
 * signing out drops the generated outputs.
 */
export function BuilderProvider({ children }: { children: ReactNode }) {
  const [holder] = useState(() => new BuilderWorkspaceHolder());
  useEffect(
    () =>
      session.subscribe(() => {
        if (session.get() === null) holder.signedOut();
      }),
    [holder],
  );
  return <BuilderContext.Provider value={holder}>{children}</BuilderContext.Provider>;
}

/** The signed-in user's workspace: only for components shown while someone is signed in. */
export function useBuilderWorkspace(): BuilderWorkspace {
  const holder = useContext(BuilderContext);
  const current = useSession();
  if (!holder) throw new Error('useBuilderWorkspace is used outside a BuilderProvider');
  if (!current) throw new Error('useBuilderWorkspace is used while signed out');
  return holder.forUser(current.user._id);
}
