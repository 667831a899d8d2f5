// The account loop (issue 35): the change plan under the template tabs, "Download changes",
// the build record of every download, and the client's loop settings.
import type { ExportableKind } from '../exports/exportables.ts';
import type { KeptOutputsHost } from '../exports/keptOutputs.ts';
import { provideClientLabel } from '../exports/downloadTarget.ts';
import { AccountLoop } from './accountLoop.ts';

export { ChangePlanPanel } from './ChangePlanPanel.tsx';
export type { AccountLoop } from './accountLoop.ts';

/**
 * The workspace's account loop (one per workspace, kept for its session); it gives every download
 * of the workspace its client's label.
 */
export function accountLoopOf(
  workspace: KeptOutputsHost,
  kinds: readonly ExportableKind[],
): AccountLoop {
  return workspace.outputs.session('account-loop', () => {
    const loop = new AccountLoop(workspace, kinds);
    provideClientLabel(workspace, loop);
    return loop;
  });
}
