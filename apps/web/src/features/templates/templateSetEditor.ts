import type { TemplateKind, TemplateOfKind } from '@adloom/contract';
import {
  makeUniqueName,
  newAdFallback,
  newCampaignTemplate,
  newExtensionTemplate,
  newPerformanceMaxTemplate,
  newRsaTemplate,
} from '@adloom/engine';
import {
  RevisionedSaver,
  type RevisionedSetDeps,
  type SaveOutcome,
} from '../../state/revisionedSet/index.ts';
import { createStore, type Store } from '../../state/store.ts';

/** Texts of template saves (spec section 8). */
export const TEMPLATE_MESSAGES = {
  saved: 'Templates successfully updated',
  saveFailed: (error: string) => `Unable to save templates: ${error}`,
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

/** A save met a newer revision: the newer set, to load or overwrite. */
export interface TemplateSetConflict<K extends TemplateKind> {
  revision: number;
  templates: TemplateOfKind[K][];
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
  conflict: TemplateSetConflict<K> | null;
}

/** What the editor needs from the app. */
export interface TemplateSetDeps extends RevisionedSetDeps {
  /** Called after every edit (drafts). */
  onChange(): void;
  /** Called after a save reached the server or the newer version was loaded (drafts). */
  onSaved(): Promise<void>;
  /** Called after a save failed for another reason than a newer revision (drafts). */
  onSaveFailed(): void;
}

/** How a save ended. */
export type TemplateSaveOutcome = SaveOutcome;

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
  private readonly saver: RevisionedSaver<
    TemplateSetTarget<K>,
    TemplateOfKind[K][],
    { templates: TemplateOfKind[K][]; revision: number },
    TemplateSetConflict<K>,
    TemplateSetState<K>
  >;

  constructor(
    readonly kind: K,
    private readonly deps: TemplateSetDeps,
  ) {
    this.state = createStore<TemplateSetState<K>>(this.initial());
    this.saver = new RevisionedSaver(
      this.state,
      {
        target: () => this.target,
        collect: () => this.state.get().templates,
        send: (target, templates, revision) => target.save(templates, revision),
        loadTheirs: async (target) => {
          const current = await target.load();
          return { revision: current.revision, templates: current.templates };
        },
        savedState: (answer) => {
          const ids = new Map(
            answer.templates.map((t) => [t.name, (t as { _id?: string })._id] as const),
          );
          return {
            templates: this.state.get().templates.map((t) => {
              const id = ids.get(t.name);
              return id ? { ...t, _id: id } : t;
            }),
          };
        },
        applyTheirs: (conflict) => {
          const { active } = this.state.get();
          this.patch({
            templates: conflict.templates,
            active: pickActive(conflict.templates, active),
          });
        },
        afterSaved: () => deps.onSaved(),
        afterFailed: () => deps.onSaveFailed(),
        savedMessage: () => TEMPLATE_MESSAGES.saved,
        failedMessage: (_target, error) => TEMPLATE_MESSAGES.saveFailed(error),
      },
      deps,
    );
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
    this.state.set({
      ...this.initial(),
      isOpen: true,
      templates: snapshot.templates,
      revision: snapshot.revision,
      active: pickActive(snapshot.templates, active),
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
    this.saver.edited();
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
  save(options: { revision?: number; isAutosave?: boolean } = {}): Promise<TemplateSaveOutcome> {
    return this.saver.save(options);
  }

  /** Whether an autosave is due: unsaved edits, no save under way, no conflict open. */
  isAutosaveDue(): boolean {
    return this.state.get().isOpen && this.saver.isAutosaveDue();
  }

  /** Resolves a conflict: load the newer set, or save mine over it. */
  resolveConflict(choice: 'theirs' | 'mine'): Promise<TemplateSaveOutcome | 'loaded'> {
    return this.saver.resolveConflict(choice);
  }

  dismissConflict(): void {
    this.saver.dismissConflict();
  }

  /** Puts back unsaved templates from a draft (unsaved, on the draft's base revision). */
  restore(draft: {
    templates: TemplateOfKind[K][];
    baseRevision: number | null;
    active: string | null;
  }): void {
    this.saver.edited();
    this.patch({
      templates: draft.templates,
      revision: draft.baseRevision,
      isDirty: true,
      active: pickActive(draft.templates, draft.active),
    });
  }
}

/** `active` when the set has a template of that name, else the first one (or none). */
function pickActive<T extends { name: string }>(
  templates: readonly T[],
  active: string | null,
): string | null {
  return active !== null && templates.some((t) => t.name === active)
    ? active
    : (templates[0]?.name ?? null);
}
