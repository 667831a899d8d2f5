import { createContext, useContext, type ReactNode } from 'react';
import { getBuilderWorkspace, type BuilderWorkspace } from './builderWorkspace.ts';

const BuilderContext = createContext<BuilderWorkspace | null>(null);

/** Gives the builder's components the signed-in user's workspace. */
export function BuilderProvider({ userId, children }: { userId: string; children: ReactNode }) {
  return (
    <BuilderContext.Provider value={getBuilderWorkspace(userId)}>
      {children}
    </BuilderContext.Provider>
  );
}

/** The workspace of the builder around this component. */
export function useBuilderWorkspace(): BuilderWorkspace {
  const workspace = useContext(BuilderContext);
  if (!workspace) throw new Error('useBuilderWorkspace is used outside a BuilderProvider');
  return workspace;
}
