import {
  TEMPLATE_KINDS,
  type ClientBundleAnswer,
  type ClientRevisions,
  type TemplateKind,
  type TemplateOfKind,
} from '@adloom/contract';
import type { ApiError } from '../../api/errors.ts';
import {
  Autosave,
  DRAFT_DELAY_MS,
  DraftKeeper,
  realTimers,
  type DraftStorage,
} from '../../state/revisionedSet/index.ts';
import { createStore, type Store } from '../../state/store.ts';
import { TemplateSetEditor } from './templateSetEditor.ts';
import type { TemplateDraft } from './templateDrafts.ts';
import { saveTemplates } from './templateApi.ts';

/** Templates of the active client (its bundle without the feeds). */
export type ClientTemplates = Omit<ClientBundleAnswer, 'id' | 'feeds' | 'revisions'>;

/** What the template sets need from the app. */
export interface TemplateSetsDeps {
  drafts: DraftStorage<TemplateDraft>;
  notify(kind: 'success' | 'error', message: string, status?: number): void;
  onUnauthorized(error: ApiError): void;
  /** Loads the client's bundle (for the 409 dialog's "load the newer version"). */
  loadBundle(client: string): Promise<ClientTemplates & { revisions: ClientRevisions }>;
  save?: typeof saveTemplates;
  now?: () => number;
}

/** Unsaved template edits from an earlier visit, waiting to be restored or discarded. */
export interface TemplateDraftOffer {
  savedAt: number;
  isBehind: boolean;
}

/** A set as comparable text: keys sorted, server ids left out (a save adds them). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (key === '_id') return undefined;
    if (v && typeof v === 'object' && !Array.isArray(v))
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
      );
    return v;
  });
}

type Editors = { [K in TemplateKind]: TemplateSetEditor<K> };

/**
 * The five template kinds of the active client: one TemplateSetEditor each, autosave every 5
 * minutes, unsaved edits written to IndexedDB (one draft per client, all kinds) and offered
 * back on the next visit.
 */
export class TemplateSets {
  private readonly editors: Editors;
  readonly draftOffer: Store<TemplateDraftOffer | null> = createStore<TemplateDraftOffer | null>(
    null,
  );
  /** Every unsaved template edit is also kept in this browser. */
  readonly isDraftKept: Store<boolean> = createStore(false);
  private key: string | null = null;
  private client: string | null = null;
  private readonly drafts: DraftKeeper<TemplateDraft>;
  private readonly autosave: Autosave;

  constructor(private readonly deps: TemplateSetsDeps) {
    this.drafts = new DraftKeeper<TemplateDraft>({
      storage: deps.drafts,
      delayMs: () => DRAFT_DELAY_MS,
      compose: () => this.composeDraft(),
      onKept: (isKept) => this.isDraftKept.set(isKept),
      onOffer: (draft) => {
        if (!draft) this.draftOffer.set(null);
      },
    });
    this.autosave = new Autosave(realTimers, () => {
      if (!this.drafts.hasOffer) void this.saveDirty();
    });
    const make = <K extends TemplateKind>(kind: K) =>
      new TemplateSetEditor(kind, {
        notify: deps.notify,
        onUnauthorized: deps.onUnauthorized,
        onChange: () => this.drafts.changed(),
        onSaved: () => this.afterSave(),
        onSaveFailed: () => this.drafts.saveFailed(),
        now: deps.now,
      });
    this.editors = {
      campaignTemplates: make('campaignTemplates'),
      adTemplates: make('adTemplates'),
      rsaTemplates: make('rsaTemplates'),
      performanceMaxTemplates: make('performanceMaxTemplates'),
      extensionTemplates: make('extensionTemplates'),
    };
  }

  /** The editor of one kind. */
  get<K extends TemplateKind>(kind: K): TemplateSetEditor<K> {
    return this.editors[kind] as unknown as TemplateSetEditor<K>;
  }

  /** Every editor. */
  all(): TemplateSetEditor<TemplateKind>[] {
    return TEMPLATE_KINDS.map(
      (kind) => this.editors[kind] as unknown as TemplateSetEditor<TemplateKind>,
    );
  }

  /** Whether any kind has unsaved edits. */
  get isDirty(): boolean {
    return this.all().some((e) => e.state.get().isDirty);
  }

  /** Opens a client's templates as loaded, then offers a draft of them if one was kept. */
  async open(
    key: string,
    client: string,
    templates: ClientTemplates,
    revisions: ClientRevisions,
  ): Promise<void> {
    this.key = key;
    this.client = client;
    const finding = this.drafts.open(key);
    for (const kind of TEMPLATE_KINDS)
      this.openKind(kind, client, templates[kind], revisions[kind]);
    const draft = await finding;
    if (!draft || this.key !== key || this.isDirty) return;
    const isSameAsLoaded = Object.entries(draft.kinds).every(
      ([kind, part]) =>
        !part || canonical(part.templates) === canonical(templates[kind as TemplateKind]),
    );
    if (!(await this.drafts.offerUnlessLoaded(draft, isSameAsLoaded))) return;
    const isBehind = Object.entries(draft.kinds).some(
      ([kind, part]) => part && part.baseRevision !== revisions[kind as TemplateKind],
    );
    this.draftOffer.set({ savedAt: draft.savedAt, isBehind });
  }

  private openKind<K extends TemplateKind>(
    kind: K,
    client: string,
    templates: TemplateOfKind[K][],
    revision: number,
  ): void {
    const save = this.deps.save ?? saveTemplates;
    this.get(kind).open(
      {
        name: client,
        save: async (next, rev) => {
          const answer = await save(kind, {
            name: client,
            templates: next,
            ...(rev === undefined ? {} : { revision: rev }),
          });
          return { templates: answer.templates, revision: answer.revision };
        },
        load: async () => {
          const bundle = await this.deps.loadBundle(client);
          return {
            templates: bundle[kind] as TemplateOfKind[K][],
            revision: bundle.revisions[kind],
          };
        },
      },
      { templates, revision },
    );
  }

  /** Stops editing (call flushDraft first to keep edits). */
  close(): void {
    this.drafts.close();
    this.key = null;
    this.client = null;
    for (const editor of this.all()) editor.close();
  }

  /** The client being edited. */
  get clientName(): string | null {
    return this.client;
  }

  restoreDraft(): void {
    const draft = this.drafts.takeOffer();
    if (!draft) return;
    for (const kind of TEMPLATE_KINDS) {
      const part = draft.kinds[kind];
      if (part)
        this.get(kind).restore(
          part as {
            templates: TemplateOfKind[typeof kind][];
            baseRevision: number | null;
            active: string | null;
          },
        );
    }
    this.drafts.restored();
  }

  discardDraft(): Promise<void> {
    return this.drafts.discard();
  }

  /** Forgets the draft of a client (it was deleted). */
  async removeDraft(key: string): Promise<void> {
    await this.deps.drafts.remove(key).catch(() => undefined);
  }

  /** Saves every kind with unsaved edits (quietly). */
  async saveDirty(): Promise<void> {
    for (const editor of this.all())
      if (editor.isAutosaveDue()) await editor.save({ isAutosave: true });
  }

  startAutosave(): void {
    this.autosave.start();
  }

  stopAutosave(): void {
    this.autosave.stop();
  }

  /** Writes unsaved edits now (leaving the page, switching client). */
  flushDraft(): Promise<void> {
    return this.drafts.flush();
  }

  /** A kind was saved (or its newer version loaded): the draft keeps only what is unsaved. */
  private afterSave(): Promise<void> {
    return this.isDirty ? this.drafts.rewrite() : this.drafts.clean();
  }

  /** The draft: every kind with unsaved edits, or null when none has any. */
  private composeDraft(): TemplateDraft | null {
    const key = this.key;
    if (!key) return null;
    const kinds: TemplateDraft['kinds'] = {};
    for (const kind of TEMPLATE_KINDS) {
      const s = this.get(kind).state.get();
      if (s.isDirty)
        kinds[kind] = { templates: s.templates, baseRevision: s.revision, active: s.active };
    }
    if (Object.keys(kinds).length === 0) return null;
    return { key, savedAt: (this.deps.now ?? Date.now)(), kinds };
  }

  dispose(): void {
    this.stopAutosave();
    this.drafts.cancel();
  }
}
