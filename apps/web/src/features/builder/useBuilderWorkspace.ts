import { useContext } from 'react';
import { useSession } from '../../state/useSession.ts';
import { BuilderSlotContext } from './BuilderProvider.tsx';
import { BuilderWorkspaceHolder, type BuilderWorkspace } from './builderWorkspace.ts';

/** The signed-in user's workspace: only for components shown while someone is signed in. */
export function useBuilderWorkspace(): BuilderWorkspace {
  const slot = useContext(BuilderSlotContext);
  const current = useSession();
  if (!slot) throw new Error('useBuilderWorkspace is used outside a BuilderProvider');
  if (!current) throw new Error('useBuilderWorkspace is used while signed out');
  slot.holder ??= new BuilderWorkspaceHolder();
  return slot.holder.forUser(current.user._id);
}
