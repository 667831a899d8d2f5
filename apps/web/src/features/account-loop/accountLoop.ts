import {
  BUILD_TEMPLATE_NAMES_MAX,
  type BuildMeta,
  type BuildSummary,
  type LoopSettings,
  type PatchLoopSettingsBody,
} from '@adloom/contract';
import {
  listBuilds,
  loadBuildRecord,
  loadLoopSettings,
  saveLoopSettings,
  storeBuild,
} from '../../api/builds.ts';
import { handleApiError } from '../../api/client.ts';
import { ApiError, statusOf } from '../../api/errors.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';
import { combineStores, createStore, type Store } from '../../state/store.ts';
import { runEngineJob } from '../generation/index.ts';
import type { PackedTable } from '../generation/jobs.ts';
import { everythingExport } from '../exports/everything.ts';
import type { ExportableKind } from '../exports/exportables.ts';
import type { ExportFilesInput } from '../exports/exportJobs.ts';
import { datedNaming, fileNamer } from '../exports/fileNames.ts';
import { saveBlob } from '../exports/files.ts';
import type { KeptOutputsHost } from '../exports/keptOutputs.ts';
import type {
  LoopBaselineInput,
  LoopPlanOutput,
  PlanLinesFilter,
  RecordOutput,
} from './loopJobs.ts';

/** Texts of the account loop's messages. */
export const LOOP_MESSAGES = {
  rememberFailed: (error: string) =>
    `The download is saved, but the build could not be remembered: ${error}`,
  planFailed: (error: string) => `Could not work out the changes: ${error}`,
  settingsFailed: (error: string) => `Could not save the loop settings: ${error}`,
  changesSaved: (count: number) =>
    `${count === 1 ? '1 change' : `${count} changes`} downloaded; this build is now the last export`,
  microsoftChangesSaved: (count: number) =>
    `${count === 1 ? '1 change' : `${count} changes`} for Microsoft Advertising downloaded: upload it, then download the account again for the next plan`,
} as const;

/** Waits this long after the kept outputs change before planning again. */
const REPLAN_DELAY_MS = 250;

/** The plan panel's state for the active client. */
export interface AccountLoopState {
  clientId: string | null;
  settings: LoopSettings | null;
  /** The newest stored build: undefined until asked, null when there is none. */
  latest: BuildSummary | null | undefined;
  /** An Editor export of the account loaded as the baseline instead of the last build. */
  account: { files: File[]; names: string[]; key: string } | null;
  phase: 'idle' | 'planning' | 'ready' | 'failed';
  plan: LoopPlanOutput | null;
  filter: PlanLinesFilter;
  /** The plan's lines under `filter`. */
  lines: PackedTable | null;
  /** Why the last plan failed. */
  failure: string | null;
  isDownloading: boolean;
}

const NO_FILTER: PlanLinesFilter = { action: null, kind: null };

function initialState(clientId: string | null): AccountLoopState {
  return {
    clientId,
    settings: null,
    latest: undefined,
    account: null,
    phase: 'idle',
    plan: null,
    filter: NO_FILTER,
    lines: null,
    failure: null,
    isDownloading: false,
  };
}

/** New, changed, paused, resumed and removed items of a plan. */
export function changeCount(plan: Pick<LoopPlanOutput, 'totals'> | null): number {
  if (!plan) return 0;
  const t = plan.totals;
  return t.add + t.update + t.pause + t.enable + t.remove;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Server failures and a refused session go to the generic handler; the rest show `message`. */
function report(error: unknown, message: (error: string) => string): void {
  if (error instanceof ApiError && (error.status > 499 || error.status === 401)) {
    handleApiError(error);
    return;
  }
  notifyError(message(describe(error)), undefined, statusOf(error));
}

/** The distinct template names of a download's report parts (at most the server's limit). */
function templateNamesOf(input: ExportFilesInput): string[] {
  const names = new Set<string>();
  for (const part of input.report?.parts ?? []) if (part.templateName) names.add(part.templateName);
  return [...names];
}

/**
 * The account loop of one builder workspace (issue 35): for the active client, its loop settings,
 * its last stored build and the change plan of the kept outputs against it (or against an Editor
 * export of the account), worked out in the engine worker whenever the outputs change; "Download
 * changes"; and the build record of every download, stored on the server.
 */
export class AccountLoop {
  readonly state: Store<AccountLoopState>;
  private token = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Gzip'd records fetched or stored, by build id; a stored one with the id of the baseline the
   * worker read from it as it was made (`RecordOutput.madeId`).
   */
  private readonly records = new Map<string, { blob: Blob; madeId?: string }>();

  constructor(
    private readonly workspace: KeptOutputsHost,
    private readonly kinds: readonly ExportableKind[],
  ) {
    this.state = createStore(initialState(this.clientId()));
  }

  private clientId(): string | null {
    return this.workspace.state.get().clientId ?? null;
  }

  private patch(update: Partial<AccountLoopState>): void {
    this.state.set((s) => ({ ...s, ...update }));
  }

  /** Follows the active client and its kept outputs (planning again after each change). */
  attach(): () => void {
    const outputs = combineStores(this.kinds.map((k) => k.store(this.workspace.outputs)));
    const offOutputs = outputs.subscribe(() => this.schedule());
    const offClient = this.workspace.state.subscribe(() => {
      if (this.clientId() === this.state.get().clientId) return;
      this.token += 1;
      this.state.set(initialState(this.clientId()));
      this.schedule();
    });
    this.schedule();
    return () => {
      offOutputs();
      offClient();
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
    };
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.replan();
    }, REPLAN_DELAY_MS);
  }

  /** The client's label for a download's files (undefined when its settings cannot be read). */
  async label(): Promise<string | undefined> {
    const clientId = this.clientId();
    if (!clientId) return undefined;
    try {
      return (await this.ensureSettings(clientId)).label;
    } catch {
      return undefined;
    }
  }

  private download(today = new Date()): ExportFilesInput {
    const { client } = this.workspace.state.get();
    const label = this.state.get().settings?.label;
    return everythingExport(this.kinds, this.workspace.outputs, client, today, label);
  }

  private async ensureSettings(clientId: string): Promise<LoopSettings> {
    const { settings } = this.state.get();
    if (settings) return settings;
    const loaded = await loadLoopSettings(clientId);
    if (this.clientId() === clientId) this.patch({ settings: loaded });
    return loaded;
  }

  private async ensureLatest(clientId: string): Promise<BuildSummary | null> {
    const { latest } = this.state.get();
    if (latest !== undefined) return latest;
    const { builds } = await listBuilds(clientId);
    const newest = builds[0] ?? null;
    if (this.clientId() === clientId) this.patch({ latest: newest });
    return newest;
  }

  private async baselineOf(
    clientId: string,
    latest: BuildSummary | null,
  ): Promise<LoopBaselineInput> {
    const { account } = this.state.get();
    if (account)
      return { kind: 'account', key: account.key, files: account.files, names: account.names };
    if (!latest) return { kind: 'none' };
    let record = this.records.get(latest.id);
    if (!record) {
      record = { blob: await loadBuildRecord(clientId, latest.id) };
      this.records.set(latest.id, record);
    }
    return {
      kind: 'record',
      key: latest.id,
      record: record.blob,
      ...(record.madeId ? { madeId: record.madeId } : {}),
    };
  }

  /** Works the plan out again: the kept outputs against the baseline. */
  async replan(): Promise<void> {
    const token = (this.token += 1);
    const clientId = this.clientId();
    const { tables } = this.download();
    if (!clientId || tables.length === 0) {
      this.patch({ phase: 'idle', plan: null, lines: null, failure: null });
      return;
    }
    this.patch({ phase: 'planning', failure: null });
    try {
      const settings = await this.ensureSettings(clientId);
      const latest = await this.ensureLatest(clientId);
      const baseline = await this.baselineOf(clientId, latest);
      if (token !== this.token) return;
      const plan = await runEngineJob('loopPlan', {
        tables,
        baseline,
        dropped: settings.dropped,
        label: settings.label,
      });
      if (token !== this.token) return;
      const { filter } = this.state.get();
      let lines = plan.lines;
      if (filter.action !== null || filter.kind !== null)
        lines = (await runEngineJob('loopPlanLines', { planId: plan.planId, filter })).lines;
      if (token !== this.token) return;
      this.patch({ phase: 'ready', plan, lines });
    } catch (error) {
      if (token !== this.token) return;
      if (error instanceof ApiError && (error.status > 499 || error.status === 401))
        handleApiError(error);
      this.patch({
        phase: 'failed',
        plan: null,
        lines: null,
        failure: LOOP_MESSAGES.planFailed(describe(error)),
      });
    }
  }

  /** Lists only the lines of one action and kind (null: all). */
  async setFilter(filter: PlanLinesFilter): Promise<void> {
    this.patch({ filter });
    const { plan } = this.state.get();
    if (!plan) return;
    const token = this.token;
    try {
      const { lines } = await runEngineJob('loopPlanLines', { planId: plan.planId, filter });
      if (token === this.token) this.patch({ lines });
    } catch {
      // The plan was replaced meanwhile: the new one lists its lines under this filter.
    }
  }

  /** Compares with an Editor export of the account instead of the last build. */
  useAccountExport(files: File[]): void {
    if (files.length === 0) return;
    const key = files.map((f) => `${f.name}\u001f${f.size}\u001f${f.lastModified}`).join('\u001e');
    this.patch({ account: { files, names: files.map((f) => f.name), key } });
    void this.replan();
  }

  /** Compares with the last build again. */
  useLastExport(): void {
    this.patch({ account: null });
    void this.replan();
  }

  /** Saves a loop setting (what happens to dropped items, the label) and plans again. */
  async changeSettings(changes: PatchLoopSettingsBody): Promise<void> {
    const clientId = this.clientId();
    if (!clientId) return;
    try {
      const settings = await saveLoopSettings(clientId, changes);
      if (this.clientId() !== clientId) return;
      this.patch({ settings });
      void this.replan();
    } catch (error) {
      report(error, LOOP_MESSAGES.settingsFailed);
    }
  }

  private async store(
    clientId: string,
    { record, counts, madeId }: RecordOutput,
    input: ExportFilesInput,
  ): Promise<void> {
    const settings = await this.ensureSettings(clientId);
    const names = templateNamesOf(input);
    const meta: BuildMeta = {
      feedName: this.workspace.editor.state.get().activeFeed ?? 'feed',
      templateNames: names.slice(0, BUILD_TEMPLATE_NAMES_MAX),
      templateCount: names.length,
      label: settings.label,
      counts,
    };
    const summary = await storeBuild(clientId, meta, record);
    this.records.set(summary.id, { blob: record, ...(madeId ? { madeId } : {}) });
    if (this.clientId() === clientId) this.patch({ latest: summary });
  }

  /** Remembers what "Download everything" saved: its build record, stored for the client. */
  async remember(input: ExportFilesInput, today: Date): Promise<void> {
    const clientId = this.clientId();
    if (!clientId || input.tables.length === 0) return;
    try {
      const settings = await this.ensureSettings(clientId);
      const made = await runEngineJob('loopRecord', {
        tables: input.tables,
        info: {
          created: today.toISOString(),
          client: this.workspace.state.get().client ?? '',
          feed: this.workspace.editor.state.get().activeFeed ?? '',
          templates: templateNamesOf(input),
          label: settings.label,
        },
      });
      await this.store(clientId, made, input);
      // The account export, if one was loaded, is older than this build now.
      this.patch({ account: null });
      await this.replan();
    } catch (error) {
      report(error, LOOP_MESSAGES.rememberFailed);
    }
  }

  /**
   * "Download changes": a zip of Editor files with only the plan's changes (statuses set) and
   * adloom-plan.csv, under the full download's names; then the build after them is stored, so a
   * plan right after has nothing to change.
   */
  async downloadChanges(): Promise<void> {
    const { plan, clientId } = this.state.get();
    if (!plan || !clientId) return;
    const today = new Date();
    const input = this.download(today);
    const { client } = this.workspace.state.get();
    this.patch({ isDownloading: true });
    try {
      const out = await runEngineJob('loopChanges', {
        planId: plan.planId,
        naming: datedNaming(client, today),
      });
      if (out.microsoft) {
        // A Microsoft plan's next baseline is the account's next download: nothing is stored.
        saveBlob(
          out.blob,
          fileNamer(datedNaming(client, today))('microsoft advertising changes', 'zip'),
        );
        notifySuccess(LOOP_MESSAGES.microsoftChangesSaved(changeCount(plan)));
        this.patch({ account: null });
        await this.replan();
        return;
      }
      saveBlob(out.blob, fileNamer(datedNaming(client, today))('changes', 'zip'));
      // The plan shown is now done: the panel says the next one is on its way.
      this.patch({ phase: 'planning' });
      try {
        // The file first; then the build after it, stored as the last export.
        const next = await runEngineJob('loopChangesRecord', {
          planId: plan.planId,
          info: {
            created: today.toISOString(),
            client: client ?? '',
            feed: this.workspace.editor.state.get().activeFeed ?? '',
            templates: templateNamesOf(input),
          },
        });
        await this.store(clientId, next, input);
        notifySuccess(LOOP_MESSAGES.changesSaved(changeCount(plan)));
      } catch (error) {
        report(error, LOOP_MESSAGES.rememberFailed);
      }
      this.patch({ account: null });
      await this.replan();
    } catch (error) {
      notifyError(`Could not make the file: ${describeLocalFailure(error)}`);
    } finally {
      this.patch({ isDownloading: false });
    }
  }
}
