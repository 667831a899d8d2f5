import type { CampaignTemplate, ExtensionTemplate, ExtensionTypeName } from '@adloom/engine';
import { createStore, type Store } from '../../state/store.ts';
import type { BuilderWorkspace } from '../builder/builderWorkspace.ts';
import { originNow, type OutputOrigin } from '../exports/outputOrigin.ts';
import type { OutputRegistry } from '../exports/outputRegistry.ts';
import { isJobCancelled, runEngineJob, type RowsSource } from '../generation/index.ts';
import { notifyError } from '../../state/notifications.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';
import type { GeneratedExtensionsOutput } from './extensionJobs.ts';

/** Generated extensions and what they were made from. */
export interface ExtensionOutput extends GeneratedExtensionsOutput {
  templateName: string;
  type: ExtensionTypeName;
  /** The campaign template whose campaigns and ad groups the assets attach to. */
  campaignTemplateName: string | null;
  origin: OutputOrigin;
  /** That campaign template when generated: its edits since make the places stale too. */
  placesOrigin: OutputOrigin | null;
}

/** Per extension type, the extensions generated last. */
export type ExtensionOutputs = Readonly<Partial<Record<ExtensionTypeName, ExtensionOutput>>>;

/**
 * The active client's extension outputs: each type's kept until that type is generated again,
 * the person clears it or the client changes; choosing another type or template keeps them.
 */
export function extensionOutputsOf(outputs: OutputRegistry): Store<ExtensionOutputs> {
  return outputs.clientStore<ExtensionOutputs>('extensionOutputs', {});
}

/** The Extensions tab's state that outlives the tab (switching tabs unmounts it). */
export interface ExtensionsTabState {
  /** The type shown while no template is chosen; New Template makes one of it. */
  type: ExtensionTypeName;
  /** Progress of a running generation (0..1), null when none runs. */
  progress: number | null;
}

/** Spec section 3: the default extension type. */
export const DEFAULT_EXTENSION_TYPE: ExtensionTypeName = 'Callout';

interface Session {
  store: Store<ExtensionsTabState>;
  controller: AbortController | null;
}

/** Kept for the workspace's session (the outputs are the client's: `extensionOutputsOf`). */
function sessionOf(workspace: BuilderWorkspace): Session {
  return workspace.outputs.session<Session>('extensions', () => ({
    store: createStore<ExtensionsTabState>({
      type: DEFAULT_EXTENSION_TYPE,
      progress: null,
    }),
    controller: null,
  }));
}

/** The Extensions tab state of a workspace. */
export function extensionsTabStore(workspace: BuilderWorkspace): Store<ExtensionsTabState> {
  return sessionOf(workspace).store;
}

/** Cancels a running generation (the worker lane is stopped). */
export function cancelExtensionGeneration(workspace: BuilderWorkspace): void {
  sessionOf(workspace).controller?.abort();
}

/** Clears the output of one extension type (its Clear button). */
export function clearExtensionOutput(workspace: BuilderWorkspace, type: ExtensionTypeName): void {
  extensionOutputsOf(workspace.outputs).set((all) => {
    if (!all[type]) return all;
    const kept = { ...all };
    delete kept[type];
    return kept;
  });
}

/**
 * Generates the template's extensions from the selected rows in the engine worker, attached to
 * the places `campaign` makes (the active campaign template; null: account-level assets only);
 * the result replaces the output. A generation already running is cancelled first.
 */
export async function generateExtensionOutput(
  workspace: BuilderWorkspace,
  template: ExtensionTemplate,
  campaign: CampaignTemplate | null,
  rows: RowsSource | null,
): Promise<void> {
  const session = sessionOf(workspace);
  session.controller?.abort();
  const controller = new AbortController();
  session.controller = controller;
  const { store } = session;
  store.set((s) => ({ ...s, progress: 0 }));
  const isOwner = workspace.outputs.ownership();
  const origin = originNow(workspace, {
    templateKind: 'extensionTemplates',
    templateLabel: `${template.extensionType.name} template`,
    template,
    rowCount: rows ? rows.store.selectedCount : 0,
  });
  const placesOrigin = campaign
    ? originNow(workspace, {
        templateKind: 'campaignTemplates',
        templateLabel: 'campaign template',
        template: campaign,
        rowCount: rows ? rows.store.selectedCount : 0,
      })
    : null;
  try {
    const result = await runEngineJob(
      'generateExtensions',
      { template, campaign },
      {
        ...(rows ? { rows } : {}),
        signal: controller.signal,
        onProgress: (p) =>
          store.set((s) => ({
            ...s,
            progress: p.phase === 'rows' ? p.fraction * 0.5 : 0.5 + p.fraction * 0.5,
          })),
      },
    );
    // The outputs were reset meanwhile (another client, a sign-out): the result is not theirs.
    if (!isOwner()) return;
    const type = template.extensionType.name;
    extensionOutputsOf(workspace.outputs).set((all) => ({
      ...all,
      [type]: {
        ...result,
        templateName: template.name,
        type,
        campaignTemplateName: campaign?.name ?? null,
        origin,
        placesOrigin,
      },
    }));
  } catch (error) {
    if (!isJobCancelled(error)) {
      notifyError(`Extensions not generated: ${describeLocalFailure(error)}`);
    }
  } finally {
    if (session.controller === controller) {
      session.controller = null;
      store.set((s) => ({ ...s, progress: null }));
    }
  }
}
