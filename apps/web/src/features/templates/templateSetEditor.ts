import type { TemplateKind, TemplateOfKind } from '@adloom/contract';
import {
  makeUniqueName,
  newAdFallback,
  newCampaignTemplate,
  newExtensionTemplate,
  newPerformanceMaxTemplate,
  newRsaTemplate,
} from '@adloom/engine';
import { ApiError } from '../../api/errors.ts';
import { createStore, type Store } from '../../state/store.ts';

/** Texts of template saves (spec section 8). */
export const TEMPLATE_MESSAGES = {
  saved: 'Templates successfully updated',
  saveFailed: (error: string) => `Unable to save templates: ${error}`,
  conflictLoadFailed: (error: string) =>
    `This was saved elsewhere, and the newer version could not be loaded: ${error}`,
} as const;

/** Where one kind's set is saved and loaded. */
export interface TemplateSetTarget<K extends TemplateKind> {
  /** Client name. */
  name: string;
  save(
    templates: TemplateOfKind[K][],
    revision: number | undefined,
  ): Promise<{ templates: TemplateOfKind[K][]; revision: number }>;
  load(): Promise<{ templates: TemplateOfKind[K][]; revision: number }>;
}

/** The observable state of one kind's set. */
export interface TemplateSetState<K extends TemplateKind> {
  isOpen: boolean;
  templates: TemplateOfKind[K][];
  active: string | null;
  revision: number | null;
  isDirty: boolean;
  isSaving: boolean;
  savedAt: number | null;
  conflict: { revision: number; templates: TemplateOfKind[K][] } | null;
}

/** What the editor needs from the app. */
export interface TemplateSetDeps {
  notify(kind: 'success' | 'error', message: string): void;
  onUnauthorized(error: ApiError): void;
  /** Called after every edit (drafts). */
  onChange(): void;
  /** Called after a save reached the server (drafts are brought up to date at once). */
  onSaved?(): void;
  now?: () => number;
}

/** How a save ended. */
export type TemplateSaveOutcome = 'saved' | 'conflict' | 'failed' | 'refused';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A new template of a kind with the spec's defaults. */
export function newTemplateOfKind<K extends TemplateKind>(
  kind: K,
  name: string,
): TemplateOfKind[K] {
  switch (kind) {
    case 'campaignTemplates':
      return newCampaignTemplate(name) as TemplateOfKind[K];
    case 'rsaTemplates':
      return newRsaTemplate(name) as TemplateOfKind[K];
    case 'performanceMaxTemplates':
      return newPerformanceMaxTemplate(name) as TemplateOfKind[K];
    case 'extensionTemplates':
      return newExtensionTemplate(name, 'Callout') as TemplateOfKind[K];
    default:
      return { name, templates: [[newAdFallback()]] } as TemplateOfKind[K];
  }
}

/**
 * One template kind of the active client: the set as edited, the active template, saving with
 * the loaded revision (409 becomes `conflict`), the unsaved flag. No React.
 */
export class TemplateSetEditor<K extends TemplateKind> {
  readonly state: Store<TemplateSetState<K>>;
  private target: TemplateSetTarget<K> | null = null;
  private editSeq = 0;

  constructor(
    readonly kind: K,
    private readonly deps: TemplateSetDeps,
  ) {
    this.state = createStore<TemplateSetState<K>>(this.initial());
  }

  private initial(): TemplateSetState<K> {
    return {
      isOpen: false,
      templates: [],
      active: null,
      revision: null,
      isDirty: false,
      isSaving: false,
      savedAt: null,
      conflict: null,
    };
  }

  private patch(update: Partial<TemplateSetState<K>>): void {
    this.state.set((s) => ({ ...s, ...update }));
  }

  /** Starts editing a client's set as loaded; the first template becomes active. */
  open(
    target: TemplateSetTarget<K>,
    snapshot: { templates: TemplateOfKind[K][]; revision: number | null },
    active: string | null = null,
  ): void {
    this.target = target;
    const names = snapshot.templates.map((t) => t.name);
    this.state.set({
      ...this.initial(),
      isOpen: true,
      templates: snapshot.templates,
      revision: snapshot.revision,
      active: active !== null && names.includes(active) ? active : (names[0] ?? null),
    });
  }

  close(): void {
    this.target = null;
    this.state.set(this.initial());
  }

  /** The active template. */
  getActive(): TemplateOfKind[K] | null {
    const { templates, active } = this.state.get();
    return templates.find((t) => t.name === active) ?? null;
  }

  setActive(name: string | null): void {
    this.patch({ active: name });
  }

  private changed(templates: TemplateOfKind[K][], active?: string | null): void {
    this.editSeq += 1;
    this.patch({ templates, isDirty: true, ...(active === undefined ? {} : { active }) });
    this.deps.onChange();
  }

  /** Replaces the active template (its name stays). */
  update(next: TemplateOfKind[K]): void {
    const { templates, active } = this.state.get();
    const index = templates.findIndex((t) => t.name === active);
    if (index < 0) return;
    const copy = templates.slice();
    copy[index] = { ...next, name: (templates[index] as TemplateOfKind[K]).name };
    this.changed(copy);
  }

  /** Adds a template (name made unique with ' (n)') and makes it active; returns its name. */
  add(template: TemplateOfKind[K]): string {
    const { templates } = this.state.get();
    const name = makeUniqueName(
      template.name.trim(),
      templates.map((t) => t.name),
    );
    const { _id: _dropped, ...rest } = template as TemplateOfKind[K] & { _id?: string };
    this.changed([...templates, { ...rest, name } as TemplateOfKind[K]], name);
    return name;
  }

  /** Copies the active template (deep, without the server id); returns the copy's name. */
  copyActive(): string | null {
    const active = this.getActive();
    if (!active) return null;
    return this.add(structuredClone(active));
  }

  /** Removes a template; the next one (or none) becomes active. */
  remove(name: string): void {
    const { templates, active } = this.state.get();
    const index = templates.findIndex((t) => t.name === name);
    if (index < 0) return;
    const rest = templates.filter((t) => t.name !== name);
    const nextActive =
      active === name ? (rest[Math.min(index, rest.length - 1)]?.name ?? null) : active;
    this.changed(rest, nextActive);
  }

  /** Saves the whole set against the loaded revision. */
  async save(
    options: { revision?: number; isAutosave?: boolean } = {},
  ): Promise<TemplateSaveOutcome> {
    const target = this.target;
    const state = this.state.get();
    if (!target || state.isSaving) return 'refused';
    const seq = this.editSeq;
    this.patch({ isSaving: true });
    try {
      const answer = await target.save(
        state.templates,
        options.revision ?? state.revision ?? undefined,
      );
      if (this.target !== target) return 'saved';
      const ids = new Map(
        answer.templates.map((t) => [t.name, (t as { _id?: string })._id] as const),
      );
      const isUnchanged = this.editSeq === seq;
      this.patch({
        templates: this.state.get().templates.map((t) => {
          const id = ids.get(t.name);
          return id ? { ...t, _id: id } : t;
        }),
        revision: answer.revision,
        savedAt: (this.deps.now ?? Date.now)(),
        isDirty: !isUnchanged,
        isSaving: false,
        conflict: null,
      });
      if (!options.isAutosave) this.deps.notify('success', TEMPLATE_MESSAGES.saved);
      (this.deps.onSaved ?? this.deps.onChange)();
      return 'saved';
    } catch (error) {
      this.patch({ isSaving: false });
      if (this.target !== target) return 'failed';
      if (error instanceof ApiError && error.status === 409) {
        try {
          const current = await target.load();
          this.patch({ conflict: { revision: current.revision, templates: current.templates } });
          return 'conflict';
        } catch (loadError) {
          this.deps.notify('error', TEMPLATE_MESSAGES.conflictLoadFailed(describe(loadError)));
          return 'failed';
        }
      }
      if (error instanceof ApiError && error.status === 401) this.deps.onUnauthorized(error);
      else this.deps.notify('error', TEMPLATE_MESSAGES.saveFailed(describe(error)));
      return 'failed';
    }
  }

  /** Resolves a conflict: load the newer set, or save mine over it. */
  async resolveConflict(choice: 'theirs' | 'mine'): Promise<TemplateSaveOutcome | 'loaded'> {
    const conflict = this.state.get().conflict;
    if (!conflict || !this.target) return 'refused';
    if (choice === 'mine') {
      this.patch({ conflict: null });
      return this.save({ revision: conflict.revision });
    }
    const { active } = this.state.get();
    const names = conflict.templates.map((t) => t.name);
    this.editSeq += 1;
    this.patch({
      templates: conflict.templates,
      revision: conflict.revision,
      isDirty: false,
      conflict: null,
      active: active !== null && names.includes(active) ? active : (names[0] ?? null),
    });
    (this.deps.onSaved ?? this.deps.onChange)();
    return 'loaded';
  }

  dismissConflict(): void {
    this.patch({ conflict: null });
  }

  /** Puts back unsaved templates from a draft (unsaved, on the draft's base revision). */
  restore(draft: {
    templates: TemplateOfKind[K][];
    baseRevision: number | null;
    active: string | null;
  }): void {
    this.editSeq += 1;
    const names = draft.templates.map((t) => t.name);
    this.patch({
      templates: draft.templates,
      revision: draft.baseRevision,
      isDirty: true,
      active:
        draft.active !== null && names.includes(draft.active) ? draft.active : (names[0] ?? null),
    });
  }
}
